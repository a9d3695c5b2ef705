"""`layli play [VARIANT]`: a game in the terminal (host-only).

Two people at one keyboard, or a person against the greedy computer player, or two computer
players. The board is drawn as South sees it: North's row on top, printed right to left, so each
pit sits above its opposite; each row is labelled with its owner's own pit numbers (1 from the
owner's own left), and a move is typed as one of those numbers.

    layli play                                  # you are South, the computer is North
    layli play --north human                    # two people at one keyboard
    layli play --south computer --north computer --seed 1
    layli play layli-goobalay --match           # a match in hands (docs/rules.md 2.1)
    layli play mangala-iv --auto-forced         # the opening ritual, then forced moves
    layli play --steps                          # every sowing step by step, in words
    layli play --steps=board                    # ... and the board after each step

At the prompt: a pit number, or u (undo), h (hint), l (legal moves), b (board), q (quit), ? (help).
Input may come from a pipe: answers are echoed so that the transcript reads like a session, and
the end of the input leaves the game unfinished with exit status 0.
"""

from __future__ import annotations

import argparse
import getpass
import random
import re
import sys
import textwrap
import time
from dataclasses import dataclass

from controller.commands.common import add_game_arguments, game_arguments
from controller.opponents.players import GreedyPlayer, Player
from controller.rules import (Board, Game, Match, Rules, RulesError, SOUTH, NORTH, SIDES, Step,
                              place_words,
                              END_NO_MOVE, END_EMPTY_ROW, END_REPETITION, END_ENDLESS,
                              END_NO_FEED, END_STONES)
from controller.rules.variants import parse_number

HUMAN = "human"
COMPUTER = "computer"
GREEDY = "greedy"           # the computer takes the most seeds it can now (GreedyPlayer)
# the computer's levels: GREEDY, then the search's (controller.ai.search.LEVELS, not imported
# here: `layli play` loads the search only when a level asks for it)
PLAY_LEVELS = (GREEDY, "beginner", "easy", "medium", "hard", "strongest")

# Lines are wrapped to this many columns; the 2 x 12 board itself is narrower.
WIDTH = 100
PIT_NAME = re.compile(r"\b(South|North) (\d+)")
# A move longer than this many steps is described one lap per line, not one seed per line.
DETAIL_LIMIT = 200
# ... and a move with more laps than twice this shows only its first and last laps.
LAPS_SHOWN = 10

HELP = """\
Type the number of one of your pits to sow it: 1 to {n}, counted from your own left
(South's pit numbers are under South's row, North's above North's row).
  u  undo: take back your last move (and the computer's reply)
  h  hint: what the greedy computer player would play
  l  list your legal moves
  b  show the board again
  q  quit (the game is left unfinished)
  ?  this help
An Uur is drawn as its count in brackets and its owner's initial, e.g. (5)S."""


class Quit(Exception):
    """A player typed q."""


class InputEnded(Exception):
    """Standard input reached its end."""


@dataclass
class Seat:
    """Who plays one side: a person at the keyboard (player None) or a computer player."""

    name: str
    player: Player | None = None

    @property
    def human(self) -> bool:
        return self.player is None

    def label(self, side: int) -> str:
        return "%s (%s)" % (SIDES[side], self.name)

    def does(self, verb: str) -> str:
        """The name with `verb` agreeing: "You guess", "Computer guesses"."""
        if self.name == "You":
            return "You " + verb
        return "%s %s%s" % (self.name, verb, "es" if verb.endswith("s") else "s")


# --- the command line -----------------------------------------------------------------------

EPILOG = """\
At the prompt type a pit number (your own, 1 from your own left), or
  u undo, h hint, l legal moves, b board, q quit, ? help.
Mangala IV starts with the "Tek mi, Cift mi?" ritual, which decides who plays South
(--south/--north then only say who is a person and who the computer); --no-ritual keeps
the sides as given. Against the computer, the computer hides and you guess.
--steps takes an optional value: write it as --steps=board, or put VARIANT first.
Input may be piped; the end of the input leaves the game unfinished (exit status 0)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("variant", metavar="VARIANT", nargs="?", default="layli-goobalay",
                        help="the variant to play (default layli-goobalay; see "
                             "`layli rules variants`)")
    add_game_arguments(parser)
    parser.add_argument("--south", choices=(HUMAN, COMPUTER), default=HUMAN,
                        help="who plays South (default human)")
    parser.add_argument("--north", choices=(HUMAN, COMPUTER), default=COMPUTER,
                        help="who plays North (default computer)")
    parser.add_argument("--level", choices=PLAY_LEVELS, default=GREEDY,
                        help="how the computer plays: greedy (the most seeds now, the default), "
                             "or the search at beginner, easy, medium, hard or strongest")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the computer's choices (ties, the ritual), to repeat a game")
    parser.add_argument("--match", action="store_true",
                        help="play a match in hands (docs/rules.md 2.1), not a single game")
    parser.add_argument("--steps", nargs="?", const="words", choices=("words", "board"),
                        default=None,
                        help="describe every sowing step by step; --steps=board also draws the "
                             "board after each step")
    parser.add_argument("--auto-forced", action="store_true",
                        help="play a human's forced moves (one legal move) without asking")
    parser.add_argument("--no-ritual", action="store_true",
                        help="Mangala IV: skip the opening ritual and keep the sides as given")
    parser.add_argument("--record", metavar="FILE",
                        help="offer to save the game (or match) record to FILE at the end")


def run(args: argparse.Namespace) -> int:
    rules, setup = game_arguments(args, args.variant)
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    session = Session(rules, make_seats(args.south, args.north, seed, args.level), seed, args)
    try:
        if args.match:
            session.play_match(setup, args.first)
        else:
            session.play_game(setup, args.first)
    except Quit:
        session.say("%s left unfinished." % ("Match" if args.match else "Game"))
    except InputEnded:
        session.say("")
        session.say("Input ended: the %s is left unfinished." % (
            "match" if args.match else "game"))
    return 0


def make_seats(south: str, north: str, seed: int, level: str = "greedy") -> list[Seat]:
    """The two seats, named so that a transcript says who is who; a computer plays at `level`
    (GREEDY, or one of controller.ai.LEVELS)."""
    kinds = (south, north)
    seats = []
    for side, kind in enumerate(kinds):
        alike = kinds.count(kind) == 2
        if kind == HUMAN:
            seats.append(Seat("Player %d" % (side + 1) if alike else "You"))
        else:
            # each computer draws from its own generator, so one player's ties do not shift
            # the other's choices
            rng = random.Random("%d/%s" % (seed, SIDES[side]))
            player: Player
            if level == GREEDY:
                player = GreedyPlayer(rng)
            else:
                from controller.ai import Searcher     # (the search's modules only when asked)
                player = Searcher(level, seed=rng.randrange(1, 1 << 30))
            seats.append(Seat("Computer %d" % (side + 1) if alike else "Computer", player))
    return seats


# --- drawing ------------------------------------------------------------------------------

def draw_rows(pits: list[int], uur: list[int | None], n: int) -> list[str]:
    """The two rows of the board as South sees it: North's row on top, right to left (North's
    pit 1 at the top right, above South's pit n, its opposite), then South's left to right."""
    inner = max(2, len(str(max(pits + [0])))) + 3

    def cell(i: int) -> str:
        owner = uur[i]
        text = str(pits[i]) if owner is None else "(%d)%s" % (pits[i], SIDES[owner][0])
        return text.center(inner)

    north = [cell(i) for i in range(2 * n - 1, n - 1, -1)]
    south = [cell(i) for i in range(n)]
    rule = "         +" + "+".join(["-" * inner] * n) + "+"
    return [rule,
            "  North  |" + "|".join(north) + "|",
            "  South  |" + "|".join(south) + "|",
            rule]


def draw_board(game: Game, names: tuple[str, str] = ("", ""),
               aside: tuple[int, int] = (0, 0)) -> str:
    """The board with pit numbers, Uurs, captured counts and (in a match) seeds held aside."""
    n = game.rules.n
    inner = max(2, len(str(max(game.pits + [0])))) + 3

    def numbers(order: range) -> str:
        return ("   pit    " + " ".join([str(k).center(inner) for k in order])).rstrip()

    def owner_line(side: int) -> str:
        who = SIDES[side] + (" (%s)" % names[side] if names[side] else "")
        text = "          %s   captured %d" % (who, game.captured[side])
        if aside[side]:
            text += ", held aside %d" % aside[side]
        return text

    lines = [owner_line(NORTH), numbers(range(n, 0, -1))]
    lines.extend(draw_rows(game.pits, game.uur, n))
    lines.extend([numbers(range(1, n + 1)), owner_line(SOUTH)])
    if any(owner is not None for owner in game.uur):
        lines.append("          (k)S / (k)N: an Uur holding k seeds, owned by South / North")
    return "\n".join(lines)


# --- moves in words -----------------------------------------------------------------------

def step_words(rules: Rules, step: tuple, mover: int, relay: bool = False) -> str:
    """One step of a move's script (docs/rules.md section 7) in words."""
    kind = step[0]
    if kind == Step.PICK:
        return "%spick %d from %s" % ("relay: " if relay else "", step[2],
                                      place_words(step[1], rules.n))
    if kind == Step.DROP:
        return "drop in %s" % place_words(step[1], rules.n)
    if kind == Step.UUR:
        return "Uur: move one seed from %s to %s; both are %s's Uurs now" % (
            place_words(step[2], rules.n), place_words(step[1], rules.n), SIDES[mover])
    if kind == Step.CAPTURE:
        return "capture %d from %s" % (step[2], place_words(step[1], rules.n))
    if kind == Step.PASS:
        return "%s has no stones and passes" % SIDES[step[1]]
    if kind == Step.COLLECT:
        return "collect %d from %s into %s's store" % (step[2], place_words(step[1], rules.n),
                                                     SIDES[step[3]])
    return str(step)


def script_groups(rules: Rules, script: list[tuple], mover: int) -> list[tuple[str, list]]:
    """The script as (words, steps) groups: one step each, or for a long move one lap each
    (a pick and its drops), so that a 1,700-seed move stays readable."""
    if len(script) <= DETAIL_LIMIT:
        groups = []
        picks = 0
        for step in script:
            groups.append((step_words(rules, step, mover, relay=picks > 0), [step]))
            picks += step[0] == Step.PICK
        return groups
    groups = []
    picks = 0
    k = 0
    while k < len(script):
        step = script[k]
        if step[0] != Step.PICK:
            groups.append((step_words(rules, step, mover), [step]))
            k += 1
            continue
        end = k + 1
        while end < len(script) and script[end][0] == Step.DROP:
            end += 1
        drops = script[k + 1:end]
        words = step_words(rules, step, mover, relay=picks > 0)
        if drops:
            words += ", drop %d: %s .. %s" % (len(drops), place_words(drops[0][1], rules.n),
                                             place_words(drops[-1][1], rules.n))
            if len(drops) >= rules.size:
                words += " (all the way round)"
        groups.append((words, script[k:end]))
        picks += 1
        k = end
    return groups


def move_summary(rules: Rules, script: list[tuple], mover: int) -> str:
    """What a move did, in one line: seeds sown, laps, captures, an Uur made, the last pit."""
    if not script:
        return "the sowing never ends (endless), so nothing changes but the turn"
    picks = [step for step in script if step[0] == Step.PICK]
    drops = [step for step in script if step[0] == Step.DROP]
    captures = [step for step in script if step[0] == Step.CAPTURE]
    uurs = [step for step in script if step[0] == Step.UUR]
    unit = "stone" if rules.mangala else "seed"
    text = "sows %d %s%s" % (len(drops), unit, "" if len(drops) == 1 else "s")
    if len(picks) > 1:
        text += " in %d laps" % len(picks)
    if drops:
        text += ", the last in %s" % place_words(drops[-1][1], rules.n)
    if captures:
        taken = sum(step[2] for step in captures)
        text += "; captures %d (%s)" % (taken, ", ".join(
            ["%d from %s" % (step[2], place_words(step[1], rules.n)) for step in captures]))
    for step in uurs:
        text += "; %s and %s become %s's Uurs" % (place_words(step[1], rules.n),
                                                 place_words(step[2], rules.n), SIDES[mover])
    return text


def end_words(game: Game) -> str:
    """Why the game ended, in words."""
    who = SIDES[game.to_move]
    other = SIDES[1 - game.to_move]
    reason = game.end_reason
    return {
        END_NO_MOVE: "%s has no legal move" % who,
        END_EMPTY_ROW: "a row holds no seed outside the Uurs",
        END_REPETITION: "a position occurred for the second time",
        END_ENDLESS: "%s's only move never ends (an endless relay)" % who,
        END_NO_FEED: "%s has no move that gives %s's empty row a seed" % (who, other),
        END_STONES: "at most one stone is left on the board (a lone stone is not scored)",
    }.get(reason, str(reason))


def parse_counts(text: str) -> list[int]:
    """`3,3,4 ...` or `3 3 4 ...` as ints, or a RulesError naming the bad item."""
    return [parse_number(item, "count") for item in text.replace(",", " ").split()]


def even_arrangement(total: int, n: int) -> list[int]:
    """`total` seeds spread as evenly as they go over n pits, the extra ones on the right."""
    share, extra = divmod(total, n)
    return [share + (1 if k >= n - extra else 0) for k in range(n)]


# --- the session --------------------------------------------------------------------------

class Session:
    """One `layli play` run: the seats, the terminal, and a game or a match."""

    def __init__(self, rules: Rules, seats: list[Seat], seed: int,
                 args: argparse.Namespace) -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.steps = args.steps
        self.auto_forced = args.auto_forced
        self.ritual = rules.mangala and not args.no_ritual
        self.record_path = args.record
        # the ritual and the arrangements draw from their own generator, and hints from
        # another, so asking for a hint never changes what the computer plays later
        self.rng = random.Random("%d/session" % seed)
        self.hinter = GreedyPlayer(random.Random("%d/hint" % seed))
        self.tags: dict[str, str] = {"Date": time.strftime("%Y.%m.%d")}
        self.movers: list[int] = []     # who played each move of the game in play (for undo)
        self.aside = (0, 0)

    # --- the terminal ---

    def say(self, text: str = "") -> None:
        """Print `text`, wrapping long lines (a move with many captures) to fit WIDTH."""
        for line in text.split("\n"):
            if len(line) > WIDTH:
                # a pit's name ("North 7") is never split over two lines
                glued = PIT_NAME.sub("\\1\0\\2", line)
                line = textwrap.fill(glued, WIDTH, subsequent_indent="    ").replace("\0", " ")
            print(line)

    def ask(self, prompt: str, secret: bool = False) -> str:
        """One line from the player. A piped answer is echoed after its prompt, so the output
        reads like a session; a secret one is hidden from the screen when it is a terminal."""
        interactive = sys.stdin.isatty()
        try:
            if secret and interactive:
                line = getpass.getpass(prompt)
            else:
                line = input(prompt)
        except EOFError:
            raise InputEnded() from None
        if not interactive:
            print("(hidden)" if secret else line)
        return line.strip()

    def names(self) -> tuple[str, str]:
        return (self.seats[SOUTH].name, self.seats[NORTH].name)

    def label(self, side: int) -> str:
        return self.seats[side].label(side)

    def introduce(self) -> None:
        title = self.rules.variant.title
        options = self.rules.option_texts()
        if options:
            title += " [%s]" % ", ".join(options)
        self.say(title)
        if self.rules.direction == 1:
            self.say("Sowing goes counterclockwise: South's row left to right, North's row "
                     "right to left, as drawn.")
        else:
            self.say("Sowing goes clockwise: South's row right to left, North's row left to "
                     "right, as drawn.")
        for side in (SOUTH, NORTH):
            seat = self.seats[side]
            kind = "human" if seat.human else "greedy computer player"
            self.say("%s: %s (%s)" % (SIDES[side], seat.name, kind))
        if not all(seat.human for seat in self.seats):
            self.say("Seed %d (--seed %d repeats the computer's choices)." % (self.seed,
                                                                              self.seed))
        if any(seat.human for seat in self.seats):
            self.say("Type ? for help.")

    # --- a single game ---

    def play_game(self, setup: list[int] | None, first: int | None) -> None:
        game = Game(self.rules, setup=setup, first=first)
        if self.ritual:
            self.opening_ritual(game)
        self.introduce()
        self.play_hand(game)
        if self.record_path:
            self.save_record(lambda record: record.write_game(game, self.record_tags()))

    def play_hand(self, game: Game, title: str = "Final score") -> None:
        """Play `game` to its end (Quit or InputEnded stop it early); `title` names the
        score line (a hand of a match is not the final score)."""
        self.movers = []
        self.show_board(game)
        for side in game.passes:
            self.say("%s has no stones and passes." % self.label(side))
        while not game.over:
            mover = game.to_move
            seat = self.seats[mover]
            if seat.human:
                move = self.human_move(game)
                if move is None:        # moves were taken back: show the board, ask again
                    self.show_board(game)
                    continue
            else:
                move = seat.player.choose(game)
            before = (game.pits[:], game.uur[:])
            script = game.push(move, script=True)
            self.movers.append(mover)
            self.report_move(mover, move, script, before)
            self.show_board(game)
        self.show_result(game, title)

    def show_board(self, game: Game) -> None:
        self.say("")
        self.say(draw_board(game, self.names(), self.aside))
        if not game.over:
            legal = game.legal_moves()
            self.say("%s to move; legal: %s" % (self.label(game.to_move),
                                                ", ".join(str(m) for m in legal)))

    def report_move(self, mover: int, move: int, script: list[tuple],
                    before: tuple[list[int], list[int | None]]) -> None:
        self.say("%s plays %d: %s." % (self.label(mover), move,
                                       move_summary(self.rules, script, mover)))
        if self.steps:
            self.show_steps(mover, script, before)
        else:
            for step in script:
                if step[0] == Step.PASS:
                    self.say("%s has no stones and passes." % self.label(step[1]))

    def show_steps(self, mover: int, script: list[tuple],
                   before: tuple[list[int], list[int | None]]) -> None:
        """The move step by step; with --steps=board the board is rebuilt after each step
        from the position `before` the move."""
        board = Board(before[0], uur=before[1])
        groups = script_groups(self.rules, script, mover)
        laps = [k for k, (_words, steps) in enumerate(groups) if steps[0][0] == Step.PICK]
        hidden: set[int] = set()
        if len(script) > DETAIL_LIMIT and len(laps) > 2 * LAPS_SHOWN:
            hidden = set(laps[LAPS_SHOWN:-LAPS_SHOWN])
        for k, (words, steps) in enumerate(groups):
            board.play(steps, mover)
            if k in hidden:
                if k == laps[LAPS_SHOWN]:
                    seeds = sum(len(groups[j][1]) - 1 for j in hidden)
                    self.say("      ... %d more laps (%d seeds) ..." % (len(hidden), seeds))
                continue
            self.say("  %3d. %s" % (k + 1, words))
            if self.steps == "board":
                for line in draw_rows(board.pits, board.uur, self.rules.n)[1:3]:
                    self.say("       " + line)

    # --- a human's turn ---

    def human_move(self, game: Game) -> int | None:
        """The move a person types, or None after an undo. Commands are answered here."""
        legal = game.legal_moves()
        side = game.to_move
        forced = len(legal) == 1
        if forced and self.auto_forced:
            self.say("%s's move is forced: pit %d." % (self.label(side), legal[0]))
            return legal[0]
        if forced:
            prompt = "%s: your move is forced, pit %d; press Enter to play it: " % (
                self.label(side), legal[0])
        else:
            prompt = "%s, your move (pit number, ? for help): " % self.label(side)
        while True:
            text = self.ask(prompt).lower()
            if text == "" and forced:
                return legal[0]
            if text == "":
                self.say("Type a pit number (legal: %s), or ? for help." % ", ".join(
                    str(m) for m in legal))
            elif text in ("?", "help"):
                self.say(HELP.format(n=self.rules.n))
            elif text in ("q", "quit"):
                raise Quit()
            elif text in ("l", "legal"):
                self.say("Legal moves: %s." % ", ".join(str(m) for m in legal))
            elif text in ("b", "board"):
                self.show_board(game)
            elif text in ("h", "hint"):
                self.hint(game)
            elif text in ("u", "undo"):
                if self.undo(game):
                    return None
            elif text.isascii() and text.isdigit() and len(text) <= 3:
                move = int(text)
                if move in legal:
                    return move
                self.say(self.why_illegal(game, move))
            else:
                self.say("%r is not a pit number or a command: type a pit number 1..%d, or ? "
                         "for help." % (text, self.rules.n))

    def why_illegal(self, game: Game, move: int) -> str:
        """Why a typed pit number is not a legal move, with the legal ones."""
        legal = ", ".join(str(m) for m in game.legal_moves())
        if move < 1 or move > self.rules.n:
            return "There is no pit %d: your pits are 1 to %d, from your own left (legal: %s)." % (
                move, self.rules.n, legal)
        return "Pit %d is not a legal move: %s (legal: %s)." % (
            move, game.why_illegal(move), legal)

    def hint(self, game: Game) -> None:
        gains = self.hinter.gains(game)
        move = self.hinter.choose(game)
        unit = "stone" if self.rules.mangala else "seed"
        self.say("Hint: pit %d (the greedy player's choice: it gains %d %s%s at once)." % (
            move, gains[move], unit, "" if gains[move] == 1 else "s"))

    def undo(self, game: Game) -> bool:
        """Take back moves up to and including the last one a person played; False when there
        is none."""
        if not any(self.seats[mover].human for mover in self.movers):
            self.say("There is no move of yours to take back.")
            return False
        taken = []
        while self.movers:
            mover = self.movers.pop()
            move = game.pop()
            taken.append("%s %d" % (SIDES[mover], move))
            if self.seats[mover].human:
                break
        self.say("Took back: %s." % ", ".join(taken))
        return True

    # --- the end ---

    def show_result(self, game: Game, title: str = "Final score") -> None:
        scores = game.scores
        self.say("Game over: %s." % end_words(game))
        for side in (SOUTH, NORTH):
            on_board = scores[side] - game.captured[side]
            self.say("  %s: %d (%d captured + %d from the board)" % (
                self.label(side), scores[side], game.captured[side], on_board))
        self.say("%s: South %d, North %d." % (title, scores[SOUTH], scores[NORTH]))
        winner = game.winner()
        if winner is None:
            self.say("A draw.")
        else:
            self.say("%s wins." % self.label(winner))

    def record_tags(self) -> dict[str, str]:
        """The tags a record gets from this session: the date, who sat where ("You" is
        nobody in a record), the ritual, and the seed that repeats the computer's choices."""
        tags = dict(self.tags)
        for side, tag in ((SOUTH, "South"), (NORTH, "North")):
            name = self.seats[side].name
            tags[tag] = "Human" if name == "You" else name
        if not all(seat.human for seat in self.seats):
            tags["Seed"] = str(self.seed)
        return tags

    def save_record(self, write) -> None:
        """Offer to write the record to --record FILE (the records module loads only now)."""
        try:
            from controller.rules import record
        except ImportError:
            self.say("Cannot save the record: controller/rules/record.py is not available.")
            return
        if any(seat.human for seat in self.seats):
            try:
                answer = self.ask("Save the record to %s? [Y/n] " % self.record_path)
            except InputEnded:
                answer = ""         # --record asked for it: the end of the input is not a no
            if answer.lower() in ("n", "no"):
                self.say("Record not saved.")
                return
        text = write(record)
        with open(self.record_path, "w", encoding="utf-8") as file:
            file.write(text)
        self.say("Record saved to %s." % self.record_path)

    # --- Mangala IV: "Tek mi, Cift mi?" ---

    def opening_ritual(self, game: Game) -> None:
        """One player hides one or two stones, the other guesses odd or even; the winner of
        the guess chooses the sides. Against the computer the computer hides, so the person
        has the guess. Reorders the seats: the seat chosen as South plays South."""
        seats = self.seats
        if seats[0].human != seats[1].human:
            challenger = seats[0] if not seats[0].human else seats[1]
        else:
            challenger = seats[0]
        guesser = seats[1] if challenger is seats[0] else seats[0]
        self.say('Opening ritual "Tek mi, Cift mi?": %s one or two stones, %s odd (tek) or '
                 'even (cift); the winner of the guess chooses the sides.' % (
                     challenger.does("hide"), guesser.does("guess")))
        if challenger.human:
            hidden = int(self.ask_choice("%s, hide 1 or 2 stones (the other looks away): "
                                         % challenger.name, {"1": "1", "2": "2"}, secret=True))
        else:
            hidden = 1 + self.rng.randrange(2)
        if guesser.human:
            guess = self.ask_choice("%s, odd or even? " % guesser.name,
                                    {"odd": "odd", "o": "odd", "tek": "odd",
                                     "even": "even", "e": "even", "cift": "even"})
        else:
            guess = ("odd", "even")[self.rng.randrange(2)]
            self.say("%s %s." % (guesser.does("guess"), guess))
        right = (guess == "odd") == (hidden == 1)
        chooser = guesser if right else challenger
        self.say("%s hid %d: %s guessed %s, so %s the sides." % (
            challenger.name, hidden, guesser.name, "right" if right else "wrong",
            chooser.does("choose")))
        first = SIDES[game.first]
        if chooser.human:
            side = self.ask_choice("%s, which side do you take, South or North (%s moves "
                                   "first)? " % (chooser.name, first),
                                   {"south": SOUTH, "s": SOUTH, "north": NORTH, "n": NORTH})
        else:
            side = self.better_side(game)
        other = guesser if chooser is challenger else challenger
        self.seats = [chooser, other] if side == SOUTH else [other, chooser]
        self.say("%s %s: %s South, %s North; %s moves first." % (
            chooser.does("take"), SIDES[side], self.seats[SOUTH].does("play"),
            self.seats[NORTH].does("play"), first))
        self.tags["Ritual"] = "%s hid %d, %s guessed %s, %s chose %s" % (
            challenger.name, hidden, guesser.name, guess, chooser.name, SIDES[side])

    def ask_choice(self, prompt: str, choices: dict, secret: bool = False):
        """The value of the answer typed, asking again until it is one of `choices`."""
        # the answers to offer: the words, not their one-letter short forms
        words = sorted(k for k in choices if len(k) > 1) or sorted(choices)
        while True:
            text = self.ask(prompt, secret=secret).lower()
            if text in ("q", "quit"):
                raise Quit()
            if text in choices:
                return choices[text]
            self.say("Please answer one of: %s." % ", ".join(words))

    def better_side(self, game: Game) -> int:
        """The computer's side: with a forced start the whole game is known from the set-up,
        so it plays it out and takes the winning side; otherwise (or on a draw) at random."""
        rules = self.rules
        if rules.mangala and rules.start != "free":
            trial = Game(rules, setup=game.setup, first=game.first)
            while not trial.over:
                trial.push(trial.legal_moves()[0])
            winner = trial.winner()
            if winner is not None:
                return winner
        return self.rng.randrange(2)

    # --- a match in hands ---

    def play_match(self, setup: list[int] | None, first: int | None) -> None:
        match = Match(self.rules, setup=setup, first=first)
        self.introduce()
        while True:
            self.say("")
            self.say("=== Hand %d ===" % len(match.games))
            self.aside = (match.aside[0], match.aside[1])
            self.play_hand(match.game, "Hand %d score" % len(match.games))
            holdings = match.end_hand()
            self.say("After hand %d: South holds %d, North holds %d." % (
                len(match.games), holdings[SOUTH], holdings[NORTH]))
            if match.over:
                break
            self.arrange(match)
        self.show_match_result(match)
        if self.record_path:
            self.save_record(lambda record: record.write_match(match, self.record_tags()))

    def arrange(self, match: Match) -> None:
        """Start the next hand: the arranger places all they hold; the opponent copies
        (mirror) or places as many freely (arrangement=free)."""
        arranger = match.arranger
        opponent = 1 - arranger
        held = match.holdings[arranger]
        free = self.rules.options["arrangement"] == "free"
        if match.holdings[SOUTH] == match.holdings[NORTH]:
            self.say("Equal holdings: %s moved second in the last hand and arranges." %
                     self.label(arranger))
        else:
            self.say("%s holds fewer seeds and arranges." % self.label(arranger))
        # the match checks the arrangements (RulesError says what is wrong, naming the
        # player); with the free arrangement both rows are asked again on an error
        while True:
            counts = self.arrangement(arranger, held, held)
            other = self.arrangement(opponent, match.holdings[opponent], held) if free else None
            try:
                match.arrange(counts, other)
                break
            except RulesError as error:
                self.say("Not accepted: %s." % error)
        game = match.game
        if not free:
            self.say("%s copies the arrangement pit for pit." % self.label(opponent))
        spare = match.aside[opponent]
        if spare:
            self.say("%s holds %d seed%s aside." % (self.label(opponent), spare,
                                                   "" if spare == 1 else "s"))
        self.say("%s moves first." % self.label(game.first))

    def arrangement(self, side: int, holding: int, placed: int) -> list[int]:
        """`placed` of `holding` seeds for `side`'s n pits: typed (asked again until they are
        whole numbers), or spread evenly by the computer."""
        n = self.rules.n
        seat = self.seats[side]
        if not seat.human:
            counts = even_arrangement(placed, n)
            self.say("%s arranges %s." % (self.label(side), " ".join(str(c) for c in counts)))
            return counts
        if placed == holding:
            what = "all your %d seeds" % holding
        else:
            what = "%d of your %d seeds (the rest are held aside)" % (placed, holding)
        prompt = ("%s, place %s in your %d pits, pit 1 first, at least 1 each (e.g. %s): " % (
            self.label(side), what, n, " ".join(str(c) for c in even_arrangement(placed, n))))
        while True:
            text = self.ask(prompt)
            if text.lower() in ("q", "quit"):
                raise Quit()
            try:
                return parse_counts(text)
            except RulesError as error:
                self.say("Not accepted: %s." % error)

    def show_match_result(self, match: Match) -> None:
        holdings = match.holdings
        self.say("")
        if match.end_reason == "short":
            short = [side for side in (SOUTH, NORTH) if holdings[side] < self.rules.n][0]
            self.say("Match over: %s holds fewer than %d seeds and cannot fill a row." % (
                self.label(short), self.rules.n))
        else:
            self.say("Match over: the limit of %d hands was reached." % len(match.games))
        if match.winner is None:
            self.say("The match is drawn, %d seeds each." % holdings[SOUTH])
        else:
            self.say("%s wins the match, %d seeds to %d." % (
                self.label(match.winner), holdings[match.winner], holdings[1 - match.winner]))

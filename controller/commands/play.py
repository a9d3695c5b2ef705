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
    layli play --language so                    # in Somali (default: LANGUAGE, LC_ALL, ...)

At the prompt: a pit number, or u (undo), h (hint), l (legal moves), b (board), q (quit), ? (help).
Input may come from a pipe: answers are echoed so that the transcript reads like a session, and
the end of the input leaves the game unfinished with exit status 0.

Everything a player reads is said in the language chosen (controller.languages,
docs/translations.md); what the portable core says of a refused move or arrangement, in English,
is said again in it (`core_words`). A record, its tags included, stays in English.
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

from controller.board.view import place_name, side_names
from controller.commands.common import add_game_arguments, game_arguments
from controller.languages import LANGUAGES, N_, _, environment_language, ngettext, using
from controller.opponents.players import GreedyPlayer, Player
from controller.rules import (Board, Game, Match, Rules, RulesError, SOUTH, NORTH, SIDES, Step,
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
# A move longer than this many steps is described one lap per line, not one seed per line.
DETAIL_LIMIT = 200
# ... and a move with more laps than twice this shows only its first and last laps.
LAPS_SHOWN = 10

# TRANSLATORS: the help shown at the prompt of `layli play`. The letters u, h, l, b, q and ?
# are what a player types: keep them. %(south)s is South's initial, as the board draws an Uur.
HELP = N_("""\
Type the number of one of your pits to sow it: 1 to %(n)d, counted from your own left
(South's pit numbers are under South's row, North's above North's row).
  u  undo: take back your last move (and the computer's reply)
  h  hint: what the greedy computer player would play
  l  list your legal moves
  b  show the board again
  q  quit (the game is left unfinished)
  ?  this help
An Uur is drawn as its count in brackets and its owner's initial, e.g. (5)%(south)s.""")

# Why a game ended (Game.end_reason): %(player)s is the side to move, %(other)s the other.
END_WORDS = {
    END_NO_MOVE: N_("%(player)s has no legal move"),
    END_EMPTY_ROW: N_("a row holds no seed outside the Uurs"),
    END_REPETITION: N_("a position occurred for the second time"),
    END_ENDLESS: N_("%(player)s's only move never ends (an endless relay)"),
    END_NO_FEED: N_("%(player)s has no move that gives %(other)s's empty row a seed"),
    END_STONES: N_("at most one stone is left on the board (a lone stone is not scored)"),
}

# What the portable core says (in English: it has no catalogues) of a refused move
# (Game.why_illegal) or a refused arrangement (Match.arrange, parse_number), and the same in
# the words of the catalogues. A value named player or other is South or North; digits are
# numbers. A text not listed here is shown as the core wrote it.
CORE_WORDS = [(re.compile(pattern), message) for pattern, message in (
    (r"pit (?P<pit>\d+) is empty", N_("pit %(pit)d is empty")),
    (r"pit (?P<pit>\d+) is an Uur, and an Uur is never sown from",
     N_("pit %(pit)d is an Uur, and an Uur is never sown from")),
    (r"a turn starts from the leftmost pit that holds stones",
     N_("a turn starts from the leftmost pit that holds stones")),
    (r"a turn starts from the rightmost pit that holds stones",
     N_("a turn starts from the rightmost pit that holds stones")),
    (r"pit (?P<pit>\d+)'s relay sowing never ends \(an endless move\)",
     N_("pit %(pit)d's relay sowing never ends (an endless move)")),
    (r"the first move of the game is from the rightmost playable pit",
     N_("the first move of the game is from the rightmost playable pit")),
    (r"the opponent's row is empty and pit (?P<pit>\d+) would leave it so",
     N_("the opponent's row is empty and pit %(pit)d would leave it so")),
    (r"(?P<player>South|North)'s arrangement must be (?P<n>\d+) counts",
     N_("%(player)s's arrangement must be %(n)d counts")),
    (r"(?P<player>South|North)'s pit (?P<pit>\d+) holds (?P<count>-?\d+): every pit needs at "
     r"least one seed",
     N_("%(player)s's pit %(pit)d holds %(count)d: every pit needs at least one seed")),
    (r"(?P<player>South|North) holds (?P<held>\d+) seeds and must arrange all of them, not "
     r"(?P<count>-?\d+)",
     N_("%(player)s holds %(held)d seeds and must arrange all of them, not %(count)d")),
    (r"(?P<player>South|North) must place (?P<held>\d+) seeds, as many as "
     r"(?P<other>South|North), not (?P<count>-?\d+)",
     N_("%(player)s must place %(held)d seeds, as many as %(other)s, not %(count)d")),
    (r"count (?P<count>.+) is not a whole number", N_("count %(count)s is not a whole number")),
    (r"count (?P<count>.+) is too large", N_("count %(count)s is too large")),
)]


class Quit(Exception):
    """A player typed q."""


class InputEnded(Exception):
    """Standard input reached its end."""


@dataclass
class Seat:
    """Who plays one side: a person at the keyboard (player None) or a computer player.
    `number` tells two seats of one kind apart (1, 2; 0 when the other seat is of the other
    kind, and a lone person is "You")."""

    player: Player | None = None
    number: int = 0

    @property
    def human(self) -> bool:
        return self.player is None

    @property
    def you(self) -> bool:
        """The one person against the computer, who is spoken to as "You"."""
        return self.human and not self.number

    @property
    def name(self) -> str:
        """The name a record gives the seat, always in English: "You", "Computer 2", ..."""
        kind = "Player" if self.human else "Computer"
        if self.number:
            return "%s %d" % (kind, self.number)
        return "You" if self.human else kind

    @property
    def shown(self) -> str:
        """The seat's name as players read it, in the language in use."""
        if self.human:
            return _("Player %(n)d") % {"n": self.number} if self.number else _("You")
        return _("Computer %(n)d") % {"n": self.number} if self.number else _("Computer")

    def label(self, side: int) -> str:
        return side_label(side, self.shown)


def side_label(side: int, name: str = "") -> str:
    """"South (You)": a side and who plays it, or the side alone."""
    side_name = side_names()[side]
    return "%s (%s)" % (side_name, name) if name else side_name


def core_words(text: str) -> str:
    """What the portable core said (a reason in English, CORE_WORDS), in the language in use;
    a text it does not know stays as it is."""
    for pattern, message in CORE_WORDS:
        found = pattern.fullmatch(text)
        if found:
            values: dict[str, object] = {}
            for key, value in found.groupdict().items():
                if key in ("player", "other"):
                    values[key] = side_names()[SIDES.index(value)]
                elif re.fullmatch(r"-?\d+", value):
                    values[key] = int(value)
                else:
                    values[key] = value
            return _(message) % values
    return text


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
    parser.add_argument("--language", choices=tuple(LANGUAGES), default=None,
                        help="the language to play in: %s (default: the first of the "
                             "environment's LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is one "
                             "of these, else en)" % ", ".join(LANGUAGES))


def run(args: argparse.Namespace) -> int:
    with using(args.language or environment_language()):
        return play_command(args)


def play_command(args: argparse.Namespace) -> int:
    """The command, in the language in use."""
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
        session.say(_("Match left unfinished.") if args.match else _("Game left unfinished."))
    except InputEnded:
        session.say("")
        session.say(_("Input ended: the match is left unfinished.") if args.match
                    else _("Input ended: the game is left unfinished."))
    return 0


def make_seats(south: str, north: str, seed: int, level: str = "greedy") -> list[Seat]:
    """The two seats, named so that a transcript says who is who; a computer plays at `level`
    (GREEDY, or one of controller.ai.LEVELS)."""
    kinds = (south, north)
    seats = []
    for side, kind in enumerate(kinds):
        number = side + 1 if kinds.count(kind) == 2 else 0
        if kind == HUMAN:
            seats.append(Seat(None, number))
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
            seats.append(Seat(player, number))
    return seats


# --- drawing ------------------------------------------------------------------------------

def margin() -> int:
    """The width of the board's left margin, where a row's owner ("  North  ") and the pit
    numbers' label ("   pit") are written: 9 columns in English."""
    return max(max(len(name) for name in side_names()), len(_("pit"))) + 4


def draw_rows(pits: list[int], uur: list[int | None], n: int) -> list[str]:
    """The two rows of the board as South sees it: North's row on top, right to left (North's
    pit 1 at the top right, above South's pit n, its opposite), then South's left to right."""
    inner = max(2, len(str(max(pits + [0])))) + 3
    names = side_names()
    left = margin()

    def cell(i: int) -> str:
        owner = uur[i]
        text = str(pits[i]) if owner is None else "(%d)%s" % (pits[i], names[owner][0])
        return text.center(inner)

    north = [cell(i) for i in range(2 * n - 1, n - 1, -1)]
    south = [cell(i) for i in range(n)]
    rule = " " * left + "+" + "+".join(["-" * inner] * n) + "+"
    return [rule,
            ("  " + names[NORTH]).ljust(left) + "|" + "|".join(north) + "|",
            ("  " + names[SOUTH]).ljust(left) + "|" + "|".join(south) + "|",
            rule]


def draw_board(game: Game, names: tuple[str, str] = ("", ""),
               aside: tuple[int, int] = (0, 0)) -> str:
    """The board with pit numbers, Uurs, captured counts and (in a match) seeds held aside."""
    n = game.rules.n
    inner = max(2, len(str(max(game.pits + [0])))) + 3
    left = margin()
    # TRANSLATORS: the label of the board's pit numbers in `layli play`; keep it short
    pit = _("pit")
    indent = " " * (left + 1)

    def numbers(order: range) -> str:
        return (("   " + pit).ljust(left) + " "
                + " ".join([str(k).center(inner) for k in order])).rstrip()

    def owner_line(side: int) -> str:
        values = {"player": side_label(side, names[side]), "captured": game.captured[side],
                  "aside": aside[side]}
        if aside[side]:
            return indent + _("%(player)s   captured %(captured)d, held aside %(aside)d") % values
        return indent + _("%(player)s   captured %(captured)d") % values

    lines = [owner_line(NORTH), numbers(range(n, 0, -1))]
    lines.extend(draw_rows(game.pits, game.uur, n))
    lines.extend([numbers(range(1, n + 1)), owner_line(SOUTH)])
    if any(owner is not None for owner in game.uur):
        initials = side_names()
        lines.append(indent + _("(k)%(south)s / (k)%(north)s: an Uur holding k seeds, owned by "
                                "South / North") % {"south": initials[SOUTH][0],
                                                    "north": initials[NORTH][0]})
    return "\n".join(lines)


# --- moves in words -----------------------------------------------------------------------

def step_words(rules: Rules, step: tuple, mover: int, relay: bool = False) -> str:
    """One step of a move's script (docs/rules.md section 7) in words."""
    kind = step[0]
    n = rules.n
    if kind == Step.PICK:
        values = {"n": step[2], "place": place_name(step[1], n)}
        return (_("relay: pick %(n)d from %(place)s") if relay
                else _("pick %(n)d from %(place)s")) % values
    if kind == Step.DROP:
        return _("drop in %(place)s") % {"place": place_name(step[1], n)}
    if kind == Step.UUR:
        return _("Uur: move one seed from %(opposite)s to %(pit)s; both are %(player)s's Uurs "
                 "now") % {"opposite": place_name(step[2], n), "pit": place_name(step[1], n),
                           "player": side_names()[mover]}
    if kind == Step.CAPTURE:
        return _("capture %(n)d from %(place)s") % {"n": step[2],
                                                    "place": place_name(step[1], n)}
    if kind == Step.PASS:
        return _("%(player)s has no stones and passes") % {"player": side_names()[step[1]]}
    if kind == Step.COLLECT:
        return _("collect %(n)d from %(place)s into %(store)s") % {
            "n": step[2], "place": place_name(step[1], n), "store": place_name(2 * n + step[3], n)}
    return str(step)


def lap_words(rules: Rules, pick: tuple, drops: list[tuple], mover: int, relay: bool) -> str:
    """A lap of a long move in one line: the pick, and where its drops began and ended."""
    if not drops:
        return step_words(rules, pick, mover, relay)
    n = rules.n
    values = {"n": pick[2], "place": place_name(pick[1], n), "drops": len(drops),
              "first": place_name(drops[0][1], n), "last": place_name(drops[-1][1], n)}
    if len(drops) >= rules.size:
        if relay:
            text = _("relay: pick %(n)d from %(place)s, drop %(drops)d: %(first)s .. %(last)s "
                     "(all the way round)")
        else:
            text = _("pick %(n)d from %(place)s, drop %(drops)d: %(first)s .. %(last)s (all "
                     "the way round)")
    elif relay:
        text = _("relay: pick %(n)d from %(place)s, drop %(drops)d: %(first)s .. %(last)s")
    else:
        text = _("pick %(n)d from %(place)s, drop %(drops)d: %(first)s .. %(last)s")
    return text % values


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
        groups.append((lap_words(rules, step, script[k + 1:end], mover, relay=picks > 0),
                       script[k:end]))
        picks += 1
        k = end
    return groups


def move_summary(rules: Rules, script: list[tuple], mover: int) -> str:
    """What a move did, in one line: seeds sown, laps, captures, an Uur made, the last pit."""
    if not script:
        return _("the sowing never ends (endless), so nothing changes but the turn")
    n = rules.n
    picks = [step for step in script if step[0] == Step.PICK]
    drops = [step for step in script if step[0] == Step.DROP]
    captures = [step for step in script if step[0] == Step.CAPTURE]
    uurs = [step for step in script if step[0] == Step.UUR]
    sown = len(drops)
    values: dict[str, object] = {"n": sown, "laps": len(picks)}
    if not drops:
        text = (ngettext("sows %(n)d stone", "sows %(n)d stones", sown) if rules.mangala
                else ngettext("sows %(n)d seed", "sows %(n)d seeds", sown))
    else:
        values["place"] = place_name(drops[-1][1], n)
        if len(picks) > 1:      # (more than one lap: more than one seed)
            text = (_("sows %(n)d stones in %(laps)d laps, the last in %(place)s")
                    if rules.mangala
                    else _("sows %(n)d seeds in %(laps)d laps, the last in %(place)s"))
        elif rules.mangala:
            text = ngettext("sows %(n)d stone, the last in %(place)s",
                            "sows %(n)d stones, the last in %(place)s", sown)
        else:
            text = ngettext("sows %(n)d seed, the last in %(place)s",
                            "sows %(n)d seeds, the last in %(place)s", sown)
    parts = [text % values]
    if captures:
        taken = [_("%(n)d from %(place)s") % {"n": step[2], "place": place_name(step[1], n)}
                 for step in captures]
        parts.append(_("captures %(n)d (%(places)s)") % {
            "n": sum(step[2] for step in captures), "places": ", ".join(taken)})
    for step in uurs:
        parts.append(_("%(pit)s and %(opposite)s become %(player)s's Uurs") % {
            "pit": place_name(step[1], n), "opposite": place_name(step[2], n),
            "player": side_names()[mover]})
    return "; ".join(parts)


def end_words(game: Game) -> str:
    """Why the game ended, in words."""
    names = side_names()
    reason = game.end_reason
    if reason not in END_WORDS:
        return str(reason)
    return _(END_WORDS[reason]) % {"player": names[game.to_move],
                                   "other": names[1 - game.to_move]}


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
        names = "|".join(re.escape(name) for name in side_names())
        pit_name = re.compile(r"\b(%s) (\d+)" % names)
        for line in text.split("\n"):
            if len(line) > WIDTH:
                # a pit's name ("North 7") is never split over two lines
                glued = pit_name.sub("\\1\0\\2", line)
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
            # TRANSLATORS: echoed in place of a secret answer typed into `layli play`
            print(_("(hidden)") if secret else line)
        return line.strip()

    def names(self) -> tuple[str, str]:
        return (self.seats[SOUTH].shown, self.seats[NORTH].shown)

    def label(self, side: int) -> str:
        return self.seats[side].label(side)

    def introduce(self) -> None:
        title = self.rules.variant.title
        options = self.rules.option_texts()
        if options:
            title += " [%s]" % ", ".join(options)
        self.say(title)
        if self.rules.direction == 1:
            self.say(_("Sowing goes counterclockwise: South's row left to right, North's row "
                       "right to left, as drawn."))
        else:
            self.say(_("Sowing goes clockwise: South's row right to left, North's row left to "
                       "right, as drawn."))
        names = side_names()
        for side in (SOUTH, NORTH):
            seat = self.seats[side]
            values = {"side": names[side], "player": seat.shown}
            if seat.human:
                self.say(_("%(side)s: %(player)s (human)") % values)
            else:
                self.say(_("%(side)s: %(player)s (greedy computer player)") % values)
        if not all(seat.human for seat in self.seats):
            self.say(_("Seed %(seed)d (--seed %(seed)d repeats the computer's choices).")
                     % {"seed": self.seed})
        if any(seat.human for seat in self.seats):
            self.say(_("Type ? for help."))

    # --- a single game ---

    def play_game(self, setup: list[int] | None, first: int | None) -> None:
        game = Game(self.rules, setup=setup, first=first)
        if self.ritual:
            self.opening_ritual(game)
        self.introduce()
        self.play_hand(game)
        if self.record_path:
            self.save_record(lambda record: record.write_game(game, self.record_tags()))

    def play_hand(self, game: Game, hand: int | None = None) -> None:
        """Play `game` to its end (Quit or InputEnded stop it early); `hand` is its number in
        a match (its score is not the final score)."""
        self.movers = []
        self.show_board(game)
        for side in game.passes:
            self.say(_("%(player)s has no stones and passes.") % {"player": self.label(side)})
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
        self.show_result(game, hand)

    def show_board(self, game: Game) -> None:
        self.say("")
        self.say(draw_board(game, self.names(), self.aside))
        if not game.over:
            legal = game.legal_moves()
            self.say(_("%(player)s to move; legal: %(moves)s") % {
                "player": self.label(game.to_move), "moves": ", ".join(str(m) for m in legal)})

    def report_move(self, mover: int, move: int, script: list[tuple],
                    before: tuple[list[int], list[int | None]]) -> None:
        self.say(_("%(player)s plays %(pit)d: %(summary)s.") % {
            "player": self.label(mover), "pit": move,
            "summary": move_summary(self.rules, script, mover)})
        if self.steps:
            self.show_steps(mover, script, before)
        else:
            for step in script:
                if step[0] == Step.PASS:
                    self.say(_("%(player)s has no stones and passes.")
                             % {"player": self.label(step[1])})

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
                    self.say("      " + _("... %(laps)d more laps (%(seeds)d seeds) ...")
                             % {"laps": len(hidden), "seeds": seeds})
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
            self.say(_("%(player)s's move is forced: pit %(pit)d.") % {
                "player": self.label(side), "pit": legal[0]})
            return legal[0]
        if forced:
            prompt = _("%(player)s: your move is forced, pit %(pit)d; press Enter to play it: "
                       ) % {"player": self.label(side), "pit": legal[0]}
        else:
            prompt = _("%(player)s, your move (pit number, ? for help): ") % {
                "player": self.label(side)}
        moves = ", ".join(str(m) for m in legal)
        while True:
            text = self.ask(prompt).lower()
            if text == "" and forced:
                return legal[0]
            if text == "":
                self.say(_("Type a pit number (legal: %(moves)s), or ? for help.")
                         % {"moves": moves})
            elif text in ("?", "help"):
                self.say(_(HELP) % {"n": self.rules.n, "south": side_names()[SOUTH][0]})
            elif text in ("q", "quit"):
                raise Quit()
            elif text in ("l", "legal"):
                self.say(_("Legal moves: %(moves)s.") % {"moves": moves})
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
                self.say(_("%(text)s is not a pit number or a command: type a pit number "
                           "1..%(n)d, or ? for help.") % {"text": repr(text), "n": self.rules.n})

    def why_illegal(self, game: Game, move: int) -> str:
        """Why a typed pit number is not a legal move, with the legal ones."""
        legal = ", ".join(str(m) for m in game.legal_moves())
        if move < 1 or move > self.rules.n:
            return _("There is no pit %(pit)d: your pits are 1 to %(n)d, from your own left "
                     "(legal: %(moves)s).") % {"pit": move, "n": self.rules.n, "moves": legal}
        return _("Pit %(pit)d is not a legal move: %(reason)s (legal: %(moves)s).") % {
            "pit": move, "reason": core_words(game.why_illegal(move) or ""), "moves": legal}

    def hint(self, game: Game) -> None:
        gains = self.hinter.gains(game)
        move = self.hinter.choose(game)
        gain = gains[move]
        values = {"pit": move, "n": gain}
        if self.rules.mangala:
            text = ngettext("Hint: pit %(pit)d (the greedy player's choice: it gains %(n)d "
                            "stone at once).",
                            "Hint: pit %(pit)d (the greedy player's choice: it gains %(n)d "
                            "stones at once).", gain)
        else:
            text = ngettext("Hint: pit %(pit)d (the greedy player's choice: it gains %(n)d "
                            "seed at once).",
                            "Hint: pit %(pit)d (the greedy player's choice: it gains %(n)d "
                            "seeds at once).", gain)
        self.say(text % values)

    def undo(self, game: Game) -> bool:
        """Take back moves up to and including the last one a person played; False when there
        is none."""
        if not any(self.seats[mover].human for mover in self.movers):
            self.say(_("There is no move of yours to take back."))
            return False
        names = side_names()
        taken = []
        while self.movers:
            mover = self.movers.pop()
            move = game.pop()
            taken.append("%s %d" % (names[mover], move))
            if self.seats[mover].human:
                break
        self.say(_("Took back: %(moves)s.") % {"moves": ", ".join(taken)})
        return True

    # --- the end ---

    def show_result(self, game: Game, hand: int | None = None) -> None:
        scores = game.scores
        self.say(_("Game over: %(reason)s.") % {"reason": end_words(game)})
        for side in (SOUTH, NORTH):
            self.say("  " + _("%(player)s: %(score)d (%(captured)d captured + %(board)d from the "
                              "board)") % {
                "player": self.label(side), "score": scores[side],
                "captured": game.captured[side], "board": scores[side] - game.captured[side]})
        values = {"hand": hand, "south": scores[SOUTH], "north": scores[NORTH]}
        if hand is None:
            self.say(_("Final score: South %(south)d, North %(north)d.") % values)
        else:
            self.say(_("Hand %(hand)d score: South %(south)d, North %(north)d.") % values)
        winner = game.winner()
        if winner is None:
            self.say(_("A draw."))
        else:
            self.say(_("%(player)s wins.") % {"player": self.label(winner)})

    def record_tags(self) -> dict[str, str]:
        """The tags a record gets from this session: the date, who sat where ("You" is
        nobody in a record), the ritual, and the seed that repeats the computer's choices.
        A record is in English, whatever the language of the game."""
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
            self.say(_("Cannot save the record: controller/rules/record.py is not available."))
            return
        if any(seat.human for seat in self.seats):
            try:
                # TRANSLATORS: n or no (in English, or this language's word for no) declines
                answer = self.ask(_("Save the record to %(path)s? [Y/n] ")
                                  % {"path": self.record_path})
            except InputEnded:
                answer = ""         # --record asked for it: the end of the input is not a no
            # TRANSLATORS: the answer no, typed to "Save the record to ...? [Y/n]"
            if answer.lower() in ("n", "no", _("no").lower()):
                self.say(_("Record not saved."))
                return
        text = write(record)
        with open(self.record_path, "w", encoding="utf-8") as file:
            file.write(text)
        self.say(_("Record saved to %(path)s.") % {"path": self.record_path})

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
        # the one who hides is never "You": against the computer, the computer hides
        values = {"hider": challenger.shown, "guesser": guesser.shown}
        if guesser.you:
            self.say(_('Opening ritual "Tek mi, Cift mi?": %(hider)s hides one or two stones, '
                       'You guess odd (tek) or even (cift); the winner of the guess chooses the '
                       'sides.') % values)
        else:
            self.say(_('Opening ritual "Tek mi, Cift mi?": %(hider)s hides one or two stones, '
                       '%(guesser)s guesses odd (tek) or even (cift); the winner of the guess '
                       'chooses the sides.') % values)
        if challenger.human:
            hidden = int(self.ask_choice(
                _("%(player)s, hide 1 or 2 stones (the other looks away): ")
                % {"player": challenger.shown}, {"1": "1", "2": "2"}, secret=True))
        else:
            hidden = 1 + self.rng.randrange(2)
        if guesser.human:
            answers = {"odd": "odd", "o": "odd", "tek": "odd",
                       "even": "even", "e": "even", "cift": "even"}
            # TRANSLATORS: answers a player may type to "odd or even?" (besides the English
            # and Turkish words)
            answers.setdefault(_("odd").lower(), "odd")
            answers.setdefault(_("even").lower(), "even")
            guess = self.ask_choice(_("%(player)s, odd or even? ") % {"player": guesser.shown},
                                    answers)
        else:
            guess = ("odd", "even")[self.rng.randrange(2)]
            self.say((_("%(player)s guesses odd.") if guess == "odd"
                      else _("%(player)s guesses even.")) % {"player": guesser.shown})
        right = (guess == "odd") == (hidden == 1)
        chooser = guesser if right else challenger
        values["n"] = hidden
        if right and guesser.you:
            text = _("%(hider)s hid %(n)d: You guessed right, so You choose the sides.")
        elif right:
            text = _("%(hider)s hid %(n)d: %(guesser)s guessed right, so %(guesser)s chooses "
                     "the sides.")
        elif guesser.you:
            text = _("%(hider)s hid %(n)d: You guessed wrong, so %(hider)s chooses the sides.")
        else:
            text = _("%(hider)s hid %(n)d: %(guesser)s guessed wrong, so %(hider)s chooses the "
                     "sides.")
        self.say(text % values)
        names = side_names()
        first = names[game.first]
        if chooser.human:
            sides = {"south": SOUTH, "s": SOUTH, "north": NORTH, "n": NORTH}
            sides.setdefault(names[SOUTH].lower(), SOUTH)
            sides.setdefault(names[NORTH].lower(), NORTH)
            side = self.ask_choice(_("%(player)s, which side do you take, South or North "
                                     "(%(first)s moves first)? ")
                                   % {"player": chooser.shown, "first": first}, sides)
        else:
            side = self.better_side(game)
        other = guesser if chooser is challenger else challenger
        self.seats = [chooser, other] if side == SOUTH else [other, chooser]
        south, north = self.seats
        values = {"chooser": chooser.shown, "side": names[side], "south": south.shown,
                  "north": north.shown, "first": first}
        if chooser.you and side == SOUTH:
            text = _("You take South: You play South, %(north)s plays North; %(first)s moves "
                     "first.")
        elif chooser.you:
            text = _("You take North: %(south)s plays South, You play North; %(first)s moves "
                     "first.")
        elif south.you:
            text = _("%(chooser)s takes %(side)s: You play South, %(north)s plays North; "
                     "%(first)s moves first.")
        elif north.you:
            text = _("%(chooser)s takes %(side)s: %(south)s plays South, You play North; "
                     "%(first)s moves first.")
        else:
            text = _("%(chooser)s takes %(side)s: %(south)s plays South, %(north)s plays North; "
                     "%(first)s moves first.")
        self.say(text % values)
        # the record's tag, in English
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
            self.say(_("Please answer one of: %(answers)s.") % {"answers": ", ".join(words)})

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
            hand = len(match.games)
            self.say("")
            self.say(_("=== Hand %(hand)d ===") % {"hand": hand})
            self.aside = (match.aside[0], match.aside[1])
            self.play_hand(match.game, hand)
            holdings = match.end_hand()
            self.say(_("After hand %(hand)d: South holds %(south)d, North holds %(north)d.") % {
                "hand": hand, "south": holdings[SOUTH], "north": holdings[NORTH]})
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
            self.say(_("Equal holdings: %(player)s moved second in the last hand and "
                       "arranges.") % {"player": self.label(arranger)})
        else:
            self.say(_("%(player)s holds fewer seeds and arranges.")
                     % {"player": self.label(arranger)})
        # the match checks the arrangements (RulesError says what is wrong, naming the
        # player); with the free arrangement both rows are asked again on an error
        while True:
            counts = self.arrangement(arranger, held, held)
            other = self.arrangement(opponent, match.holdings[opponent], held) if free else None
            try:
                match.arrange(counts, other)
                break
            except RulesError as error:
                self.say(_("Not accepted: %(reason)s.") % {"reason": core_words(str(error))})
        game = match.game
        if not free:
            self.say(_("%(player)s copies the arrangement pit for pit.")
                     % {"player": self.label(opponent)})
        spare = match.aside[opponent]
        if spare:
            self.say(ngettext("%(player)s holds %(n)d seed aside.",
                              "%(player)s holds %(n)d seeds aside.", spare)
                     % {"player": self.label(opponent), "n": spare})
        self.say(_("%(player)s moves first.") % {"player": self.label(game.first)})

    def arrangement(self, side: int, holding: int, placed: int) -> list[int]:
        """`placed` of `holding` seeds for `side`'s n pits: typed (asked again until they are
        whole numbers), or spread evenly by the computer."""
        n = self.rules.n
        seat = self.seats[side]
        if not seat.human:
            counts = even_arrangement(placed, n)
            self.say(_("%(player)s arranges %(counts)s.") % {
                "player": self.label(side), "counts": " ".join(str(c) for c in counts)})
            return counts
        values = {"player": self.label(side), "placed": placed, "holding": holding, "n": n,
                  "example": " ".join(str(c) for c in even_arrangement(placed, n))}
        if placed == holding:
            prompt = _("%(player)s, place all your %(holding)d seeds in your %(n)d pits, pit 1 "
                       "first, at least 1 each (e.g. %(example)s): ") % values
        else:
            prompt = _("%(player)s, place %(placed)d of your %(holding)d seeds (the rest are "
                       "held aside) in your %(n)d pits, pit 1 first, at least 1 each (e.g. "
                       "%(example)s): ") % values
        while True:
            text = self.ask(prompt)
            if text.lower() in ("q", "quit"):
                raise Quit()
            try:
                return parse_counts(text)
            except RulesError as error:
                self.say(_("Not accepted: %(reason)s.") % {"reason": core_words(str(error))})

    def show_match_result(self, match: Match) -> None:
        holdings = match.holdings
        self.say("")
        if match.end_reason == "short":
            short = [side for side in (SOUTH, NORTH) if holdings[side] < self.rules.n][0]
            self.say(_("Match over: %(player)s holds fewer than %(n)d seeds and cannot fill a "
                       "row.") % {"player": self.label(short), "n": self.rules.n})
        else:
            hands = len(match.games)
            self.say(ngettext("Match over: the limit of %(n)d hand was reached.",
                              "Match over: the limit of %(n)d hands was reached.", hands)
                     % {"n": hands})
        if match.winner is None:
            self.say(_("The match is drawn, %(n)d seeds each.") % {"n": holdings[SOUTH]})
        else:
            self.say(_("%(player)s wins the match, %(won)d seeds to %(lost)d.") % {
                "player": self.label(match.winner), "won": holdings[match.winner],
                "lost": holdings[1 - match.winner]})

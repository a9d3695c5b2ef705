"""Game records: PGN-style text and JSON, written from the engine and read back by replaying it.

Write a game, read it back::

    >>> game = Game("layli-goobalay")
    >>> game.push(3)
    >>> text = write_game(game, {"Event": "Club night", "South": "Ayan", "North": "Hodan"})
    >>> print(text)                                      # doctest: +NORMALIZE_WHITESPACE
    [Event "Club night"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [South "Ayan"]
    [North "Hodan"]
    [Variant "layli-goobalay"]
    [Options ""]
    [Setup "4,4,4,4,4,4,4,4,4,4,4,4"]
    [Result "*"]
    [First "South"]
    <BLANKLINE>
    1. 3 *
    >>> again, tags = read(text)
    >>> again.moves, tags[0]["South"]
    ([3], 'Ayan')

The text is PGN's: a section of tag pairs, then the movetext. Tags come in a fixed order: Event,
Site, Date, Round, South, North (unknown: "?", Date "????.??.??"), then what the game itself
decides: Variant, Options (the non-default options, ``name=value`` separated by spaces), Setup
(the 2n starting counts, always written: a Mangala IV random set-up is carried as its counts),
Result ("1-0" South won, "0-1" North won, "1/2-1/2", "*" not over), First ("South" or "North":
who moved first), for the hands of a match Hand (1, 2, ...) and Aside ("0,8": seeds South and
North held aside during the hand), and when the game is over Score ("30-18", South first) and
Termination (the game's `end_reason`: "no-move", "repetition", ...). Other tags a caller gives are
written after these, sorted by name.

Moves are the mover's own pit numbers (docs/rules.md section 1), numbered as in PGN: a South move
starts a number ("7. 3"), North's answer follows it bare ("7. 3 5"), and a North move that answers
no South move of its number (North moved first, or South passed in Mangala IV) is written
"7... 5". Passes are not written: the engine knows them. The movetext ends with the result. On
reading, move numbers are optional and not checked (the reader numbers the moves itself),
comments in {braces} are skipped, and anything else is an error.

A match is one section per hand, in order, separated by a blank line; reading one replays the match
through `Match`, so every hand's Setup must be an arrangement the rules allow (docs/rules.md 2.1)
and its First and Aside must be what the rules give.

JSON records carry the same tags (the same strings) and the moves as numbers::

    {"tags": {"Event": "?", ...}, "moves": [3, 5]}
    {"hands": [{"tags": {...}, "moves": [...]}, ...]}

Reading never trusts a record: every move is replayed and checked, and any problem -- a bad tag
line, an unknown variant, a bad set-up, an illegal move, a Result the game does not reach -- raises
RulesError with one line that says what and where::

    line 23, hand 2, move 7 (North 5): not legal (legal: 1, 3, 4)

Portable core: MicroPython subset. No `re`: the tokenizer is written out by hand, and the text and
JSON are built in a fixed order so both runtimes write the same bytes.
"""

import json

from .variants import (RulesError, MAX_DIGITS, get_variant, parse_number,
                       parse_option_text, shown)
from .game import Game, Rules, SOUTH, SIDES
from .match import Match

# The tags a caller may set, in the order they are written, and what an unknown one says.
INFO_TAGS = ("Event", "Site", "Date", "Round", "South", "North")
UNKNOWN = ("?", "?", "????.??.??", "?", "?", "?")

# The tags the game decides, in the order they are written (after the INFO_TAGS).
GAME_TAGS = ("Variant", "Options", "Setup", "Result", "First", "Hand", "Aside", "Score",
             "Termination")

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
LINE_WIDTH = 80     # movetext lines are wrapped before they grow longer than this


def result_text(game):
    """The game's result as a record writes it: "1-0" (South won), "0-1", "1/2-1/2" or "*"."""
    if not game.over:
        return "*"
    winner = game.winner()
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == SOUTH else "0-1"


# --- writing ---------------------------------------------------------------------------------


def write_game(game, tags=None, comments=None):
    """The record of `game` (a `Game`) as PGN-style text, ending with a newline.

    `tags` maps tag names to values: Event, Site, Date, Round, South and North, plus any other
    tags of your own (a name of letters, digits and underscores). The tags the game decides
    (Variant, Options, Setup, Result, First, Hand, Aside, Score, Termination) always come from
    the game; given in `tags` they are ignored, so the tags `read` returns can be passed back.

    `comments` is one text (or None) per move, written in braces after it: ``3 {+2.5}`` (an
    analysis's `comments()`). The reader skips comments.
    """
    return _section_text(_tag_pairs(game, tags, None, None),
                         _movetext(game, _check_comments(game, comments)))


def write_match(match, tags=None):
    """The record of `match` (a `Match`): one section per hand, separated by a blank line.

    `tags` is one dict for every hand, or a list with one dict per hand (what `read` returns).
    """
    hands = _hand_tags(match, tags)
    return "\n".join([_section_text(pairs, _movetext(game)) for game, pairs in hands])


def game_to_json(game, tags=None):
    """The record of `game` as one line of JSON: ``{"tags": {...}, "moves": [...]}``.

    The tags are the same strings `write_game` writes, in the same order; the text is built here
    in that fixed order, so CPython and MicroPython write the same bytes.
    """
    return _json_hand(_tag_pairs(game, tags, None, None), game.moves)


def match_to_json(match, tags=None):
    """The record of `match` as one line of JSON: ``{"hands": [{"tags": ..., "moves": ...}]}``."""
    hands = _hand_tags(match, tags)
    return '{"hands": [%s]}' % ", ".join([_json_hand(pairs, game.moves) for game, pairs in hands])


def _hand_tags(match, tags):
    """(game, tag pairs) for each hand of `match`."""
    games = match.games
    if isinstance(tags, (list, tuple)):
        if len(tags) != len(games):
            raise RulesError("%d tag dicts for a match of %d hands" % (len(tags), len(games)))
        per_hand = tags
    else:
        per_hand = [tags] * len(games)
    asides = match.asides()
    return [(games[k], _tag_pairs(games[k], per_hand[k], k + 1, asides[k]))
            for k in range(len(games))]


def _tag_pairs(game, tags, hand, aside):
    """The tags of `game` as (name, value) pairs in the order they are written."""
    if (game.start_captured != [0, 0] or game.start_uur != [None] * game.rules.size
            or not game.start_first_move):
        raise RulesError("a record starts from a set-up: this game starts from a position in "
                         "play (captured seeds, Uurs or a later move)")
    if tags is None:
        tags = {}
    elif not isinstance(tags, dict):
        raise RulesError("tags must be a dict of tag names to values, not %r" % (tags,))
    pairs = []
    for k in range(len(INFO_TAGS)):
        name = INFO_TAGS[k]
        value = tags.get(name)
        pairs.append((name, UNKNOWN[k] if value is None else _tag_value(name, value)))
    rules = game.rules
    pairs.append(("Variant", rules.name))
    pairs.append(("Options", " ".join(rules.option_texts())))
    pairs.append(("Setup", ",".join([str(count) for count in game.setup])))
    pairs.append(("Result", result_text(game)))
    pairs.append(("First", SIDES[game.first]))
    if hand is not None:
        pairs.append(("Hand", str(hand)))
        pairs.append(("Aside", "%d,%d" % (aside[0], aside[1])))
    if game.over:
        scores = game.scores
        pairs.append(("Score", "%d-%d" % (scores[0], scores[1])))
        pairs.append(("Termination", game.end_reason))
    # the caller's own tags, sorted: a dict's order is not the same on every runtime
    extra = sorted([name for name in tags if name not in INFO_TAGS and name not in GAME_TAGS])
    for name in extra:
        if not _is_tag_name(name):
            raise RulesError("tag name %r must be letters, digits and underscores, "
                             "starting with a letter" % (name,))
        pairs.append((name, _tag_value(name, tags[name])))
    return pairs


def _tag_value(name, value):
    """A tag value as text: one line, no control characters (PGN allows none)."""
    text = value if isinstance(value, str) else str(value)
    for char in text:
        if ord(char) < 32 or ord(char) == 127:
            raise RulesError("tag %s: the value %r holds a control character" % (name, text))
    return text


def _is_tag_name(name):
    if not isinstance(name, str) or not name or not _is_letter(name[0]):
        return False
    for char in name:
        if not (_is_letter(char) or "0" <= char <= "9" or char == "_"):
            return False
    return True


def _is_letter(char):
    return "A" <= char <= "Z" or "a" <= char <= "z"


def quote(text):
    """`text` in double quotes, backslash and double quote escaped (PGN and JSON agree on this,
    and tag values hold no control characters)."""
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _section_text(pairs, movetext):
    lines = ["[%s %s]" % (name, quote(value)) for name, value in pairs]
    lines.append("")
    lines.append(movetext)
    return "\n".join(lines) + "\n"


def _json_hand(pairs, moves):
    tags = ", ".join(["%s: %s" % (quote(name), quote(value)) for name, value in pairs])
    return '{"tags": {%s}, "moves": [%s]}' % (tags, ", ".join([str(move) for move in moves]))


class _Numbering:
    """PGN's move numbers. A South move starts the next number ("7. 3"); a North move answering
    it shares the number and is written bare ("7. 3 5"); any other North move (North moved
    first, or South passed) takes the next number with three dots ("7... 5")."""

    __slots__ = ("number", "answerable")

    def __init__(self):
        self.number = 0
        self.answerable = False     # the number in use holds a South move and no North move yet

    def next(self, mover):
        """Number `mover`'s next move; returns what is written before it."""
        if mover == SOUTH:
            self.number += 1
            self.answerable = True
            return "%d. " % self.number
        if self.answerable:
            self.answerable = False
            return ""
        self.number += 1
        return "%d... " % self.number


def _movers(game):
    """Who made each of `game`'s moves. Only Mangala IV has passes, so only it is replayed."""
    if not game.rules.mangala:
        return [(game.first + ply) % 2 for ply in range(len(game.moves))]
    replay = Game(game.rules, None, game.setup, game.first)
    movers = []
    for move in game.moves:
        movers.append(replay.to_move)
        replay.push(move)
    return movers


def _check_comments(game, comments):
    """`comments` checked: None, or one text or None per move, one line without braces."""
    if comments is None:
        return None
    if not isinstance(comments, (list, tuple)) or len(comments) != len(game.moves):
        raise RulesError("comments must be a list of one text (or None) per move: %d moves" % (
            len(game.moves)))
    for ply in range(len(comments)):
        text = comments[ply]
        if text is None:
            continue
        if not isinstance(text, str):
            raise RulesError("comment %d must be text, not %r" % (ply + 1, text))
        for char in text:
            if char in "{}" or ord(char) < 32 or ord(char) == 127:
                raise RulesError("comment %d (%r) holds %r: a comment is one line without "
                                 "braces" % (ply + 1, text, char))
    return comments


def _movetext(game, comments=None):
    """The numbered moves (each with its comment, if any) and the result, wrapped before
    LINE_WIDTH (a number and a comment stay with their move)."""
    numbering = _Numbering()
    units = []
    movers = _movers(game)
    for ply in range(len(game.moves)):
        unit = numbering.next(movers[ply]) + str(game.moves[ply])
        if comments is not None and comments[ply] is not None:
            unit += " {%s}" % comments[ply]
        units.append(unit)
    units.append(result_text(game))
    lines = []
    line = ""
    for unit in units:
        if line and len(line) + 1 + len(unit) > LINE_WIDTH:
            lines.append(line)
            line = unit
        else:
            line = line + " " + unit if line else unit
    lines.append(line)
    return "\n".join(lines)


# --- reading ---------------------------------------------------------------------------------


def read(text):
    """Replay the one game or match a text record holds: ``(game_or_match, tags)``.

    A record without Hand tags is one game: a `Game` at the position after its last move. A
    record whose sections carry Hand tags 1, 2, ... is a match: a `Match` whose last hand is in
    play, or over and closed (`match.holdings`, `match.over`, `match.winner`, `match.arranger`
    are then known, as after ``match.end_hand()``). `tags` is a list of dicts, one per hand (one for a game), every tag of the
    record included, values as written::

        game, tags = read(text)
        print(game.moves, game.scores, tags[0]["Event"])

    Raises RulesError for any problem, naming the line; a text holding several games or matches
    is read with `read_all`.
    """
    return _only(read_all(text))


def read_all(text):
    """Every game and match in a text record, in order: a list of ``(game_or_match, tags)``
    as `read` returns them. A section without a Hand tag is a game of its own; Hand 1 starts a
    match and Hand 2, 3, ... continue it."""
    return _build(_parse_text(text))


def read_games(text):
    """Every game in a text record, in order, a match's hands included (each still checked as a
    hand of its match)."""
    games = []
    for item, _tags in read_all(text):
        if isinstance(item, Match):
            games.extend(item.games)
        else:
            games.append(item)
    return games


def read_json(text):
    """Replay a JSON record (a game or a match): ``(game_or_match, tags)`` as `read` returns."""
    if not isinstance(text, str):
        raise RulesError("a JSON record is text, not %s" % type(text).__name__)
    try:
        data = json.loads(text)
    except (ValueError, RuntimeError) as error:    # RuntimeError: nested too deep
        raise RulesError("not a JSON record: %s" % (error,))
    if not isinstance(data, dict):
        raise RulesError('a JSON record is an object with "tags" and "moves", or "hands"')
    if "hands" in data:
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise RulesError('"hands" must be a list of {"tags": ..., "moves": ...}')
        sections = [_json_section(hands[k], "hands[%d]" % k) for k in range(len(hands))]
    else:
        sections = [_json_section(data, "the record")]
    return _only(_build(sections))


def _only(items):
    if len(items) != 1:
        raise RulesError("the record holds %d games or matches, not one (read them with "
                         "read_all)" % len(items))
    return items[0]


class _Section:
    """One tag section and its movetext, as read: not yet replayed."""

    __slots__ = ("tags", "lines", "moves", "result", "result_line", "line", "hand")

    def __init__(self, line):
        self.tags = {}
        self.lines = {}         # tag name -> line number (none for JSON)
        self.moves = []         # (move, line number or None)
        self.result = None  # type: str | None  # the result that ends the movetext
        self.result_line = None
        self.line = line        # where the section starts (None for JSON)
        self.hand = None        # the hand number, once known

    def fail(self, line, message, move=None):
        """A RulesError whose message says where: the line, the hand, the move."""
        where = []
        if line is not None:
            where.append("line %d" % line)
        if self.hand is not None:
            where.append("hand %d" % self.hand)
        if move is not None:
            where.append(move)
        if where:
            message = "%s: %s" % (", ".join(where), message)
        return RulesError(message)

    def tag_fail(self, name, message):
        return self.fail(self.lines.get(name, self.line), "%s: %s" % (name, message))


def _json_section(data, where):
    if not isinstance(data, dict):
        raise RulesError('%s must be an object {"tags": ..., "moves": ...}' % where)
    tags = data.get("tags")
    moves = data.get("moves")
    if not isinstance(tags, dict):
        raise RulesError('%s: "tags" must be an object of tag names to text' % where)
    if not isinstance(moves, list):
        raise RulesError('%s: "moves" must be a list of pit numbers' % where)
    section = _Section(None)
    for name in tags:
        if not isinstance(tags[name], str):
            raise RulesError("%s: tag %s must be text, not %r" % (where, name, tags[name]))
        section.tags[name] = tags[name]
    for move in moves:
        if isinstance(move, bool) or not isinstance(move, int):
            raise RulesError("%s: move %r is not a pit number" % (where, move))
        section.moves.append((move, None))
    return section


class _TextParser:
    """Splits a text record into sections: tag lines, then movetext tokens up to the result."""

    def __init__(self):
        self.sections = []
        self.section = None     # the section being read
        self.in_moves = False   # its movetext has begun
        self.comment = 0        # the line a {comment} still open began on, or 0

    def parse(self, text):
        number = 0
        for line in text.split("\n"):
            number += 1
            self.read_line(line, number)
        if self.comment:
            raise RulesError("line %d: a comment '{' is never closed" % self.comment)
        section = self.section
        if section is None:
            raise RulesError("the record holds no game")
        if section.result is None:
            raise RulesError("line %d: the game that starts on line %d has no result at the end "
                             "(1-0, 0-1, 1/2-1/2 or *)" % (number, section.line))
        return self.sections

    def read_line(self, text, number):
        stripped = text.strip()
        section = self.section
        if self.comment or (self.in_moves and section.result is None):
            if stripped[:1] == "[" and not self.comment:
                raise RulesError("line %d: a tag line inside the movetext: the game that starts "
                                 "on line %d has no result (1-0, 0-1, 1/2-1/2 or *)" % (
                                     number, section.line))
            self.scan(text, number)
        elif not stripped:
            return
        elif stripped[0] == "[":
            if section is None or section.result is not None:
                section = _Section(number)
                self.sections.append(section)
                self.section = section
                self.in_moves = False
            self.tag(stripped, number)
        elif section is None:
            raise RulesError('line %d: a record starts with tag lines such as '
                             '[Variant "layli-goobalay"], not %r' % (number, stripped))
        elif section.result is not None:
            self.scan(text, number)     # comments may follow the result; anything else fails
        else:
            self.in_moves = True
            self.scan(text, number)

    def tag(self, text, number):
        """Read `[Name "value"]` (backslash escapes backslash and double quote)."""
        bad = RulesError('line %d: bad tag line %r (a tag is [Name "value"])' % (number, text))
        size = len(text)
        i = _skip_spaces(text, 1)
        start = i
        while i < size and (_is_letter(text[i]) or "0" <= text[i] <= "9" or text[i] == "_"):
            i += 1
        name = text[start:i]
        if not _is_tag_name(name):
            raise bad
        i = _skip_spaces(text, i)
        if i >= size or text[i] != '"':
            raise bad
        i += 1
        chars = []
        while True:
            if i >= size:
                raise bad
            char = text[i]
            if char == '"':
                break
            if char == "\\":
                i += 1
                if i >= size or text[i] not in '\\"':
                    raise bad
                char = text[i]
            chars.append(char)
            i += 1
        i = _skip_spaces(text, i + 1)
        if i >= size or text[i] != "]" or text[i + 1:].strip():
            raise bad
        section = self.section
        if name in section.tags:
            raise RulesError("line %d: tag %s is given twice (first on line %d)" % (
                number, name, section.lines[name]))
        section.tags[name] = "".join(chars)
        section.lines[name] = number

    def scan(self, text, number):
        """Split a movetext line into tokens, skipping {comments} (which may span lines)."""
        size = len(text)
        i = 0
        while i < size:
            if self.comment:
                end = text.find("}", i)
                if end < 0:
                    return
                self.comment = 0
                i = end + 1
                continue
            char = text[i]
            if char.isspace():
                i += 1
            elif char == "{":
                self.comment = number
                i += 1
            elif char == "}":
                raise RulesError("line %d: '}' without a '{' before it" % number)
            else:
                start = i
                while i < size and not text[i].isspace() and text[i] != "{" and text[i] != "}":
                    i += 1
                self.token(text[start:i], number)

    def token(self, token, number):
        section = self.section
        if section.result is not None:
            raise RulesError("line %d: %r after the result %s" % (number, token, section.result))
        if token in RESULTS:
            section.result = token
            section.result_line = number
            return
        digits = 0
        while digits < len(token) and "0" <= token[digits] <= "9":
            digits += 1
        rest = token[digits:]
        if digits and not rest:
            if digits > MAX_DIGITS:
                raise RulesError("line %d: move %s is too large" % (number, shown(token)))
            section.moves.append((int(token), number))
            return
        dots = 0
        while dots < len(rest) and rest[dots] == ".":
            dots += 1
        if digits and (dots == 1 or dots == 3):
            if rest[dots:]:             # "7.3" or "7...5": a move follows its number
                self.token(rest[dots:], number)
            return                      # a move number: the reader numbers moves itself
        raise RulesError("line %d: %r is not a move (a pit number), a move number (7. or 7...) "
                         "or a result (1-0, 0-1, 1/2-1/2, *)" % (number, token))


def _skip_spaces(text, i):
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _parse_text(text):
    if not isinstance(text, str):
        raise RulesError("a record is text, not %s" % type(text).__name__)
    return _TextParser().parse(text)


def _build(sections):
    """Replay the sections: a list of (game or match, tags per hand)."""
    items = []
    match = None
    for section in sections:
        hand = section.tags.get("Hand")
        if hand is None:
            items.append((_replay_game(section), [section.tags]))
            match = None
            continue
        try:
            section.hand = parse_number(hand, "Hand")
        except RulesError:
            section.hand = 0
        if section.hand < 1:
            raise section.tag_fail("Hand", "%s is not a hand number 1, 2, ..." % shown(hand))
        if section.hand == 1:
            match = _start_match(section)
            tags = [section.tags]
            items.append((match, tags))
        elif match is None or section.hand != len(match.games) + 1:
            expected = 1 if match is None else len(match.games) + 1
            raise section.tag_fail("Hand", "hand %d where hand %d should come" % (
                section.hand, expected))
        else:
            _next_hand(match, section)
            tags.append(section.tags)
        _play(match.game, section)
    for item, _tags in items:
        if isinstance(item, Match) and item.game.over and item.holdings is None:
            item.end_hand()     # what follows an ended hand is known: holdings, arranger
    return items


def _rules_and_setup(section):
    """The variant, options and set-up a section's tags give, as (Rules, setup or None)."""
    variant = section.tags.get("Variant")
    if variant is None:
        raise section.fail(section.line, 'no Variant tag (such as [Variant "layli-goobalay"])')
    try:
        get_variant(variant)
    except RulesError as error:
        raise section.tag_fail("Variant", str(error))
    options = {}
    for text in section.tags.get("Options", "").split():
        try:
            name, value = parse_option_text(text)
        except RulesError as error:
            raise section.tag_fail("Options", str(error))
        if name in options:
            raise section.tag_fail("Options", "option %s is given twice" % name)
        options[name] = value
    try:
        rules = Rules(variant, options)
    except RulesError as error:
        raise section.tag_fail("Options", str(error))
    text = section.tags.get("Setup")
    if text is None or text == "?":
        if rules.options.get("setup") == "random":
            raise section.tag_fail("Setup", "a random set-up must be carried as its counts")
        return rules, None
    counts = []
    for part in text.split(","):
        try:
            counts.append(parse_number(part, "count"))
        except RulesError as error:
            raise section.tag_fail("Setup", "%s (Setup is %d counts separated by commas)" % (
                error, rules.size))
    try:
        return rules, rules.check_setup(counts)
    except RulesError as error:
        raise section.tag_fail("Setup", str(error))


def _first(section):
    """Who moved first by the First tag: 0, 1, or None when it is not given."""
    text = section.tags.get("First")
    if text is None or text == "?":
        return None
    if text not in SIDES:
        raise section.tag_fail("First", "%r is not South or North" % text)
    return SIDES.index(text)


def _replay_game(section):
    rules, setup = _rules_and_setup(section)
    if "Aside" in section.tags:
        raise section.tag_fail("Aside", "only the hands of a match hold seeds aside")
    game = Game(rules, None, setup, _first(section))
    _play(game, section)
    return game


def _start_match(section):
    rules, setup = _rules_and_setup(section)
    try:
        match = Match(rules, setup=setup, first=_first(section))
    except RulesError as error:
        raise section.tag_fail("Hand", str(error))
    _check_aside(match, section)
    return match


def _next_hand(match, section):
    """Close the hand before `section` and start the one it records from its Setup."""
    before = section.hand - 1
    if not match.game.over:
        raise section.tag_fail("Hand", "hand %d is not over, so no hand can follow it" % before)
    match.end_hand()
    if match.over:
        raise section.tag_fail("Hand", "the match was over after hand %d (%s)" % (
            before, _match_end(match)))
    rules, setup = _rules_and_setup(section)
    if rules.name != match.rules.name or rules.option_texts() != match.rules.option_texts():
        raise section.tag_fail("Variant", "every hand of a match is played with the rules of "
                                          "hand 1 (Variant and Options)")
    if setup is None:
        raise section.tag_fail("Setup", "a hand after the first needs its arrangement")
    n = rules.n
    rows = [setup[:n], setup[n:]]
    arranger = match.arranger
    try:
        match.arrange(rows[arranger], rows[1 - arranger])
    except RulesError as error:
        raise section.tag_fail("Setup", str(error))
    first = _first(section)
    if first is not None and first != match.game.first:
        raise section.tag_fail("First", "%s, but %s moves first in this hand (next_first=%s)" % (
            SIDES[first], SIDES[match.game.first], rules.options["next_first"]))
    _check_aside(match, section)


def _match_end(match):
    if match.winner is None:
        return "a drawn match"
    return "%s won the match" % SIDES[match.winner]


def _check_aside(match, section):
    text = section.tags.get("Aside")
    if text is None or text == "?":
        return
    try:
        aside = [parse_number(part, "Aside count") for part in text.split(",")]
    except RulesError:
        aside = []
    if len(aside) != 2 or aside[0] < 0 or aside[1] < 0:
        raise section.tag_fail("Aside", "%s is not two counts South,North (such as 0,8)" % (
            shown(text)))
    expected = match.aside
    if aside != expected:
        raise section.tag_fail("Aside", "%s, but the players hold %d,%d aside in this hand" % (
            text, expected[0], expected[1]))


def _play(game, section):
    """Replay the section's moves on `game`, then check the result tags against it."""
    numbering = _Numbering()
    n = game.rules.n
    for move, line in section.moves:
        mover = game.to_move
        numbering.next(mover)
        if game.is_legal(move):
            game.push(move)
            continue
        if game.over:
            problem = "the game is already over (%s)" % game.end_reason
        elif move < 1 or move > n:
            problem = "not a pit number 1..%d" % n
        else:
            problem = "not legal (legal: %s)" % ", ".join([str(m) for m in game.legal_moves()])
        raise section.fail(line, problem, "move %d (%s %d)" % (
            numbering.number, SIDES[mover], move))
    actual = result_text(game)
    if game.over:
        scores = game.scores
        ending = "ends %s (%d-%d, %s)" % (actual, scores[0], scores[1], game.end_reason)
    else:
        ending = "is not over after its moves (*)"
    given = section.tags.get("Result")
    if given is not None:
        if given not in RESULTS:
            raise section.tag_fail("Result", "%r is not 1-0, 0-1, 1/2-1/2 or *" % given)
        if given != actual:
            raise section.tag_fail("Result", "%s, but the game %s" % (given, ending))
    if section.result is not None and section.result != actual:
        raise section.fail(section.result_line, "the movetext ends %s, but the game %s" % (
            section.result, ending))
    score = section.tags.get("Score")
    if score is not None and score != "?":
        expected = "%d-%d" % (game.scores[0], game.scores[1]) if game.over else None
        if score != expected:
            raise section.tag_fail("Score", "%s, but the game %s" % (score, ending))
    termination = section.tags.get("Termination")
    if termination is not None and termination != "?" and termination != game.end_reason:
        raise section.tag_fail("Termination", "%s, but the game %s" % (termination, ending))

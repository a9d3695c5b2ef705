"""The four variants and their options (docs/rules.md sections 2-6).

Every choice a reasonable reader of the old texts could make differently is an option with a
default; `resolve_options` checks a caller's options against this table and fills in the defaults.
Option values arrive either as Python values (the API) or as text (the CLI, config files, game
records); both are accepted and checked the same way.

Portable core: MicroPython subset, no imports beyond the standard minimum.
"""


class RulesError(ValueError):
    """Bad input to the rules engine: an unknown variant or option, a bad set-up, an illegal move.

    The message is one line that names the problem, ready to show a player or print on stderr.
    """


MAX_DIGITS = 9      # every count, move and option value fits; longer text is no number here


def shown(text, most=24):
    """`text` quoted for an error message, cut short when long."""
    text = str(text)
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def parse_number(text, what):
    """A whole number written with the ASCII digits 0-9 (and an optional leading minus), or a
    RulesError naming `what`. Not `int()` alone: it takes other scripts' digits and spaces."""
    text = str(text).strip()
    digits = text[1:] if text[:1] == "-" else text
    if not digits or [char for char in digits if char not in "0123456789"]:
        raise RulesError("%s %s is not a whole number" % (what, shown(text)))
    if len(digits) > MAX_DIGITS:
        raise RulesError("%s %s is too large" % (what, shown(text)))
    return int(text)


# Option specs: name -> (kind, default, choices or (low, high), what it means, source)
# kind is "bool", "int" or "choice".
_CAPTURE_LAST_SEED = ("bool", True, None,
                      "the capturing (last sown) seed is captured with the opposite pit",
                      "every text (seeds 000-003); false = Ludii, which leaves it on the board")
_END_WHEN = ("choice", "mover", ("mover", "either"),
             "mover: the game ends when the player to move has no legal move; "
             "either: after any turn, when either row holds no seed outside Uurs",
             "seeds 000-003 (mover); Ludii (either)")
_FIRST_MOVE_RIGHT = ("bool", False, None,
                     "the first move of a game must be the mover's rightmost playable pit",
                     "Ludii's file after Marin 1931")
_ARRANGEMENT = ("choice", "mirror", ("mirror", "free"),
                "how the player holding more seeds places them for the next hand: mirror copies "
                "the arrangement pit for pit; free is any arrangement, one seed per pit or more",
                "seed 000 is silent; mirror after Pankhurst's Gabradarre")
_NEXT_FIRST = ("choice", "arranger", ("arranger", "alternate"),
               "who moves first in the next hand: the player who arranged first, or alternate",
               "not in the sources (docs/rules.md 2.1)")
_HANDS = ("int", 0, (0, 1000),
          "the most hands in a match (0 = no limit); then the player holding more seeds wins",
          "docs/rules.md 2.1")
_ENDLESS = ("choice", "illegal", ("illegal", "abar"),
            "illegal: a move that would drop a seed beyond endless_bound is not legal; "
            "abar: it is legal and changes nothing but the turn",
            "docs/rules.md 6 (no source addresses endless relays)")
# Mangala IV takes the option (a record may name it) and ignores it: an endless forced move
# ends the game, and with start=free endless moves are never legal
_ENDLESS_MANGALA = ("choice", "illegal", ("illegal", "abar"),
                    "no effect in Mangala IV: an endless forced move ends the game; with "
                    "start=free an endless move is never legal",
                    "docs/rules.md 6")
_ENDLESS_BOUND = ("int", 10000, (1, 10000000),
                  "a move is endless when it would drop a seed beyond this many (every lap counted)",
                  "docs/rules.md 6")

_LAYLI_OPTIONS = {
    "capture_last_seed": _CAPTURE_LAST_SEED,
    "end_when": _END_WHEN,
    "first_move_right": _FIRST_MOVE_RIGHT,
    "arrangement": _ARRANGEMENT,
    "next_first": _NEXT_FIRST,
    "hands": _HANDS,
    "endless": _ENDLESS,
    "endless_bound": _ENDLESS_BOUND,
}


def _with(base, extra):
    options = {}
    for name in base:
        options[name] = base[name]
    for name in extra:
        options[name] = extra[name]
    return options


class Variant:
    """A variant: its board, sowing, capture family and the options it takes."""

    __slots__ = ("name", "title", "pits", "seeds", "direction", "family", "hands",
                 "options", "sources")

    def __init__(self, name, title, pits, seeds, direction, family, hands, options, sources):
        self.name = name
        self.title = title
        self.pits = pits            # pits per row (n); the long board's `pits` option changes it
        self.seeds = seeds          # seeds per pit at the standard start
        self.direction = direction  # 1 counterclockwise, -1 clockwise
        self.family = family        # "layli" (Uurs), "tampoduo" (no Uurs) or "mangala"
        self.hands = hands          # match play in hands (docs/rules.md 2.1)
        self.options = options
        self.sources = sources


VARIANTS = {
    "layli-goobalay": Variant(
        "layli-goobalay", "Layli Goobalay (Jama Musse Jama)", 6, 4, 1, "layli", True,
        _LAYLI_OPTIONS,
        "Jama Musse Jama 2002 (seed 000, Italian); Swedish and Russian Wikipedia (seeds 001, 003); "
        "Mancala World short board; Ludii"),
    "layli-goobalay-long": Variant(
        "layli-goobalay-long", "Layli Goobalay, long board (Marin 1931)", 12, 4, -1, "layli", True,
        _with(_LAYLI_OPTIONS, {
            "pits": ("int", 12, (6, 12), "pits per row (\"up to 12 holes\")", "seed 002"),
            "direction": ("choice", "clockwise", ("clockwise", "counterclockwise"),
                          "sowing direction (\"in some parts of Somalia ... anti-clockwise\")",
                          "seed 002 (Marin 1931, Mancala World)"),
        }),
        "G. Marin 1931 via Mancala World (seed 002); Ludii's Marin game; Gering 2003"),
    "tampoduo": Variant(
        "tampoduo", "Tampoduo / Ayo J'odu", 6, 4, 1, "tampoduo", True,
        _with(_LAYLI_OPTIONS, {
            "must_feed": ("bool", False, None,
                          "when the opponent's row is empty the mover must leave it a seed; "
                          "when no move can, the game ends", "oware.org Tampoduo"),
        }),
        "Jama Musse Jama 2002 (seed 000); oware.org"),
    "mangala-iv": Variant(
        "mangala-iv", "Mangala IV (Gaziantep)", 7, 7, 1, "mangala", False,
        {
            "setup": ("setup", "seven", ("seven", "random"),
                      "seven per pit, or 98 stones dealt at random with at least 2 per pit "
                      "(dealt once, then an explicit list); an explicit list of 14 counts is "
                      "given as the set-up itself", "seed 004; Culin 1894"),
            "first": ("int", 0, (0, 1), "who moves first: 0 South, 1 North (the side chosen in "
                      "the \"Tek mi, Cift mi?\" ritual decides who is South)", "seed 004"),
            "start": ("choice", "leftmost", ("leftmost", "rightmost", "free"),
                      "each turn starts from the mover's leftmost occupied pit; rightmost is "
                      "Culin's \"head\"; free is StoneShark's reading",
                      "seed 004 (Guellue 2007); Culin 1894; StoneShark"),
            "endless": _ENDLESS_MANGALA,
            "endless_bound": _ENDLESS_BOUND,
        },
        "Adnan Guellue 2007 via Mancala World (seed 004); Culin 1894 (La'b madjnuni)"),
}


def get_variant(name):
    """The `Variant` called `name`, or a RulesError listing the known ones."""
    variant = VARIANTS.get(name)
    if variant is None:
        raise RulesError("unknown variant %r (known: %s)" % (name, ", ".join(sorted(VARIANTS))))
    return variant


def _parse_value(variant, name, spec, value):
    kind, _default, allowed, _what, _source = spec
    where = "option %s of %s" % (name, variant.name)
    if kind == "bool":
        if value is True or value is False:
            return value
        text = str(value).lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise RulesError("%s must be true or false, not %r" % (where, value))
    if kind == "int":
        if type(value) is int:
            number = value
        elif isinstance(value, str):
            number = parse_number(value, where)
        else:
            raise RulesError("%s must be a whole number, not %s" % (where, shown(value)))
        low, high = allowed
        if number < low or number > high:
            raise RulesError("%s must be from %d to %d, not %d" % (where, low, high, number))
        return number
    if kind == "setup":
        return _parse_setup_option(variant, where, value)
    text = str(value)
    if text not in allowed:
        raise RulesError("%s must be one of %s, not %s" % (where, ", ".join(allowed), shown(value)))
    return text


def _parse_setup_option(variant, where, value):
    """Mangala IV's `setup`: seven, random, or an explicit list of 2n counts (a list or text
    "7,7,...")."""
    if isinstance(value, (list, tuple)):
        items = list(value)
    elif str(value) in ("seven", "random"):
        return str(value)
    else:
        items = [parse_number(item, where + " count") for item in str(value).split(",")]
    size = 2 * variant.pits
    if len(items) != size:
        raise RulesError("%s must be seven, random or %d counts, not %d counts" % (
            where, size, len(items)))
    for item in items:
        if type(item) is not int or item < 0:
            raise RulesError("%s: %s is not a count" % (where, shown(item)))
    return items


def resolve_options(variant, options=None):
    """All of `variant`'s options, defaults filled in, `options` checked and converted.

    `options` maps option names to values (Python values or their text). Unknown names and bad
    values raise RulesError naming the option and what it accepts.
    """
    resolved = {}
    for name in variant.options:
        resolved[name] = variant.options[name][1]
    if options:
        for name in options:
            spec = variant.options.get(name)
            if spec is None:
                raise RulesError("unknown option %r for %s (known: %s)" % (
                    name, variant.name, ", ".join(sorted(variant.options))))
            resolved[name] = _parse_value(variant, name, spec, options[name])
    return resolved


def format_value(value):
    """An option value as text, the way records and the CLI write it."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, list):
        return ",".join([str(item) for item in value])
    return str(value)


def non_default_options(variant, resolved):
    """`name=value` texts for the options that differ from the defaults, sorted by name."""
    names = sorted(resolved)
    return ["%s=%s" % (name, format_value(resolved[name])) for name in names
            if resolved[name] != variant.options[name][1]]


def parse_option_text(text, where="option"):
    """Split `NAME=VALUE` into (name, value), or a RulesError."""
    cut = text.find("=")
    if cut <= 0:
        raise RulesError("%s %r is not NAME=VALUE" % (where, text))
    return text[:cut].strip(), text[cut + 1:].strip()

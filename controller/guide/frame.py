"""What each place on the board shows: a colour and a pattern (the guide's output).

The guide says *what* a place means — the mover's legal pit, the next pit to drop into, a seed in
the wrong pit — as a colour name and a pattern; `pixels.py` turns that into NeoPixel values
through the board profile. Meaning never rests on colour alone: every kind of place has its own
pattern too, so a colour-blind player can read the board.

Places are the 2n pits (docs/rules.md section 1) and the two stores: 2n is South's, 2n+1 North's.

Portable core: MicroPython subset.
"""

# Colour names (pixels.PALETTE gives their RGB).
OFF = "off"
SOUTH_COLOUR = "south"
NORTH_COLOUR = "north"
HINT = "hint"
ERROR = "error"          # a seed in the wrong pit, a pit touched outside the script
TOO_MANY = "too_many"    # difference view: more seeds than the script allows
TOO_FEW = "too_few"      # difference view: fewer seeds than the script needs
FAULT = "fault"          # a sensor that cannot be trusted

PLAYER_COLOURS = (SOUTH_COLOUR, NORTH_COLOUR)
COLOURS = (OFF, SOUTH_COLOUR, NORTH_COLOUR, HINT, ERROR, TOO_MANY, TOO_FEW, FAULT)

# Patterns, and what each means on the board.
DARK = "dark"            # nothing to do here
STEADY = "steady"        # a legal pit of the mover; the store seeds go to
UUR = "uur"              # an Uur, in its owner's colour: dim and steady, never dark
DROP = "drop"            # slow pulse: drop the next seed here
PICK = "pick"            # double blink: lift every seed from here (a relay's pick too)
TAKE = "take"            # fast pulse: empty this pit into the store (a capture, the end)
UUR_FROM = "uur_from"    # move one seed out of here ...
UUR_TO = "uur_to"        # ... into here: both become the mover's Uurs
FORCED = "forced"        # the mover's only move (Mangala IV's forced start)
PASS = "pass"            # this row has no stones: its player passes
FLASH = "flash"          # fast flash: a mistake here
MORE = "more"            # difference view, too many: slow on-off (with TOO_MANY)
LESS = "less"            # difference view, too few: short blips (with TOO_FEW)
BROKEN = "broken"        # a fault: on one second, off one second
WIN = "win"              # the winner's store at the end
WAIT = "wait"            # no game here yet: the stores breathe slowly (a tournament's table
                         # waiting for the game the server gives it)

# Their order is the frame's encoding (Frame.encode): new patterns go at the end.
PATTERNS = (DARK, STEADY, UUR, DROP, PICK, TAKE, UUR_FROM, UUR_TO, FORCED, PASS, FLASH, MORE, LESS,
            BROKEN, WIN, WAIT)


_BLANK = (OFF, DARK)


class Frame:
    """One LED frame: a (colour, pattern) pair per place."""

    __slots__ = ("places",)

    def __init__(self, size):
        self.places = [_BLANK] * size

    def clear(self):
        """Every place dark and off again: the frame drawn anew in place (a Pico's guide
        keeps one Frame; a new one is a list a nearly full heap is slow to find room for)."""
        places = self.places
        for place in range(len(places)):
            places[place] = _BLANK

    def set(self, place, colour, pattern):
        self.places[place] = (colour, pattern)

    def colour(self, place):
        return self.places[place][0]

    def pattern(self, place):
        return self.places[place][1]

    def where(self, pattern):
        """The places showing `pattern`, in order."""
        return [i for i in range(len(self.places)) if self.places[i][1] == pattern]

    def __eq__(self, other):
        return isinstance(other, Frame) and self.places == other.places

    def encode(self):
        """Two bytes a place, its colour's and its pattern's index in COLOURS and PATTERNS:
        how a frame travels to a Pico, which animates the patterns itself."""
        out = bytearray()
        for colour, pattern in self.places:
            out.append(COLOURS.index(colour))
            out.append(PATTERNS.index(pattern))
        return bytes(out)

    @staticmethod
    def decode(data):
        """The frame `encode` gave; ValueError naming the first byte that is no index."""
        if len(data) % 2:
            raise ValueError("a frame is 2 bytes a place, not %d bytes" % len(data))
        frame = Frame(len(data) // 2)
        for place in range(len(data) // 2):
            colour, pattern = data[2 * place], data[2 * place + 1]
            if colour >= len(COLOURS) or pattern >= len(PATTERNS):
                raise ValueError("place %d: colour %d or pattern %d is unknown" % (
                    place, colour, pattern))
            frame.places[place] = (COLOURS[colour], PATTERNS[pattern])
        return frame

    def __repr__(self):
        return "Frame(%r)" % (self.places,)


def waiting(size):
    """The frame of a board with no game to play yet: every pit dark, each store breathing
    slowly in its player's colour. Nothing on it asks for a move."""
    frame = Frame(size)
    frame.set(size - 2, SOUTH_COLOUR, WAIT)
    frame.set(size - 1, NORTH_COLOUR, WAIT)
    return frame

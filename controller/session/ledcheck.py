"""The bring-up's look at the LEDs of a board just built: the faults a first board has that the
rest of the test cannot see, each named with its fix.

- **The colour order.** Every ring is lit red, then green, and the person says what they see.
  A strip whose colour order is not the profile's shows red as green (or blue): the two answers
  give the strip's own order, and the fix says which `leds.order` to write.
- **Each ring, in the strip's order.** Each place's ring is lit alone, in the order the data
  runs along the strip, and the person says whether the ring round that place is lit all the
  way round. A WS2812B passes the data on to the next LED only once it has its own, so the
  first ring that stays dark, or lights only part of the way round, stops every ring after it:
  a ring wired backwards (the wire from the ring before it on its DOUT pad, not DIN), a broken
  data wire, or a dead LED or joint. A ring that lights round another place is in the chain
  in another order than the profile's `[leds] places` say: the person names the place it lit,
  and a pair of rings swapped is named as a pair.
- **Every ring at the strip's cap, the cells read.** The strip is lit white at the most current
  the profile allows it while the load cells are read, and their readings are compared with the
  dark board's. One LED at a time never loads the supply; the whole strip does, and a ground
  wire shared by the LEDs' current and the HX711s (not run back to the star point on its own),
  or a supply that sags, shows as cells that read noisier or move while nothing is on them —
  which calibration would otherwise take for heavier seeds.

It runs inside `BringUp` (bringup.py) on a board that can light single LEDs: the board gives
`leds` (its `LedLayout`: each place's LEDs on the strip and the caps), `led_order` (the profile's
colour order, "GRB") and `show_leds(pixels)` (one (r, g, b) per LED of the strip); the person
gives `choose(task)`, one of `task.options` or None when they cannot answer (then this part is
skipped). A board or person without them (the Pico's own self-test) skips it.

Portable core: MicroPython subset.
"""

from ..guide.pixels import MA_PER_CHANNEL
from ..rules.script import place_label
from ..sensing.calibration import median, robust_noise
from .bringup import COLOUR, DETECT, LIT, MIN_CHANGE, WHICH, Task

RING_MS = 300               # a ring lit this long before the question (the strip has it)
LOAD_MS = 2000              # the cells read this long with every ring lit
SETTLE_MS = 300             # ... after this long for the supply and the cells to settle
NOISIER = 3                 # lit readings this many times noisier than dark: a ground fault
                            # (or moved as far as a seed is told from the noise: DETECT)
COLOURS = ("red", "green", "blue")
SEEN = COLOURS + ("white", "none")

# The answers to a ring's question
WHOLE = "whole"             # the ring round the place, every LED lit
OTHER = "other"             # another place's ring lit instead
PART = "part"               # the place's ring, only part of the way round
DARK = "dark"               # nothing lit anywhere


def strip_order(order, red_seen, green_seen):
    """The colour order of a strip that showed red as `red_seen` and green as `green_seen`
    when sent in `order` (the profile's), or None when the answers fit no order.

        >>> strip_order("GRB", "red", "green")
        'GRB'
        >>> strip_order("GRB", "green", "red")      # a strip that takes RGB, sent GRB
        'RGB'
    """
    if red_seen not in COLOURS or green_seen not in COLOURS or red_seen == green_seen:
        return None
    blue_seen = [c for c in COLOURS if c not in (red_seen, green_seen)][0]
    # The byte that carries red in `order` is shown by the strip as red_seen: the strip's
    # order has red_seen's letter where `order` has R.
    letters = list(order[:3])
    strip = letters[:]
    for colour, seen in (("R", red_seen), ("G", green_seen), ("B", blue_seen)):
        strip[letters.index(colour)] = seen[0].upper()
    return "".join(strip) + order[3:]


class LedCheck:
    """The LED part of the bring-up of `board` with `person` (see the module): `run()` adds
    what it finds to `report` (bringup.Report); `name(place)` says a place in words, `noise`
    and `levels` are the dark board's per cell (None: no reading) and `dead` the cells not to
    watch."""

    def __init__(self, bringup):
        self.test = bringup
        self.board = bringup.board
        self.person = bringup.person
        self.report = bringup.report
        self.pits = bringup.pits
        self.layout = self.board.leds
        self.order = getattr(self.board, "led_order", "GRB")

    def run(self, cells):
        """The colours, the rings, then (with `cells`, a load-cell board whose empty readings
        were taken) the load. False when the person could not answer (nothing was checked)."""
        if not self.colour_order():
            return False
        self.rings()
        if cells:
            self.load()
        self.board.show_leds([(0, 0, 0)] * self.layout.count)
        return True

    # --- what is lit ------------------------------------------------------------------------

    def _level(self, channels, count):
        """The value (0..255) of each lit channel that keeps `count` LEDs with `channels` of
        their colours on within the profile's brightness and the strip's current cap."""
        layout = self.layout
        level = 255 * layout.brightness // 256
        most = layout.max_ma * 255 // (MA_PER_CHANNEL * channels * max(count, 1))
        return max(1, min(level, most))

    def _show(self, places, colour):
        """`places` lit in `colour` (an (r, g, b) of 0 or 1 a channel), at the caps."""
        layout = self.layout
        count = sum([len(layout.leds[p]) for p in places])
        value = self._level(sum(colour), count)
        pixel = (colour[0] * value, colour[1] * value, colour[2] * value)
        pixels = [(0, 0, 0)] * layout.count
        for place in places:
            for i in layout.leds[place]:
                pixels[i] = pixel
        self.board.show_leds(pixels)
        return value

    def _choose(self, kind, text, options, place=None, wait_ms=RING_MS):
        self.board.wait(wait_ms)
        return self.person.choose(Task(kind, text, place=place, options=options))

    # --- the colour order -------------------------------------------------------------------

    def colour_order(self):
        """Red, then green, on every ring; the strip's order named when it is not the
        profile's. False when the person cannot answer."""
        every = list(range(len(self.layout.leds)))
        seen = []
        for name, colour in (("red", (1, 0, 0)), ("green", (0, 1, 0))):
            self._show(every, colour)
            answer = self._choose(COLOUR, "Every ring should be lit %s now. What colour do you "
                                  "see? [red/green/blue/white/none]" % name, SEEN)
            if answer is None:
                return False
            seen.append(answer)
        if seen == ["red", "green"] or "none" in seen:
            return True                 # a dark strip: the rings' tour says where it stops
        order = strip_order(self.order, seen[0], seen[1])
        if order is None:
            self.report.add("Lit red the rings looked %s, lit green %s: not the colours of a "
                            "WS2812B strip in any order. Is the strip RGBW (four LEDs a pixel), "
                            "or are its 5 V and data wires sound?" % (seen[0], seen[1]))
        else:
            self.report.add("The rings show red as %s and green as %s: the strip takes its "
                            "colours in the order %s, not %s. Write order = \"%s\" in the "
                            "profile's [leds] (and make the Pico's config.json again)."
                            % (seen[0], seen[1], order, self.order, order))
        return True

    # --- the rings, one by one --------------------------------------------------------------

    def rings(self):
        """Each place's ring lit alone, in the strip's order; the first dark one (and what it
        stops) and the rings in the wrong places named."""
        layout, test = self.layout, self.test
        places = [p for p in range(len(layout.leds)) if layout.leds[p]]
        places.sort(key=lambda p: min(layout.leds[p]))
        elsewhere = {}                  # place -> the place its ring lit, or None: not said
        for k in range(len(places)):
            place = places[k]
            self._show([place], (1, 1, 1))
            answer = self._choose(LIT, "Is the ring round %s lit, every LED of it? [whole: "
                                  "yes, all of it; part: only part of it; other: another "
                                  "ring is lit; dark: nothing is lit]" % test.name(place),
                                  (WHOLE, PART, OTHER, DARK), place)
            if answer is None:
                return
            if answer == WHOLE:
                continue
            if answer == OTHER:
                keys = [place_label(p, self.pits) for p in range(len(layout.leds))]
                lit = self._choose(WHICH, "Which place's ring is lit? [%s]" % ", ".join(keys),
                                   keys, place, wait_ms=0)
                elsewhere[place] = None if lit is None else keys.index(lit)
                test.unlit.add(place)
                continue
            after = places[k + 1:]
            for dark in places[k:]:
                test.unlit.add(dark)
            first, last = min(layout.leds[place]), max(layout.leds[place])
            if answer == PART:
                why = ("lights only part of the way round: the first LED that stays dark, or "
                       "the joints before it, are broken (a WS2812B passes the data on only "
                       "through each LED in turn)")
            else:
                why = ("stays dark: its data comes in on the wrong pad (the ring is wired "
                       "backwards: the wire from the ring before it must go to its DI pad, "
                       "the arrows on its back pointing away from it) or its data wire is "
                       "broken")
            text = "%s's ring (LEDs %d-%d of the strip) %s." % (test.name(place), first,
                                                                 last, why)
            if after:
                text += " Every ring after it on the strip (%d: %s) stays dark until it is " \
                        "mended." % (len(after), ", ".join([place_label(p, self.pits)
                                                            for p in after]))
            self.report.add(text)
            break
        self._elsewhere(elsewhere)

    def _elsewhere(self, elsewhere):
        """The rings that lit round another place, a swapped pair once."""
        test, told = self.test, []
        for place in sorted(elsewhere):
            if place in told:
                continue
            lit = elsewhere[place]
            if lit is not None and elsewhere.get(lit, -1) == place:
                told.append(lit)
                self.report.add("The rings of %s and %s are swapped: lit for one, the other "
                                "lights. Swap the two rings' places in the chain, or their "
                                "entries in the profile's [leds] places." % (
                                    test.name(place), test.name(lit)))
            elif lit is not None:
                self.report.add("The ring lit for %s is round %s: the rings are chained in "
                                "another order than the profile's [leds] places say." % (
                                    test.name(place), test.name(lit)))
            else:
                self.report.add("The ring lit for %s is not round it: the rings are chained "
                                "in another order than the profile's [leds] places say."
                                % test.name(place))

    # --- every ring at the cap, the cells read ----------------------------------------------

    def load(self):
        """The strip at its cap while the cells are read; cells that read noisier, or moved,
        than on the dark board name the ground (or the supply)."""
        test, layout = self.test, self.layout
        every = list(range(len(layout.leds)))
        value = self._show(every, (1, 1, 1))
        count = sum([len(leds) for leds in layout.leds])
        current = 3 * value * count * MA_PER_CHANNEL // 255
        self.person.tell("Every ring lit white (about %d mA): watching the load cells for %g "
                         "seconds ..." % (current, LOAD_MS / 1000))
        test.board.wait(SETTLE_MS)
        frames = test.gather(LOAD_MS)
        self.board.show_leds([(0, 0, 0)] * layout.count)
        worse = []
        for channel in range(test.channels):
            level = test.levels[channel]
            if test.dead[channel] or level is None:
                continue
            values = [read[channel] for _, read in frames if read[channel] is not None]
            if len(values) < 3:
                continue
            centre = median(values)
            dark = test.noise[channel]
            lit = robust_noise(values, centre)
            moved = centre - level
            if lit > NOISIER * dark or (abs(moved) >= MIN_CHANGE and abs(moved) > DETECT * dark):
                worse.append((channel, lit / dark, moved))
        if not worse:
            self.person.tell("  the cells read as steadily with every ring lit: ok")
            return
        said = ", ".join(["%s (%.0fx noisier, moved %+d raw)" % (
            place_label(c, self.pits), ratio, moved) for c, ratio, moved in worse])
        self.report.add("With every ring lit (the strip at its cap, about %d mA) %d of the load "
                        "cells read worse than on the dark board: %s. The LEDs' current is "
                        "getting into the cells' readings: run the strip's ground back to the "
                        "star point on a wire of its own, never through the HX711s' ground, "
                        "and check the supply holds 5 V with every ring lit (hardware/README.md, "
                        "\"Power\"). Calibration would take this for heavier seeds." % (
                            current, len(worse), said), [c for c, _, _ in worse])

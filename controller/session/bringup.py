"""The bring-up test of a board just built: for a maker who has just soldered it, place by place,
in their words.

It first looks at the LEDs (ledcheck.py): the strip's colour order, each ring lit alone in the
strip's order (a ring wired backwards, a dead LED, rings in another order), and every ring at
the strip's current cap while the load cells are read (a bad ground). Then it lights each place in turn and asks for a seed there (a hand, on a board of IR beams), and
the sensor that answers must be that place's: another place's names the crossed wire. It
looks at every load cell's readings (one stuck at a value, or at the converter's limit) and
how fast each HX711 converts (a breakout still at 10 samples a second names its jumper), then
asks for every button and sounds the buzzer. It ends with a one-screen report::

    test = BringUp(board, person, pits=6)
    report = test.run()
    report.ok                   # True when nothing needs fixing
    print("\\n".join(report.lines()))

One procedure for every kind of board: `layli hardware test` runs it on a host
(controller/hardware/bringup.py: a Pico over USB, a Pi's own GPIO), and a pico-standalone
board runs it on the Pico itself (firmware/selftest.py). It talks to two objects:

- the **board**: `channels` (its sensors: a load cell per place, or a beam per pit),
  `counting` (True for load cells), `pin(what)` (where a wire goes, as the wiring diagram
  names it: "GP4" for a sensor channel, a button's name, "buzzer" or "clock"), `show(frame)`
  (a guide Frame of every place), `wait(ms)` (let `ms` pass; returns the sensor frames,
  [(t_ms, values)], and the buttons pressed meanwhile, ["new_game", ...]), `periods_us()`
  (each HX711's conversion period in us, 0 where not known; None when the board cannot tell)
  and `beep()`; a board that can light single LEDs also has `leds` (its LedLayout),
  `led_order` (the profile's colour order) and `show_leds(pixels)` (see ledcheck.py);
- the **person**: `tell(text)` (a line to read), `ready(text)` (do this, then say so),
  `ask(task)` (a `Task` at the board, which the board will see; returns at once),
  `status(text)` (what the board reads now, while it waits; may be ignored), `gave_up()`
  (True when the person says nothing happens: polled while waiting) and `answer(task)` (a
  yes-or-no question, RINGS or HEARD, in `task.text`: True, False, or None when this person
  cannot answer it); and, to check the LEDs, `choose(task)` (one of `task.options`, or None).
  Without those the LEDs' part is skipped (the Pico's own self-test).

Nothing here needs calibrating first: a seed is a change that stands out of each cell's own
noise, measured while the board is empty.

Portable core: MicroPython subset.
"""

from ..guide.frame import (Frame, SOUTH_COLOUR, NORTH_COLOUR, HINT, ERROR, STEADY,
                           FLASH)
from ..sensing.calibration import median, robust_noise, UNSTEADY
from ..sensing.frames import HX711_LOW, HX711_HIGH
from ..rules.game import SIDES
from ..rules.script import place_words
from ..protocol.messages import BUTTONS

COLOUR_WORDS = {SOUTH_COLOUR: "blue", NORTH_COLOUR: "orange"}

POLL_MS = 20            # the procedure looks at the board this often
LOOK_MS = 2000          # the first look at the empty board: noise, levels, rates
WINDOW = 8              # readings a seed's weight must hold steady over (86 ms of HX711s)
DETECT = 6              # a seed stands this many noise deviations out of a cell's reading ...
MIN_CHANGE = 30         # ... and this many raw units at least
STORE_SEEDS = 5         # seeds asked for on a store
HITS = 3                # frames in a row a beam must read broken to count as a hand
SEED_MS = 30000         # how long a place waits for its seed
PRESS_MS = 20000        # and a button for its press
AWAY_MS = 10000         # a hand to leave a beam
FLASH_MS = 1500         # a seed on the wrong place flashes there this long
SHOW_MS = 250           # what the board reads now, this often
SILENT_ASKS = 8         # no readings at all: the periods asked for this many times
FULL_SPS = 80           # the HX711 at RATE high (datasheet; olkal measured 93.4)
SLOW_SPS = 20           # under this a breakout is at RATE low: 10 (olkal: 11.7)

# The Pico's self-test (firmware/selftest.py) on its serial port: the first line of all it
# said, sent again to a listener that asks, and the start of its last line
SELF_TEST_START = "layli self-test: from the start"
SELF_TEST_DONE = "layli self-test: done"

SEED = "seed"           # Task kinds: put a seed on `place`
HAND = "hand"           # put a hand (or a seed) into `place`'s beam
AWAY = "away"           # take the hand out of `place`
PRESS = "press"         # press `button`
RINGS = "rings"         # questions: was the lit ring round `place`?
HEARD = "heard"         # did the buzzer sound?
COLOUR = "colour"       # choices (ledcheck.py): what colour are the lit rings?
LIT = "lit"             # what does the ring round `place` show?
WHICH = "which"         # which place's ring is lit?


def button_words(name):
    """"NEW GAME": a button as its label says it."""
    return name.replace("_", " ").upper()


def owner_colour(place, pits):
    """The colour a place is lit in: South's blue, North's orange (its owner's)."""
    if place >= 2 * pits:
        return SOUTH_COLOUR if place == 2 * pits else NORTH_COLOUR
    return SOUTH_COLOUR if place < pits else NORTH_COLOUR


class Task:
    """What the person is asked to do at the board — `kind` SEED, HAND, AWAY or PRESS at
    `place` (or with `button`) — or asked about it: a yes or no (RINGS, HEARD), or one of
    `options` (COLOUR, LIT, WHICH: ledcheck.py), said in `text`."""

    __slots__ = ("kind", "place", "button", "text", "options")

    def __init__(self, kind, text, place=None, button=None, options=None):
        self.kind = kind
        self.text = text
        self.place = place
        self.button = button
        self.options = options

    def __repr__(self):
        return "Task(%r, %r)" % (self.kind, self.text)


class Fix:
    """One thing to put right: `text` says what and how; `channels` and `buttons` are what it
    is about (the report's table points at it from their lines)."""

    __slots__ = ("text", "channels", "buttons", "rate")

    def __init__(self, text, channels=(), buttons=(), rate=False):
        self.text = text
        self.channels = tuple(channels)
        self.buttons = tuple(buttons)
        self.rate = rate            # about a cell's samples a second (its own column)


class Report:
    """What the test found. `ok` is True when there is nothing to fix; `lines()` is the
    one-screen report. Per sensor channel: `tested` (True once its place answered) and
    `rates` (samples a second, load cells);
    `buttons` (name -> True when its press came right), `buzzer` (True heard, False not,
    None not asked); `fixes` in the order found."""

    def __init__(self, pits, channels, counting):
        self.pits = pits
        self.channels = channels
        self.counting = counting
        self.tested = [False] * channels
        self.rates = [None] * channels
        self.frame_rate = None
        self.buttons = {}
        self.buzzer = None
        self.fixes = []

    @property
    def ok(self):
        return not self.fixes and all(self.tested) and len(self.buttons) == len(BUTTONS) \
            and all(self.buttons.values()) and self.buzzer is True

    def add(self, text, channels=(), buttons=(), rate=False):
        """Note a thing to fix; returns its number in the report (1, 2, ...)."""
        self.fixes.append(Fix(text, channels, buttons, rate))
        return len(self.fixes)

    def _marks(self, channel=None, button=None, rate=False):
        marks = []
        for number in range(len(self.fixes)):
            fix = self.fixes[number]
            if fix.rate != rate:
                continue
            if (channel is not None and channel in fix.channels) or (
                    button is not None and button in fix.buttons):
                marks.append(str(number + 1))
        return "fix " + ", ".join(marks) if marks else ""

    def lines(self, width=78):
        """The report: a line per place, the buttons, the buzzer, then what to fix."""
        pits = self.pits
        out = ["%-16s %-22s %s" % ("place", "sensor", "samples a second" if self.counting
                                   else "")]
        for place in range(2 * pits + 2):
            name = place_words(place, pits)
            if place >= self.channels:
                out.append("%-16s %s" % (name, "no sensor on this board"))
                continue
            sensor = self._marks(channel=place) or ("ok" if self.tested[place]
                                                   else "not tested")
            rate = ""
            if self.counting:
                sps = self.rates[place]
                rate = "%5.1f" % sps if sps is not None else "    ?"
                mark = self._marks(channel=place, rate=True)
                if mark:
                    rate += "  " + mark
            out.append(("%-16s %-22s %s" % (name, sensor, rate)).rstrip())
        if self.frame_rate is not None:
            out.append("the board sent %.1f frames of readings a second" % self.frame_rate)
        words = []
        for name in BUTTONS:
            verdict = self._marks(button=name) or (
                "ok" if self.buttons.get(name) else "not tested")
            words.append("%s %s" % (button_words(name), verdict))
        out.append("buttons: " + ", ".join(words))
        out.append("buzzer: " + {True: "ok", False: "not heard",
                                 None: "not checked"}[self.buzzer])
        if self.fixes:
            out.append("")
            out.append("To fix (%d):" % len(self.fixes))
            for number in range(len(self.fixes)):
                out.extend(wrap("%d. %s" % (number + 1, self.fixes[number].text), width,
                                "   "))
            out.append("Put these right, then run the test again.")
        elif self.ok:
            out.append("")
            out.append("All is well: every place, cell, button and the buzzer answered.")
        else:
            out.append("")
            out.append("Nothing is wrong, but not everything was tested: run it again.")
        return out


def wrap(text, width, indent=""):
    """`text` in lines of at most `width` characters (words are not broken), the lines after
    the first indented by `indent`."""
    lines = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(line)
    return lines


def samples_per_second(period_us):
    """A conversion period in us as samples a second (None for 0: not known)."""
    return 1000000 / period_us if period_us else None


def frame_rate(frames):
    """Frames a second over a list of (t_ms, values), or None for fewer than two."""
    if len(frames) < 2 or frames[-1][0] <= frames[0][0]:
        return None
    return (len(frames) - 1) * 1000 / (frames[-1][0] - frames[0][0])


class BringUp:
    """The bring-up test of `board` with `person` (see the module); `pits` per row,
    `players` the words for South and North."""

    def __init__(self, board, person, pits, players=SIDES):
        self.board = board
        self.person = person
        self.pits = pits
        self.places = 2 * pits + 2
        self.players = players
        self.channels = board.channels
        self.report = Report(pits, self.channels, board.counting)
        self.levels = [None] * self.channels       # each cell's reading now (its baseline)
        self.noise = [1.0] * self.channels
        self.dead = [False] * self.channels        # stuck, railed or silent: not watched
        self.found = {}                             # place -> the channel its seed moved
        self.unlit = set()          # places whose ring does not light round them (ledcheck)
        self.rings = {}             # place -> whether its lit ring was round it (None: unsaid)
        # how long each part waits (a test on a slow interpreter may shorten them)
        self.look_ms = LOOK_MS
        self.seed_ms = SEED_MS
        self.press_ms = PRESS_MS
        self.flash_ms = FLASH_MS

    def name(self, place):
        return place_words(place, self.pits, self.players)

    def where(self, channel):
        """"South's pit 5's input (GP7)"."""
        return "%s's input (%s)" % (self.name(channel), self.board.pin(channel))

    def run(self):
        """The whole test; returns the Report."""
        self.person.tell("The bring-up test: the LEDs, then each place lights in turn, then "
                         "the buttons and the buzzer.")
        streaming = self.look()
        if getattr(self.board, "leds", None) is not None and \
                getattr(self.person, "choose", None) is not None:
            from .ledcheck import LedCheck          # only where there is someone to ask
            LedCheck(self).run(streaming and self.board.counting)
        if streaming:
            self.tour()
        if self.board.counting:
            self.rates()
        self.buttons()
        self.buzzer()
        self.board.show(Frame(self.places))
        return self.report

    # --- the empty board --------------------------------------------------------------------

    def gather(self, ms):
        """The sensor frames of the next `ms`, [(t_ms, values)]."""
        frames = []
        waited = 0
        while waited < ms:
            got, _ = self.board.wait(POLL_MS)
            frames.extend(got)
            waited += POLL_MS
        return frames

    def look(self):
        """The empty board for LOOK_MS: each sensor's level and noise, a stuck or railed
        one, and the load cells' rates. False when no readings come at all."""
        board, person, report = self.board, self.person, self.report
        board.show(Frame(self.places))
        person.ready("Take every seed off the board and keep your hands off it.")
        person.tell("Watching the sensors for %g seconds ..." % (self.look_ms / 1000))
        frames = self.gather(self.look_ms)
        if not frames:
            self._silent()
            return False
        for channel in range(self.channels):
            values = [f[1][channel] for f in frames if f[1][channel] is not None]
            if not values:
                self.dead[channel] = True
                report.add("%s never gave a reading the Pico could trust: its HX711 never "
                           "signalled a result. Check its VCC (5 V), VDD (3.3 V), GND and its "
                           "DAT wire to %s." % (self.name(channel), board.pin(channel)),
                           (channel,))
                continue
            centre = median(values)
            self.levels[channel] = centre
            if board.counting:
                self._judge_cell(channel, values, centre)
            elif 2 * sum(values) > len(values):
                self.dead[channel] = True
                report.add("%s's beam reads broken with nothing in the pit: its receiver "
                           "does not see its emitter (are they facing each other? is the "
                           "emitter on 5 V?)." % self.name(channel), (channel,))
        if board.counting:
            report.frame_rate = frame_rate(frames)
            self._show_rates(self._periods())
        return True

    def _judge_cell(self, channel, values, centre):
        report = self.report
        if centre <= HX711_LOW or centre >= HX711_HIGH:
            self.dead[channel] = True
            report.add("%s reads %d, the converter's limit: its load cell's four wires (red "
                       "E+, black E-, white A-, green A+) are not all on its HX711, or the "
                       "HX711's VCC is under 4.5 V." % (self.name(channel), centre),
                       (channel,))
            return
        noise = robust_noise(values, centre)
        if noise == 0:
            self.dead[channel] = True
            report.add("%s reads %d all the time: no real load cell is that still. Its cell "
                       "is not connected to its HX711 (RED, BLK, WHT, GRN), or the HX711's "
                       "DAT wire to %s is shorted." % (
                           self.name(channel), centre, self.board.pin(channel)),
                       (channel,))
            return
        self.noise[channel] = noise if noise > 1 else 1.0

    def _silent(self):
        """No frames at all (a Pico whose reads stall: a cell it cannot mask, a clock wire
        off): its periods say which converted."""
        report, board = self.report, self.board
        if not board.counting:
            report.add("The board gave no readings of its pit sensors at all.")
            return
        # the Pico starts its converters afresh when none answers for a while (and learns
        # their rhythms again): ask a few times, a cell timed once has converted
        periods = None
        for _ in range(SILENT_ASKS):
            got = self._periods()
            if got is not None:
                periods = got if periods is None else [max(periods[c], got[c])
                                                       for c in range(self.channels)]
            self.board.wait(POLL_MS * 3)
        quiet = [c for c in range(self.channels) if periods is None or not periods[c]]
        text = ("No readings came from the load cells in %g seconds." % (self.look_ms / 1000))
        if periods is not None and 0 < len(quiet) < self.channels:
            text += " These never signalled a result: %s. Check their VCC (5 V), VDD (3.3 V), " \
                    "GND and DAT wires." % ", ".join([
                        "%s (DAT on %s)" % (self.name(c), board.pin(c)) for c in quiet])
        else:
            text += " None of them signalled a result: check the HX711s' VCC (5 V), VDD " \
                    "(3.3 V) and GND, and the clock wire from %s." % board.pin("clock")
        report.add(text, quiet)

    def _periods(self):
        periods = self.board.periods_us()
        if periods is None or len(periods) != self.channels:
            return None
        return periods

    def _show_rates(self, periods):
        """The readings now and how fast each cell converts, for the person to see."""
        person, report = self.person, self.report
        person.tell("The readings now (raw) and each HX711's samples a second:")
        for channel in range(self.channels):
            sps = None if periods is None else samples_per_second(periods[channel])
            level = self.levels[channel]
            person.tell("  %-16s %9s  %s" % (
                self.name(channel), "-" if level is None else "%d" % level,
                "?" if sps is None else "%.1f" % sps))
        rate = report.frame_rate
        if rate is not None:
            person.tell("  the board sends %.1f frames a second%s" % (
                rate, "" if rate >= FULL_SPS * 3 // 4 else
                ": too few (one slow HX711 slows every reading)"))

    # --- place by place ---------------------------------------------------------------------

    def tour(self):
        """Each place with a sensor lit in turn, and a seed (or a hand) asked for there."""
        person = self.person
        counting = self.board.counting
        if counting:
            person.tell("Put one seed on each place as it lights, and leave it there.")
        else:
            person.tell("Put your hand (or a seed) into each pit as it lights, then take it "
                        "out.")
        for place in range(self.channels):
            if self.dead[place]:
                person.tell("  %s: skipped (its sensor is to fix first)" % self.name(place))
                continue
            colour = owner_colour(place, self.pits)
            frame = Frame(self.places)
            frame.set(place, colour, STEADY)
            self.board.show(frame)
            if place in self.unlit:
                words = "%s (its ring is not right: see the LEDs above)" % self.name(place)
            else:
                words = "%s (lit %s)" % (self.name(place), COLOUR_WORDS[colour])
            if counting:
                # a store's cell is five times a pit's (5 kg): one seed may hide in its noise
                seeds = "one seed" if place < 2 * self.pits else "%d seeds" % STORE_SEEDS
                person.ask(Task(SEED, "Put %s in %s." % (seeds, words), place=place))
                found = self._watch_weight(place)
            else:
                person.ask(Task(HAND, "Put your hand in %s." % words, place=place))
                found = self._watch_beams(place)
            if found is None:
                self._nothing(place)
                continue
            channel, change = found
            self.found[place] = channel
            self.report.tested[channel] = True
            if counting and change < 0:
                self.report.add("%s's load cell reads less with a seed on it: swap its white "
                                "and green wires (A- and A+) at its HX711." % self.name(place),
                                (channel,))
            if channel == place:
                person.tell("  %s: ok%s" % (self.name(place), "" if not counting else
                                            " (%+d raw)" % change))
            else:
                self._elsewhere(place, channel, frame)
            if not counting:
                self._hand_away(place)
        self._crossed()
        if counting:
            person.tell("Take the seeds off the board.")

    def _watch_weight(self, place):
        """(channel, change) of the cell a seed moved, once it holds steady; None when none
        did (or the person says so)."""
        board, person = self.board, self.person
        live = [c for c in range(self.channels) if not self.dead[c]]
        windows = [[] for _ in range(self.channels)]
        waited = shown = 0
        while waited < self.seed_ms:
            frames, _ = board.wait(POLL_MS)
            waited += POLL_MS
            for _, values in frames:
                for c in live:
                    value = values[c]
                    if value is not None:
                        window = windows[c]
                        window.append(value)
                        if len(window) > WINDOW:
                            window.pop(0)
            best = None
            moving = False
            for c in live:
                window = windows[c]
                if len(window) < WINDOW:
                    continue
                centre = median(window)
                change = centre - self.levels[c]
                noise = self.noise[c]
                if abs(change) < MIN_CHANGE or abs(change) < DETECT * noise:
                    continue
                if robust_noise(window, centre) > UNSTEADY * noise + 1:
                    moving = True               # a hand on it: wait until it lets go
                    continue
                score = abs(change) / noise
                if best is None or score > best[2]:
                    best = (c, change, score)
            if best is not None and not moving:
                for c in live:                  # the board with this seed: the next baseline
                    if len(windows[c]) == WINDOW:
                        self.levels[c] = median(windows[c])
                return best[0], int(best[1])
            if place < self.channels and not self.dead[place] and waited - shown >= SHOW_MS \
                    and windows[place]:
                shown = waited
                person.status("%s reads %d" % (self.name(place), windows[place][-1]))
            if person.gave_up():
                break
        return None

    def _watch_beams(self, place):
        """(channel, 1) of the first beam a hand broke for HITS frames; None when none did."""
        board, person = self.board, self.person
        live = [c for c in range(self.channels) if not self.dead[c]]
        runs = [0] * self.channels
        waited = 0
        while waited < self.seed_ms:
            frames, _ = board.wait(POLL_MS)
            waited += POLL_MS
            for _, values in frames:
                for c in live:
                    runs[c] = runs[c] + 1 if values[c] else 0
                    if runs[c] >= HITS:
                        return c, 1
            if person.gave_up():
                break
        return None

    def _hand_away(self, place):
        self.person.ask(Task(AWAY, "Take your hand out.", place=place))
        live = [c for c in range(self.channels) if not self.dead[c]]
        calm = waited = 0
        while waited < AWAY_MS and calm < HITS:
            frames, _ = self.board.wait(POLL_MS)
            waited += POLL_MS
            for _, values in frames:
                calm = calm + 1 if not [c for c in live if values[c]] else 0

    def _nothing(self, place):
        if self.board.counting:
            self.report.add("No load cell changed with a seed on %s: check its cell's wires "
                            "(red E+, black E-, white A-, green A+), its HX711's power and its "
                            "DAT wire to %s." % (self.name(place), self.board.pin(place)),
                            (place,))
        else:
            self.report.add("No beam broke with a hand in %s: check its emitter and receiver "
                            "(powered? facing each other?) and its wire to %s." % (
                                self.name(place), self.board.pin(place)), (place,))
        self.person.tell("  %s: nothing changed" % self.name(place))

    def _elsewhere(self, place, channel, frame):
        """A seed on `place` moved `channel`: flash that place, and say so."""
        frame.set(channel, ERROR, FLASH)
        self.board.show(frame)
        what = "A seed on %s weighs" if self.board.counting else "A hand in %s breaks a beam"
        self.person.tell("  " + what % self.name(place) + " on %s." % self.where(channel))
        waited = 0
        while waited < self.flash_ms:
            self.board.wait(POLL_MS)
            waited += POLL_MS
        self.rings[place] = self.person.answer(Task(
            RINGS, "Was the lit ring the one round %s? [y/n]" % self.name(place), place=place))

    def _crossed(self):
        """Each place whose sensor answered on another's input, in words; a crossed pair
        once. The sensor under a place, wired to another place's pin, reads as that place's."""
        counting = self.board.counting
        wire = "DAT wire" if counting else "wire"
        sensor = "load cell" if counting else "beam"
        act = "a seed on %s weighs" if counting else "a hand in %s breaks the beam"
        told = []
        for place in sorted(self.found):
            channel = self.found[place]
            if channel == place or place in told:
                continue
            rings = self.rings.get(place)
            if self.found.get(channel) == place:
                told.append(channel)
                if self.rings.get(channel) is False:
                    rings = False
                text = ("%s and %s are crossed: %s on %s, and %s on %s. Swap their two %ss "
                        "(on %s and %s)" % (
                            self.name(place), self.name(channel), act % self.name(place),
                            self.where(channel), act % self.name(channel), self.where(place),
                            wire, self.board.pin(place), self.board.pin(channel)))
                channels = (place, channel)
            else:
                text = ("The %s you wired to %s reads on %s: its %s is on the wrong pin (it "
                        "goes on %s)" % (sensor, self.name(place), self.where(channel), wire,
                                         self.board.pin(place)))
                channels = (channel,)
            if rings is False:
                text = ("The ring lit for %s is not round it: the LED rings are chained in "
                        "another order than the profile's [leds] places say (or the profile is "
                        "another board's); %s answered on %s." % (
                            self.name(place), sensor, self.where(channel)))
            elif rings is None:
                text += "; or, if the lit rings were not round the places named, those rings " \
                        "are the other way round in the chain."
            else:
                text += "."
            self.report.add(text, channels)

    # --- the converters' rates --------------------------------------------------------------

    def rates(self):
        """Each HX711's samples a second from the periods the Pico measured (after the tour,
        every one has been timed); a breakout still at 10 named with its fix."""
        report = self.report
        periods = self._periods()
        for channel in range(self.channels):
            sps = None if periods is None else samples_per_second(periods[channel])
            report.rates[channel] = sps
            if sps is None:
                continue
            if sps < SLOW_SPS:
                report.add("%s: %.1f samples a second: its HX711 breakout is still at 10 SPS: "
                           "cut SJ2 and wire RATE to VDD, see hardware/README.md (\"The HX711 "
                           "breakouts\")." % (self.name(channel), sps), (channel,), rate=True)
            elif sps < FULL_SPS * 3 // 4:
                report.add("%s: %.1f samples a second, under the %d its HX711 gives with RATE "
                           "at VDD: check the wire from its RATE pad to VDD." % (
                               self.name(channel), sps, FULL_SPS), (channel,), rate=True)
        slow = [c for c in range(self.channels) if report.rates[c] is not None
                and report.rates[c] < FULL_SPS * 3 // 4]
        rate = report.frame_rate
        if not slow and rate is not None and rate < FULL_SPS * 3 // 4:
            for channel in range(self.channels):
                report.rates[channel] = None    # one of them is wrong: none is to be believed
            # the Pico reads every cell at once, when the slowest has a result: one slow
            # breakout slows them all, and its own period may not be told apart
            report.add("The board sends only %.1f readings a second, under the %d a breakout "
                       "gives with RATE at VDD: %s, and the Pico could not tell which. Cut "
                       "SJ2 and wire RATE to VDD on every breakout that has not had it done, "
                       "see hardware/README.md (\"The HX711 breakouts\")." % (
                           rate, FULL_SPS, "at least one HX711 breakout is still at 10 SPS"
                           if rate < SLOW_SPS else "at least one HX711 converts too slowly"),
                       range(self.channels), rate=True)

    # --- the buttons and the buzzer -----------------------------------------------------------

    def buttons(self):
        """Every button asked for in turn; a press of another, or none, named."""
        board, person, report = self.board, self.person, self.report
        board.show(Frame(self.places))
        board.wait(POLL_MS)                     # presses left over from before: not these
        came = {}
        for name in BUTTONS:
            person.ask(Task(PRESS, "Press %s." % button_words(name), button=name))
            got = None
            waited = 0
            while waited < self.press_ms and got is None:
                _, presses = board.wait(POLL_MS)
                waited += POLL_MS
                if presses:
                    got = presses[0]
                elif person.gave_up():
                    break
            came[name] = got
            if got == name:
                report.buttons[name] = True
                person.tell("  %s: ok" % button_words(name))
            elif got is None:
                report.buttons[name] = False
                report.add("No press came from %s: check its two wires, to %s and to GND, on "
                           "two diagonally opposite legs of the switch." % (
                               button_words(name), board.pin(name)), buttons=(name,))
                person.tell("  %s: no press came" % button_words(name))
            else:
                report.buttons[name] = False
                person.tell("  %s: the press came as %s" % (button_words(name),
                                                            button_words(got)))
        for name in BUTTONS:
            got = came[name]
            if got is None or got == name:
                continue
            if came.get(got) == name:
                if BUTTONS.index(got) < BUTTONS.index(name):
                    continue                    # the pair is told once
                report.add("%s and %s are crossed: their wires to %s and %s are the other way "
                           "round." % (button_words(got), button_words(name),
                                       board.pin(got), board.pin(name)),
                           buttons=(got, name))
            else:
                report.add("Pressing %s came as %s: its wire is on %s, which is %s's pin; it "
                           "goes on %s." % (button_words(name), button_words(got),
                                            board.pin(got), button_words(got),
                                            board.pin(name)), buttons=(name,))

    def buzzer(self):
        """A beep, and the person asked whether it sounded."""
        self.board.beep()
        heard = self.person.answer(Task(HEARD, "Did you hear a beep? [y/n]"))
        self.report.buzzer = heard
        if heard is False:
            self.report.add("The buzzer did not sound: check its two legs, on %s and GND (a "
                            "PS1240 works either way round)." % self.board.pin("buzzer"))

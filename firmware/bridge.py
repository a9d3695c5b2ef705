"""Bridge mode (pico-bridge): the Pico is the Pi's hands and eyes on the board.

The Pico streams every load-cell reading to the host, shows the LED strips the host sends,
sounds the buzzer when told and reports the buttons; the rules, the sensing filter and the
guide run on the Pi. Everything travels as messages of `controller.protocol` over the USB
serial port::

    bridge = Bridge(device, port, clock, "pico-bridge-2x6")
    bridge.start()                  # a HELLO to whoever listens
    while True:
        bridge.step()               # one turn of the main loop
        clock.sleep_ms(1)

What one `step` does:

- reads the bytes the host sent and answers each message: a `LedFrame` (the guide's frame: a
  colour and a pattern per place) is drawn through config.json's game.layout, its patterns
  animated here 25 times a second (a colour per place, the strip filled by leds.py), on a
  step that sent no reading; `Leds` (a whole strip) goes onto the strip scaled within the
  board's current cap (below); `Buzz`
  to the buzzer, `StateRequest` gets a `State` (the LEDs on show, the buttons held, uptime,
  sensor channels: all a reconnecting host needs); the link acknowledges, drops duplicates and
  answers a new host's `Hello` with ours;
- sends a `Sensors` message for each new reading of the cells (a conversion every 10.7 ms: 93
  a second, 80 nominal), stamped with the Pico's clock;
- sends a `Button` message for each debounced press and release;
- lets the link resend what the host has not acknowledged, ends buzzer notes, feeds the
  watchdog.

A strip of the wrong length is not shown (the host's profile and this board's config differ):
it is counted in `leds_rejected` and described in `problem`.

**The current cap, whatever the host sends.** The strip shares the board's 5 V supply with the
Pi: a full-white strip of 176 WS2812Bs draws about 10.5 A (60 mA an LED), on a 6 A supply. So
every strip shown here stays within config.json's `game.max_ma` (the profile's
power.strip_max_ma; config.DEFAULT_MAX_MA without a game), on the host's model of the strip
(controller.guide.pixels: MA_PER_CHANNEL a colour at 255): a `Leds` strip is scaled by
`cap_pixels`, every byte by the same factor, so colours keep their proportions (`leds_capped`
counts the strips scaled); a guide frame is drawn by `place_colours`, which applies the same
cap (and the brightness cap) to its place colours. A host's own frames are within the cap
already: what that costs is one sum of the strip's bytes (native code on the Pico: fast.py).

The port (`read()`, `write(data)`: port.py) and the clock (`ticks_ms()`, `sleep_ms(ms)`:
clock.py) are parameters, so the same bridge runs on the Pico's USB, in memory under tests, or
on a host against a pty with a simulated board behind fake load cells.
"""

from controller.guide import pixels
from controller.guide.frame import Frame
from controller.guide.pixels import cap_pixels, place_colours
from controller.protocol import (Button, Buzz, Hello, LedFrame, Leds, Link, Sensors, State,
                                 StateRequest)
from controller.protocol import framing
from controller.protocol.messages import SENSORS

from config import DEFAULT_MAX_MA
from leds import led_places

try:
    import fast                         # the Pico: the framing's and the cap's loops in
    framing.accelerate(fast.crc16, fast.cobs_encode)    # native code
    pixels.accelerate(fast.channel_sum, fast.scale_bytes)
except (ImportError, SyntaxError):      # a port without viper (the tests'): plain Python
    fast = None

FIRMWARE = "layli-pico 0.1.0"
RENDER_MS = 40              # a guide frame's patterns are drawn 25 times a second, on a
RENDER_WAITS = 3            # turn without a reading (this many turns with one later at most)
IDLE_MS = 4                 # the main loop's longest wait between two steps, and
TURN_MS = 7                 # the most from one step's start to the next's: each step looks
                            # at the reader's ring, and a read that a conversion would end
                            # inside must have its delay queued before it starts (a
                            # conversion every 10.7 ms): a 6.5 ms step and the 4 ms wait after
                            # it left 52 reads a minute too late to delay on a 2 x 12 board
LINK_POLL_MS = 10           # the link looks for messages to resend this often
MASK32 = 0xFFFFFFFF         # the protocol's times are 32-bit, wrapping
SMALL = 0x3FFFFFFF          # below this an int is a small one on the Pico: no masking needed


def wire_ms(ms):
    """`ms` as the protocol's 32-bit time. Masking allocates a long int on the Pico (MASK32
    is one), so it is only done past 12 days of uptime."""
    return ms if ms <= SMALL else ms & MASK32


class Bridge:
    """Bridge mode on `device`, talking through `port`, on `clock` (see the module). `chip`,
    the microcontroller's name (main.py reads it), goes into our Hello after FIRMWARE: the
    host logs it ("layli-pico 0.1.0 RP2040")."""

    def __init__(self, device, port, clock, profile, session=None, retry_ms=None, chip=None):
        self.device = device
        self.port = port
        self.clock = clock
        firmware = FIRMWARE if chip is None else "%s %s" % (FIRMWARE, chip)
        hello = Hello(firmware, profile, "device", session)
        if retry_ms is None:
            self.link = Link(port.write, clock.ticks_ms, hello)
        else:
            self.link = Link(port.write, clock.ticks_ms, hello, retry_ms)
        self.sensor_frames = 0
        self.leds_shown = 0
        self.leds_rejected = 0
        self.buzzes = 0
        self.states_sent = 0
        self.leds_capped = 0        # host strips scaled down to the current cap
        self.problem = None
        game = device.config.get("game")
        self.max_ma = DEFAULT_MAX_MA if game is None else game["max_ma"]
        self._capped = bytearray(3 * device.strip.count)   # a host strip, scaled (kept)
        try:
            self.layout = device.led_layout()
        except ValueError as error:
            self.layout = None
            self.problem = "game.layout: %s" % error
        # each LED's place, for the strip to fill place by place
        self._led_place = None if self.layout is None else led_places(
            self.layout.leds, device.strip.count)
        self.frame = None           # the guide frame on show (LedFrame), drawn every RENDER_MS
        # its colours, a place's 3 (one kept: no new one a frame; _show_frame takes only
        # frames of the layout's places)
        self._colours = None if self.layout is None else bytearray(3 * len(self.layout.leds))
        self._render_at = 0
        self._render_waits = 0      # turns with a reading the LEDs have waited for, being due
        self._began = 0             # when the last step started (ms)
        self._poll_at = 0
        # On the Pico each reading goes from the HX711s' reader to the wire as a whole frame
        # built natively (fast.SensorsFrames: the very bytes Sensors(...).encode would give)
        sensors = device.sensors
        self._native = fast is not None and hasattr(sensors, "take")
        if self._native:
            from array import array
            self._values = array("i", [0] * sensors.channels)
            self._frames = fast.SensorsFrames(sensors.channels)
            self._every = (1 << sensors.channels) - 1
            self._missing = 0
            self._time = 0
            self._encode = self._encode_sensors     # one bound method, not one a frame

    def start(self):
        """Introduce this end to the host (the link sends a zero byte and our Hello)."""
        self.link.connect()

    def step(self):
        """One turn of the main loop (see the module)."""
        device = self.device
        link = self.link
        self._began = self.clock.ticks_ms()
        data = self.port.read()
        if data:
            for message in link.receive(data):
                self._handle(message)
        sent = False
        if self._native:
            trusted = device.sensors.take(self._values)
            if trusted >= 0:
                self._time = wire_ms(self.clock.ticks_ms())
                self._missing = ~trusted & self._every
                link.send_encoded(SENSORS, self._encode)
                self.sensor_frames += 1
                sent = True
        else:
            frame = device.sensors.read()
            if frame is not None:
                link.send(Sensors(wire_ms(self.clock.ticks_ms()), frame))
                self.sensor_frames += 1
                sent = True
        now = self.clock.ticks_ms()
        for button, pressed, time_ms in device.buttons.poll(now):
            link.send(Button(button, pressed, wire_ms(time_ms)))
        if now >= self._poll_at:            # resends are due hundreds of ms apart
            self._poll_at = now + LINK_POLL_MS
            link.poll()
        # the LEDs (3 to 6 ms on a 2 x 12 board) not in a turn that sent a reading: the
        # reader's next read is planned from the ring at the next turn, which a turn of both
        # could leave too late to delay it (a conversion then ends inside the read); the next
        # turn, RENDER_WAITS turns with a reading later at most
        if self.frame is not None and now >= self._render_at:
            if sent and self._render_waits < RENDER_WAITS:
                self._render_waits += 1
            else:
                self._render_waits = 0
                self._render_at = now + RENDER_MS
                device.strip.show_places(
                    place_colours(self.frame, self.layout, now, self._colours), self._led_place)
        device.tick()

    def _encode_sensors(self, seq):
        return self._frames.frame(seq, self._time, self._values, self._missing)

    def _handle(self, message):
        kind = message.KIND
        if kind == LedFrame.KIND:
            self._show_frame(message.places)
        elif kind == Leds.KIND:
            self._show_strip(message.pixels)
        elif kind == Buzz.KIND:
            if self.device.buzzer is not None:
                self.device.buzzer.beep(message.hz, message.ms)
            self.buzzes += 1
        elif kind == StateRequest.KIND:
            self.link.send(self.state())
            self.states_sent += 1
        elif kind == Hello.KIND:
            self.problem = self.link.incompatible

    def _show_strip(self, strip_bytes):
        """A whole strip from the host (R, G, B an LED), scaled within the current cap."""
        capped = self._capped
        if len(strip_bytes) == len(capped):     # any other length: the strip says what is wrong
            capped[:] = strip_bytes
            if cap_pixels(capped, self.max_ma) < 256:
                self.leds_capped += 1
            strip_bytes = capped
        try:
            self.device.strip.show(strip_bytes)
            self.frame = None               # a whole strip replaces the guide's frame
            self.leds_shown += 1
        except ValueError as error:
            self.leds_rejected += 1
            self.problem = str(error)

    def _show_frame(self, places):
        """A guide frame: drawn from now on through the layout, its patterns animated here."""
        try:
            frame = Frame.decode(places)
            if self.layout is None:
                raise ValueError("a guide frame, but config.json has no game.layout to draw it")
            if len(frame.places) != len(self.layout.leds):
                raise ValueError("a guide frame of %d places; game.layout has %d" % (
                    len(frame.places), len(self.layout.leds)))
        except ValueError as error:
            self.leds_rejected += 1
            self.problem = str(error)
            return
        if self.frame is None or frame != self.frame:
            self._render_at = 0             # a new meaning shows at once
        self.frame = frame
        self.leds_shown += 1

    def state(self):
        """The `State` message of this device now."""
        device = self.device
        # the clock counts from boot on a Pico: its time is the uptime
        sensors = device.sensors
        periods = sensors.periods_us() if hasattr(sensors, "periods_us") else None
        return State(device.strip.pixels, device.buttons.held_mask,
                     wire_ms(self.clock.ticks_ms()), sensors.channels, periods)

    def idle(self):
        """Wait between two steps: until the host sends something or IDLE_MS pass (a port
        that cannot wait for bytes: IDLE_MS on the clock), less after a long step, so that a
        step starts TURN_MS after the last at most. The readings come every 10.7 ms and
        queue meanwhile: a step every 2 ms or so costs them nothing but 2 ms of latency."""
        rest = TURN_MS - (self.clock.ticks_ms() - self._began)
        if rest <= 0:
            return
        if rest > IDLE_MS:
            rest = IDLE_MS
        # looked up each time: kept in an attribute instead, every step measured 0.9 ms a
        # frame slower on the emulated Pico (the instance's attribute table, we think)
        wait = getattr(self.port, "wait", None)
        if wait is None:
            self.clock.sleep_ms(rest)
        else:
            wait(rest)

    def run(self):
        """Bridge mode for ever: start, the watchdog, then a step whenever the host sends or
        every IDLE_MS."""
        self.start()
        self.device.start_watchdog()
        while True:
            self.step()
            self.idle()

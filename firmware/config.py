"""config.json: what the firmware is wired to and how it runs, checked before anything starts.

The Pico has no TOML parser: the host turns the board's profile into this plain JSON, which
`layli firmware deploy` checks (this module imports no hardware, so it runs on the host too) and copies onto
the Pico as /config.json::

    {
      "mode": "bridge",                    // or "standalone"
      "profile": "pico-bridge-2x6",        // the board profile's name (said in the HELLO)
      "sensors": {"kind": "hx711", "clock": 2, "data": [3, 4, 5, ...], "gain": 128},
      "leds": {"pin": 22, "count": 176, "order": "GRB"},
      "buttons": {"new_game": 19, "undo": 20, "hint": 21, "confirm": 26},
      "buzzer": 27,
      "watchdog_ms": 2000,
      "game": {"variant": "layli-goobalay", "options": {}, "layout": [[0, 1, ...], ...],
               "brightness": 64, "max_ma": 2000}
    }

Sensors are one of:

- ``{"kind": "hx711", "clock": PIN, "data": [PIN, ...], "gain": 128}``: an HX711 per place,
  their DOUTs on GPIO pins (hx711.HX711Array);
- ``{"kind": "hx711-74hc165", "clock": PIN, "serial": PIN, "cells": N, "gain": 128}``: the
  DOUTs latched into 74HC165s whose SH/LD and CLK are the two GPIO after `clock`
  (hx711.HX711Chain);
- ``{"kind": "digital", "pins": [PIN, ...], "active_low": true}``: a digital sensor per pit
  (pits.DigitalPits).

Buttons (any may be left out) connect their pin to ground. `buzzer` may be null. `watchdog_ms`
0 turns the watchdog off (for development only). `game` is needed in standalone mode: the
variant and its options, the LEDs of each place (a list of strip indices per place, in the
controller's order: the pits, then South's and North's store), the brightness cap (1..256) and
the strip's current budget in mA (`max_ma`: the profile's power.strip_max_ma). A bridge caps
every strip the host sends at `game.max_ma` too, or at DEFAULT_MAX_MA without a `game`.
`state_machine` (0..7) in `sensors` picks the PIO state machine.

`check(data)` returns the checked config with defaults filled in, or raises ConfigError naming
the key: ``config.json: leds.pin: GPIO 23 is not a Pico pin (GP0..GP22, GP26..GP28)``. Every
pin must be a Pico's and used once.
"""

import json

BUTTONS = ("new_game", "undo", "hint", "confirm")   # button i of the protocol's Button(i)
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")  # NeoPixel colour orders
MODES = ("bridge", "standalone")
PICO_PINS = tuple(range(0, 23)) + (26, 27, 28)     # GP23..25 and GP29 are the board's own
GAINS = (128, 64, 32)
DEFAULT_WATCHDOG_MS = 2000
DEFAULT_MAX_MA = 2000       # the strip's current cap (mA) when config.json gives none: a bridge
                            # without a `game` caps the host's strips at this
KEYS = ("mode", "profile", "sensors", "leds", "buttons", "buzzer", "watchdog_ms", "game")


class ConfigError(ValueError):
    """A config.json that the firmware cannot run with; the message names the key."""


class _Checker:
    def __init__(self, source):
        self.source = source
        self.used = {}              # GPIO -> the key that took it

    def fail(self, key, text):
        raise ConfigError("%s: %s: %s" % (self.source, key, text))

    def table(self, data, key, allowed):
        if not isinstance(data, dict):
            self.fail(key, "must be an object, not %s" % _kind(data))
        for name in data:
            if name not in allowed:
                self.fail(key, "unknown key %r (known: %s)" % (name, ", ".join(allowed)))
        return data

    def need(self, data, key, name):
        if name not in data:
            self.fail(key, "%r is missing" % name)
        return data[name]

    def integer(self, value, key, low, high):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(key, "%r is not a whole number %d..%d" % (value, low, high))
        return value

    def flag(self, value, key):
        if value is not True and value is not False:
            self.fail(key, "%r is not true or false" % (value,))
        return value

    def pin(self, value, key):
        if isinstance(value, bool) or not isinstance(value, int) or value not in PICO_PINS:
            self.fail(key, "GPIO %r is not a Pico pin (GP0..GP22, GP26..GP28)" % (value,))
        if value in self.used:
            self.fail(key, "GPIO %d is already %s" % (value, self.used[value]))
        self.used[value] = key
        return value

    def pins(self, value, key):
        if not isinstance(value, list) or not value:
            self.fail(key, "must be a list of GPIO numbers, one per sensor")
        return [self.pin(value[i], "%s[%d]" % (key, i)) for i in range(len(value))]


def _kind(value):
    return "null" if value is None else type(value).__name__


def check(data, source="config.json"):
    """The config `data` (parsed JSON) checked, with defaults filled in."""
    c = _Checker(source)
    c.table(data, "config", KEYS)
    out = {}
    mode = c.need(data, "config", "mode")
    if mode not in MODES:
        c.fail("mode", "%r is not %s" % (mode, " or ".join(MODES)))
    out["mode"] = mode
    profile = c.need(data, "config", "profile")
    if not isinstance(profile, str) or not 0 < len(profile) <= 32 or not all(
            " " <= ch <= "~" for ch in profile):
        c.fail("profile", "%r is not a name of 1..32 printable ASCII characters" % (profile,))
    out["profile"] = profile
    out["sensors"] = _sensors(c, c.need(data, "config", "sensors"))
    out["leds"] = _leds(c, c.need(data, "config", "leds"))
    buttons = c.table(data.get("buttons", {}), "buttons", BUTTONS)
    out["buttons"] = {}
    for name in BUTTONS:
        if buttons.get(name) is not None:
            out["buttons"][name] = c.pin(buttons[name], "buttons." + name)
    buzzer = data.get("buzzer")
    out["buzzer"] = None if buzzer is None else c.pin(buzzer, "buzzer")
    watchdog = data.get("watchdog_ms", DEFAULT_WATCHDOG_MS)
    if watchdog != 0:
        c.integer(watchdog, "watchdog_ms", 100, 8388)    # the RP2040 watchdog's range
    out["watchdog_ms"] = watchdog
    if mode == "standalone":
        if out["sensors"]["kind"] == "digital":
            c.fail("sensors.kind", "standalone mode counts seeds by weight: it needs load cells "
                   "(hx711 or hx711-74hc165)")
        out["game"] = _game(c, c.need(data, "config", "game"))
    elif "game" in data:
        out["game"] = _game(c, data["game"])
    return out


def _sensors(c, data):
    kind = c.need(c.table(data, "sensors", ("kind", "clock", "data", "serial", "cells", "gain",
                                            "state_machine", "pins", "active_low")),
                  "sensors", "kind")
    out = {"kind": kind}
    if kind == "hx711" or kind == "hx711-74hc165":
        out["clock"] = c.pin(c.need(data, "sensors", "clock"), "sensors.clock")
        gain = data.get("gain", 128)
        if gain not in GAINS or isinstance(gain, bool):
            c.fail("sensors.gain", "%r is not 128, 64 (channel A) or 32 (channel B)" % (gain,))
        out["gain"] = gain
        out["state_machine"] = c.integer(data.get("state_machine", 0), "sensors.state_machine",
                                         0, 7)
        if kind == "hx711":
            out["data"] = c.pins(c.need(data, "sensors", "data"), "sensors.data")
            out["channels"] = len(out["data"])
        else:
            clock = out["clock"]
            for offset, role in ((1, "the 74HC165s' SH/LD"), (2, "the 74HC165s' CLK")):
                c.pin(clock + offset, "sensors.clock + %d (%s)" % (offset, role))
            out["serial"] = c.pin(c.need(data, "sensors", "serial"), "sensors.serial")
            # 31 at most: a chain's levels must never read as the ring's MARK (hx711.py)
            out["cells"] = c.integer(c.need(data, "sensors", "cells"), "sensors.cells", 1, 31)
            out["channels"] = out["cells"]
    elif kind == "digital":
        out["pins"] = c.pins(c.need(data, "sensors", "pins"), "sensors.pins")
        out["active_low"] = c.flag(data.get("active_low", True), "sensors.active_low")
        out["channels"] = len(out["pins"])
    else:
        c.fail("sensors.kind", "%r is not hx711, hx711-74hc165 or digital" % (kind,))
    return out


def _leds(c, data):
    c.table(data, "leds", ("pin", "count", "order"))
    order = data.get("order", "GRB")
    if order not in ORDERS:
        c.fail("leds.order", "%r is not one of %s" % (order, ", ".join(ORDERS)))
    return {"pin": c.pin(c.need(data, "leds", "pin"), "leds.pin"),
            "count": c.integer(c.need(data, "leds", "count"), "leds.count", 1, 1024),
            "order": order}


def _game(c, data):
    c.table(data, "game", ("variant", "options", "layout", "brightness", "max_ma", "match"))
    variant = data.get("variant", "layli-goobalay")
    if not isinstance(variant, str):
        c.fail("game.variant", "%r is not a variant's name" % (variant,))
    options = data.get("options", {})
    if not isinstance(options, dict):
        c.fail("game.options", "must be an object of option: value, not %s" % _kind(options))
    layout = c.need(data, "game", "layout")
    if not isinstance(layout, list) or not layout:
        c.fail("game.layout", "must list the strip indices of each place")
    for k in range(len(layout)):
        place = layout[k]
        if not isinstance(place, list) or not place:
            c.fail("game.layout[%d]" % k, "must be a non-empty list of strip indices")
        for index in place:
            if isinstance(index, bool) or not isinstance(index, int):
                c.fail("game.layout[%d]" % k, "%r is not a strip index" % (index,))
    return {"variant": variant, "options": options, "layout": layout,
            "brightness": c.integer(data.get("brightness", 64), "game.brightness", 1, 256),
            "max_ma": c.integer(data.get("max_ma", DEFAULT_MAX_MA), "game.max_ma", 1, 100000),
            "match": c.flag(data.get("match", False), "game.match")}


def load(path="config.json"):
    """The checked config in the JSON file `path`; ConfigError when it is missing or wrong."""
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        raise ConfigError("%s: not found: copy a board's config onto the Pico (layli "
                          "firmware deploy does)" % path)
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ConfigError("%s: not JSON: %s" % (path, error))
    return check(data, path)

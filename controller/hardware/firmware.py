"""A Pico board's profile as the firmware's config.json (host-only).

The Pico has no TOML parser, and its firmware wants pins as numbers in the shapes its drivers
take (firmware/config.py documents them). `firmware_config(profile)` makes that JSON from a
profile; `layli firmware deploy` (controller/hardware/deploy.py) checks it with the firmware's own
checker and copies it on:

    layli firmware config pico-bridge-2x6 -o config.json
    layli firmware deploy config.json --port /dev/ttyACM0

It carries the game too: the variant and its options, which a pico-standalone board plays, and
the LED layout and caps, through which both kinds draw the guide's frames (and a bridge caps
the host's strips: `game.max_ma` is the profile's power.strip_max_ma). The variant must have
the board's pits a row; without one, the first that fits is taken (`board_games`: 2 x 6
layli-goobalay, 2 x 7 mangala-iv, 2 x 12 layli-goobalay-long), and one that does not fit is
refused with the ones that do.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from controller.errors import UsageError
from controller.rules import VARIANTS, Rules
from .profile import Profile

WATCHDOG_MS = 2000


class BoardGame(NamedTuple):
    """A variant that plays on a board, and the options that make it fit (the long board's
    `pits`, when its own number is not the board's)."""

    variant: str
    options: dict[str, int]

    def arguments(self) -> str:
        """How `layli firmware config` is told: `--variant V [--option pits=N]`."""
        return " ".join(["--variant %s" % self.variant] + [
            "--option %s=%s" % item for item in sorted(self.options.items())])


def board_games(pits: int) -> list[BoardGame]:
    """The variants that play on a board of `pits` pits a row: those whose own board it is
    first, in `layli rules variants`' order, then those whose `pits` option reaches it."""
    own = [BoardGame(name, {}) for name in VARIANTS if Rules(name).n == pits]
    stretched = []
    for name, variant in VARIANTS.items():
        spec = variant.options.get("pits")
        if spec is not None and Rules(name).n != pits and spec[2][0] <= pits <= spec[2][1]:
            stretched.append(BoardGame(name, {"pits": pits}))
    return own + stretched


def gp(pin: str, key: str, profile: Profile) -> int:
    """`GP22` -> 22, or UsageError naming the profile's key."""
    if not pin.startswith("GP") or not pin[2:].isdigit():
        raise UsageError("%s: %s is %s, not a Pico pin (GPn)" % (profile.label, key, pin))
    return int(pin[2:])


def firmware_config(profile: Profile, variant: str | None = None,
                    options: dict | None = None) -> dict[str, Any]:
    """config.json for `profile` (a pico-bridge or pico-standalone one), its game `variant`
    with `options` (None: the first of `board_games` for the board, its options under
    `options`). UsageError naming the variants that fit when `variant` does not."""
    if profile.kind not in ("pico-bridge", "pico-standalone"):
        raise UsageError("%s is a %s profile: it has no Pico to configure" % (
            profile.name, profile.kind))
    fits = board_games(profile.pits)
    if variant is None:
        if not fits:
            raise UsageError("%s: no variant plays on a board of %d pits a row" % (
                profile.label, profile.pits))
        variant = fits[0].variant
        options = dict(fits[0].options, **(options or {}))
    config: dict[str, Any] = {
        "mode": "bridge" if profile.kind == "pico-bridge" else "standalone",
        "profile": profile.name,
        "sensors": _sensors(profile),
        "leds": {"pin": gp(profile.leds.data_pin, "leds.data_pin", profile),
                 "count": profile.leds.length, "order": profile.leds.order},
        "buttons": {name: gp(pin, "buttons.%s" % name, profile)
                    for name, pin in profile.buttons.items()},
        "buzzer": gp(profile.buzzer_pin, "buzzer.pin", profile),
        "watchdog_ms": WATCHDOG_MS,
    }
    # the game: standalone plays it; a bridge draws the host's guide frames through its layout
    rules = Rules(variant, options)
    if rules.n != profile.pits:
        raise UsageError("%s has %d pits a row; the board of profile %s has %d: %s" % (
            variant, rules.n, profile.name, profile.pits,
            "give one that fits, " + " or ".join(fit.arguments() for fit in fits) if fits
            else "no variant plays on it"))
    layout = profile.led_layout()
    config["game"] = {"variant": variant, "options": dict(options or {}),
                      "layout": [list(leds) for leds in layout.leds],
                      "brightness": layout.brightness, "max_ma": layout.max_ma}
    return config


def _sensors(profile: Profile) -> dict[str, Any]:
    sensors = profile.sensors
    if sensors.kind != "load-cell":
        raise UsageError("%s: the Pico firmware reads load cells; sensors.kind is %s" % (
            profile.label, sensors.kind))
    clock = gp(sensors.clock_pin, "sensors.clock_pin", profile)
    channels = sensors.channels
    if all(channel.startswith("GP") for channel in channels):
        return {"kind": "hx711", "clock": clock, "gain": 128,
                "data": [gp(pin, "sensors.data_pins[%d]" % i, profile)
                         for i, pin in enumerate(channels)]}
    # the DOUTs latched into a chain of 74HC165s: the firmware reads cell k from input k and
    # takes SH/LD and CLK on the two GPIO after the HX711s' clock
    chain = [e for e in profile.expanders if e.type == "74hc165"]
    if len(chain) != 1:
        raise UsageError("%s: sensors.data_pins go through expanders the firmware cannot "
                         "read (it reads one chain of 74HC165s)" % profile.label)
    expander = chain[0]
    for k, channel in enumerate(channels):
        if channel != "%s.%d" % (expander.name, k):
            raise UsageError("%s: sensors.data_pins[%d] is %s; the firmware reads place %d "
                             "from %s.%d (wire the cells in chain order)" % (
                                 profile.label, k, channel, k, expander.name, k))
    load = gp(expander.load_pin, "expanders.load_pin", profile)
    shift = gp(expander.clock_pin, "expanders.clock_pin", profile)
    if (load, shift) != (clock + 1, clock + 2):
        raise UsageError("%s: the firmware takes the 74HC165s' SH/LD and CLK on GP%d and GP%d, "
                         "the two pins after the HX711 clock; the profile has GP%d and GP%d" % (
                             profile.label, clock + 1, clock + 2, load, shift))
    return {"kind": "hx711-74hc165", "clock": clock, "gain": 128, "cells": len(channels),
            "serial": gp(expander.data_pin, "expanders.data_pin", profile)}

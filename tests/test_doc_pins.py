"""Every pin the documents give for a named signal is the shipped profiles' pin.

Two ways, by what the statement is:

- **Tables are generated.** hardware/README.md's table of the controllers' header pins is
  `header_table()`, made from the circuits of the 2 x 6 boards (`controller.hardware.circuit`,
  itself made from the profiles); the test compares the committed table, character for
  character, with what this module makes now. `python3 tests/test_doc_pins.py` prints it to
  paste. firmware/README.md's config.json example is compared, key by key, with
  `layli firmware config` of the profile it names.
- **Prose is checked statement by statement.** `CLAIMS` holds each sentence that names a pin
  (`GP22`, `GPIO18`, "header pin 5", `gpio_pin=3`), as a pattern, and what it must agree with
  in the profiles, the circuits or the boards' pinouts (`controller.hardware.boards`). A pin
  name in a document that no claim covers fails the test too, so a new statement cannot go
  unchecked: add its claim.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

if __name__ == "__main__":            # run as a script: the checkout's own modules
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.hardware.boards import BOARDS, PI, PICO, span
from controller.hardware.circuit import circuit
from controller.hardware.firmware import firmware_config
from controller.hardware.harness import harness
from controller.hardware.profile import PI_NEOPIXEL_PINS, load, shipped

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "hardware/README.md", "firmware/README.md"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
PIN_NAME = re.compile(r"\b(?:GP\d+|GPIO\d+)\b|gpio_pin=\d+")
NAMES = shipped()
TABLE_MARK = "<!-- header pins: generated from the profiles by tests/test_doc_pins.py -->"
TABLE_BOARDS = (("pico-bridge-2x6", "pico"), ("pico-standalone-2x6", "pico"),
                ("pico-bridge-2x6", "pi"), ("pi-direct-2x6", "pi"))


# --- the generated table --------------------------------------------------------------------------

def header_row(name: str, key: str) -> str:
    """One board's header pins in use on profile `name`: `pin NAME (net) → parts`, by pin."""
    profile = load(name)
    board = circuit(profile)
    ref = next(c.ref for c in board.components if c.part == profile.boards[key])
    header = BOARDS[key].header
    uses: dict[int, tuple[set[str], list[str]]] = {}
    for link in board.links:
        for here, there in ((link.a, link.b), (link.b, link.a)):
            if here.ref == ref:
                nets, parts = uses.setdefault(here.pin, (set(), []))
                nets.add(link.net)
                role = board.component(there.ref).role
                chained = _chain(board, there.ref, link.net, ref)
                if chained > 1:
                    role += " and on, part to part (%d %s)" % (chained, role.split(" ")[0])
                if role not in parts:
                    parts.append(role)
    cells = []
    for pin in sorted(uses):
        nets, parts = uses[pin]
        net = "/".join(sorted(nets))
        named = header[pin - 1]
        label = named if net == named else "%s (%s)" % (named, net)
        cells.append("%d %s → %s" % (pin, label, ", ".join(parts)))
    return "| %s (%s) | %s |" % (name, BOARDS[key].title, "; ".join(cells))


def _chain(board, start: str, net: str, came_from: str) -> int:
    """How many parts of `start`'s kind (its role's first word: HX711, beam) a daisy chain on
    `net` reaches from `start`, `start` included."""
    kind = board.component(start).role.split(" ")[0]
    seen, todo = {came_from, start}, [start]
    while todo:
        here = todo.pop()
        for link in board.links:
            if link.net != net or here not in (link.a.ref, link.b.ref):
                continue
            there = link.b.ref if link.a.ref == here else link.a.ref
            if there not in seen and board.component(there).role.split(" ")[0] == kind:
                seen.add(there)
                todo.append(there)
    return len(seen) - 1


def header_table() -> str:
    """The table hardware/README.md carries after TABLE_MARK."""
    rows = ["| board | header pin, its name (the net when another) → the parts it wires to |",
            "|---|---|"]
    rows += [header_row(name, key) for name, key in TABLE_BOARDS]
    return "\n".join(rows)


def read(doc: str) -> str:
    return (ROOT / doc).read_text(encoding="utf-8")


def test_the_header_pin_table_is_the_profiles():
    text = read("hardware/README.md")
    assert TABLE_MARK in text
    after = text.split(TABLE_MARK, 1)[1].lstrip("\n")
    table = after.split("\n\n", 1)[0].strip()
    assert table == header_table(), (
        "hardware/README.md's header pin table is stale: paste `python3 tests/test_doc_pins.py`"
        "'s output after its marker")


# --- firmware/README.md's config.json ---------------------------------------------------------------

FIRMWARE_KEYS = ("mode", "profile", "sensors", "leds", "buttons", "buzzer", "watchdog_ms")


def config_problems(text: str) -> list[str]:
    """How the config.json example in `text` (firmware/README.md) differs from `layli firmware
    config` of the profile it names; empty when it is that config."""
    block = re.search(r"## config\.json\s+```json\n(.*?)\n```", text, re.S)
    if not block:
        return ["no config.json example"]
    shown = json.loads(block.group(1))
    made = firmware_config(load(shown["profile"]))
    problems = ["%s: the example has %r, the profile %r" % (key, shown.get(key), made.get(key))
                for key in FIRMWARE_KEYS if shown.get(key) != made.get(key)]
    for key in ("brightness", "max_ma", "variant"):
        if shown["game"].get(key) != made["game"].get(key):
            problems.append("game.%s: the example has %r, the profile %r" % (
                key, shown["game"].get(key), made["game"].get(key)))
    return problems


def test_the_firmware_readme_config_is_the_profiles():
    assert config_problems(read("firmware/README.md")) == []


# The example as it stood before issue 40 (firmware/README.md at aec6be3): buttons on GP18-GP21
# and the buzzer on GP17, which no profile uses. The check must catch it.
OLD_CONFIG = """## config.json

```json
{
  "mode": "bridge",
  "profile": "pico-bridge-2x6",
  "sensors": {"kind": "hx711", "clock": 2, "data": [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], "gain": 128},
  "leds": {"pin": 22, "count": 176, "order": "GRB"},
  "buttons": {"new_game": 18, "undo": 19, "hint": 20, "confirm": 21},
  "buzzer": 17,
  "watchdog_ms": 2000,
  "game": {"variant": "layli-goobalay", "options": {}, "layout": [[0, 1], "..."], "brightness": 64, "max_ma": 2000}
}
```
"""


def test_the_old_firmware_readme_buttons_and_buzzer_are_caught():
    problems = config_problems(OLD_CONFIG)
    assert any(p.startswith("buttons:") for p in problems)
    assert any(p.startswith("buzzer:") for p in problems)


# --- the prose ------------------------------------------------------------------------------------

def profiles(*, kind: str | None = None, pits: int | None = None) -> list:
    return [p for p in map(load, NAMES) if (kind is None or p.kind == kind)
            and (pits is None or p.pits == pits)]


def pi_pins_used(profile) -> set[str]:
    """The Pi GPIO a profile's circuit wires (as GPIOn)."""
    board = circuit(profile)
    ref = next((c.ref for c in board.components if c.pinout.key == "pi"), None)
    used = set()
    for link in board.links:
        for end in (link.a, link.b):
            if end.ref == ref and PI.header[end.pin - 1].startswith("GPIO"):
                used.add(PI.header[end.pin - 1])
    return used


def pin_of(board, name: str) -> int:
    return board.header.index(name) + 1


def pico_data_colours() -> set[str]:
    rows = harness(load("pico-bridge-2x6"))
    return {r.colour for r in rows if r.net.endswith("_DT") and r.a_role == "Pico"}


class Claim(NamedTuple):
    """A statement: in `doc`, text matching `pattern` (one of its pins' names inside it), and
    the check it must pass, given the match."""

    doc: str
    pattern: str
    check: Callable[[re.Match], bool]


def spaced(pattern: str) -> str:
    """A claim's pattern with each space matching any run of white space, a line's end too:
    the documents are wrapped at 100 columns wherever a sentence falls."""
    return pattern.replace(" ", r"\s+")


CLAIMS = [
    # hardware/README.md
    Claim("hardware/README.md", r"buttons\.undo: (GP\d+) is already used by buttons\.new_game",
          lambda m: all(p.buttons["new_game"] == m[1] for p in profiles()
                        if "pico" in p.boards and "pi" not in p.boards)),
    Claim("hardware/README.md", r"A Pico has 26 GPIO \((GP0-GP22, GP26-GP28)\)",
          lambda m: span(PICO.usable) == m[1] and len(PICO.usable) == 26),
    Claim("hardware/README.md", r"a Raspberry Pi's header 26 \((GPIO2-GPIO27)\)",
          lambda m: len([n for n in PI.header if n.startswith("GPIO")]) - 2 == 26
          and {"GPIO2", "GPIO27"} <= set(PI.header)),
    Claim("hardware/README.md", r"(GPIO2)/3 are the I2C bus and (GPIO14)/15 the serial console",
          lambda m: 14 in PI.reserved and 15 in PI.reserved and all(
              p.i2c == ("GPIO2", "GPIO3") for p in profiles(kind="pi-direct", pits=12))),
    Claim("hardware/README.md", r"consecutive pins \((GP\d+) upwards\)",
          lambda m: all(list(p.sensors.channels) == ["GP%d" % (int(m[1][2:]) + k) for k in range(
              len(p.sensors.channels))] for p in profiles() if "pico" in p.boards
              and p.pits < 12)),
    Claim("hardware/README.md", r"on (GPIO\d+) and (GPIO\d+); the controller",
          lambda m: [e.interrupt_pin for e in load("pi-direct-2x12").expanders]
          == [m[1], m[2]]),
    Claim("hardware/README.md", r"\((GP23)-25 and (GP29) are wired on the Pico itself\)",
          lambda m: set(PICO.reserved) == {23, 24, 25, 29}),
    Claim("hardware/README.md", r"\((GPIO0)/1, the console's (GPIO14)/15, (GPIO2)/3 other than "
                                r"as I2C\)",
          lambda m: {0, 1, 14, 15} == set(PI.reserved)),
    Claim("hardware/README.md", r"\(only (GPIO10), 12, 18, 21\)",
          lambda m: PI_NEOPIXEL_PINS == ("GPIO10", "GPIO12", "GPIO18", "GPIO21")),
    Claim("hardware/README.md", r"the DAT lines on a Pico's (GP\d+)-(GP\d+) alternate blue and "
                                r"violet, grey where a pin sits between the two",
          lambda m: list(load("pico-bridge-2x6").sensors.channels)[0] == m[1]
          and list(load("pico-bridge-2x6").sensors.channels)[-1] == m[2]
          and pico_data_colours() == {"blue", "violet", "grey"}),
    Claim("hardware/README.md", r"On a Pi driving NeoPixels \(pi-direct\): (GPIO\d+) is PWM0",
          lambda m: all(p.leds.data_pin == m[1] for p in profiles(kind="pi-direct"))),
    Claim("hardware/README.md", r"a 2 x 7 board has 16 DAT lines, (GP\d+)-(GP\d+), in the same "
                                r"order",
          lambda m: all(list(p.sensors.channels) == ["GP%d" % n for n in range(
              int(m[1][2:]), int(m[2][2:]) + 1)]
                        for p in profiles(pits=7) if "pico" in p.boards)),
    Claim("hardware/README.md", r"South's pit 5's input \((GP\d+)\)",
          lambda m: load("pico-bridge-2x6").sensors.channels[4] == m[1]),
    Claim("hardware/README.md", r"\| (pico|pi)-[a-z]+-2x6 \((Pico|Raspberry Pi)\) \|[^\n]*",
          lambda m: m[0] in header_table()),
    # firmware/README.md (its config.json example is compared key by key, above)
    Claim("firmware/README.md", r"one of the Pico's \((GP0\.\.GP22, GP26\.\.GP28)\) and used once",
          lambda m: m[1].replace("..", "-") == span(PICO.usable)),
    # docs/raspberry-pi.md
    Claim("docs/raspberry-pi.md", r"drives its NeoPixels from (GPIO\d+) through Blinka",
          lambda m: all(p.leds.data_pin == m[1] for p in profiles(kind="pi-direct"))),
    Claim("docs/raspberry-pi.md", r"Wire it from (GPIO\d+) \(header pin (\d+)\) to GND \(pin (\d+)\)",
          lambda m: pin_of(PI, m[1]) == int(m[2]) and PI.header[int(m[3]) - 1] == "GND"),
    Claim("docs/raspberry-pi.md", r"Wire it from (GPIO\d+) (?s:.*?)dtoverlay=gpio-shutdown,"
                                  r"(gpio_pin=\d+),debounce",
          lambda m: m[2] == "gpio_pin=" + m[1][4:]),
    Claim("docs/raspberry-pi.md", r"\(only (GPIO3) wakes a halted Pi 1-4;",
          lambda m: True),                  # a fact of the Pi's boot firmware, not of a profile
    Claim("docs/raspberry-pi.md", r"On a pico-bridge board,? and on a pi-direct 2 x 6 or 2 x 7 "
                                  r"board, (GPIO\d+) is free",
          lambda m: all(m[1] not in pi_pins_used(p) for p in profiles(kind="pico-bridge")
                        + profiles(kind="pi-direct", pits=6) + profiles(kind="pi-direct",
                                                                          pits=7))),
    Claim("docs/raspberry-pi.md", r"on those pi-direct boards (GPIO\d+) is South's pit 1's beam",
          lambda m: all(p.sensors.channels[0] == m[1] for p in profiles(kind="pi-direct")
                        if p.pits < 12)),
    Claim("docs/raspberry-pi.md", r"On a pi-direct 2 x 12 board (GPIO\d+) is the expanders' I2C "
                                  r"clock: wire the button to (GPIO\d+) \(header pin (\d+)\) "
                                  r"instead, with `(gpio_pin=\d+)`",
          lambda m: load("pi-direct-2x12").i2c[1] == m[1]
          and m[2] not in pi_pins_used(load("pi-direct-2x12"))
          and pin_of(PI, m[2]) == int(m[3]) and m[4] == "gpio_pin=" + m[2][4:]),
]

# numbers of header pins said for a named signal (no GPn name in them): checked the same way
PIN_CLAIMS = [
    Claim("hardware/README.md", r"The Pi takes 5 V on header pin (\d+) \(GND pin (\d+)\)",
          lambda m: all(_pi_feed(p) == (int(m[1]), int(m[2])) for p in profiles()
                        if "pi" in p.boards)),
    Claim("hardware/README.md", r"a Pico's 3V3\(OUT\), pin (\d+); a Pi's pin (\d+)\)",
          lambda m: PICO.header[int(m[1]) - 1] == "3V3" and PI.header[int(m[2]) - 1] == "3V3"
          and _hx711_vdd_pin("pico-bridge-2x6") == int(m[1])),
    Claim("hardware/README.md", r"the controller's GND \(the Pico's pin (\d+), as the diagrams",
          lambda m: _hx711_gnd_pin("pico-bridge-2x6") == int(m[1])),
    Claim("hardware/README.md", r"Pi's pin (\d+) and the Pico's pin (\d+)\);",
          lambda m: _pi_feed(load("pico-bridge-2x6"))[1] == int(m[1])
          and _star_gnd_pin("pico-bridge-2x6", "pico") == int(m[2])),
    Claim("hardware/README.md", r"At the Pico's 3V3\(OUT\), pin (\d+): 3\.3 V",
          lambda m: PICO.header[int(m[1]) - 1] == "3V3"),
    Claim("firmware/README.md", r"\(SH/LD and CLK of the shift registers on the two GPIO after "
                                r"`clock`\)",
          lambda m: all(_chain_follows_clock(p) for p in profiles()
                        if any(e.type == "74hc165" for e in p.expanders))),
]


def _chain_follows_clock(profile) -> bool:
    """A 74HC165 board's SH/LD and CLK are the two GPIO after the HX711s' clock, as the
    firmware's config takes them (`"kind": "hx711-74hc165"`)."""
    chain = next(e for e in profile.expanders if e.type == "74hc165")
    clock = int(profile.sensors.clock_pin[2:])
    return (chain.load_pin, chain.clock_pin) == ("GP%d" % (clock + 1), "GP%d" % (clock + 2))


def _links_at(name: str, key: str):
    profile = load(name)
    board = circuit(profile)
    ref = next(c.ref for c in board.components if c.part == profile.boards[key])
    for link in board.links:
        for here, there in ((link.a, link.b), (link.b, link.a)):
            if here.ref == ref:
                yield here.pin, board.component(there.ref).role, link.net


def _pi_feed(profile) -> tuple[int, int]:
    pins = {net: pin for pin, role, net in _links_at(profile.name, "pi") if role == "star point"}
    return pins["+5V"], pins["GND"]


def _hx711_vdd_pin(name: str) -> int:
    return next(pin for pin, role, net in _links_at(name, "pico")
                if role.startswith("HX711") and net == "+3V3")


def _hx711_gnd_pin(name: str) -> int:
    return next(pin for pin, role, net in _links_at(name, "pico")
                if role.startswith("HX711") and net == "GND")


def _star_gnd_pin(name: str, key: str) -> int:
    return next(pin for pin, role, net in _links_at(name, key)
                if role == "star point" and net == "GND")


@pytest.mark.parametrize("claim", CLAIMS + PIN_CLAIMS,
                         ids=lambda c: "%s: %s" % (c.doc, c.pattern[:50]))
def test_each_pin_statement_agrees_with_the_profiles(claim):
    text = read(claim.doc)
    matches = list(re.finditer(spaced(claim.pattern), text))
    assert matches, "%s no longer says %r: change the claim with the text" % (claim.doc,
                                                                            claim.pattern)
    for match in matches:
        assert claim.check(match), "%s: %r does not agree with the profiles" % (
            claim.doc, match[0])


@pytest.mark.parametrize("doc", DOCS)
def test_every_pin_named_in_a_document_is_checked(doc):
    text = read(doc)
    covered = [(m.start(), m.end()) for claim in CLAIMS if claim.doc == doc
               for m in re.finditer(spaced(claim.pattern), text)]
    block = re.search(r"## config\.json\s+```json\n.*?\n```", text, re.S)
    if block:                                          # compared key by key above
        covered.append(block.span())
    loose = []
    for m in PIN_NAME.finditer(text):
        if not any(a <= m.start() and m.end() <= b for a, b in covered):
            line = text.count("\n", 0, m.start()) + 1
            loose.append("%s:%d: %s" % (doc, line, m[0]))
    assert not loose, "pins named with no claim to check them (add one to CLAIMS): %s" % loose


def test_the_claims_name_the_documents_that_exist():
    for claim in CLAIMS + PIN_CLAIMS:
        assert claim.doc in DOCS, claim


if __name__ == "__main__":
    print(TABLE_MARK)
    print()
    print(header_table())

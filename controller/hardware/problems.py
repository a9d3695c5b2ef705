"""What is wrong with a profile or the parts catalogue, said with the file and the key (host-only).

Every problem names the file, the key as a dotted path (`leds.places[3].count`) and what is
wrong, so that a maker can go straight to the line:

    >>> print(Problem("my-board.toml", "power.brightness", "must be 1..256, not 300"))
    my-board.toml: power.brightness: must be 1..256, not 300

`Reader` checks TOML tables against a small schema (key -> kind, required, what it is) and
collects every problem instead of stopping at the first, so one run lists them all.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Callable, NamedTuple

from controller.errors import UsageError


class Problem(NamedTuple):
    """One thing wrong: the file, the key (dotted path, "" for the whole file), the words."""

    path: str
    key: str
    message: str

    def __str__(self) -> str:
        if self.key:
            return "%s: %s: %s" % (self.path, self.key, self.message)
        return "%s: %s" % (self.path, self.message)


class ProfileError(UsageError):
    """A profile (or the catalogue) that cannot be used; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        more = len(self.problems) - 1
        super().__init__(str(self.problems[0]) + (
            " (and %d more problem%s)" % (more, "s" if more > 1 else "") if more else ""))


def display(path: Path) -> str:
    """A path as the person typed it or will find it: relative to here when inside."""
    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else str(path)


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; a ProfileError naming the file (and the line) otherwise."""
    label = display(path)
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ProfileError([Problem(label, "", "no such file")]) from None
    except OSError as error:
        raise ProfileError([Problem(label, "", "cannot read it: %s" % (
            error.strerror or error))]) from None
    except UnicodeDecodeError as error:
        raise ProfileError([Problem(label, "", "not UTF-8 text (byte %d)" % error.start)]) from None
    except tomllib.TOMLDecodeError as error:
        raise ProfileError([Problem(label, "", "not valid TOML: %s" % error)]) from None


def describe(value: Any) -> str:
    """How a TOML value reads in a message: `the string '6'`, `an array`..."""
    if isinstance(value, bool):
        return "the boolean %s" % str(value).lower()
    if isinstance(value, int):
        return "the number %d" % value
    if isinstance(value, float):
        return "the number %s" % value
    if isinstance(value, str):
        return "the string %r" % value
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a %s" % type(value).__name__


# A kind is a name here; `KINDS[kind]` is (test, what a value of that kind is).
PIN_TEXT = re.compile(r"^(GP|GPIO)\d+$")
CHANNEL_TEXT = re.compile(r"^[a-z][a-z0-9_-]*\.[A-Za-z0-9]+$")
KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "table": (lambda v: isinstance(v, dict), "a table"),
    "array": (lambda v: isinstance(v, list), "an array"),
}
PIN_HELP = ("write GP<n> for a Pico pin (GP0-GP28) or GPIO<n> for a Raspberry Pi pin "
            "(Broadcom numbering, GPIO2-GPIO27)")
INPUT_HELP = PIN_HELP + ", or EXPANDER.CHANNEL for an input of an expander (sr.5, south.GPA0)"


class Spec(NamedTuple):
    """One key of a table: its kind ("int", "str", "table", "array", "pin", "input",
    "part:ROLE"), whether it must be there, and what it is (said when it is missing)."""

    kind: str
    required: bool
    what: str


class Reader:
    """Reads TOML tables against specs, collecting Problems for one file."""

    def __init__(self, label: str, parts: dict[str, Any] | None = None):
        self.label = label
        self.parts = parts or {}
        self.problems: list[Problem] = []

    def problem(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.label, key, message))

    def table(self, data: dict[str, Any], where: str, spec: dict[str, Spec]) -> dict[str, Any]:
        """The keys of `spec` from `data` (None where missing or wrong); unknown keys,
        missing required keys and values of the wrong kind become problems."""
        for key in data:
            if key not in spec:
                close = difflib.get_close_matches(key, list(spec), 1)
                self.problem(join(where, key), "unknown key%s (known here: %s)" % (
                    " (did you mean %s?)" % close[0] if close else "", ", ".join(spec)))
        out: dict[str, Any] = {}
        for key, (kind, required, what) in spec.items():
            out[key] = None
            if key not in data:
                if required:
                    self.problem(join(where, key), "missing: %s" % what)
                continue
            out[key] = self.value(data[key], kind, join(where, key))
        return out

    def value(self, value: Any, kind: str, key: str) -> Any:
        """`value` if it is of `kind`, else None and a problem."""
        if kind in ("pin", "input"):
            if not isinstance(value, str):
                self.problem(key, "must be a pin name (a string), not %s" % describe(value))
                return None
            if PIN_TEXT.match(value) or (kind == "input" and CHANNEL_TEXT.match(value)):
                return value
            self.problem(key, "%r is not a pin: %s" % (
                value, INPUT_HELP if kind == "input" else PIN_HELP))
            return None
        if kind.startswith("part:"):
            role = kind[5:]
            if not isinstance(value, str):
                self.problem(key, "must be a part (a key of hardware/parts.toml), not %s"
                             % describe(value))
                return None
            part = self.parts.get(value)
            if part is None:
                fitting = sorted(k for k, p in self.parts.items() if p.role == role)
                self.problem(key, "%r is not in the parts catalogue (hardware/parts.toml)%s" % (
                    value, "; its %s parts: %s" % (role, ", ".join(fitting)) if fitting else ""))
                return None
            if part.role != role:
                self.problem(key, "%r is a %s, not a %s" % (value, part.role, role))
                return None
            return value
        test, what = KINDS[kind]
        if not test(value):
            self.problem(key, "must be %s, not %s" % (what, describe(value)))
            return None
        return value

    def items(self, values: list[Any] | None, kind: str, key: str) -> list[Any] | None:
        """Each item of an array checked as `kind`; None if any is wrong."""
        if values is None:
            return None
        out = [self.value(item, kind, "%s[%d]" % (key, i)) for i, item in enumerate(values)]
        return None if any(item is None for item in out) else out

    def within(self, value: int | None, low: int, high: int | None, key: str,
               why: str = "") -> None:
        """A problem if `value` is outside low..high (high None: no upper bound)."""
        if value is None:
            return
        if value < low or (high is not None and value > high):
            bounds = "%d..%d" % (low, high) if high is not None else "at least %d" % low
            self.problem(key, "must be %s%s, not %d" % (bounds, why, value))

    def fail_if_any(self) -> None:
        if self.problems:
            raise ProfileError(self.problems)


def join(where: str, key: str) -> str:
    return "%s.%s" % (where, key) if where else key

"""What the drivers share: checking a BCM pin number or a setting, and the error for hardware that
is not there."""

from __future__ import annotations

# The 40-pin header of every Raspberry Pi since the B+ brings out GPIO 0..27 (BCM numbering, the
# numbers gpiozero and the `D18` names of Blinka use); 0 and 1 are the HAT ID EEPROM's.
BCM_PINS = range(28)


class DeviceError(OSError):
    """Hardware that should be there is not: a serial device that does not exist or may not be
    opened, a machine on which Blinka cannot drive NeoPixels. The message names the device and
    says what to check."""


def bcm_pin(pin: object, what: str) -> int:
    """`pin` if it is a Raspberry Pi BCM GPIO number (0..27), else a ValueError that names `what`
    the pin was for.

    >>> bcm_pin(18, "the LED strip")
    18
    >>> bcm_pin(40, "the buzzer")
    Traceback (most recent call last):
    ...
    ValueError: the buzzer: pin 40 is not a Raspberry Pi GPIO number (BCM 0..27, not a header pin)
    """
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
        raise ValueError("%s: pin %r is not a Raspberry Pi GPIO number (BCM 0..27, not a header "
                         "pin)" % (what, pin))
    return pin


def check_number(value: object, what: str, *, integer: bool = False, zero: bool = False) -> None:
    """Raise a ValueError naming `what` unless `value` is a number above 0 (or 0 itself when
    `zero`), and an int when `integer`. Bools are refused: True is not a count.

    >>> check_number(0, "count", integer=True)
    Traceback (most recent call last):
    ...
    ValueError: count must be an int above 0, not 0
    """
    kind = int if integer else (int, float)
    # `not value >= 0` also refuses NaN, which every comparison answers False
    if isinstance(value, bool) or not isinstance(value, kind) or not value >= 0 or (
            value == 0 and not zero):
        raise ValueError("%s must be %s %s, not %r" % (
            what, "an int" if integer else "a number", "of 0 or more" if zero else "above 0",
            value))

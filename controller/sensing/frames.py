"""What the sensing modules share: the error they raise, the places a channel stands for, and the
checks every incoming frame passes before it may change anything.

A counting board has one channel per place: the 2n pits in absolute index order (docs/rules.md
section 1), then South's store (channel 2n) and North's store (channel 2n+1). So channel 13 of a
2 x 6 board is North's store::

    >>> channel_name(13, 14)
    "channel 13 (North's store)"
    >>> check_frame([1, 2, 3, True], 4)
    Traceback (most recent call last):
    ...
    controller.sensing.frames.SensingError: channel 3 (North's store): reading True is not an int

Portable core: MicroPython subset.
"""

try:
    from micropython import const      # MicroPython inlines these where they are used
except ImportError:
    def const(value):
        return value

from ..rules.script import place_words

# The HX711 answers in 24-bit two's complement and clips there: a reading at either end is a
# saturated cell (overloaded, or a broken wire pulling the input to a rail), never a weight.
HX711_LOW = const(-8388608)     # -2**23
HX711_HIGH = const(8388607)     # 2**23 - 1


class SensingError(ValueError):
    """Bad input to the sensing layer: a frame of the wrong length or with a reading that is not
    an int, time running backwards, a calibration that cannot count.

    The message is one line that names the channel when there is one. A frame that raises changes
    nothing: the sensors keep the state they had before it.
    """


def channel_name(channel, channels):
    """"channel 3 (South's pit 4)": how messages name a channel of a counting board, the
    hardware's channel and the place it weighs as the players name it (`place_words`)."""
    if channels < 4 or channels % 2 or not 0 <= channel < channels:
        return "channel %d" % channel
    return "channel %d (%s)" % (channel, place_words(channel, (channels - 2) // 2))


def pit_name(channel, channels):
    """"South's pit 4": how messages name a channel of an activity board (one sensor a pit,
    `channels` = 2n); "sensor 3" on a board of another shape."""
    if channels < 2 or channels % 2 or not 0 <= channel < channels:
        return "sensor %d" % channel
    return place_words(channel, channels // 2)


def check_time(t_ms, last):
    """`t_ms` if it is a number of milliseconds not before `last` (None: no frame yet), else a
    SensingError. The caller counts time (on a Pico: `time.ticks_ms` unwrapped with
    `ticks_diff`); every duration of the sensing layer is a difference of these."""
    if isinstance(t_ms, bool) or not isinstance(t_ms, (int, float)):
        raise SensingError("frame time %r is not a number of milliseconds" % (t_ms,))
    if last is not None and t_ms < last:
        raise SensingError("frame time %s ms is before the previous frame's %s ms" % (t_ms, last))
    return t_ms


def check_frame(frame, channels, name=channel_name, allowed=None, missing=False):
    """Raise a SensingError unless `frame` is a list (or tuple) of `channels` ints (each one of
    `allowed` when given; None too when `missing`: a channel with no reading this frame).
    Checked whole before any state changes, so a bad frame is refused without a trace.
    `name(channel, channels)` names a channel in the message."""
    if not isinstance(frame, (list, tuple)):
        raise SensingError("a frame is a list of %d readings, not %s" % (
            channels, type(frame).__name__))
    if len(frame) != channels:
        raise SensingError("the frame has %d readings; this board has %d channels" % (
            len(frame), channels))
    # type() is not isinstance(): True and False are ints to isinstance, and a reading of True
    # is a driver bug, not the number 1. The loop runs for every frame: the common case first,
    # the channel's name only when something is wrong.
    for value in frame:
        if type(value) is not int or (allowed is not None and value not in allowed):
            if value is None and missing:
                continue
            break
    else:
        return
    for channel in range(channels):
        value = frame[channel]
        if value is None and missing:
            continue
        if type(value) is not int:
            raise SensingError("%s: reading %r is not an int" % (name(channel, channels), value))
        if allowed is not None and value not in allowed:
            raise SensingError("%s: reading %r is not one of %s" % (
                name(channel, channels), value, "/".join([str(a) for a in allowed])))

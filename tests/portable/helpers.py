"""Helpers shared by the portable tests (plain Python: they run under MicroPython too)."""

from controller.guide.frame import DROP, PICK, TAKE, UUR_FROM, UUR_TO, STEADY, FORCED


def raises(error_type, call, *args):
    """The error `call(*args)` raises, which must be an `error_type`."""
    try:
        call(*args)
    except error_type as error:
        return error
    raise AssertionError("%s did not raise %s" % (call, error_type.__name__))


def follow_leds(frame, counts, hand, choose=-1):
    """One action of a careful player who reads only the LED frame, done on `counts` (pits,
    then the stores); returns the seeds in hand after it. A move is the legal pit at index
    `choose` of the lit ones."""
    pits = len(counts) - 2
    drop, pick, take = frame.where(DROP), frame.where(PICK), frame.where(TAKE)
    if drop:
        counts[drop[0]] += 1
        return hand - 1
    if pick:
        hand += counts[pick[0]]
        counts[pick[0]] = 0
        return hand
    if take:
        store = pits if frame.colour(take[0]) == "south" else pits + 1
        counts[store] += counts[take[0]]
        counts[take[0]] = 0
        return hand
    if frame.where(UUR_FROM):
        counts[frame.where(UUR_FROM)[0]] -= 1
        counts[frame.where(UUR_TO)[0]] += 1
        return hand
    legal = [p for p in range(pits) if frame.pattern(p) in (STEADY, FORCED)]
    hand += counts[legal[choose]]
    counts[legal[choose]] = 0
    return hand

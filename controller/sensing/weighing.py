"""A judgement's candidate counts weighed in whole numbers: `weigh`, the plain Python that
CountingSensor uses where it is given no native version (the Pico's firmware gives it
firmware/fast.py's `weigh`, checked word for word against this one on the emulated Pico, so
a Pico never loads this module's bytecode: its heap is what a 2 x 12 board runs short of).
The words' layout (W_*), the units (Q) and the tables (EXP2, HALF_LOG2) are counting's.

Portable core: MicroPython subset.
"""

from .counting import (HALF_LOG2, FLOOR_Q, NONE, OTHER_BITS, Q, W_FAR, W_K, W_LIKELIER,
                       W_MINE, W_NEAR, W_OTHER, W_REF, W_SPREAD, W_TOTAL, W_VARIANCE, W_X)


def weigh(words, exp2, half_log2):
    """A judgement's candidate counts weighed in whole numbers, on `words` (W_X..W_VARIANCE
    given, W_MINE..W_LIKELIER worked out; the tables are EXP2 and HALF_LOG2): what
    count_confidence works out in floats for the counts k and other, from the two zeros,
    within 0.015 (tests/test_sensing.py), allocating nothing. A Pico's floats are heap
    objects: a judgement in floats was about 1 ms there; the firmware's `fast.weigh` does
    this in native code (CountingSensor's `native_weigh`).

    Each candidate count j near k and other gets _bits from either zero (W_NEAR, W_FAR),
    and a count's confidence is its likelihood's share (the likelier zero's) of OTHER and
    its neighbours', as in count_confidence."""
    k = words[W_K]
    other = words[W_OTHER]
    low = (k if k < other else other) - 1
    high = (other if k < other else k) + 1
    spread2 = words[W_SPREAD]
    variance = words[W_VARIANCE]
    for j in range(low if low > 0 else 0, high + 1):
        for side in (0, 1):             # W_X, W_REF, W_NEAR; W_EMPTY, W_EMPTY_REF, W_FAR
            d = j - words[W_REF + side]
            words[W_NEAR + 4 * side + j - low] = _bits(
                words[W_X + side] - j * Q, (d if d >= 0 else -d) * spread2 + variance,
                half_log2)
    likelier = 0
    for which in (0, 1):                # k: W_MINE, W_TOTAL; other: W_CHANCE, W_CHANCE_TOTAL
        c = k if which == 0 else other
        if which == 1 and other == k:
            break
        top = OTHER_BITS                # the likeliest: weights relative to it
        for j in range(c - 1 if c > 0 else 0, c + 2):
            bits = words[W_NEAR + j - low]
            if words[W_FAR + j - low] < bits:
                bits = words[W_FAR + j - low]
            if bits < top:
                top = bits
        total = _weight(OTHER_BITS - top, exp2)
        mine = 0
        for j in range(c - 1 if c > 0 else 0, c + 2):
            bits = words[W_NEAR + j - low]
            if words[W_FAR + j - low] < bits:
                bits = words[W_FAR + j - low]
            weight = _weight(bits - top, exp2)
            total += weight
            if j == c:
                mine = weight
        words[W_MINE + 2 * which] = mine
        words[W_TOTAL + 2 * which] = total
        if words[W_FAR + c - low] < words[W_NEAR + c - low]:
            likelier |= 1 << which
    words[W_LIKELIER] = likelier


def _bits(off, variance, half_log2):
    """_likelihood in whole numbers: a value `off` from the candidate count, in 1/Q seed,
    with `variance` in 1/Q**2 seed**2 (at least FLOOR_Q) gives ``-256 log2(L / Q)`` where L
    is _likelihood's ``exp(-z2 / 2) / sqrt(variance)``: ``256 z2 / (2 ln 2) + 128
    log2(variance)``, the larger the less likely, 256 more being half as likely; NONE where
    _likelihood gives 0 (z2 over 100). With off within a few seeds and the variance under
    2**23 (as `weigh` is given them) every product fits 31 bits.

        >>> _bits(0, 4 * FLOOR_Q, HALF_LOG2) - _bits(0, FLOOR_Q, HALF_LOG2)  # 2 deviations
        256
        >>> _bits(Q, Q * Q, HALF_LOG2) - _bits(0, Q * Q, HALF_LOG2)   # one off: exp(-1/2)
        185
    """
    off2 = off * off
    if off2 > 100 * variance:
        return NONE
    z = off2 // variance
    bits = z * 185 + (off2 - z * variance) * 185 // variance
    bits += 1024 - bits // 555              # 256 / (2 ln 2) = 185 - 185 / 555
    while variance >= 512:                  # 128 log2(variance): 128 a halving, and
        variance >>= 1                      # 1024 + the table's for 256 <= variance < 512
        bits += 128
    return bits + half_log2[variance - 256]


def _weight(off, exp2):
    """A likelihood `off` _bits less likely than the likeliest, as 32768 * 2**(-off / 256)."""
    return exp2[off & 255] >> (off >> 8) if off < 4096 else 0

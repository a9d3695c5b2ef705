"""The sensing layer: raw sensor frames -> a stable reading per pit and store (portable core).

Two kinds of boards (docs/architecture.md, hardware profiles):

- **counting** (`pico-bridge`, `pico-standalone`): a load cell per pit and per store. Calibrate
  once with a `Calibrator` (tare, weigh K seeds, weigh single seeds), keep the `Calibration`,
  then feed frames to a `CountingSensor`: per channel a count, settled or not, a confidence and
  a fault. Channels are places: the 2n pits in absolute index order, then South's store (2n)
  and North's store (2n+1).
- **activity** (`pi-direct`): a digital sensor per pit; an `ActivitySensor` debounces it into
  activations.

::

    from controller.sensing import Calibration, CountingSensor
    sensor = CountingSensor(calibration)
    changed = sensor.feed(t_ms, raw)        # raw: one int per channel, every ~10.7 ms
    sensor.counts, sensor.settled, sensor.confidence, sensor.faults

Bad input raises `SensingError` (a ValueError) with one line naming the channel.

Portable core: MicroPython subset.
"""

from .frames import SensingError, HX711_LOW, HX711_HIGH, channel_name, pit_name
from .calibration import Calibration, seed_spread, reliable_count
from .counting import CountingSensor, Reading, count_confidence, median5


def __getattr__(name):
    """`ActivitySensor` (pit sensors) and `Calibrator` (the calibration procedure) are loaded
    when first asked for: a Pico that counts seeds on a calibrated board needs neither, and
    keeps their 4 KB of bytecode free for its heap."""
    if name == "ActivitySensor":
        from .activity import ActivitySensor
        return ActivitySensor
    if name == "Calibrator":
        from .calibrator import Calibrator
        return Calibrator
    # any other name: a submodule not imported yet. MicroPython asks a package's __getattr__
    # first for `from controller.sensing import <submodule>`, and imports nothing itself
    try:
        return __import__(__name__ + "." + name, None, None, (name,))
    except ImportError:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))

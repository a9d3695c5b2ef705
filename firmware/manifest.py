# What goes onto the Pico: the portable core and the firmware, as a MicroPython manifest.
#
# Frozen into a custom build (bytecode in flash: nothing to compile at boot, far less RAM):
#
#     cd micropython/ports/rp2
#     make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/layli/firmware/manifest.py
#
# then flash build-RPI_PICO/firmware.uf2 (hold BOOTSEL, plug in, copy the file) and copy only
# config.json (and calibration.json) with `python firmware/deploy.py CONFIG --frozen`.
# A frozen main.py runs at boot like one on the filesystem.
#
# deploy.py reads this file too, to copy the same files onto a stock MicroPython: the list
# lives here only. Paths are relative to this folder (MicroPython's build runs a manifest
# from its own folder, and so does deploy.py).

import os

include("$(PORT_DIR)/boards/manifest.py")      # the rp2 port's own frozen modules

# The portable core: only its subpackages that run on the Pico, never the host-only ones
# (command line, drivers, the MicroPython runner).
PORTABLE = ("rules", "sensing", "guide", "session", "protocol", "ai")
package("controller", base_path="..", files=["__init__.py"] + [
    folder + "/" + name
    for folder in PORTABLE
    for name in sorted(os.listdir(os.path.join("..", "controller", folder)))
    if name.endswith(".py")])

# The firmware: every module here but the host-side ones (this file and deploy.py).
HOST_ONLY = ("manifest.py", "deploy.py")
for name in sorted(os.listdir(".")):
    if name.endswith(".py") and name not in HOST_ONLY:
        module(name)

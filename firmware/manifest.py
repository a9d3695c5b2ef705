# What goes onto the Pico: the portable core and the firmware, as a MicroPython manifest.
#
# Frozen into a custom build (bytecode in flash: nothing to compile at boot, far less RAM):
# `python3 tools/build_uf2.py` builds MicroPython 1.27.0 for RPI_PICO with this manifest as its
# FROZEN_MANIFEST; flash its UF2 (hold BOOTSEL, plug in, copy the file) and copy only
# config.json (and calibration.json) with `layli firmware deploy CONFIG --frozen`.
# A frozen main.py runs at boot like one on the filesystem.
#
# `layli firmware deploy` (controller/hardware/deploy.py) reads this file too, to copy the same
# files onto a stock MicroPython: the list lives here only. Paths are relative to this folder
# (MicroPython's build runs a manifest from its own folder, and so does the deploy).

import os

include("$(PORT_DIR)/boards/manifest.py")      # the rp2 port's own frozen modules

# The portable core: only its subpackages that run on the Pico, never the host-only ones
# (command line, drivers, the MicroPython runner).
PORTABLE = ("rules", "sensing", "guide", "session", "protocol", "ai")
# The folder that holds the `controller` package: the checkout's root, beside this folder; in an
# installed layli (`layli firmware deploy`), where this folder is controller/hardware/pico_firmware
# inside site-packages, site-packages.
CORE = ".." if os.path.isdir(os.path.join("..", "controller")) else os.path.join("..", "..", "..")
package("controller", base_path=CORE, files=["__init__.py"] + [
    folder + "/" + name
    for folder in PORTABLE
    for name in sorted(os.listdir(os.path.join(CORE, "controller", folder)))
    if name.endswith(".py")])

# The firmware: every module here but this file, which only the host reads.
HOST_ONLY = ("manifest.py",)
for name in sorted(os.listdir(".")):
    if name.endswith(".py") and name not in HOST_ONLY:
        module(name)

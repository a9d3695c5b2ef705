"""The board's hardware as data (host-only): profiles, their check and power budget, the parts
catalogue and bill of materials, and wiring diagrams. See hardware/README.md.

    >>> from controller.hardware import load, check
    >>> check(load("pi-direct-2x6"))
    []
"""

from controller.hardware.problems import Problem, ProfileError
from controller.hardware.profile import Profile, budget, check, load, shipped

__all__ = ["Problem", "Profile", "ProfileError", "budget", "check", "load", "shipped"]

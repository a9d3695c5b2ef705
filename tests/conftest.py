"""Test settings shared by the whole suite."""

import os

from hypothesis import settings

# CI draws the same examples every run (a submission's result must not depend on the luck of
# the draw); a developer's runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

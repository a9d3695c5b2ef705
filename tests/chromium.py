"""Debian's chromium, which the browser tests drive through Playwright (.ci/run installs it)."""

import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"

needs_chromium = pytest.mark.skipif(shutil.which(CHROMIUM) is None,
                                    reason="Debian's chromium is not installed")

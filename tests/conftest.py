"""Test settings shared by the whole suite."""

import os

import pytest
from hypothesis import settings

# CI draws the same examples every run (a submission's result must not depend on the luck of
# the draw); a developer's runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for every browser test (tests/chromium.py)."""
    from chromium import CHROMIUM

    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()

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


# The files that take longest, longest first (minutes each, measured: the durations of a
# `.ci/run`). `.ci/run` spreads whole files over the cores (pytest-xdist, --dist loadfile), in
# the order collected: these go first, so that no core is left with one of them at the end
# while the other idles.
SLOWEST_FIRST = ("test_emulated_games.py", "test_firmware.py",
                 "test_emulated_pico.py", "test_emulated_chain.py", "test_tournament_demo.py",
                 "test_end_to_end_faults.py", "test_bringup.py", "test_sim.py")


@pytest.fixture
def mock_pins():
    """gpiozero's mock pins (PWM-capable) as every device's pin factory, for the test."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


def pytest_collection_modifyitems(config, items):
    def rank(item):
        name = item.path.name
        return SLOWEST_FIRST.index(name) if name in SLOWEST_FIRST else len(SLOWEST_FIRST)
    items.sort(key=rank)            # stable: each file's tests keep their order

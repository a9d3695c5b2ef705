"""The scripts of benchmarks/ loaded as modules, for the tests that check them (they are run
as files, not imported as a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/`name`.py as a module called `name`."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

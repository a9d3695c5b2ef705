"""Runs plain test functions inside MicroPython, where pytest does not run.

Not imported on the host: tests/test_micropython.py copies this file into MicroPython's
filesystem as /app/plain_tests.py, copies the test modules beside it and runs::

    import plain_tests
    plain_tests.main(["test_rules_portable", ...])

For each module it imports, every module-level callable named test_* is called with no
arguments. Each test writes a line `@@begin MODULE NAME` before it runs, and a line
`@@result {"module": .., "name": .., "ok": .., "traceback": .., "ms": ..}` after (ms: how long
it took); anything the test prints falls between the two. A module that cannot be imported gives one result named `<import>`.

MicroPython subset: no inspect, no traceback module; sys.print_exception writes the traceback.
"""

import io
import json
import sys
import time

BEGIN = "@@begin"
RESULT = "@@result"


def _traceback(error):
    buffer = io.StringIO()
    sys.print_exception(error, buffer)
    return buffer.getvalue()


def _now_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


def _report(module, name, error, ms=0):
    print(RESULT, json.dumps({"module": module, "name": name, "ok": error is None,
                              "traceback": "" if error is None else _traceback(error),
                              "ms": ms}))


def run_module(module_name, skip=()):
    """Run every test_* function of one module but those named in `skip` ("module.name");
    return how many failed."""
    print(BEGIN, module_name, "<import>")
    try:
        module = __import__(module_name)
    except Exception as error:  # a module that does not import fails as a whole
        _report(module_name, "<import>", error)
        return 1
    _report(module_name, "<import>", None)
    failed = 0
    # dir() order differs between runtimes: sort so that runs are comparable
    for name in sorted(dir(module)):
        test = getattr(module, name)
        if not name.startswith("test_") or not callable(test):
            continue
        if module_name + "." + name in skip:
            continue
        print(BEGIN, module_name, name)
        start = _now_ms()
        try:
            test()
        except Exception as error:
            failed += 1
            _report(module_name, name, error, _now_ms() - start)
            continue
        _report(module_name, name, None, _now_ms() - start)
    return failed


def main(module_names, skip=()):
    """Run the modules' tests (but those in `skip`); exit status 1 when any failed."""
    failed = 0
    for module_name in module_names:
        failed += run_module(module_name, skip)
    if failed:
        raise SystemExit(1)

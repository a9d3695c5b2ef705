"""Where the journal lives: a small append-only storage interface and its two kinds.

`FileStorage` is a file of lines; the lines appended wait in memory until `sync()` writes them
and makes them survive a power cut (os.fsync where the runtime has it, as on a Pi; MicroPython
has none, and closing the file commits it to the Pico's littlefs). A Pi syncs after every step,
a Pico after each completed move: nothing touches its flash in the middle of a move, where a
littlefs block copy would stop the CPU for 50 ms, and a power cut loses the move under way,
which the game resumes at the start of. `MemoryStorage` keeps lines in a list, for tests and
for a board without a filesystem.

Portable core: MicroPython subset.
"""

try:
    import os
except ImportError:
    import uos as os


class MemoryStorage:
    """Lines in a list."""

    def __init__(self, lines=None):
        self.saved = list(lines or [])

    def lines(self):
        return self.saved[:]

    def append(self, line):
        self.saved.append(line)

    def sync(self):
        pass

    def clear(self):
        self.saved = []


class FileStorage:
    """Lines in a text file, appended in memory and written, synced, by `sync()` (or `close()`);
    a torn last line (the power went while it was written) is left for the reader to drop."""

    def __init__(self, path):
        self.path = path
        self._pending = []          # appended, not yet written

    def lines(self):
        try:
            with open(self.path) as handle:
                text = handle.read()
        except OSError:
            text = ""
        if not text:
            written = []    # a cleared journal: no lines (not one empty line)
        elif text.endswith("\n"):
            written = text.split("\n")[:-1]
        else:
            written = text.split("\n")
        return written + self._pending

    def append(self, line):
        self._pending.append(line)

    def sync(self):
        if not self._pending:
            return
        with open(self.path, "a") as handle:
            # line by line: a move's lines joined are kilobytes in one piece, which a Pico's
            # full, cut-up heap may not have (a long relay's 2.2 KB: MemoryError, found on
            # the emulated Pico)
            for line in self._pending:
                handle.write(line)
                handle.write("\n")
            handle.flush()
            fsync = getattr(os, "fsync", None)
            if fsync is not None:
                fsync(handle.fileno())
        self._pending = []

    def clear(self):
        self._pending = []
        with open(self.path, "w"):
            pass

    def close(self):
        """Write what is appended (a clean stop keeps every line)."""
        self.sync()

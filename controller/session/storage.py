"""Where the journal lives: a small append-only storage interface and its two kinds.

`FileStorage` is a file of lines; `sync()` makes the lines written so far survive a power cut
(os.fsync where the runtime has it, as on a Pi; MicroPython has none and flushes, and a Pico
syncs after each completed move). `MemoryStorage` keeps lines in a list, for tests and for a
board without a filesystem.

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
    """Lines in a text file, appended and synced; a torn last line (the power went while it was
    written) is left for the reader to drop."""

    def __init__(self, path):
        self.path = path
        self._file = None

    def lines(self):
        try:
            with open(self.path) as handle:
                text = handle.read()
        except OSError:
            return []
        if not text:
            return []       # a cleared journal: no lines (not one empty line)
        return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")

    def append(self, line):
        if self._file is None:
            self._file = open(self.path, "a")
        self._file.write(line + "\n")

    def sync(self):
        if self._file is None:
            return
        self._file.flush()
        fsync = getattr(os, "fsync", None)
        if fsync is not None:
            fsync(self._file.fileno())

    def clear(self):
        self.close()
        with open(self.path, "w"):
            pass

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

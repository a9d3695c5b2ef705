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
    a torn last line (the power went while it was written) is left for the reader to drop.

    With `keep_open` the file is opened for appending at once and stays open: each sync
    writes and flushes it (on a Pico's littlefs a flush commits what was written). For a
    Pico's heap, which a game fills and cuts up: opening a file there takes a kilobyte in
    one piece (its cache), which a 2 x 12 board's heap did not have at a move's end
    (MemoryError, found on the emulated Pico)."""

    def __init__(self, path, keep_open=False):
        self.path = path
        self._pending = []          # appended, not yet written
        self._handle = open(path, "a") if keep_open else None

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
        if self._handle is not None:
            self._write(self._handle)
        else:
            with open(self.path, "a") as handle:
                self._write(handle)
        self._pending = []

    def _write(self, handle):
        # line by line: a move's lines joined are kilobytes in one piece, which a Pico's
        # full, cut-up heap may not have (a long relay's 2.2 KB: MemoryError, found on the
        # emulated Pico)
        for line in self._pending:
            handle.write(line)
            handle.write("\n")
        handle.flush()
        fsync = getattr(os, "fsync", None)
        if fsync is not None:
            fsync(handle.fileno())

    def clear(self):
        self._pending = []
        kept = self._handle is not None
        if kept:
            self._handle.close()        # its memory is the new one's
        with open(self.path, "w"):
            pass
        if kept:
            self._handle = open(self.path, "a")

    def close(self):
        """Write what is appended (a clean stop keeps every line), and close the file."""
        self.sync()
        if self._handle is not None:
            self._handle.close()
            self._handle = None

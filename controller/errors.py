"""Errors the host-side commands report as one line and exit status 2 (host-only)."""


class UsageError(Exception):
    """Bad input found by a command after parsing (a missing file, a missing tool...)."""

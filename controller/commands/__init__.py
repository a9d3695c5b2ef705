"""The `layli` subcommands that have no room of their own (host-only)."""

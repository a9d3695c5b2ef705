"""Tournaments (host-only): tables that report over MQTT, a server that pairs rounds, records
results from the boards, keeps standings and serves live pages. See docs/tournament.md."""

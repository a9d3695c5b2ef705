"""An event's exports (host-only): the whole event as JSON-ready data, every game as a CSV row,
and the JSON of a result and of a table's retirement, which the live pages send the same way.

    data = export_json(store)          # json.dumps-ready: event, players, tables, rounds, ...
    text = export_csv(store)           # round, board, table, south, north, result, seeds, status
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .model import Result
from .rows import Retirement, result_text
from .schema import SCHEMA_VERSION
from .store import Store


def export_json(store: Store) -> dict[str, Any]:
    """The whole event as plain data (json.dumps-ready), from one read of the store: event,
    players, tables, rounds, games with their results and records, corrections, games moved to
    another table and rejected counts."""
    got = store.snapshot()
    event = got.event
    return {
        "schema": SCHEMA_VERSION,
        "event": {"name": event.name, "variant": event.variant, "options": event.options,
                  "system": event.system, "rounds": event.rounds,
                  "match_format": event.match_format, "bye_points": event.bye_points,
                  "tie_breaks": list(event.tie_breaks)},
        "players": [{"number": p.number, "name": p.name, "rating": p.rating,
                     "club": p.club, "withdrawn_from": got.withdrawn[p.name]}
                    for p in got.players],
        "tables": [{"id": t.id, "status": t.status, "seen_at": t.seen_at,
                    "retired": retirement_json(got.retired.get(t.id))} for t in got.tables],
        "rounds": [{"round": number, "paired_at": at} for number, at in got.rounds],
        "games": [{"id": g.id, "round": g.pairing.round, "board": g.pairing.board,
                   "table": g.table, "south": g.pairing.south, "north": g.pairing.north,
                   "status": g.status, "result": result_json(g.result),
                   "record": g.record, "source": g.source, "confirmed_by": g.confirmed_by,
                   "duplicates": g.duplicates} for g in got.games],
        "corrections": [{"game": c.game_id, "old": result_json(c.old),
                         "new": result_json(c.new), "arbiter": c.arbiter,
                         "reason": c.reason, "at": c.at} for c in got.corrections],
        "relocations": [{"game": r.game_id, "from": r.from_table, "to": r.to_table,
                         "ply": r.ply, "arbiter": r.arbiter, "reason": r.reason,
                         "at": r.at} for r in got.relocations],
        "rejected": got.rejected,
    }


# a spreadsheet takes a cell that begins with one of these as a formula (OWASP's "CSV
# injection"): a player's name "=HYPERLINK(...)" would be run, not shown
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """`value` as a CSV cell a spreadsheet shows as it is: text that it would take for a
    formula gets a leading apostrophe, which spreadsheets show as text.

        >>> csv_cell("=1+2"), csv_cell("-x"), csv_cell("Amina"), csv_cell(3)
        ("'=1+2", "'-x", 'Amina', 3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(store: Store) -> str:
    """Every game as a CSV row: round, board, table, south, north (players' names; "bye" for a
    bye), result ("1-0", "1/2-1/2", "0-1", empty while none), seeds ("30-18"), status. A cell a
    spreadsheet would take for a formula is written as text (`csv_cell`)."""
    names = {player.number: player.name for player in store.players()}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("round", "board", "table", "south", "north", "result", "seeds", "status"))
    for game in store.games():
        pairing, result = game.pairing, game.result
        writer.writerow([csv_cell(cell) for cell in (
            pairing.round, pairing.board, game.table or "", names[pairing.south],
            "bye" if pairing.is_bye else names[pairing.north],
            result_text(result) if result else "",
            "%d-%d" % (result.south_seeds, result.north_seeds) if result else "",
            game.status)])
    return out.getvalue()


def retirement_json(item: Retirement | None) -> dict[str, Any] | None:
    """A table's retirement as the event's JSON export writes it (None: not retired)."""
    if item is None:
        return None
    return {"arbiter": item.arbiter, "reason": item.reason, "at": item.at}


def result_json(result: Result | None) -> dict[str, Any] | None:
    """A game's result as the event's JSON export writes it (None: no result yet)."""
    if result is None:
        return None
    return {"south_points": result.south_points, "south_seeds": result.south_seeds,
            "north_seeds": result.north_seeds}

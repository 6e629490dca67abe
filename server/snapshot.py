"""The snapshot each kiosk gets (docs/protocol.md) and the push of it on every change."""

from __future__ import annotations

from typing import Any

from server.context import Hub
from server.rounds import current, out_powers


def snapshots(hub: Hub, tables: set[int]) -> dict[int, dict[str, Any]]:
    """One snapshot per table, sharing the event and schedule, with the same ``seq``."""
    cur = current(hub.store)
    seq = hub.store.seq()
    event = cur.profile.model_dump(mode="json") if cur else None
    schedule = cur.schedule.model_dump(mode="json") if cur else None
    by_table: dict[int, list] = {n: [] for n in tables}
    if cur is not None:
        for row in hub.store.presses(cur.round.number):
            if row.table in by_table:
                by_table[row.table].append(row)
    now = hub.clock.now()
    return {
        n: {
            "seq": seq,
            "hub": hub.hub_id,
            "table": n,
            "event": event,
            "schedule": schedule,
            "out": out_powers(rows, cur.schedule) if cur else [],
            "presses": [r.as_json() for r in rows],
            "hub_time": now,
        }
        for n, rows in by_table.items()
    }


def snapshot(hub: Hub, table: int) -> dict[str, Any]:
    return snapshots(hub, {table})[table]


def publish(hub: Hub, tables: set[int] | None = None) -> None:
    """Push the new state to every kiosk (or those of ``tables``) after a change."""
    hub.fanout.publish(lambda wanted: snapshots(hub, wanted), tables)

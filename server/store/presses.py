"""The clocks' button presses in the store, each table's revision, and the judgments
kept from them (``server.history``).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from server.store.base import Base
from server.store.rows import _BUMP, PressesAdded, PressRow, _press_rows


class Presses(Base):
    """Presses as the clocks send them, and what is judged of them."""

    def add_presses(self, presses: list[PressRow], now: datetime, most: int | None = None,
                    debounce: timedelta | None = None) -> PressesAdded:
        """Store each press once (under its own round and table), keyed by its table and
        its id; presses sent in time order, as a clock's outbox sends them.

        ``debounce`` (``dipclock.debounce.DEBOUNCE``): a press this soon after a stored one
        of its round, table, power and kind is a bounce of it: not stored, counted merged.
        ``most``: the presses one power of a table may hold in a round
        (``server.presslimit``); past it a new press is not stored, so one button gone
        wrong cannot fill the hub's disk, nor silence the table's other buttons.
        """
        added = PressesAdded()
        held: dict[tuple[int, int], dict[str, int]] = {}
        changed: set[tuple[int, int]] = set()
        with self.change(now, None) as db:
            for p in presses:
                key = (p.round, p.table)
                if db.execute("SELECT 1 FROM presses WHERE table_no = ? AND id = ?",
                              (p.table, p.id)).fetchone():
                    added.duplicates += 1  # sent again: it is stored, the clock may forget it
                    continue
                if debounce is not None and db.execute(
                        "SELECT 1 FROM presses WHERE round = ? AND table_no = ? AND at > ? "
                        "AND at <= ? AND power = ? AND kind = ? LIMIT 1",
                        (*key, (p.at - debounce).isoformat(), p.at.isoformat(), p.power,
                         p.kind)).fetchone():
                    added.merged += 1
                    continue
                if most is not None:
                    if key not in held:
                        held[key] = dict(db.execute(
                            "SELECT power, count(*) FROM presses WHERE round = ? AND "
                            "table_no = ? GROUP BY power", key).fetchall())
                    if held[key].get(p.power, 0) >= most:
                        added.over.append(p.id)
                        continue
                    held[key][p.power] = held[key].get(p.power, 0) + 1
                db.execute(
                    "INSERT INTO presses(id, round, table_no, power, kind, at, received)"
                    " VALUES(?, ?, ?, ?, ?, ?, ?)",
                    (p.id, p.round, p.table, p.power, p.kind, p.at.isoformat(), now.isoformat()),
                )
                added.stored += 1
                changed.add(key)
            db.executemany(_BUMP, sorted(changed))
        return added

    def presses(self, round_no: int, table: int | None = None) -> list[PressRow]:
        sql = "SELECT id, round, table_no, power, kind, at FROM presses WHERE round = ?"
        args: list[object] = [round_no]
        if table is not None:
            sql += " AND table_no = ?"
            args.append(table)
        return _press_rows(self._all(sql + " ORDER BY at, id", args))

    def holds(self, round_no: int) -> list[PressRow]:
        """The round's 3-second holds (out of the game; a board's ready signal), from their
        own index: a board clock's schedule needs them at every read."""
        return _press_rows(self._all(
            "SELECT id, round, table_no, power, kind, at FROM presses "
            "WHERE round = ? AND kind = 'hold' ORDER BY table_no, at, id", (round_no,)))

    def table_revs(self, round_no: int) -> dict[int, int]:
        """Each table's revision in the round: it rises with every press or units stored
        there, so an unchanged number means unchanged presses and units."""
        return dict(self._all(
            "SELECT table_no, rev FROM table_revs WHERE round = ?", (round_no,)))

    def judged(self, round_no: int) -> dict[int, tuple[int, str, list[dict[str, Any]]]]:
        """Each table's final judgment in the round (``server.history``): its revision,
        what it was judged under, and its items."""
        return {t: (rev, basis, json.loads(items)) for t, rev, basis, items in self._all(
            "SELECT table_no, rev, basis, items FROM judged WHERE round = ?", (round_no,))}

    def keep_judged(self, rows: list[tuple[int, int, int, str, list[dict[str, Any]]]]) -> None:
        """Keep final judgments: (round, table, revision, basis, items). Not a change of
        the hall's state: ``seq`` stays."""
        with self._tx() as db:
            db.executemany(
                "INSERT OR REPLACE INTO judged(round, table_no, rev, basis, items) "
                "VALUES(?, ?, ?, ?, ?)",
                [(r, t, rev, basis, json.dumps(items)) for r, t, rev, basis, items in rows])

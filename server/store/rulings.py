"""The TD's rulings in the store: penalty decisions on late orders and a power's units.
"""

from __future__ import annotations

import json
from datetime import datetime

from server.logline import Summary
from server.stale import row
from server.store.base import Base
from server.store.rows import _BUMP, Decision, Units


class Rulings(Base):
    """Penalty decisions and units."""

    # --- the TD's penalty decisions -----------------------------------------------------

    def decisions(self) -> dict[tuple[int, int, str, str], Decision]:
        rows = self._all(
            "SELECT round, table_no, power, phase, decision, final, note, at FROM decisions"
        )
        return {
            (r[0], r[1], r[2], r[3]): Decision(
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], datetime.fromisoformat(r[7])
            )
            for r in rows
        }

    def decide(self, d: Decision, summary: Summary, *, base: int | None = None) -> None:
        subject = row("penalty", d.round, d.table, d.power, d.phase)
        with self.change(d.at, "penalty", summary, subject=subject, base=base) as db:
            db.execute(
                "INSERT OR REPLACE INTO decisions"
                "(round, table_no, power, phase, decision, final, note, at)"
                " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                (d.round, d.table, d.power, d.phase, d.decision, d.final, d.note,
                 d.at.isoformat()),
            )

    # --- units (graduated penalties) ----------------------------------------------------

    def units(self, round_no: int | None = None) -> list[Units]:
        sql = "SELECT round, table_no, power, phase, units FROM units"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [Units(r, t, p, ph, tuple(json.loads(u)))
                for r, t, p, ph, u in self._all(sql + " ORDER BY round, table_no, phase, power",
                                                args)]

    def set_units(self, u: Units, now: datetime, summary: Summary, *, base: int | None = None
                  ) -> None:
        """Keep a power's units for one phase (replacing any given before); none clears."""
        subject = row("units", u.round, u.table, u.power, u.phase)
        with self.change(now, "units", summary, subject=subject, base=base) as db:
            db.execute(_BUMP, (u.round, u.table))
            if u.units:
                db.execute(
                    "INSERT OR REPLACE INTO units(round, table_no, power, phase, units) "
                    "VALUES(?, ?, ?, ?, ?)",
                    (u.round, u.table, u.power, u.phase, json.dumps(list(u.units))))
            else:
                db.execute(
                    "DELETE FROM units WHERE round = ? AND table_no = ? AND power = ? "
                    "AND phase = ?", (u.round, u.table, u.power, u.phase))

"""A round's pauses and the TD's time adjustments in the store.
"""

from __future__ import annotations

from datetime import datetime

from dipclock.schedule import Adjustment, Pause
from server.logline import Summary
from server.store.base import Base


class Pauses(Base):
    """Pauses and adjustments of each round."""

    def pauses(self, round_no: int) -> list[tuple[int, Pause]]:
        rows = self._all("SELECT id, body FROM pauses WHERE round = ? ORDER BY id", (round_no,))
        return [(i, Pause.model_validate_json(body)) for i, body in rows]

    def add_pause(self, round_no: int, pause: Pause, now: datetime, summary: Summary,
                  *, base: int | None = None) -> int:
        with self.change(now, "pause", summary, base=base) as db:
            cur = db.execute(
                "INSERT INTO pauses(round, body) VALUES(?, ?)", (round_no, pause.model_dump_json())
            )
            return int(cur.lastrowid or 0)

    def end_pauses(self, ended: dict[int, Pause], now: datetime, summary: Summary,
                   *, base: int | None = None) -> None:
        """Replace several pauses (each now with ``ended`` set) in one change."""
        with self.change(now, "resume", summary, base=base) as db:
            db.executemany(
                "UPDATE pauses SET body = ? WHERE id = ?",
                [(p.model_dump_json(), i) for i, p in ended.items()],
            )

    def adjustments(self, round_no: int) -> list[tuple[int, Adjustment]]:
        rows = self._all(
            "SELECT id, body FROM adjustments WHERE round = ? ORDER BY id", (round_no,)
        )
        return [(i, Adjustment.model_validate_json(body)) for i, body in rows]

    def add_adjustment(self, round_no: int, adj: Adjustment, now: datetime, summary: Summary,
                       *, base: int | None = None) -> int:
        with self.change(now, "adjust", summary, base=base) as db:
            cur = db.execute(
                "INSERT INTO adjustments(round, body) VALUES(?, ?)",
                (round_no, adj.model_dump_json()),
            )
            return int(cur.lastrowid or 0)

    def drop_adjustment(self, adjustment_id: int, now: datetime, summary: Summary,
                        *, base: int | None = None) -> None:
        """Undo one adjustment: its time is no longer given (or taken); the log keeps both
        the adjustment and its undo."""
        with self.change(now, "unadjust", summary, base=base) as db:
            db.execute("DELETE FROM adjustments WHERE id = ?", (adjustment_id,))

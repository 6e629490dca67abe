"""The seating in the store: who plays which power at which table in each round.
"""

from __future__ import annotations

from datetime import datetime

from dipclock.i18n import Said, said
from dipclock.seating import Seat
from server.logline import Summary
from server.store.errors import StoreConflict
from server.store.rounds import Rounds
from server.store.rows import _ROUND_COLUMNS, _round_row


class Seating(Rounds):
    """Seats of each round; a played round's seating stays (``Rounds._record``)."""

    def seating(self, round_no: int | None = None) -> list[Seat]:
        sql = "SELECT round, table_no, power, player FROM seating"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [Seat(*r) for r in self._all(sql + " ORDER BY round, table_no, power", args)]

    def set_seating(self, seats: list[Seat], now: datetime, summary: Summary,
                    *, base: int | None = None) -> None:
        """Seat each player (replacing whoever had that round, table and power); a seat with
        no player is cleared."""
        with self.change(now, "seating", summary, base=base) as db:
            for s in seats:
                if s.player:
                    db.execute(
                        "INSERT OR REPLACE INTO seating(round, table_no, power, player) "
                        "VALUES(?, ?, ?, ?)", (s.round, s.table, s.power, s.player))
                else:
                    db.execute(
                        "DELETE FROM seating WHERE round = ? AND table_no = ? AND power = ?",
                        (s.round, s.table, s.power))

    def replace_round_seating(self, number: int, seats: list[Seat], now: datetime,
                              summary: Summary, *, base: int | None = None) -> None:
        """Round ``number``'s whole seating, in one write: the seats it had go (a table
        the new seating has no more is empty, not left over). Refused (``StoreConflict``) once
        the round has been played, checked in the transaction that writes, as ``set_round`` does: a
        sheet or a press stored after the seating desk looked still keeps its seats."""
        with self.change(now, "seating", summary, base=base) as db:
            row = db.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?",
                             (number,)).fetchone()
            held = self._record(db, _round_row(row)) if row is not None else None
            if held:
                raise self.seating_stays(number, held.sentence())
            db.execute("DELETE FROM seating WHERE round = ?", (number,))
            db.executemany(
                "INSERT INTO seating(round, table_no, power, player) VALUES(?, ?, ?, ?)",
                [(s.round, s.table, s.power, s.player) for s in seats])

    @staticmethod
    def seating_stays(number: int, played: Said | str) -> StoreConflict:
        """Why round ``number``'s seating is not replaced (``played``: what it holds,
        ``RoundRecord.sentence``), the same from the desk's look and the write's."""
        return StoreConflict(said("round {number} has been played ({held}): its seating "
                                  "stays as it is; change single seats with the seating "
                                  "import", number=number, held=played))

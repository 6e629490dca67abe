"""The rounds in the store: setting one up, undoing it, what a round holds that was
played (``RoundRecord``), its call, and the hall's tables.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from dipclock.i18n import said
from server.logline import Summary, kept
from server.store.base import Base
from server.store.errors import StoreConflict
from server.store.rows import (
    _ROUND_COLUMNS,
    SHEET_LINKS_CLOSED,
    RoundRecord,
    RoundRow,
    _differs,
    _round_from_json,
    _round_json,
    _round_row,
    _write_round,
    takes_the_tables,
)


class Rounds(Base):
    """Rounds, their records and calls, and the tables."""

    def round(self, number: int) -> RoundRow | None:
        row = self._one(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?", (number,))
        return _round_row(row) if row is not None else None

    def rounds(self) -> list[RoundRow]:
        rows = self._all(f"SELECT {_ROUND_COLUMNS} FROM rounds ORDER BY number")
        return [_round_row(r) for r in rows]

    def round_before(self, rnd: RoundRow) -> int | None:
        """The number of the round that starts last before ``rnd`` does (None: none)."""
        row = self._one("SELECT number FROM rounds WHERE start < ? "
                        "ORDER BY start DESC, number DESC LIMIT 1", (rnd.start.isoformat(),))
        return int(row[0]) if row else None

    def current_round(self) -> RoundRow | None:
        number = self.meta("round")
        if number is None:
            return None
        row = self._one(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?", (int(number),))
        return _round_row(row) if row is not None else None

    def set_round(self, r: RoundRow, now: datetime, summary: Summary, *, base: int | None = None,
                  reopen: bool = False) -> None:
        """Set up (or correct) a round; one set up anew is the one every table plays.

        The round keeps ``r.profile`` (the event's rules as they are now) for good. A round
        that is a record (``record``) keeps its event, start and schedule unless
        ``reopen`` says the TD reopens it on purpose; checked in the transaction that
        writes, so a press stored a moment before is not overwritten unseen. What the
        change replaces is kept for ``undo_round``.
        """
        with self.change(now, "round", summary, base=base) as db:
            self._close_sheet_links(db, now)  # before the round may go back
            before = db.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?",
                                (r.number,)).fetchone()
            if before is not None and not reopen:
                old = _round_row(before)
                if _differs(old, r) and self._record(db, old):
                    raise StoreConflict(said(
                        "round {number} is a record ({held}): its event, start and schedule "
                        "do not change unless you reopen it", number=r.number,
                        held=self._record(db, old).sentence()))
            current = db.execute("SELECT value FROM meta WHERE key = 'round'").fetchone()
            db.execute(
                "INSERT INTO round_undo(round, before, current_before, summary, at, said) "
                "VALUES(?, ?, ?, ?, ?, ?)",
                (r.number, _round_json(before) if before is not None else None,
                 int(current[0]) if current else None, str(summary), now.isoformat(),
                 kept(summary)))
            _write_round(db, r)
            if takes_the_tables(r.number, before is not None,
                                int(current[0]) if current else None):
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('round', ?)",
                           (str(r.number),))

    def last_round_change(self) -> tuple[int, str, datetime, str | None] | None:
        """The change to the rounds an undo would take back: (round, log line, when, the
        line's kept sentence or None: ``server.logline``)."""
        row = self._one(
            "SELECT round, summary, at, said FROM round_undo ORDER BY id DESC LIMIT 1")
        return (row[0], row[1], datetime.fromisoformat(row[2]), row[3]) if row else None

    def undo_round(self, now: datetime, summary: Summary, *, base: int | None = None) -> int:
        """Take back the last change to the rounds: the round as it was (a round it set up
        anew is removed, unless it has become a record since), and the round every table
        played then. Returns the round it was about."""
        with self.change(now, "round", summary, base=base) as db:
            self._close_sheet_links(db, now)  # before the round may go back
            row = db.execute("SELECT id, round, before, current_before FROM round_undo "
                             "ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise StoreConflict(said("no change to the rounds to undo"))
            undo_id, number, before, current = row
            if before is None:
                now_row = db.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?",
                                     (number,)).fetchone()
                if now_row is not None and self._record(db, _round_row(now_row)):
                    raise StoreConflict(said(
                        "round {number} has been played since ({held}): it stays; reopen it "
                        "to correct it", number=number,
                        held=self._record(db, _round_row(now_row)).sentence()))
                db.execute("DELETE FROM rounds WHERE number = ?", (number,))
                db.execute("DELETE FROM pauses WHERE round = ?", (number,))
                db.execute("DELETE FROM adjustments WHERE round = ?", (number,))
            else:
                _write_round(db, _round_from_json(before))
            if current is None:
                db.execute("DELETE FROM meta WHERE key = 'round'")
            else:
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('round', ?)",
                           (str(current),))
            db.execute("DELETE FROM round_undo WHERE id = ?", (undo_id,))
            return int(number)

    def sheet_links_closed(self, now: datetime) -> int:
        """The last round whose tables' sheet links no longer change its sheets at ``now``
        (0: none): every round before the latest-numbered one started by then, or before
        one started earlier (kept: undoing that round, or moving its start on, does not
        open them again)."""
        with self._lock:
            return self._links_closed(self._db, now)

    @staticmethod
    def _links_closed(db: sqlite3.Connection, now: datetime) -> int:
        started = db.execute("SELECT max(number) FROM rounds WHERE start <= ?",
                             (now.isoformat(),)).fetchone()[0]
        kept = db.execute("SELECT value FROM meta WHERE key = ?",
                          (SHEET_LINKS_CLOSED,)).fetchone()
        return max(int(started or 1) - 1, int(kept[0]) if kept else 0)

    @classmethod
    def _close_sheet_links(cls, db: sqlite3.Connection, now: datetime) -> None:
        """Keep ``_links_closed`` at ``now`` for good, in the transaction of a change that
        could take a started round back."""
        db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                   (SHEET_LINKS_CLOSED, str(cls._links_closed(db, now))))

    def record(self, rnd: RoundRow) -> RoundRecord:
        """What round ``rnd`` holds that was played (``RoundRecord``). The dashboard asks
        for every round's at each poll: the count of a round's presses is taken again only
        when its tables' revisions have moved (outside a transaction only, where what is
        read is committed)."""
        with self._lock:
            revs = self._db.execute("SELECT total(rev) FROM table_revs WHERE round = ?",
                                    (rnd.number,)).fetchone()[0]
            key = (rnd.number, rnd.start.isoformat(), float(revs))
            found = self._record(self._db, rnd, self._press_counts.get(key))
            if len(self._press_counts) > 1000:  # stale keys of every round: start again
                self._press_counts.clear()
            self._press_counts[key] = found.presses
            return found

    @staticmethod
    def _record(db: sqlite3.Connection, rnd: RoundRow, presses: int | None = None
                ) -> RoundRecord:
        n = rnd.number

        def count(sql: str, *args: object) -> int:
            return int(db.execute(sql, (n, *args)).fetchone()[0])

        return RoundRecord(
            presses=presses if presses is not None else count(
                "SELECT count(*) FROM presses WHERE round = ? AND at >= ?",
                rnd.start.isoformat()),
            rulings=count("SELECT count(*) FROM decisions WHERE round = ?"),
            units=count("SELECT count(*) FROM units WHERE round = ?"),
            sheets=count("SELECT count(*) FROM sheets WHERE round = ?"),
            called=rnd.call is not None,
        )

    def set_call(self, number: int, call: datetime | None, now: datetime, summary: Summary,
                 *, base: int | None = None) -> None:
        """Call round ``number`` at ``call``, or (None) take the call back."""
        with self.change(now, "call", summary, base=base) as db:
            db.execute("UPDATE rounds SET call = ? WHERE number = ?",
                       (call.isoformat() if call else None, number))

    def tables(self) -> list[int]:
        return [r[0] for r in self._all("SELECT number FROM tables ORDER BY number")]

    def set_tables(self, numbers: list[int], now: datetime, summary: Summary,
                   *, base: int | None = None) -> None:
        with self.change(now, "tables", summary, base=base) as db:
            db.execute("DELETE FROM tables")
            db.executemany("INSERT INTO tables(number) VALUES(?)", [(n,) for n in numbers])

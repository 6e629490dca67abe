"""The clocks in the store: those waiting to be paired, those paired
(``server.pairing``), and the TD's sessions.
"""

from __future__ import annotations

from datetime import datetime

from server.logline import Summary
from server.store.base import Base
from server.store.rows import _CLOCKS, _WAITING, PairedClock, Waiting, _clock_row, _waiting_row


class Clocks(Base):
    """Clocks waiting and paired, and TD sessions."""

    def waiting(self) -> list[Waiting]:
        rows = self._all(f"SELECT {_WAITING} FROM waiting ORDER BY asked, rowid")
        return [_waiting_row(r) for r in rows]

    def add_waiting(self, w: Waiting, most: int, per_address: int, now: float) -> None:
        """Store ``w``, always: a clock that asks gets its code. Those expired by ``now``
        (hub time) go first; then, if ``w``'s address already has ``per_address`` waiting,
        its own oldest; then, if the hall has ``most``, the oldest of the address that has
        the most waiting (a flood's, never a lone clock's while any address has more)."""
        with self._tx() as db:
            db.execute("DELETE FROM waiting WHERE expires < ?", (now,))
            mine = db.execute("SELECT count(*) FROM waiting WHERE address = ?",
                              (w.address,)).fetchone()[0]
            if mine >= per_address:
                db.execute(
                    "DELETE FROM waiting WHERE code IN (SELECT code FROM waiting WHERE "
                    "address = ? ORDER BY rowid LIMIT ?)",
                    (w.address, mine - per_address + 1))
            total = db.execute("SELECT count(*) FROM waiting").fetchone()[0]
            for _ in range(max(0, total - most + 1)):
                db.execute(
                    "DELETE FROM waiting WHERE code = (SELECT code FROM waiting WHERE "
                    "address = (SELECT address FROM waiting GROUP BY address "
                    "ORDER BY count(*) DESC, min(rowid) LIMIT 1) ORDER BY rowid LIMIT 1)"
                )
            db.execute(f"INSERT INTO waiting({_WAITING}) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                       (w.code, w.token_hash, w.kiosk, w.wished, w.fingerprint, w.address,
                        w.asked.isoformat(), w.expires))

    def waiting_for(self, *, code: str | None = None, token_hash: str | None = None,
                    now: float) -> Waiting | None:
        """The request with this code or token, unless it expired before ``now``."""
        column, value = ("code", code) if code is not None else ("token_hash", token_hash)
        row = self._one(f"SELECT {_WAITING} FROM waiting WHERE {column} = ? AND expires >= ?",
                        (value, now))
        return _waiting_row(row) if row else None

    def clocks(self) -> list[PairedClock]:
        rows = self._all(f"SELECT {_CLOCKS} FROM clocks ORDER BY table_no, id")
        return [_clock_row(r) for r in rows]

    def pair(self, w: Waiting, table: int, now: datetime, summary: Summary) -> PairedClock:
        """The waiting request ``w`` becomes a clock of ``table``; a clock paired before
        by the same kiosk from the same address loses its old token (one credential per
        clock). A request from elsewhere only says it is that clock: it revokes nothing."""
        with self.change(now, "pair", summary, bump=False) as db:
            db.execute("DELETE FROM waiting WHERE code = ?", (w.code,))
            db.execute("DELETE FROM clocks WHERE kiosk = ? AND address = ?",
                       (w.kiosk, w.address))
            cur = db.execute(
                "INSERT INTO clocks(token_hash, table_no, kiosk, address, paired) "
                "VALUES(?, ?, ?, ?, ?)", (w.token_hash, table, w.kiosk, w.address,
                                          now.isoformat()))
            assert cur.lastrowid is not None
            return PairedClock(cur.lastrowid, w.token_hash, table, w.kiosk, w.address, now)

    def unpair(self, clock_id: int, now: datetime, summary: Summary) -> bool:
        with self.change(now, "unpair", summary, bump=False) as db:
            gone: bool = db.execute("DELETE FROM clocks WHERE id = ?", (clock_id,)).rowcount > 0
            return gone

    def refuse_waiting(self, code: str) -> bool:
        with self._tx() as db:
            gone: bool = db.execute("DELETE FROM waiting WHERE code = ?", (code,)).rowcount > 0
            return gone

    def refuse_all_waiting(self, now: datetime, summary: Summary) -> int:
        """Every waiting request turned down at once, logged with ``summary`` (the TD
        clearing a flood); how many."""
        with self.change(now, "refuse all", summary, bump=False) as db:
            gone: int = db.execute("DELETE FROM waiting").rowcount
            return gone

    # --- TD sessions --------------------------------------------------------------------

    def add_session(self, token_hash: str, csrf: str, expires: float) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO sessions(token_hash, csrf, expires) VALUES(?, ?, ?)",
                (token_hash, csrf, expires),
            )

    def session(self, token_hash: str) -> tuple[str, float] | None:
        row = self._one("SELECT csrf, expires FROM sessions WHERE token_hash = ?", (token_hash,))
        return (row[0], row[1]) if row else None

    def drop_expired_sessions(self, now: float) -> int:
        """Forget every session that expired before ``now`` (hub time); returns how many."""
        with self._tx() as db:
            return db.execute("DELETE FROM sessions WHERE expires < ?", (now,)).rowcount

    def drop_session(self, token_hash: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

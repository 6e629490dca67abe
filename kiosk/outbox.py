"""The table's outbox: every button press on disk before the screen shows it.

SQLite in WAL mode with ``synchronous=FULL``: a press is committed (fsynced) before
``record`` returns, so a Pi that loses power mid-round comes back with every press it
ever acknowledged, exactly once (the id is the primary key). The hub upload reads the
unsent rows and marks them sent after a 2xx; the hub dedups by id, so a row sent twice
(sent, then power lost before it was marked) costs nothing. A press the hub refuses (its
reply names it in ``rejected``) is marked ``REJECTED`` and never resent, nor deleted.

The same file keeps a few settings (the standalone round, the last hub snapshot, the
hub-to-wall-clock offset) so a restarted kiosk resumes the same round at the right second.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

SCHEMA = """
CREATE TABLE IF NOT EXISTS presses (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,  -- order of recording
    id       TEXT NOT NULL UNIQUE,               -- uuid4; the hub dedups by it
    round    TEXT NOT NULL,                      -- which round/table the press belongs to
    power    TEXT NOT NULL CHECK (length(power) = 1),
    kind     TEXT NOT NULL CHECK (kind IN ('press', 'hold')),
    at       TEXT NOT NULL,                      -- naive local ISO time (hub time)
    source   TEXT NOT NULL DEFAULT '',
    sent     INTEGER NOT NULL DEFAULT 0          -- 1 once the hub stored it (or had it),
                                                 -- 2 if the hub refused it: kept, not resent
);
CREATE INDEX IF NOT EXISTS presses_unsent ON presses (sent) WHERE sent = 0;
CREATE TABLE IF NOT EXISTS settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                          -- JSON
);
"""

SENT = 1  # ``presses.sent``: the hub stored it (or already had it)
REJECTED = 2  # the hub refused it (e.g. stamped by a clock set to 1970): never resent


@dataclass(frozen=True)
class StoredPress:
    id: str
    round: str
    power: str
    kind: Literal["press", "hold"]
    at: datetime
    source: str = ""
    sent: bool = False

    def as_json(self) -> dict[str, str]:
        """The press as the hub protocol carries it."""
        return {"id": self.id, "power": self.power, "kind": self.kind, "at": self.at.isoformat()}


class Outbox:
    """One SQLite file; safe to share between the screen loop and the upload thread."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(
        self,
        power: str,
        kind: Literal["press", "hold"],
        at: datetime,
        round_key: str,
        source: str = "",
        press_id: str | None = None,
    ) -> StoredPress:
        """Store one press durably; only then may the caller show or send it."""
        press = StoredPress(press_id or str(uuid.uuid4()), round_key, power, kind, at, source)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO presses (id, round, power, kind, at, source) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (press.id, round_key, power, kind, at.isoformat(), source),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return press

    def presses(self, round_key: str | None = None) -> list[StoredPress]:
        """The presses of one round (all rounds: None), in the order they were recorded."""
        sql = "SELECT id, round, power, kind, at, source, sent FROM presses"
        args: tuple[Any, ...] = ()
        if round_key is not None:
            sql += " WHERE round = ?"
            args = (round_key,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", args).fetchall()
        return [_row(r) for r in rows]

    def unsent(self, limit: int = 200) -> list[StoredPress]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, round, power, kind, at, source, sent FROM presses "
                "WHERE sent = 0 ORDER BY seq LIMIT ?",
                (limit,),
            ).fetchall()
        return [_row(r) for r in rows]

    def mark_sent(self, ids: Iterable[str], rejected: Iterable[str] = ()) -> None:
        """``ids`` reached the hub; ``rejected`` were refused by it (kept, flagged)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("UPDATE presses SET sent = ? WHERE id = ?",
                                 [(SENT, i) for i in ids] + [(REJECTED, i) for i in rejected])
            self._db.execute("COMMIT")

    def resend(self, round_key: str) -> int:
        """Send a round's presses again (a hub that lost its data); the hub dedups by id."""
        with self._lock:
            cur = self._db.execute(
                "UPDATE presses SET sent = 0 WHERE round = ? AND sent = ?", (round_key, SENT)
            )
        return cur.rowcount

    def rejected(self) -> list[str]:
        """The ids of the presses the hub refused, in the order they were recorded."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM presses WHERE sent = ? ORDER BY seq", (REJECTED,)
            ).fetchall()
        return [r[0] for r in rows]

    def get(self, key: str) -> Any:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: Any) -> None:
        text = json.dumps(value)
        with self._lock:
            self._db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )


def _row(r: tuple[Any, ...]) -> StoredPress:
    return StoredPress(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), r[5], bool(r[6]))

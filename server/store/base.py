"""The store's connection: opening (and migrating) a hub file, transactions, the
stale-screen check (``server.stale``), the meta table and the audit log. Every area's
SQL (``server.store.rounds``, ``.seating``...) builds on it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from machine.private import private_file
from server.logline import Summary, kept
from server.stale import SUBJECTS, conflicting
from server.store.errors import Stale
from server.store.migrations import MIGRATIONS
from server.store.rows import AuditRow


class Base:
    """The one SQLite connection under a lock, its transactions and its meta and log rows."""

    def __init__(self, path: Path) -> None:
        private_file(path)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        #: write transactions committed since this store opened, and those of them that are
        #: the TD's (or a rule's) logged actions: raised after each commit, read without
        #: SQLite by the public pages' cache (``server.pagecache``)
        self.writes = self.actions = 0
        #: a round's count of presses, by (round, start, the sum of its tables' revisions):
        #: presses are only ever added, each addition raising a revision, so the sum names
        #: the count (``record``: a count of a round's presses is a scan of them)
        self._press_counts: dict[tuple[int, str, float], int] = {}
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        # sorts and temporary tables in memory: a read needs no room on a full disk
        self._db.execute("PRAGMA temp_store=MEMORY")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for n, script in enumerate(MIGRATIONS[version:], start=version + 1):
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    if callable(script):
                        script(self._db)
                    for statement in script.split(";") if isinstance(script, str) else ():
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {n}")
                    self._db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise

    def _rollback(self) -> None:
        """Undo the transaction, if SQLite has not already: on a full disk it rolls back
        by itself, and a ROLLBACK then would hide the real error ("database or disk is
        full") behind "cannot rollback - no transaction is active"."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    @contextmanager
    def _tx(self, action: bool = False) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self.writes += 1  # committed: under the lock, so no count is lost
            self.actions += action

    @contextmanager
    def change(self, now: datetime, action: str | None, summary: Summary = "",
               bump: bool = True, *, subject: str | None = None,
               base: int | None = None, log: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction that also bumps ``seq`` (unless ``bump`` is False: nothing a
        table's snapshot holds changed) and, for a TD action, logs it with its subject
        (``server.stale``; by default the action's).

        ``base``: the newest log line the screen that asked for the change had seen. A line
        since then about a conflicting subject refuses the change (``Stale``), checked in
        this same transaction, so two requests made from one screen cannot both pass.
        ``log`` False: the caller writes the log's line itself (its words known only
        inside the transaction). ``summary``: a ``Said`` is logged as its English text and
        kept as its sentence, to be said in the reader's language (``server.logline``)."""
        about = subject if subject is not None else SUBJECTS.get(action or "", action or "")
        with self._tx(action is not None) as db:
            if base is not None and action is not None:
                subjects = conflicting(about)
                marks = ", ".join("?" * len(subjects))
                news = db.execute(
                    f"SELECT at, summary, said FROM audit WHERE id > ? AND subject IN "
                    f"({marks}) ORDER BY id", (base, *subjects)).fetchall()
                if news:
                    raise Stale([(datetime.fromisoformat(at), text, sentence)
                                 for at, text, sentence in news])
            yield db
            if bump:
                db.execute(
                    "INSERT INTO meta(key, value) VALUES('seq', '1') ON CONFLICT(key) "
                    "DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
            if action is not None and log:
                db.execute(
                    "INSERT INTO audit(at, action, summary, subject, said) "
                    "VALUES(?, ?, ?, ?, ?)",
                    (now.isoformat(), action, str(summary), about, kept(summary)),
                )

    def audit_head(self) -> int:
        """The newest log line's id: what a screen drawn now has seen (``server.stale``)."""
        row = self._one("SELECT max(id) FROM audit")
        return int(row[0] or 0) if row else 0

    def _one(self, sql: str, args: Iterable[object] = ()) -> tuple[Any, ...] | None:
        with self._lock:
            row: tuple[Any, ...] | None = self._db.execute(sql, tuple(args)).fetchone()
            return row

    def _all(self, sql: str, args: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()

    # --- meta: credentials, seq, event, current round -----------------------------------

    def meta(self, key: str) -> str | None:
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    def set_meta_once(self, key: str, value: str) -> str:
        """Store ``value`` unless the key already has one; returns what is stored (read
        first, without a transaction: a hub restarted on a full disk writes nothing)."""
        kept = self.meta(key)
        if kept is not None:
            return kept
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)", (key, value))
            return str(db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])

    def seq(self) -> int:
        return int(self.meta("seq") or 0)

    def touch(self, now: datetime) -> None:
        """Bump ``seq`` alone: a change kiosks must take that the store does not hold
        (two kiosks claiming one table)."""
        with self.change(now, None):
            pass

    def set_meta(self, key: str, value: str) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, value))

    # --- audit log ----------------------------------------------------------------------

    def audit(self, limit: int = 50) -> list[AuditRow]:
        rows = self._all(
            "SELECT id, at, action, summary, said FROM audit ORDER BY id DESC LIMIT ?",
            (limit,))
        return [AuditRow(r[0], datetime.fromisoformat(r[1]), r[2], r[3], r[4]) for r in rows]

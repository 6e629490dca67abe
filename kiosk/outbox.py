"""The table's outbox: every button press on disk before the screen shows it.

SQLite in WAL mode with ``synchronous=FULL``: a press is committed (fsynced) before
``record`` returns, so a Pi that loses power mid-round comes back with every press it
ever acknowledged, exactly once (the id is the primary key). The hub upload reads the
unsent rows and marks them sent after a 2xx; the hub dedups by id, so a row sent twice
(sent, then power lost before it was marked) costs nothing. A press the hub refuses (its
reply names it in ``rejected``) is marked ``REJECTED`` and never resent, nor deleted.

A press is stamped by the kiosk's time base, which may not be trusted yet (a Pi boots on
the time fake-hwclock saved, possibly hours old, and the hub may be out of reach). So each
row also keeps the monotonic reading ``mono`` of the press, the kernel's ``boot`` id (the
monotonic clock restarts at boot) and whether ``at`` was ``trusted``. An untrusted row is a
guess: shown on the screen at once, but never uploaded until ``correct`` has re-stamped it
from its ``mono`` once the time base is trusted (the guess is kept in ``guess``). A guess
from an earlier boot can never be converted (its monotonic clock is gone): ``correct``
releases it with its guessed stamp and flags it ``uncorrected``.

A player confirming their line of the table's result sheet with their power's button
(``dipclock.sheetlines``) is kept the same way, in its own table (``confirmations``, added
to an older file by ``_migrate``): committed before the screen shows it, uploaded until the
hub answers, then marked ``taken`` or ``refused`` (the sheet changed since: kept, never
resent; the player presses again on the new sheet).

A power's button pressed while the table's game-end vote waits for it (its phone chose:
``dipclock.snapshot.TableVote.waiting_button``) is that vote's ``VotePress``, kept the same
way in ``vote_presses`` (added by ``_migrate`` too): committed before the screen says "vote
sent", uploaded until the hub answers, then ``taken`` or ``refused`` with the hub's reason.

The same file keeps a few settings (the standalone round, the last hub snapshot, the
hub-to-wall-clock offset) so a restarted kiosk resumes the same round at the right second.

A full card refuses the file's writes: a press (or a setting) it cannot take is kept in
memory, in order, shown and sent to the hub all the same, and written at the next write or
``flush`` once there is room; ``full`` says so meanwhile, for the screen's alert. Only a
power cut while the card is full loses what memory held, and the hub has it if it was sent.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from dipclock.eventfiles import machine_zone
from dipclock.sheetlines import SentState
from machine.private import private_file
from machine.storage import is_disk_full

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS presses (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,  -- order of recording
    id       TEXT NOT NULL UNIQUE,               -- uuid4; the hub dedups by it
    round    TEXT NOT NULL,                      -- which round/table the press belongs to
    power    TEXT NOT NULL CHECK (length(power) = 1),
    kind     TEXT NOT NULL CHECK (kind IN ('press', 'hold')),
    at       TEXT NOT NULL,                      -- naive UTC ISO time (hub time)
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

#: Columns added in 0.2 (time you can trust); ``_migrate`` adds them to an older file, where
#: every row was stamped as trusted (the defaults say so).
STAMP_COLUMNS = {
    "mono": "REAL",                                 # monotonic reading of the press
    "boot": "TEXT",                                 # kernel boot id: whose monotonic clock
    "trusted": "INTEGER NOT NULL DEFAULT 1",        # 0: ``at`` is a guess, held back
    "guess": "TEXT",                                # the guessed ``at`` a re-stamp replaced
    "uncorrected": "INTEGER NOT NULL DEFAULT 0",    # 1: a guess of an earlier boot, sent as is
}
_COLUMNS = "id, round, power, kind, at, source, sent, mono, boot, trusted, uncorrected"

#: ``PRAGMA user_version`` from which ``presses.at`` is UTC (before: local time).
UTC_VERSION = 1
#: ``PRAGMA user_version`` from which the file has the ``confirmations`` table (0.3).
CONFIRMATIONS_VERSION = 2

#: ``PRAGMA user_version`` from which the file has the ``vote_presses`` table (0.4).
VOTE_PRESSES_VERSION = 3
#: The newest layout of the file: what ``_migrate`` brings an older one to.
SCHEMA_VERSION = VOTE_PRESSES_VERSION

#: The lines of the result sheet confirmed with a button, one row each; ``_migrate`` adds
#: it (one statement each: ``executescript`` would commit the migration's transaction).
CONFIRMATIONS = (
    """CREATE TABLE IF NOT EXISTS confirmations (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    id       TEXT NOT NULL UNIQUE,               -- uuid4; sent twice, the hub takes it once
    hub      TEXT NOT NULL,                      -- the id of the hub whose sheet it is
    round_no INTEGER NOT NULL,                   -- the hub's round number
    power    TEXT NOT NULL CHECK (length(power) = 1),
    version  INTEGER NOT NULL,                   -- the sheet's version the screen showed
    at       TEXT NOT NULL,                      -- naive UTC: when the button went down
    source   TEXT NOT NULL DEFAULT '',
    sent     INTEGER NOT NULL DEFAULT 0,         -- 1 the hub took it, 2 refused: kept
    reason   TEXT NOT NULL DEFAULT ''            -- the hub's reason for a refusal
)""",
    "CREATE INDEX IF NOT EXISTS confirmations_unsent ON confirmations (sent) WHERE sent = 0",
)
_LINE_COLUMNS = "id, hub, round_no, power, version, at, source, sent, reason"

#: The vote presses, one row each (a power's button pressed while the table's vote waited
#: for it); ``_migrate`` adds the table to an older file.
VOTE_PRESSES = (
    """CREATE TABLE IF NOT EXISTS vote_presses (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    id       TEXT NOT NULL UNIQUE,               -- uuid4; sent twice, the hub takes it once
    hub      TEXT NOT NULL,                      -- the id of the hub whose vote it is
    vote     INTEGER NOT NULL,                   -- the vote's id at that hub
    power    TEXT NOT NULL CHECK (length(power) = 1),
    at       TEXT NOT NULL,                      -- naive UTC: when the button went down
    source   TEXT NOT NULL DEFAULT '',
    sent     INTEGER NOT NULL DEFAULT 0,         -- 1 the hub took it, 2 refused: kept
    reason   TEXT NOT NULL DEFAULT ''            -- the hub's reason for a refusal
)""",
    "CREATE INDEX IF NOT EXISTS vote_presses_unsent ON vote_presses (sent) WHERE sent = 0",
)
_VOTE_COLUMNS = "id, hub, vote, power, at, source, sent, reason"


def _utc(text: str, tz: ZoneInfo) -> str:
    local = datetime.fromisoformat(text).replace(tzinfo=tz)
    return local.astimezone(UTC).replace(tzinfo=None).isoformat()


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
    mono: float | None = None  # the monotonic reading of the press, in boot ``boot``
    boot: str | None = None
    trusted: bool = True  # False: ``at`` is a guess until ``Outbox.correct`` re-stamps it
    uncorrected: bool = False  # a guess of an earlier boot, released as it was

    def as_json(self) -> dict[str, str]:
        """The press as the hub protocol carries it."""
        return {"id": self.id, "power": self.power, "kind": self.kind, "at": self.at.isoformat()}


#: ``confirmations.sent`` as ``dipclock.sheetlines`` names it
LINE_STATES: dict[int, SentState] = {0: "pending", SENT: "taken", REJECTED: "refused"}


@dataclass(frozen=True)
class StoredConfirmation:
    """A line of the result sheet its player confirmed with their power's button: the
    sheet of hub ``hub``, round ``round``, as it read at ``version``."""

    id: str
    hub: str
    round: int
    power: str
    version: int
    at: datetime
    source: str = ""
    state: SentState = "pending"
    reason: str = ""  # the hub's, when it refused it

    def as_json(self) -> dict[str, str | int]:
        """The confirmation as the hub protocol carries it (``LineConfirmed``)."""
        return {"id": self.id, "round": self.round, "power": self.power,
                "version": self.version}


@dataclass(frozen=True)
class StoredVotePress:
    """A power's button pressed while vote ``vote`` of hub ``hub`` waited for it: the
    press casts what that power's phone chose (``dipclock.snapshot.VotePress``)."""

    id: str
    hub: str
    vote: int
    power: str
    at: datetime
    source: str = ""
    state: SentState = "pending"
    reason: str = ""  # the hub's, when it refused it

    def as_json(self) -> dict[str, str | int]:
        """The press as the hub protocol carries it (``VotePress``)."""
        return {"id": self.id, "vote": self.vote, "power": self.power,
                "at": self.at.isoformat()}


class Outbox:
    """One SQLite file; safe to share between the screen loop and the upload thread."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if str(path) != ":memory:":
            private_file(self.path, folder=False)  # it holds the clock's token (kiosk.pairing)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._migrate()
        #: raised by every change of a confirmation in this process, so the screen reads
        #: them again only when one changed
        self.confirmations_revision = 0
        #: the same for the vote presses
        self.votes_revision = 0
        #: presses (with their sent state) and settings a full card could not take: kept
        #: here in order, shown and sent all the same, and written at the next write or
        #: ``flush`` once there is room; ``full`` says so meanwhile (the screen's alert)
        self._held: list[StoredPress] = []
        self._held_sent: dict[str, int] = {}
        self._held_settings: dict[str, str] = {}
        self.full = False

    def _migrate(self) -> None:
        """Bring a file written by an older kiosk up to date: the stamp columns (its rows:
        trusted), its times in UTC (``UTC_VERSION``), the confirmations table
        (``CONFIRMATIONS_VERSION``) and the vote presses' (``VOTE_PRESSES_VERSION``). An
        older kiosk opening the file after it ignores the new tables."""
        with self._lock:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if not self._missing_columns() and version >= SCHEMA_VERSION:
                return  # the usual case: no write lock taken just to look
            self._db.execute("BEGIN IMMEDIATE")  # two processes opening one file add them once
            try:
                for name in self._missing_columns():
                    self._db.execute(f"ALTER TABLE presses ADD COLUMN {name} "
                                     f"{STAMP_COLUMNS[name]}")
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version < UTC_VERSION:
                    self._to_utc()
                if version < CONFIRMATIONS_VERSION:
                    for statement in CONFIRMATIONS:
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {CONFIRMATIONS_VERSION}")
                if version < VOTE_PRESSES_VERSION:
                    for statement in VOTE_PRESSES:
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {VOTE_PRESSES_VERSION}")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _to_utc(self) -> None:
        """An older kiosk stamped presses in this machine's local time; hub time is UTC now
        (``dipclock.sync``). Converted with the zone the machine has, the one they were
        stamped in, so a press waiting to be uploaded keeps its second."""
        tz = ZoneInfo(machine_zone())
        rows = self._db.execute("SELECT seq, at, guess FROM presses").fetchall()
        for seq, at, guess in rows:
            self._db.execute("UPDATE presses SET at = ?, guess = ? WHERE seq = ?",
                             (_utc(at, tz), _utc(guess, tz) if guess else guess, seq))

    def _missing_columns(self) -> list[str]:
        have = {r[1] for r in self._db.execute("PRAGMA table_info(presses)")}
        return [name for name in STAMP_COLUMNS if name not in have]

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
        mono: float | None = None,
        boot: str | None = None,
        trusted: bool = True,
    ) -> StoredPress:
        """Store one press durably; only then may the caller show or send it.

        ``trusted=False``: ``at`` is a guess; the row is not uploaded until ``correct``
        re-stamps it from ``mono`` (which then must be given, with ``boot``).
        """
        if not trusted and (mono is None or boot is None):
            raise ValueError("an untrusted stamp needs the press's mono reading and boot id")
        press = StoredPress(press_id or str(uuid.uuid4()), round_key, power, kind, at, source,
                            False, mono, boot, trusted)
        with self._lock:
            try:
                self._write_held()
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._insert(press, 0)
                except BaseException:
                    self._rollback()
                    raise
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                if not is_disk_full(exc):
                    raise
                self._hold(press)
        return press

    def _insert(self, press: StoredPress, sent: int) -> None:
        self._db.execute(
            "INSERT INTO presses (id, round, power, kind, at, source, mono, boot, trusted, "
            "sent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (press.id, press.round, press.power, press.kind, press.at.isoformat(),
             press.source, press.mono, press.boot, int(press.trusted), sent))

    def _rollback(self) -> None:
        """Undo, unless SQLite already has (it does by itself when the disk is full)."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _hold(self, press: StoredPress) -> None:
        if not self.full:
            log.error("this clock's card is full: presses are kept in memory until there "
                      "is room")
        self._held.append(press)
        self.full = True

    def _write_held(self) -> None:
        """Write what a full card could not take (under the lock); raises if it still
        cannot, and then keeps it all."""
        if not self._held and not self._held_settings:
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for p in self._held:
                self._insert(p, self._held_sent.get(p.id, 0))
            for key, text in self._held_settings.items():
                self._db.execute(_PUT, (key, text))
        except BaseException:
            self._rollback()
            raise
        self._db.execute("COMMIT")
        log.warning("this clock's card has room again: %d presses kept in memory are "
                    "written", len(self._held))
        self._held, self._held_sent, self._held_settings = [], {}, {}
        self.full = False

    def flush(self) -> bool:
        """Write what a full card could not take, if there is room now; whether all is
        written (the clock's loop calls it now and then)."""
        with self._lock:
            try:
                self._write_held()
            except sqlite3.OperationalError as exc:
                if not is_disk_full(exc):
                    raise
                return False
        return True

    def held(self) -> list[StoredPress]:
        """The presses a full card could not take, in memory only, in order (``sent``: the
        hub has them, so a power cut loses them here but not there)."""
        with self._lock:
            return self._held_rows(lambda p: True)

    def _held_rows(self, keep: Callable[[StoredPress], bool]) -> list[StoredPress]:
        return [replace(p, sent=self._held_sent.get(p.id, 0) != 0)
                for p in self._held if keep(p)]

    def presses(self, round_key: str | None = None) -> list[StoredPress]:
        """The presses of one round (all rounds: None), in the order they were recorded."""
        sql = f"SELECT {_COLUMNS} FROM presses"
        args: tuple[Any, ...] = ()
        if round_key is not None:
            sql += " WHERE round = ?"
            args = (round_key,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", args).fetchall()
            held = self._held_rows(lambda p: round_key is None or p.round == round_key)
        return [_row(r) for r in rows] + held

    def unsent(self, limit: int = 200) -> list[StoredPress]:
        """The rows to upload: never a guess a re-stamp may still correct."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM presses "
                "WHERE sent = 0 AND (trusted = 1 OR uncorrected = 1) ORDER BY seq LIMIT ?",
                (limit,),
            ).fetchall()
            held = self._held_rows(lambda p: p.trusted and p.id not in self._held_sent)
        return ([_row(r) for r in rows] + held)[:limit]

    def guesses(self) -> list[StoredPress]:
        """The presses stamped by an untrusted clock and not yet corrected or released."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM presses WHERE trusted = 0 AND uncorrected = 0 "
                "ORDER BY seq"
            ).fetchall()
        return [_row(r) for r in rows]

    def correct(
        self, boot: str, at_of: Callable[[float], datetime]
    ) -> tuple[list[StoredPress], list[StoredPress]]:
        """Settle every guess, now that the time base is trusted; one durable transaction.

        A guess of boot ``boot`` (this one) is re-stamped ``at_of(mono)`` and becomes trusted,
        its guess kept in ``guess``. A guess of an earlier boot cannot be converted (that
        boot's monotonic clock is gone): it is released with its guessed stamp and flagged
        ``uncorrected``, so it is uploaded as it is rather than held back forever.
        Returns ``(restamped, released)``, as they now stand.
        """
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                rows = self._db.execute(
                    f"SELECT {_COLUMNS} FROM presses WHERE trusted = 0 AND uncorrected = 0 "
                    "ORDER BY seq"
                ).fetchall()
                restamped, released = [], []
                for r in rows:
                    p = _row(r)
                    if p.boot == boot and p.mono is not None:
                        at = at_of(p.mono)
                        self._db.execute(
                            "UPDATE presses SET at = ?, guess = at, trusted = 1 WHERE id = ?",
                            (at.isoformat(), p.id))
                        restamped.append(replace(p, at=at, trusted=True))
                    else:
                        self._db.execute("UPDATE presses SET uncorrected = 1 WHERE id = ?",
                                         (p.id,))
                        released.append(replace(p, uncorrected=True))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return restamped, released

    def guessed_at(self, press_id: str) -> datetime | None:
        """The guess a re-stamp replaced (None: the press was never re-stamped)."""
        with self._lock:
            row = self._db.execute("SELECT guess FROM presses WHERE id = ?",
                                   (press_id,)).fetchone()
        return datetime.fromisoformat(row[0]) if row and row[0] else None

    def mark_sent(self, ids: Iterable[str], rejected: Iterable[str] = ()) -> None:
        """``ids`` reached the hub; ``rejected`` were refused by it (kept, flagged). On a
        full card the stored rows stay unsent: sent again later, the hub knows them."""
        marks = [(SENT, i) for i in ids] + [(REJECTED, i) for i in rejected]
        with self._lock:
            held = {p.id for p in self._held}
            self._held_sent.update({i: state for state, i in marks if i in held})
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("UPDATE presses SET sent = ? WHERE id = ?", marks)
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as exc:
                self._rollback()
                if not is_disk_full(exc):
                    raise

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

    # --- the result sheet's lines, confirmed with the powers' buttons -----------------

    def confirm(self, power: str, round_no: int, version: int, hub: str, at: datetime,
                source: str = "") -> StoredConfirmation:
        """Store one confirmation durably; only then may the caller show or send it."""
        line = StoredConfirmation(str(uuid.uuid4()), hub, round_no, power, version, at,
                                  source)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO confirmations (id, hub, round_no, power, version, at, source) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (line.id, hub, round_no, power, version, at.isoformat(), source))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self.confirmations_revision += 1
        return line

    def confirmations(self, hub: str | None = None,
                      round_no: int | None = None) -> list[StoredConfirmation]:
        """The confirmations made on this clock (of one hub's sheets, of one round), in
        the order they were made."""
        sql = f"SELECT {_LINE_COLUMNS} FROM confirmations WHERE 1"
        args: list[Any] = []
        if hub is not None:
            sql += " AND hub = ?"
            args.append(hub)
        if round_no is not None:
            sql += " AND round_no = ?"
            args.append(round_no)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", args).fetchall()
        return [_line(r) for r in rows]

    def unsent_confirmations(self, hub: str, limit: int = 50) -> list[StoredConfirmation]:
        """The confirmations to upload to hub ``hub``: those made on its sheets, never
        another hub's (a hub started afresh numbers its sheets' versions anew)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_LINE_COLUMNS} FROM confirmations WHERE sent = 0 AND hub = ? "
                "ORDER BY seq LIMIT ?", (hub, limit)).fetchall()
        return [_line(r) for r in rows]

    def mark_confirmations(self, taken: Iterable[str],
                           refused: Iterable[tuple[str, str]] = ()) -> None:
        """The hub took ``taken``; it refused each of ``refused`` (id, reason): kept,
        flagged, never resent."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("UPDATE confirmations SET sent = ? WHERE id = ?",
                                 [(SENT, i) for i in taken])
            self._db.executemany("UPDATE confirmations SET sent = ?, reason = ? WHERE id = ?",
                                 [(REJECTED, reason, i) for i, reason in refused])
            self._db.execute("COMMIT")
            self.confirmations_revision += 1

    # --- the vote presses: a power's button while the table's vote waits for it ---------

    def vote_press(self, power: str, vote: int, hub: str, at: datetime,
                   source: str = "") -> StoredVotePress:
        """Store one vote press durably; only then may the caller show or send it."""
        press = StoredVotePress(str(uuid.uuid4()), hub, vote, power, at, source)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO vote_presses (id, hub, vote, power, at, source) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (press.id, hub, vote, power, at.isoformat(), source))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self.votes_revision += 1
        return press

    def vote_presses(self, hub: str | None = None,
                     vote: int | None = None) -> list[StoredVotePress]:
        """The vote presses made on this clock (for one hub's votes, one vote), in order."""
        sql = f"SELECT {_VOTE_COLUMNS} FROM vote_presses WHERE 1"
        args: list[Any] = []
        if hub is not None:
            sql += " AND hub = ?"
            args.append(hub)
        if vote is not None:
            sql += " AND vote = ?"
            args.append(vote)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", args).fetchall()
        return [_vote_press(r) for r in rows]

    def unsent_vote_presses(self, hub: str, limit: int = 50) -> list[StoredVotePress]:
        """The vote presses to upload to hub ``hub``: only its own votes' (another hub
        numbers its votes afresh)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_VOTE_COLUMNS} FROM vote_presses WHERE sent = 0 AND hub = ? "
                "ORDER BY seq LIMIT ?", (hub, limit)).fetchall()
        return [_vote_press(r) for r in rows]

    def mark_vote_presses(self, taken: Iterable[str],
                          refused: Iterable[tuple[str, str]] = ()) -> None:
        """The hub took ``taken``; it refused each of ``refused`` (id, reason): kept,
        flagged, never resent (the vote moved on: a press again is a new one)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("UPDATE vote_presses SET sent = ? WHERE id = ?",
                                 [(SENT, i) for i in taken])
            self._db.executemany("UPDATE vote_presses SET sent = ?, reason = ? WHERE id = ?",
                                 [(REJECTED, reason, i) for i, reason in refused])
            self._db.execute("COMMIT")
            self.votes_revision += 1

    def get(self, key: str) -> Any:
        with self._lock:
            if key in self._held_settings:
                return json.loads(self._held_settings[key])
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: Any) -> None:
        """Keep ``value``; on a full card in memory until there is room (``full``)."""
        text = json.dumps(value)
        with self._lock:
            try:
                self._write_held()
                self._db.execute(_PUT, (key, text))
            except sqlite3.OperationalError as exc:
                if not is_disk_full(exc):
                    raise
                self._held_settings[key] = text
                self.full = True


_PUT = ("INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value")


def _line(r: tuple[Any, ...]) -> StoredConfirmation:
    return StoredConfirmation(r[0], r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5]), r[6],
                              LINE_STATES[r[7]], r[8])


def _vote_press(r: tuple[Any, ...]) -> StoredVotePress:
    return StoredVotePress(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), r[5],
                           LINE_STATES[r[6]], r[7])


def _row(r: tuple[Any, ...]) -> StoredPress:
    return StoredPress(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4]), r[5], bool(r[6]),
                       r[7], r[8], bool(r[9]), bool(r[10]))

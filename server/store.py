"""The hub's state in SQLite: schema, migrations and every SQL statement, in one place.

WAL with ``synchronous=FULL``, and every change is one transaction that also bumps the
snapshot sequence number and (for the TD's actions) writes the audit log, so a hub killed
at any instant comes back with either all of a change or none of it, and ``seq`` keeps
rising across restarts.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from dipclock.errors import DipclockError
from dipclock.eventfiles import machine_zone
from dipclock.events import EventProfile
from dipclock.schedule import Adjustment, Pause
from dipclock.seating import Seat  # one player at one table in one round: the core's
from machine.private import private_file
from server.refusal import Refused
from server.sheets import Sheet, SheetIn, change_of, changed_since
from server.stale import SUBJECTS, Stale, conflicting, row


def _to_utc(db: sqlite3.Connection) -> None:
    """Version 5: times were the hub machine's naive local time; they are UTC now
    (``dipclock.venuetime``), so a hub restarted after a daylight-saving change, or under
    another zone, shows every stored deadline where it was. Converted with the zone the
    machine has now, the one they were written in; each stored event gets that zone, so
    its rounds stay in it whatever the machine says later. Sessions (local seconds) end."""
    name = machine_zone()
    tz = ZoneInfo(name)

    def utc(text: str | None) -> str | None:
        if not text:
            return text
        local = datetime.fromisoformat(text).replace(tzinfo=tz)  # a gap time: its old offset
        return local.astimezone(UTC).replace(tzinfo=None).isoformat()

    def profile(text: str | None) -> str | None:
        if not text:
            return text
        data = json.loads(text)
        data.setdefault("timezone", None)
        data["timezone"] = data["timezone"] or name
        return json.dumps(data)

    def body(text: str) -> str:
        data = json.loads(text)
        for key in ("at", "until", "ended"):
            if isinstance(data.get(key), str):
                data[key] = utc(data[key])
        return json.dumps(data)

    for table, columns in (("rounds", ("start", "call")), ("presses", ("at", "received")),
                           ("decisions", ("at",)), ("audit", ("at",))):
        for column in columns:
            rows = db.execute(f"SELECT rowid, {column} FROM {table}").fetchall()
            db.executemany(f"UPDATE {table} SET {column} = ? WHERE rowid = ?",
                           [(utc(value), rowid) for rowid, value in rows])
    for table in ("pauses", "adjustments"):
        rows = db.execute(f"SELECT id, body FROM {table}").fetchall()
        db.executemany(f"UPDATE {table} SET body = ? WHERE id = ?",
                       [(body(text), rowid) for rowid, text in rows])
    rows = db.execute("SELECT number, profile FROM rounds").fetchall()
    db.executemany("UPDATE rounds SET profile = ? WHERE number = ?",
                   [(profile(text), number) for number, text in rows])
    event = db.execute("SELECT value FROM meta WHERE key = 'event'").fetchone()
    if event is not None:
        db.execute("UPDATE meta SET value = ? WHERE key = 'event'", (profile(event[0]),))
    db.execute("DELETE FROM sessions")


def _records(db: sqlite3.Connection) -> None:
    """Version 10 (see ``MIGRATIONS``): the sheets' confirmations, a list of powers until
    now, become each power's way of confirming (``"phone"``: on the sheet's page)."""
    db.execute("ALTER TABLE audit ADD COLUMN subject TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE sheets ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE sheets ADD COLUMN td_without TEXT NOT NULL DEFAULT '[]'")
    rows = db.execute("SELECT round, table_no, confirmed FROM sheets").fetchall()
    db.executemany("UPDATE sheets SET confirmed = ? WHERE round = ? AND table_no = ?",
                   [(json.dumps(dict.fromkeys(json.loads(c), "phone")), r, t)
                    for r, t, c in rows])
    db.execute("""CREATE TABLE round_undo(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, before TEXT,
        current_before INTEGER, summary TEXT NOT NULL, at TEXT NOT NULL)""")


MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # version 1
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE rounds(
        number INTEGER PRIMARY KEY, start TEXT NOT NULL, last_year INTEGER,
        call TEXT, title TEXT NOT NULL DEFAULT '');
    CREATE TABLE tables(number INTEGER PRIMARY KEY);
    CREATE TABLE pauses(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE adjustments(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE presses(
        id TEXT PRIMARY KEY, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
        power TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, received TEXT NOT NULL);
    CREATE INDEX presses_by_table ON presses(round, table_no, at);
    CREATE TABLE decisions(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        phase TEXT NOT NULL, decision TEXT NOT NULL, final TEXT NOT NULL,
        note TEXT NOT NULL, at TEXT NOT NULL,
        PRIMARY KEY(round, table_no, power, phase));
    CREATE TABLE audit(
        id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, action TEXT NOT NULL,
        summary TEXT NOT NULL);
    CREATE TABLE sessions(
        token_hash TEXT PRIMARY KEY, csrf TEXT NOT NULL, expires REAL NOT NULL);
    """,
    # version 2: each round keeps the event profile it was set up under (review and the
    # CSV judge a round by its own rules after the TD replaces the event); rounds set up
    # before this version get the event stored now.
    """
    ALTER TABLE rounds ADD COLUMN profile TEXT;
    UPDATE rounds SET profile = (SELECT value FROM meta WHERE key = 'event');
    """,
    # version 3: who plays which power at which table in each round (the review and the
    # CSV name the player, not only the power)
    """
    CREATE TABLE seating(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        player TEXT NOT NULL, PRIMARY KEY(round, table_no, power));
    """,
    # version 4: a power's units in a phase, as the TD entered them (graduated penalties:
    # the review names the orders a late power's penalty deletes); a JSON list of strings
    """
    CREATE TABLE units(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        phase TEXT NOT NULL, units TEXT NOT NULL,
        PRIMARY KEY(round, table_no, power, phase));
    """,
    # version 5: every stored time in UTC, every stored event in its zone (``_to_utc``)
    _to_utc,
    # version 6: a revision per round and table, raised by each press or units stored there,
    # so the hub reads again only the tables that changed (``server.history``), and each
    # table's final judgment kept under it, so a restarted hub does not judge the whole
    # event again; the holds indexed apart, so a board clock's ready signals are found
    # without reading the round
    """
    CREATE TABLE table_revs(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, rev INTEGER NOT NULL,
        PRIMARY KEY(round, table_no));
    INSERT INTO table_revs(round, table_no, rev)
        SELECT round, table_no, count(*) FROM presses GROUP BY round, table_no;
    CREATE INDEX presses_holds ON presses(round, table_no, at) WHERE kind = 'hold';
    CREATE TABLE judged(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, rev INTEGER NOT NULL,
        basis TEXT NOT NULL, items TEXT NOT NULL, PRIMARY KEY(round, table_no));
    """,
    # version 7: each table's clock its own credential (``server.pairing``): the clocks
    # waiting for the TD's approval, and those paired, each for one table, by the SHA-256
    # of a token only the clock holds; the hall's shared kiosk key goes
    """
    CREATE TABLE waiting(
        code TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, kiosk TEXT NOT NULL,
        wished INTEGER, fingerprint TEXT, address TEXT NOT NULL, asked TEXT NOT NULL,
        expires REAL NOT NULL);
    CREATE TABLE clocks(
        id INTEGER PRIMARY KEY AUTOINCREMENT, token_hash TEXT NOT NULL UNIQUE,
        table_no INTEGER NOT NULL, kiosk TEXT NOT NULL, address TEXT NOT NULL,
        paired TEXT NOT NULL);
    DELETE FROM meta WHERE key = 'kiosk_key';
    """,
    # version 8: each board's result sheet (``server.sheets``): what it says as JSON, the
    # powers whose players confirmed it, and whether the TD has (then its scores count)
    """
    CREATE TABLE sheets(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, body TEXT NOT NULL,
        confirmed TEXT NOT NULL, td INTEGER NOT NULL, by_td INTEGER NOT NULL,
        at TEXT NOT NULL, PRIMARY KEY(round, table_no));
    """,
    # version 9: the teams, each player in one (the standings' team table)
    """
    CREATE TABLE teams(player TEXT PRIMARY KEY, team TEXT NOT NULL);
    """,
    # version 10: records a TD can defend. Each log line says what it is about (a change
    # from a stale screen is refused, ``server.stale``); each sheet has a version a change
    # is made against, who confirmed each line, and whose lines were missing when the TD
    # confirmed it; each change to the rounds keeps what it replaced, for its undo
    _records,
    # version 11: a press is known by its table and its id: ids are each clock's own, and
    # one clock sending another table's ids must not make that table's presses duplicates
    """
    CREATE TABLE presses_by_id(
        id TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
        power TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, received TEXT NOT NULL,
        PRIMARY KEY(table_no, id));
    INSERT INTO presses_by_id SELECT id, round, table_no, power, kind, at, received
        FROM presses;
    DROP TABLE presses;
    ALTER TABLE presses_by_id RENAME TO presses;
    CREATE INDEX presses_by_table ON presses(round, table_no, at);
    CREATE INDEX presses_holds ON presses(round, table_no, at) WHERE kind = 'hold';
    """,
    # version 12: every change of a sheet raises its version (a line's confirmation, the
    # TD's final and reopening too) and is kept in words, so a change made against an
    # older version is refused with what happened since; ``settled``: the version at the
    # last change of what a player confirms (``Sheet.settled``)
    """
    ALTER TABLE sheets ADD COLUMN settled INTEGER NOT NULL DEFAULT 1;
    UPDATE sheets SET settled = version;
    CREATE TABLE sheet_changes(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, version INTEGER NOT NULL,
        at TEXT NOT NULL, kind TEXT NOT NULL, words TEXT NOT NULL,
        PRIMARY KEY(round, table_no, version));
    """,
)

#: the meta key of the hub's own note of its time (``Store.note_time``)
TIME_SEEN = "hub_time_seen"
#: the meta key of the TD's hall message (``Store.set_hall_message``): one row of JSON,
#: so no schema step (a hub of an older version ignores the key)
HALL_MESSAGE = "hall_message"
#: the meta key of the last round whose tables' sheet links are closed for good
#: (``Store.sheet_links_closed``): raised before any change that could take a started
#: round back, never lowered
SHEET_LINKS_CLOSED = "sheet_links_closed_through"

_BUMP = ("INSERT INTO table_revs(round, table_no, rev) VALUES(?, ?, 1) "
         "ON CONFLICT(round, table_no) DO UPDATE SET rev = rev + 1")


@dataclass(frozen=True)
class RoundRow:
    number: int
    start: datetime
    last_year: int | None
    call: datetime | None
    title: str
    #: the event's rules for this round: the event set when the round was set up, or set
    #: while it was the current round (None only for a row not yet stored)
    profile: EventProfile | None = None


_ROUND_COLUMNS = "number, start, last_year, call, title, profile"


def _round_row(r: tuple[Any, ...]) -> RoundRow:
    profile = EventProfile.model_validate_json(r[5]) if r[5] else None
    return RoundRow(r[0], datetime.fromisoformat(r[1]), r[2], _dt(r[3]), r[4], profile)


def takes_the_tables(number: int, set_up: bool, current: int | None) -> bool:
    """Whether setting up round ``number`` puts it on every table: a round set up anew (or
    the first) or the round the tables play does; correcting a round already set up that
    is not the one they play (reopening yesterday's, say) leaves them on theirs. The store
    writes by it and the round's preview says it (``server.roundsetup``)."""
    return not set_up or current is None or current == number


def _differs(old: RoundRow, new: RoundRow) -> bool:
    """Whether setting up ``new`` over ``old`` changes anything of it."""
    return (old.start, old.last_year, old.call, old.title, old.profile) != (
        new.start, new.last_year, new.call, new.title, new.profile)


def _round_json(r: tuple[Any, ...]) -> str:
    return json.dumps(dict(zip(_ROUND_COLUMNS.split(", "), r, strict=True)))


def _round_from_json(text: str) -> RoundRow:
    data = json.loads(text)
    return _round_row(tuple(data[c] for c in _ROUND_COLUMNS.split(", ")))


def _write_round(db: sqlite3.Connection, r: RoundRow) -> None:
    db.execute(
        "INSERT OR REPLACE INTO rounds(number, start, last_year, call, title, profile) "
        "VALUES(?, ?, ?, ?, ?, ?)",
        (r.number, r.start.isoformat(), r.last_year, r.call.isoformat() if r.call else None,
         r.title, r.profile.model_dump_json() if r.profile else None),
    )


@dataclass(frozen=True)
class RoundRecord:
    """What a round holds that was played there: button presses from its start on, the
    TD's rulings and units, result sheets, a call. Any of them makes the round a record,
    whose event, start and schedule change only when the TD reopens it."""

    presses: int
    rulings: int
    units: int
    sheets: int
    called: bool

    def __bool__(self) -> bool:
        return bool(self.presses or self.rulings or self.units or self.sheets or self.called)

    def text(self) -> str:
        """"19 presses, 2 rulings, called, 3 result sheets": what the TD would lose."""
        def n(count: int, one: str, many: str) -> str:
            return f"{count} {one if count == 1 else many}" if count else ""

        parts = [n(self.presses, "button press", "button presses"),
                 n(self.rulings, "ruling", "rulings"),
                 n(self.units, "list of units", "lists of units"),
                 n(self.sheets, "result sheet", "result sheets"),
                 "called" if self.called else ""]
        return ", ".join(p for p in parts if p) or "nothing played yet"


_SHEET_COLUMNS = ("round, table_no, body, confirmed, td, by_td, at, version, td_without, "
                  "settled")


def _sheet_row(r: tuple[Any, ...]) -> Sheet:
    return Sheet(r[0], r[1], SheetIn.model_validate_json(r[2]), json.loads(r[3]), bool(r[4]),
                 bool(r[5]), r[6], r[7], tuple(json.loads(r[8])), settled=r[9])


class _Unchanged(DipclockError):
    """Nothing to change: the transaction ends without a write."""

    def __init__(self, sheet: Sheet | None) -> None:
        self.sheet = sheet


class SheetChanged(Refused):
    """A change made against a version of the sheet that is no longer the stored one:
    ``changes`` ((when, ``SheetChange.words``), oldest first) came since, and ``unknown``
    more whose words were not kept (made by a hub before version 12 of the store)."""

    def __init__(self, now: Sheet | None, changes: Sequence[tuple[datetime, str]] = (),
                 unknown: int = 0) -> None:
        self.sheet, self.changes, self.unknown = now, tuple(changes), unknown
        super().__init__(409, self.text(UTC))

    def text(self, tz: tzinfo) -> str:
        """The one line, times on the venue's clock (``tz``)."""
        return changed_since(self.changes, tz, self.unknown)


@dataclass(frozen=True)
class PressRow:
    id: str
    round: int
    table: int
    power: str
    kind: str
    at: datetime

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "power": self.power, "kind": self.kind, "at": self.at.isoformat()}


@dataclass
class PressesAdded:
    """What ``Store.add_presses`` did with a batch: how many it stored, knew already
    (the same id) and merged into one stored (a bounce), and the ids over the bound."""

    stored: int = 0
    duplicates: int = 0
    merged: int = 0
    over: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Decision:
    round: int
    table: int
    power: str
    phase: str
    decision: str  # confirm | waive | change
    final: str
    note: str
    at: datetime


@dataclass(frozen=True)
class Units:
    """A power's units at one table in one phase of a round, as the TD gave them."""

    round: int
    table: int
    power: str
    phase: str  # "S1901"
    units: tuple[str, ...]  # "A Vie", "F Tri": empty clears


@dataclass(frozen=True)
class Waiting:
    """A clock asking to be paired: the code it shows, and what it said of itself."""

    code: str
    token_hash: str
    kiosk: str  # the clock's own id (``kiosk.about``)
    wished: int | None  # the table its card says
    fingerprint: str | None  # the hub certificate it sees (None: plain HTTP)
    address: str
    asked: datetime
    expires: float  # hub time


@dataclass(frozen=True)
class PairedClock:
    """A clock paired for one table; ``token_hash`` is all the hub keeps of its token."""

    id: int
    token_hash: str
    table: int
    kiosk: str
    address: str
    paired: datetime


_WAITING = "code, token_hash, kiosk, wished, fingerprint, address, asked, expires"
_CLOCKS = "id, token_hash, table_no, kiosk, address, paired"


def _waiting_row(r: tuple[Any, ...]) -> Waiting:
    return Waiting(r[0], r[1], r[2], r[3], r[4], r[5], datetime.fromisoformat(r[6]), r[7])


def _clock_row(r: tuple[Any, ...]) -> PairedClock:
    return PairedClock(r[0], r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5]))


@dataclass(frozen=True)
class AuditRow:
    id: int
    at: datetime
    action: str
    summary: str


def _press_rows(rows: list[tuple[Any, ...]]) -> list[PressRow]:
    return [PressRow(r[0], r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5])) for r in rows]


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


class Store:
    """One SQLite connection under a lock: the hub's routes run in worker threads (off the
    event loop), and the lock makes each statement and each transaction one at a time."""

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
    def change(self, now: datetime, action: str | None, summary: str = "",
               bump: bool = True, *, subject: str | None = None,
               base: int | None = None, log: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction that also bumps ``seq`` (unless ``bump`` is False: nothing a
        table's snapshot holds changed) and, for a TD action, logs it with its subject
        (``server.stale``; by default the action's).

        ``base``: the newest log line the screen that asked for the change had seen. A line
        since then about a conflicting subject refuses the change (``Stale``), checked in
        this same transaction, so two requests made from one screen cannot both pass.
        ``log`` False: the caller writes the log's line itself (its words known only
        inside the transaction)."""
        about = subject if subject is not None else SUBJECTS.get(action or "", action or "")
        with self._tx(action is not None) as db:
            if base is not None and action is not None:
                subjects = conflicting(about)
                marks = ", ".join("?" * len(subjects))
                news = db.execute(
                    f"SELECT at, summary FROM audit WHERE id > ? AND subject IN ({marks}) "
                    "ORDER BY id", (base, *subjects)).fetchall()
                if news:
                    raise Stale([(datetime.fromisoformat(at), text) for at, text in news])
            yield db
            if bump:
                db.execute(
                    "INSERT INTO meta(key, value) VALUES('seq', '1') ON CONFLICT(key) "
                    "DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
            if action is not None and log:
                db.execute(
                    "INSERT INTO audit(at, action, summary, subject) VALUES(?, ?, ?, ?)",
                    (now.isoformat(), action, summary, about),
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

    def last_hub_time(self) -> datetime | None:
        """The latest hub time this hub wrote down: its log, the presses it received, and
        its own note of the time (``server.hubtime.note_time``). A restarted hub's tables
        may not set its time before it (``dipclock.keptvote``). ISO texts of one form sort
        as the times do."""
        row = self._one(
            "SELECT max(t) FROM (SELECT max(at) AS t FROM audit "
            "UNION ALL SELECT max(received) FROM presses "
            "UNION ALL SELECT value FROM meta WHERE key = ?)", (TIME_SEEN,))
        return datetime.fromisoformat(row[0]) if row and row[0] else None

    def note_time(self, now: datetime) -> None:
        """The hub's own note of its time, for ``last_hub_time`` when nothing else was
        written for a while (a lunch break)."""
        self.set_meta(TIME_SEEN, now.isoformat())

    def set_clock(
        self, shift: float, now: datetime, summary: str, anchor: str | None,
        new_epoch: bool = True, *, base: int | None = None,
    ) -> None:
        """The TD moved hub time by ``shift`` seconds: log it, keep every TD session as long
        as it was (their expiry is in hub time), and store ``anchor`` (``server.hubtime``:
        the boot and hub time minus the monotonic clock) for a restart in this boot.
        ``new_epoch``: kiosks must sync afresh (not when the hub took the tables' time)."""
        with self.change(now, "clock", summary, base=base) as db:
            db.execute("UPDATE sessions SET expires = expires + ?", (shift,))
            if new_epoch:
                db.execute(
                    "INSERT INTO meta(key, value) VALUES('clock_epoch', '1') ON CONFLICT(key) "
                    "DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
            db.execute("DELETE FROM meta WHERE key = 'clock_correction'")  # before anchors
            if anchor is not None:
                db.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES('hub_time_anchor', ?)",
                    (anchor,),
                )

    def clock_epoch(self) -> int:
        """How many times hub time was moved (``set_clock``): kiosks resync when it rises,
        and a restart keeps it, so a kiosk that kept the time keeps trusting it."""
        return int(self.meta("clock_epoch") or 0)

    def event(self) -> EventProfile | None:
        text = self.meta("event")
        return EventProfile.model_validate_json(text) if text else None

    def set_event(
        self, profile: EventProfile, now: datetime, summary: str, current: int | None = None,
        *, base: int | None = None,
    ) -> None:
        """Set the event for rounds set up from now on, and for round ``current`` (a round
        not started yet, ``server.actions.event_scope``); every other round keeps its own."""
        text = profile.model_dump_json()
        with self.change(now, "event", summary, base=base) as db:
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('event', ?)", (text,))
            if current is not None:
                db.execute("UPDATE rounds SET profile = ? WHERE number = ?", (text, current))

    # --- round and tables ---------------------------------------------------------------

    def round(self, number: int) -> RoundRow | None:
        row = self._one(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?", (number,))
        return _round_row(row) if row is not None else None

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

    def set_round(self, r: RoundRow, now: datetime, summary: str, *, base: int | None = None,
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
                    raise Refused(409, f"round {r.number} is a record "
                                  f"({self._record(db, old).text()}): its event, start and "
                                  "schedule do not change unless you reopen it")
            current = db.execute("SELECT value FROM meta WHERE key = 'round'").fetchone()
            db.execute(
                "INSERT INTO round_undo(round, before, current_before, summary, at) "
                "VALUES(?, ?, ?, ?, ?)",
                (r.number, _round_json(before) if before is not None else None,
                 int(current[0]) if current else None, summary, now.isoformat()))
            _write_round(db, r)
            if takes_the_tables(r.number, before is not None,
                                int(current[0]) if current else None):
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('round', ?)",
                           (str(r.number),))

    def last_round_change(self) -> tuple[int, str, datetime] | None:
        """The change to the rounds an undo would take back: (round, log line, when)."""
        row = self._one("SELECT round, summary, at FROM round_undo ORDER BY id DESC LIMIT 1")
        return (row[0], row[1], datetime.fromisoformat(row[2])) if row else None

    def undo_round(self, now: datetime, summary: str, *, base: int | None = None) -> int:
        """Take back the last change to the rounds: the round as it was (a round it set up
        anew is removed, unless it has become a record since), and the round every table
        played then. Returns the round it was about."""
        with self.change(now, "round", summary, base=base) as db:
            self._close_sheet_links(db, now)  # before the round may go back
            row = db.execute("SELECT id, round, before, current_before FROM round_undo "
                             "ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                raise Refused(409, "no change to the rounds to undo")
            undo_id, number, before, current = row
            if before is None:
                now_row = db.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?",
                                     (number,)).fetchone()
                if now_row is not None and self._record(db, _round_row(now_row)):
                    raise Refused(409, f"round {number} has been played since "
                                  f"({self._record(db, _round_row(now_row)).text()}): "
                                  "it stays; reopen it to correct it")
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

    def set_call(self, number: int, call: datetime | None, now: datetime, summary: str,
                 *, base: int | None = None) -> None:
        """Call round ``number`` at ``call``, or (None) take the call back."""
        with self.change(now, "call", summary, base=base) as db:
            db.execute("UPDATE rounds SET call = ? WHERE number = ?",
                       (call.isoformat() if call else None, number))

    def tables(self) -> list[int]:
        return [r[0] for r in self._all("SELECT number FROM tables ORDER BY number")]

    def set_tables(self, numbers: list[int], now: datetime, summary: str,
                   *, base: int | None = None) -> None:
        with self.change(now, "tables", summary, base=base) as db:
            db.execute("DELETE FROM tables")
            db.executemany("INSERT INTO tables(number) VALUES(?)", [(n,) for n in numbers])

    # --- pauses and adjustments ---------------------------------------------------------

    def pauses(self, round_no: int) -> list[tuple[int, Pause]]:
        rows = self._all("SELECT id, body FROM pauses WHERE round = ? ORDER BY id", (round_no,))
        return [(i, Pause.model_validate_json(body)) for i, body in rows]

    def add_pause(self, round_no: int, pause: Pause, now: datetime, summary: str,
                  *, base: int | None = None) -> int:
        with self.change(now, "pause", summary, base=base) as db:
            cur = db.execute(
                "INSERT INTO pauses(round, body) VALUES(?, ?)", (round_no, pause.model_dump_json())
            )
            return int(cur.lastrowid or 0)

    def end_pauses(self, ended: dict[int, Pause], now: datetime, summary: str,
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

    def add_adjustment(self, round_no: int, adj: Adjustment, now: datetime, summary: str,
                       *, base: int | None = None) -> int:
        with self.change(now, "adjust", summary, base=base) as db:
            cur = db.execute(
                "INSERT INTO adjustments(round, body) VALUES(?, ?)",
                (round_no, adj.model_dump_json()),
            )
            return int(cur.lastrowid or 0)

    def drop_adjustment(self, adjustment_id: int, now: datetime, summary: str,
                        *, base: int | None = None) -> None:
        """Undo one adjustment: its time is no longer given (or taken); the log keeps both
        the adjustment and its undo."""
        with self.change(now, "unadjust", summary, base=base) as db:
            db.execute("DELETE FROM adjustments WHERE id = ?", (adjustment_id,))

    # --- presses ------------------------------------------------------------------------

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

    def rounds(self) -> list[RoundRow]:
        rows = self._all(f"SELECT {_ROUND_COLUMNS} FROM rounds ORDER BY number")
        return [_round_row(r) for r in rows]

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

    def decide(self, d: Decision, summary: str, *, base: int | None = None) -> None:
        subject = row("penalty", d.round, d.table, d.power, d.phase)
        with self.change(d.at, "penalty", summary, subject=subject, base=base) as db:
            db.execute(
                "INSERT OR REPLACE INTO decisions"
                "(round, table_no, power, phase, decision, final, note, at)"
                " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                (d.round, d.table, d.power, d.phase, d.decision, d.final, d.note,
                 d.at.isoformat()),
            )

    # --- seating ------------------------------------------------------------------------

    def seating(self, round_no: int | None = None) -> list[Seat]:
        sql = "SELECT round, table_no, power, player FROM seating"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [Seat(*r) for r in self._all(sql + " ORDER BY round, table_no, power", args)]

    def set_seating(self, seats: list[Seat], now: datetime, summary: str,
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
                              summary: str, *, base: int | None = None) -> None:
        """Round ``number``'s whole seating, in one write: the seats it had go (a table
        the new seating has no more is empty, not left over). Refused (409) once the round
        has been played, checked in the transaction that writes, as ``set_round`` does: a
        sheet or a press stored after the seating desk looked still keeps its seats."""
        with self.change(now, "seating", summary, base=base) as db:
            row = db.execute(f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE number = ?",
                             (number,)).fetchone()
            held = self._record(db, _round_row(row)) if row is not None else None
            if held:
                raise self.seating_stays(number, held.text())
            db.execute("DELETE FROM seating WHERE round = ?", (number,))
            db.executemany(
                "INSERT INTO seating(round, table_no, power, player) VALUES(?, ?, ?, ?)",
                [(s.round, s.table, s.power, s.player) for s in seats])

    @staticmethod
    def seating_stays(number: int, played: str) -> Refused:
        """Why round ``number``'s seating is not replaced (``played``: what it holds, in
        ``RoundRecord.text``'s words), the same from the desk's look and the write's."""
        return Refused(409, f"round {number} has been played ({played}): its seating stays "
                            "as it is; change single seats with the seating import")

    # --- units (graduated penalties) ----------------------------------------------------

    def units(self, round_no: int | None = None) -> list[Units]:
        sql = "SELECT round, table_no, power, phase, units FROM units"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [Units(r, t, p, ph, tuple(json.loads(u)))
                for r, t, p, ph, u in self._all(sql + " ORDER BY round, table_no, phase, power",
                                                args)]

    def set_units(self, u: Units, now: datetime, summary: str, *, base: int | None = None
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

    # --- result sheets ------------------------------------------------------------------

    def sheets(self, round_no: int | None = None) -> list[Sheet]:
        sql = f"SELECT {_SHEET_COLUMNS} FROM sheets"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [_sheet_row(r) for r in self._all(sql + " ORDER BY round, table_no", args)]

    def sheet(self, round_no: int, table: int) -> Sheet | None:
        row = self._one(f"SELECT {_SHEET_COLUMNS} FROM sheets WHERE round = ? AND table_no = ?",
                        (round_no, table))
        return _sheet_row(row) if row else None

    def edit_sheet(self, round_no: int, table: int, version: int,
                   edit: Callable[[Sheet | None], tuple[Sheet, str] | None],
                   now: datetime, *, base: int | None = None,
                   line: bool = False) -> Sheet | None:
        """Change a board's sheet in one transaction, made against ``version``: the
        sheet's version when the phone, the TD or the table's clock saw it; 0 for no sheet
        yet. ``edit`` gets the sheet as stored and returns it changed with the log's line,
        or None to change nothing; every change raises the version by one (and
        ``settled`` unless it confirms a line: ``server.sheets.change_of``), set here.

        A sheet whose version is another by now refuses it (``SheetChanged``, with what
        changed since): two phones never write over each other's correction, and a stale
        page never undoes the TD's final. ``line``: a player's button confirming a line,
        made against any version from ``settled`` on: what that player confirms (the
        entries, and whether the TD has confirmed the sheet) is the same in all of them,
        so another player's confirmation in between does not refuse it. With ``base``
        (the TD's screen), any news of the sheet since then refuses it too. Returns the
        sheet as it now stands."""
        try:
            return self._edit_sheet(round_no, table, version, edit, now, base, line)
        except _Unchanged as same:
            return same.sheet

    def _edit_sheet(self, round_no: int, table: int, version: int,
                    edit: Callable[[Sheet | None], tuple[Sheet, str] | None],
                    now: datetime, base: int | None, line: bool) -> Sheet:
        with self.change(now, "result", "", subject=f"sheet {round_no}/{table}", base=base,
                         log=False) as db:
            row = db.execute(
                f"SELECT {_SHEET_COLUMNS} FROM sheets WHERE round = ? AND table_no = ?",
                (round_no, table)).fetchone()
            stored = _sheet_row(row) if row else None
            current = stored.version if stored else 0
            same = (stored.settled <= version <= current if line and stored
                    else version == current)
            if not same:
                raise self._sheet_changed(db, stored, version, line)
            done = edit(stored)
            if done is None:
                raise _Unchanged(stored)
            edited, summary = done
            said = change_of(stored, edited)
            settled = (current + 1 if said.kind != "line" or stored is None
                       else stored.settled)
            sheet = replace(edited, version=current + 1, settled=settled)
            db.execute(
                f"INSERT OR REPLACE INTO sheets({_SHEET_COLUMNS}) "
                "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (round_no, table, sheet.body.model_dump_json(),
                 json.dumps(dict(sorted(sheet.confirmations.items()))), int(sheet.td),
                 int(sheet.by_td), sheet.at, sheet.version, json.dumps(sheet.td_without),
                 sheet.settled))
            db.execute("INSERT OR REPLACE INTO sheet_changes(round, table_no, version, at, "
                       "kind, words) VALUES(?, ?, ?, ?, ?, ?)",
                       (round_no, table, sheet.version, now.isoformat(), said.kind,
                        said.words))
            db.execute("INSERT INTO audit(at, action, summary, subject) VALUES(?, ?, ?, ?)",
                       (now.isoformat(), "result", summary, f"sheet {round_no}/{table}"))
            return sheet

    @staticmethod
    def _sheet_changed(db: sqlite3.Connection, stored: Sheet | None, version: int,
                       line: bool) -> SheetChanged:
        """The refusal of a change made against ``version``, with what changed since (for
        a line's confirmation, what refused it: not the other lines confirmed)."""
        if stored is None or version > stored.version:  # a version it never had
            return SheetChanged(stored)
        rows = db.execute(
            "SELECT at, kind, words FROM sheet_changes WHERE round = ? AND table_no = ? "
            "AND version > ? ORDER BY version", (stored.round, stored.table, version)
        ).fetchall()
        unknown = stored.version - version - len(rows)
        return SheetChanged(stored, [(datetime.fromisoformat(at), words)
                                     for at, kind, words in rows if not line or kind != "line"],
                            unknown)

    # --- teams --------------------------------------------------------------------------

    def teams(self) -> dict[str, list[str]]:
        """Each team's players, by name."""
        out: dict[str, list[str]] = {}
        for player, team in self._all("SELECT player, team FROM teams ORDER BY team, player"):
            out.setdefault(team, []).append(player)
        return out

    def set_teams(self, members: list[tuple[str, str]], now: datetime, summary: str,
                  *, base: int | None = None) -> None:
        """Replace the teams with ``members`` ((team, player) pairs), logged."""
        with self.change(now, "teams", summary, bump=False, base=base) as db:
            db.execute("DELETE FROM teams")
            db.executemany("INSERT INTO teams(player, team) VALUES(?, ?)",
                           [(player, team) for team, player in members])

    # --- the hall message (``server.hallmessage``) --------------------------------------

    def hall_message(self) -> str | None:
        """The TD's last hall message as stored (JSON), shown or run out; None: cleared."""
        return self.meta(HALL_MESSAGE)

    def set_hall_message(self, text: str | None, now: datetime, summary: str,
                         *, base: int | None = None) -> None:
        """Store the TD's message (JSON; None clears it), logged: one meta row, kept across
        a restart, replaced by the next; every table's snapshot carries it (``seq``)."""
        with self.change(now, "message", summary, base=base) as db:
            if text is None:
                db.execute("DELETE FROM meta WHERE key = ?", (HALL_MESSAGE,))
            else:
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                           (HALL_MESSAGE, text))

    # --- audit log ----------------------------------------------------------------------

    def audit(self, limit: int = 50) -> list[AuditRow]:
        rows = self._all(
            "SELECT id, at, action, summary FROM audit ORDER BY id DESC LIMIT ?", (limit,)
        )
        return [AuditRow(r[0], datetime.fromisoformat(r[1]), r[2], r[3]) for r in rows]

    # --- the clocks: waiting for the TD, and paired (``server.pairing``) ---------------

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

    def pair(self, w: Waiting, table: int, now: datetime, summary: str) -> PairedClock:
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

    def unpair(self, clock_id: int, now: datetime, summary: str) -> bool:
        with self.change(now, "unpair", summary, bump=False) as db:
            gone: bool = db.execute("DELETE FROM clocks WHERE id = ?", (clock_id,)).rowcount > 0
            return gone

    def refuse_waiting(self, code: str) -> bool:
        with self._tx() as db:
            gone: bool = db.execute("DELETE FROM waiting WHERE code = ?", (code,)).rowcount > 0
            return gone

    def refuse_all_waiting(self, now: datetime, summary: str) -> int:
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


"""The event archive: one file holding everything a hub knows of its event, for another hub
to carry on with it, or for the TD to keep.

Not the hub backup (``server.backup``): a backup is a whole hub (its id, certificate, key,
paired clocks, password), to replace a dead hub card; the archive is the event alone, the
hub that imports it stays itself (its id, certificate, password, paired clocks, sign-ins).

Why a zip of JSON: it is what the hub backup already is (one file to carry, a manifest with
each member's SHA-256, so a damaged copy is told from a good one before anything is
written), and JSON is read by any language in ten years without dipclock; one JSON file
would carry no checksum of its own. Each archived table is one member, its columns named,
its rows in a fixed order, so two exports of one event are the same bytes but for the time
in the manifest (the round-trip test compares them so).

Format (version 1), a zip file holding

- ``manifest.json``: ``{"format": "dipclock event archive", "version": 1, "dipclock":
  VERSION, "schema": the database version the tables are of, "made_at": ISO (UTC),
  "event": the event's name, "members": {NAME: SHA-256 hex of its bytes}}``;
- ``README.txt``: this format in words, for a reader without dipclock;
- ``meta.json``: the event's settings kept beside the tables (``EVENT_META``): ``event``,
  the event's rules (its profile as JSON), ``round``, the current round, the hall message,
  the rounds whose sheet links are closed;
- ``tables/NAME.json``: ``{"columns": [...], "rows": [[...], ...]}``, one per table of the
  event: rounds, tables, pauses, adjustments, presses, decisions (rulings), units, seating,
  sheets, sheet_changes, round_undo, teams, people, apart, table_revs, votes (game-end
  votes), audit (its lines about the event), and any table a later dipclock adds (the
  register) unless it is one of ``HUB_TABLES``; a cell holding JSON (a round's profile, a
  sheet's body) stays text, exactly as stored;
- ``standings.json``: the standings after the last round, as the hub showed them (read by
  people; an import computes them again from the tables).

Not archived, being the hub's own (``HUB_TABLES``, ``HUB_ACTIONS``, and every meta key
outside ``EVENT_META``): TD sign-ins, the paired and waiting clocks, the hub's id and
password, its time and its backups' notes, the sheets' link secret (the importing hub's
links are its own; the tables show them), the cache of judged presses (computed again), the
secret votes and the phones' waiting choices of a vote under way (an archive made then
carries the vote without them: the TD counts it by hand or cancels it), and the log lines
about those (pairing, hub time, restores, imports).

An import is checked whole first (``check``: manifest, checksums, versions, every table and
column against the schema of the version it names, SQLite's checks) into a new database
file in the data folder, which ``install`` then swaps in for the live one with one rename
(the replaced file kept aside): a power cut mid-import leaves the old hub or the new one.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import secrets
import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dipclock import __version__
from dipclock.errors import DipclockError
from dipclock.i18n import N_, Said, said
from dipclock.sentences import listed, plural
from server import checkedzip
from server.backup import snapshot
from server.checkedzip import Kind, read_checked
from server.checkedzip import sha256 as _sha256
from server.store import MIGRATIONS, Store

FORMAT = "dipclock event archive"
VERSION = 1
MANIFEST = checkedzip.MANIFEST
README = "README.txt"
META = "meta.json"
STANDINGS = "standings.json"
TABLES = "tables/"
#: the most an archive's body may be (``server.bodylimit``): a day's event is a few MB
MOST_UPLOAD = 64 * 1024 * 1024
#: the most its members may hold once unpacked (a zip bomb is refused unread)
MOST_UNPACKED = 512 * 1024 * 1024
#: where a replaced database is kept, in the data folder (one folder per import)
ASIDE = "replaced-by-archive"
#: a zip member's time: fixed, so that two exports of one event are the same bytes
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)

#: the hub's own tables: its sign-ins, its clocks, a cache it computes again; and the
#: secret votes of a ballot under way with the phones' choices waiting for a button (a
#: vote's secrets leave no hub: its record, ``votes``, is the event's)
HUB_TABLES = frozenset({"sessions", "waiting", "clocks", "judged", "meta", "vote_secrets",
                        "vote_claims"})
#: the meta keys that are the event's; every other is the hub's own
EVENT_META = frozenset({"event", "round", "hall_message", "sheet_links_closed_through"})
#: log lines about the hub itself, not the event: pairing, hub time, restores, imports
HUB_ACTIONS = frozenset({"pair", "unpair", "refuse all", "clock", "clock vote", "restore",
                         "archive"})

_README = """\
A dipclock event archive (format version 1): everything a dipclock hub knew of one
Diplomacy event. Every file here is UTF-8 JSON but this one.

manifest.json     what this is, the versions, when it was made, and the SHA-256 of
                  every other file.
meta.json         the event's settings: "event" is the event's rules as JSON (its name,
                  timing, scoring, standings), "round" the current round.
tables/NAME.json  one table of the hub's database: "columns" names the columns, each of
                  "rows" is one row, its cells in that order. Times are UTC ("2024-05-04T
                  09:00:00"). A cell holding JSON (a round's rules, a sheet) is text.
                  people: the roster; apart: the pairs kept apart (ids of people);
                  register: who was marked present, absent, sitting out or withdrawn
                  for each round (ids of people), where the hub kept one;
                  rounds, tables, seating: who played which power at which table;
                  presses: each clock button pressed; decisions, units: the TD's rulings;
                  pauses, adjustments: the clock's pauses and changes; sheets,
                  sheet_changes: each board's result and its every change; teams;
                  round_undo: what each change to the rounds replaced; votes: each
                  game-end vote proposed, its result and who voted (never how);
                  audit: the log.
standings.json    the standings after the last round, as the hub showed them.
"""


class ArchiveRefused(DipclockError):
    """A file that is not an archive this hub can import: ``message`` says why, in one line
    (English; the sentence it was raised with is said in the reader's language)."""

    def __init__(self, message: Said) -> None:
        super().__init__(message)
        self.message = str(message)


NOT_AN_ARCHIVE = said("this file is not a dipclock event archive: choose the file saved "
                      "with \"Save event archive\" (dipclock-event-….zip)")
DAMAGED = N_("this event archive is damaged ({why}): use another copy")
KIND = Kind(
    format=FORMAT, version=VERSION, required=META, manifest_most=1024 * 1024,
    unpacked_most=MOST_UNPACKED, not_it=NOT_AN_ARCHIVE,
    newer=N_("this event archive was made by a newer dipclock ({version}): update this hub "
             "first"),
    list_damaged=Said(DAMAGED, {"why": said("its list of files is damaged")}),
    damaged=DAMAGED,
    too_big=said("this event archive unpacks to more than 512 MB: it is not a hub's"))


def _damaged(why: Said) -> ArchiveRefused:
    """The archive is damaged, and why."""
    return ArchiveRefused(Said(DAMAGED, {"why": why}))




def _dumps(value: object) -> bytes:
    """The one JSON form every member is written in: keys sorted, a line per item."""
    return (json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()


def event_tables(db: sqlite3.Connection) -> list[str]:
    """The database's tables that are the event's, by name."""
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND "
                      "name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
    return [str(r[0]) for r in rows if r[0] not in HUB_TABLES]


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in db.execute(f'PRAGMA table_info("{table}")')]


def _rows(db: sqlite3.Connection, table: str, columns: list[str]) -> list[list[object]]:
    """The table's rows in the order of all their cells: the same rows give the same list."""
    names = ", ".join(f'"{c}"' for c in columns)
    where = (f" WHERE action NOT IN ({', '.join('?' * len(HUB_ACTIONS))})"
             if table == "audit" else "")
    args = sorted(HUB_ACTIONS) if table == "audit" else []
    order = ", ".join(str(n) for n in range(1, len(columns) + 1))
    rows = db.execute(f'SELECT {names} FROM "{table}"{where} ORDER BY {order}', args)
    out = []
    for row in rows:
        if any(isinstance(v, bytes) for v in row):
            raise ArchiveRefused(said("the table {table} holds bytes an archive cannot keep",
                                      table=table))
        out.append(list(row))
    return out


def members_of(db: sqlite3.Connection) -> dict[str, bytes]:
    """The archive's data members (all but the manifest), read from ``db``."""
    out = {README: _README.encode(),
           META: _dumps(dict(db.execute(
               f"SELECT key, value FROM meta WHERE key IN "
               f"({', '.join('?' * len(EVENT_META))})", sorted(EVENT_META)).fetchall()))}
    for table in event_tables(db):
        columns = _columns(db, table)
        out[f"{TABLES}{table}.json"] = _dumps({"columns": columns,
                                               "rows": _rows(db, table, columns)})
    return out


def _standings(path: Path) -> object:
    """The standings after the last round, as the hub shows them (None before a round)."""
    from server.resultsdesk import standings_view

    store = Store(path)
    try:
        rounds = store.rounds()
        if not rounds:
            return None
        return standings_view(store, max(r.number for r in rounds)).model_dump(mode="json")
    finally:
        store.close()


def make(db_path: Path, now: datetime | None = None) -> bytes:
    """The archive of the event in the hub database ``db_path``, as its zip file's bytes.
    Made from a consistent copy (``server.backup.snapshot``), so the hub writes on
    meanwhile. Blocking (SQLite, hashing): call it off the event loop."""
    with tempfile.TemporaryDirectory(dir=db_path.parent, prefix=".archive-") as tmp:
        copy = Path(tmp) / "event.sqlite3"
        snapshot(db_path, copy)
        con = sqlite3.connect(copy)
        try:
            members = members_of(con)
            schema = int(con.execute("PRAGMA user_version").fetchone()[0])
        finally:
            con.close()
        members[STANDINGS] = _dumps(_standings(copy))
    event = json.loads(json.loads(members[META]).get("event") or "null")
    manifest = {
        "format": FORMAT, "version": VERSION, "dipclock": __version__, "schema": schema,
        "made_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "event": event.get("name") if isinstance(event, dict) else None,
        "members": {name: _sha256(data) for name, data in sorted(members.items())},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in [(MANIFEST, _dumps(manifest)), *sorted(members.items())]:
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return out.getvalue()


def canonical(data: bytes) -> dict[str, bytes]:
    """An archive's members, its manifest without the time it was made: two archives of
    one event are equal so (``make`` writes each member the same way every time)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        out = {name: z.read(name) for name in z.namelist()}
    manifest = json.loads(out[MANIFEST])
    manifest.pop("made_at", None)
    out[MANIFEST] = _dumps(manifest)
    return out


@dataclass(frozen=True)
class Checked:
    """An archive checked whole, its event written into ``database`` (a new file in the data
    folder, removed by ``discard`` or taken by ``install``)."""

    database: Path
    event: str | None
    made_at: str
    rounds: int
    people: int

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.database.unlink()


def _apply(db: sqlite3.Connection, upto: int) -> None:
    """The schema's first ``upto`` steps (``server.store.migrations``), as a hub applies
    them, on a database that has none: the archive's tables go into the version they
    were read from, and the later steps carry them on as they carry a hub's."""
    for n, script in enumerate(MIGRATIONS[:upto], start=1):
        db.execute("BEGIN IMMEDIATE")
        if callable(script):
            script(db)
        for statement in script.split(";") if isinstance(script, str) else ():
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {n}")
        db.execute("COMMIT")


def _read(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and every member, each checked against its checksum."""
    return read_checked(data, KIND, ArchiveRefused)


def _json(name: str, body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _damaged(said("{name} is not JSON", name=name)) from None


def _cell(value: object) -> bool:
    return value is None or (isinstance(value, (str, int, float))
                             and not isinstance(value, bool))


def check(data: bytes, data_dir: Path) -> Checked:
    """``data`` checked whole as an archive this hub can import (``ArchiveRefused`` with
    one line otherwise), its event written into a new database file in ``data_dir`` (the
    live one's file system, so ``install`` is a rename), migrated to this version.
    Blocking: call it off the event loop."""
    manifest, got = _read(data)
    schema = manifest.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise _damaged(said("its list names no database version"))
    if schema > len(MIGRATIONS):
        raise ArchiveRefused(said("this event archive was made by a newer dipclock (database "
                                  "version {version}): update this hub first",
                                  version=schema))
    meta = _json(META, got[META])
    if not isinstance(meta, dict) or not all(
            k in EVENT_META and isinstance(v, str) for k, v in meta.items()):
        raise _damaged(said("{name} holds settings it may not", name=META))
    tables: dict[str, tuple[list[str], list[list[object]]]] = {}
    for name, body in got.items():
        if not name.startswith(TABLES):
            if name not in (META, README, STANDINGS):
                raise _damaged(said("{name} is not one of its files", name=name))
            continue
        table = name[len(TABLES):].removesuffix(".json")
        content = _json(name, body)
        if not isinstance(content, dict) or not isinstance(content.get("columns"), list) \
                or not isinstance(content.get("rows"), list):
            raise _damaged(said("{name} is not a table", name=name))
        tables[table] = (content["columns"], content["rows"])
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, path = tempfile.mkstemp(dir=data_dir, prefix=".import-", suffix=".sqlite3")
    os.close(fd)
    database = Path(path)
    try:
        _write(database, schema, meta, tables)
        rounds, people = _migrated(database)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            database.unlink()
        raise
    event = manifest.get("event")
    return Checked(database, event if isinstance(event, str) else None,
                   str(manifest.get("made_at", "")), rounds, people)


def _write(database: Path, schema: int, meta: Mapping[str, str],
           tables: Mapping[str, tuple[list[str], list[list[object]]]]) -> None:
    """The archive's settings and tables in a new database at the archive's version, each
    table and its columns checked against that version's, in one transaction."""
    con = sqlite3.connect(database, isolation_level=None)
    try:
        _apply(con, schema)
        known = set(event_tables(con))
        con.execute("PRAGMA foreign_keys=ON")
        con.execute("BEGIN IMMEDIATE")
        try:
            con.executemany("INSERT INTO meta(key, value) VALUES(?, ?)", sorted(meta.items()))
            for table in sorted(tables, key=lambda t: _parents_first(con, t)):
                columns, rows = tables[table]
                if table not in known:
                    raise _damaged(said("it has a table {table} that database version "
                                        "{version} does not", table=repr(table),
                                        version=schema))
                if columns != _columns(con, table):
                    raise _damaged(said("the table {table}'s columns are not its version's",
                                        table=table))
                for n, row in enumerate(rows, start=1):
                    if not isinstance(row, list) or len(row) != len(columns) or \
                            not all(_cell(v) for v in row):
                        raise _damaged(said("row {row} of the table {table} is not one of "
                                            "its rows", row=n, table=table))
                marks = ", ".join("?" * len(columns))
                names = ", ".join(f'"{c}"' for c in columns)
                con.executemany(f'INSERT INTO "{table}"({names}) VALUES({marks})', rows)
            if con.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise _damaged(said("a row names one that is not there"))
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _damaged(said("its tables do not fit ({error})", error=str(exc))
                           ) from None
        finally:
            if con.in_transaction:
                con.execute("ROLLBACK")
    finally:
        con.close()


def _parents_first(db: sqlite3.Connection, table: str) -> tuple[bool, str]:
    """A table naming another's rows (``apart``, ``register``: people) after the others."""
    return (db.execute(f'PRAGMA foreign_key_list("{table}")').fetchone() is not None, table)


def _migrated(database: Path) -> tuple[int, int]:
    """The new database brought to this version as a start would, found whole by SQLite;
    how many rounds and people it holds."""
    try:
        store = Store(database)
        try:
            rounds, people = len(store.rounds()), len(store.people())
        finally:
            store.close()
        con = sqlite3.connect(database)
        try:
            if con.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise _damaged(said("SQLite's integrity check fails"))
        finally:
            con.close()
    except (sqlite3.Error, ValueError, TypeError, KeyError) as exc:
        raise _damaged(said("its event cannot be read: {error}", error=str(exc))) from None
    return rounds, people


def holds_event(store: Store) -> Said | None:
    """What of an event the hub holds now, in words (None: none, a fresh hub)."""
    rounds, people = len(store.rounds()), len(store.people())
    sheets = len(store.sheets())
    parts = [p for p in (
        plural("{n} round", "{n} rounds", rounds) if rounds else None,
        plural("{n} person on the roster", "{n} people on the roster", people)
        if people else None,
        plural("{n} result sheet", "{n} result sheets", sheets) if sheets else None) if p]
    event = store.event()
    if not parts and event is not None:
        return said("the event {event}", event=repr(event.name))
    return listed(*parts) if parts else None


def install(checked: Checked, db_path: Path, now: datetime,
            summary: Callable[[str], str] | None = None) -> Path:
    """The checked archive made this hub's event. The hub's store must be closed (its WAL
    checkpointed), and opened again after. The hub's own rows (``HUB_TABLES``, meta keys
    outside ``EVENT_META``) are copied from the live database into the new one, which then
    replaces it with one rename; the replaced file is kept in ``replaced-by-archive-<time>/``
    (returned). A power cut leaves the old database or the new one, never a mix."""
    data_dir = db_path.parent
    stamp = now.strftime("%Y%m%dT%H%M%S")
    aside = data_dir / f"{ASIDE}-{stamp}"
    n = 1
    while aside.exists():
        n += 1
        aside = data_dir / f"{ASIDE}-{stamp}-{n}"
    _carry_hub_own(checked.database, db_path, now, summary)
    aside.mkdir(mode=0o700)
    try:
        os.link(db_path, aside / db_path.name)  # the old file stays where it is meanwhile
    except OSError:
        shutil.copy2(db_path, aside / db_path.name)
    for extra in (db_path.with_name(db_path.name + "-wal"),
                  db_path.with_name(db_path.name + "-shm")):
        if extra.exists():
            os.replace(extra, aside / extra.name)
    os.replace(checked.database, db_path)
    fd = os.open(data_dir, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return aside


def _carry_hub_own(database: Path, db_path: Path, now: datetime,
                   summary: Callable[[str], str] | None) -> None:
    """Into the new database: the live hub's own rows (sign-ins, clocks, id, password,
    time), its sequence number raised (every table takes the new state), a new restore id
    (the tables resend their presses), and the log's line of the import."""
    con = sqlite3.connect(database, isolation_level=None)
    try:
        con.execute("ATTACH DATABASE ? AS old", (str(db_path),))
        con.execute("BEGIN IMMEDIATE")
        try:
            for table in ("sessions", "waiting", "clocks"):
                columns = ", ".join(f'"{c}"' for c in _columns(con, table))
                con.execute(f'INSERT INTO main."{table}"({columns}) '
                            f'SELECT {columns} FROM old."{table}"')
            marks = ", ".join("?" * len(EVENT_META))
            con.execute(f"INSERT OR REPLACE INTO main.meta SELECT key, value FROM old.meta "
                        f"WHERE key NOT IN ({marks})", sorted(EVENT_META))
            seq = con.execute("SELECT value FROM main.meta WHERE key = 'seq'").fetchone()
            con.execute("INSERT OR REPLACE INTO main.meta(key, value) VALUES('seq', ?)",
                        (str(int(seq[0] if seq else 0) + 1),))
            con.execute("INSERT OR REPLACE INTO main.meta(key, value) VALUES('restored', ?)",
                        (secrets.token_hex(8),))
            words = "Event imported from its archive"
            con.execute("INSERT INTO main.audit(at, action, summary, subject) "
                        "VALUES(?, 'archive', ?, 'archive')",
                        (now.replace(tzinfo=None).isoformat(),
                         summary(words) if summary else words))
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        con.execute("DETACH DATABASE old")
        con.execute("PRAGMA journal_mode=DELETE")  # one file to install, no -wal beside it
    finally:
        con.close()
    fd = os.open(database, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = ["EVENT_META", "FORMAT", "HUB_ACTIONS", "HUB_TABLES", "MOST_UPLOAD", "VERSION",
           "ArchiveRefused", "Checked", "canonical", "check", "holds_event", "install",
           "make", "members_of"]

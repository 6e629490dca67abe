"""The hub backup: one file holding everything a hub is, so a replaced hub card wins the hall back.

A paired clock trusts one hub: the one whose id it was paired with (mDNS TXT ``id``,
``kiosk.discovery``) and whose certificate it pinned (``kiosk.pairing``). A freshly flashed
hub makes a new id and a new certificate, and every table would look for the old hub
forever. The backup carries the old hub's id (in its database's meta), its certificate and
its key, and its database (rounds, pauses, presses, paired clocks' token hashes): a hub that
restores it announces the old id with the old certificate, and every table's credential is
good again without anyone touching a table.

Format (version 1): a zip file holding

- ``manifest.json``: ``{"format": "dipclock hub backup", "version": 1, "dipclock": VERSION,
  "hub_id": ID, "made_at": ISO (UTC), "fingerprint": SHA-256 of the certificate or null,
  "schema": the database's user_version, "members": {NAME: SHA-256 hex of its bytes}}``;
- ``hub.sqlite3``: a consistent copy made with SQLite's online backup API (not a file copy:
  the live file's WAL may hold the newest transactions);
- ``hub-cert.pem`` and ``hub-key.pem``: the TLS certificate and its private key (absent for a
  hub serving plain HTTP).

It holds the TLS private key and the clocks' token hashes: only a signed-in TD gets it
(``GET /api/td/backup``). The hub also keeps one in its data folder (``BACKUP_NAME``),
written off the event loop after the TD's changes and on a schedule, replaced atomically.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dipclock import __version__
from dipclock.errors import DipclockError
from dipclock.i18n import N_, Said, said
from machine import fingerprint as fingerprints
from server import checkedzip
from server.certificate import CERTIFICATE, PRIVATE_KEY
from server.checkedzip import Kind, read_checked
from server.checkedzip import sha256 as _sha256
from server.store import MIGRATIONS, Store

FORMAT = "dipclock hub backup"
VERSION = 1
MANIFEST = checkedzip.MANIFEST
DATABASE = "hub.sqlite3"
#: the backup the hub keeps in its own data folder
BACKUP_NAME = "hub-backup.zip"
#: the most a backup's members may hold once unpacked (a zip bomb is refused unread)
MOST_UNPACKED = 512 * 1024 * 1024
#: the most a restore's body may be (``server.bodylimit``): a day's hall is a few MB
MOST_UPLOAD = 64 * 1024 * 1024
#: where the replaced hub's files are kept, in the data folder (one folder per restore)
ASIDE = "replaced"


class BackupRefused(DipclockError):
    """A file that is not a backup this hub can restore: ``message`` says why, in one line
    (English; the sentence it was raised with is said in the reader's language)."""

    def __init__(self, message: Said) -> None:
        super().__init__(message)
        self.message = str(message)


@dataclass(frozen=True)
class Checked:
    """A backup checked whole: its database unpacked to ``database`` (a file in the data
    folder, removed by ``discard`` or taken by ``install``), its certificate and key."""

    hub_id: str
    made_at: str
    fingerprint: str | None
    database: Path
    certificate: bytes | None
    private_key: bytes | None
    clocks: int
    rounds: int

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.database.unlink()




def snapshot(db_path: Path, into: Path) -> None:
    """A consistent copy of the hub's database at ``into``, by SQLite's online backup API
    from a connection of its own: a reader in WAL mode, so the hub's writes go on meanwhile
    (the copy is the state of one instant: one step, under one read transaction)."""
    source = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(into)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
        finally:
            target.close()
    finally:
        source.close()


def _meta(db: Path, key: str) -> str | None:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])
    finally:
        con.close()


def make(db_path: Path, certificate: Path | None, private_key: Path | None,
         now: datetime | None = None) -> bytes:
    """The backup of the hub whose database is ``db_path``, as the bytes of its zip file.
    Blocking (SQLite, hashing): call it off the event loop."""
    with tempfile.TemporaryDirectory(dir=db_path.parent, prefix=".backup-") as tmp:
        copy = Path(tmp) / DATABASE
        snapshot(db_path, copy)
        members = {DATABASE: copy.read_bytes()}
    if certificate is not None and private_key is not None:
        members[CERTIFICATE] = certificate.read_bytes()
        members[PRIVATE_KEY] = private_key.read_bytes()
    con = sqlite3.connect(":memory:")
    try:
        con.deserialize(members[DATABASE])
        hub_id = con.execute("SELECT value FROM meta WHERE key = 'hub_id'").fetchone()
        schema = con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()
    cert = members.get(CERTIFICATE)
    manifest = {
        "format": FORMAT, "version": VERSION, "dipclock": __version__,
        "hub_id": None if hub_id is None else str(hub_id[0]),
        "made_at": (now or datetime.now(UTC)).isoformat(timespec="seconds"),
        "fingerprint": None if cert is None else fingerprints.of_pem(cert.decode()),
        "schema": int(schema),
        "members": {name: _sha256(data) for name, data in members.items()},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(MANIFEST, json.dumps(manifest, indent=2) + "\n")
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` at ``path``, whole or not at all: a temporary file beside it, written,
    fsynced, renamed over it, and the folder fsynced (a power cut leaves the old backup or
    the new one, never half of one). Readable by the hub's user only: it holds the key."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_kept(db_path: Path, certificate: Path | None, private_key: Path | None,
               into: Path) -> None:
    """The backup the hub keeps in its data folder, made and replaced atomically."""
    write_atomically(into, make(db_path, certificate, private_key))


NOT_A_BACKUP = said("this file is not a dipclock hub backup: choose the file saved with "
                    "\"Save hub backup\" (dipclock-hub-backup-….zip)")
KIND = Kind(
    format=FORMAT, version=VERSION, required=DATABASE, manifest_most=64 * 1024,
    unpacked_most=MOST_UNPACKED, not_it=NOT_A_BACKUP,
    newer=N_("this backup was made by a newer dipclock ({version}): update this hub first"),
    list_damaged=said("this backup's list of files is damaged: use another copy"),
    damaged=N_("this backup is damaged ({why}): use another copy"),
    too_big=said("this backup unpacks to more than 512 MB: it is not a hub's"))


def check(data: bytes, data_dir: Path) -> Checked:
    """``data`` checked whole as a backup this hub can restore (``BackupRefused`` with one
    line otherwise): its manifest, each member's SHA-256, the certificate against its key,
    SQLite's integrity check, and a schema this version knows. Its database is unpacked into
    ``data_dir`` (the same file system as the live one, so ``install`` is a rename) and
    migrated to this version there. Blocking: call it off the event loop."""
    manifest, got = read_checked(
        data, KIND, BackupRefused, lambda members: not (
            set(members) - {DATABASE, CERTIFICATE, PRIVATE_KEY}
            or (CERTIFICATE in members) != (PRIVATE_KEY in members)))
    cert, key = got.get(CERTIFICATE), got.get(PRIVATE_KEY)
    fp = _check_certificate(cert, key)
    if fp != manifest.get("fingerprint"):
        raise BackupRefused(said("this backup's certificate is not the one its list names: "
                                 "use another copy"))
    database = _unpack_database(got[DATABASE], data_dir)
    try:
        hub_id, clocks, rounds = _check_database(database)
        if hub_id != manifest.get("hub_id"):
            raise BackupRefused(said("this backup's database is of another hub than its "
                                     "list says: use another copy"))
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            database.unlink()
        raise
    return Checked(hub_id, str(manifest.get("made_at", "")), fp, database, cert, key,
                   clocks, rounds)


def _check_certificate(cert: bytes | None, key: bytes | None) -> str | None:
    """The certificate's fingerprint, once it and the key are known to be a pair."""
    if cert is None or key is None:
        return None
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    try:
        public = x509.load_pem_x509_certificate(cert).public_key()
        private = serialization.load_pem_private_key(key, password=None)
    except ValueError:
        raise BackupRefused(said("this backup's certificate or key cannot be read: use "
                                 "another copy")) from None
    fmt = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if private.public_key().public_bytes(*fmt) != public.public_bytes(*fmt):
        raise BackupRefused(said("this backup's key is not its certificate's: use another "
                                 "copy"))
    return fingerprints.of_pem(cert.decode())


def _unpack_database(body: bytes, data_dir: Path) -> Path:
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=data_dir, prefix=".restore-", suffix=".sqlite3")
    with os.fdopen(fd, "wb") as f:
        f.write(body)
        f.flush()
        os.fsync(f.fileno())
    return Path(name)


def _check_database(path: Path) -> tuple[str, int, int]:
    """Its hub id and how many clocks and rounds it holds, once SQLite finds it whole and it
    is migrated to this version's schema (in place: the file is the one to be installed)."""
    try:
        con = sqlite3.connect(path)
        try:
            if con.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupRefused(said("this backup's database is damaged (SQLite's "
                                         "integrity check fails): use another copy"))
            schema = con.execute("PRAGMA user_version").fetchone()[0]
            if schema > len(MIGRATIONS):
                raise BackupRefused(said("this backup was made by a newer dipclock "
                                         "(database version {version}): update this hub "
                                         "first", version=schema))
        finally:
            con.close()
        store = Store(path)  # migrates it to this version, as a start would
        try:
            hub_id = store.meta("hub_id")
            clocks, rounds = len(store.clocks()), len(store.rounds())
        finally:
            store.close()  # the last connection: its WAL checkpointed into the file
        con = sqlite3.connect(path)
        try:
            con.execute("PRAGMA journal_mode=DELETE")  # one file to install, no -wal beside
        finally:
            con.close()
    except (sqlite3.Error, ValueError, TypeError, KeyError) as exc:
        # a page SQLite cannot parse stops the integrity check itself: damaged, as above
        if "malformed" in str(exc) or "not a database" in str(exc):
            raise BackupRefused(said("this backup's database is damaged ({error}): use "
                                     "another copy", error=str(exc))) from None
        raise BackupRefused(said("this backup's database cannot be read ({error}): use "
                                 "another copy", error=str(exc))) from None
    if not hub_id:
        raise BackupRefused(said("this backup's database has no hub id: it is not a "
                                 "hub's"))
    return hub_id, clocks, rounds


def install(checked: Checked, db_path: Path, certificate: Path | None,
            private_key: Path | None, now: datetime) -> Path:
    """The backup's database, certificate and key in the hub's places, the hub's own moved
    aside first into ``replaced-<time>/`` in the data folder (returned). The hub's store must
    be closed (its WAL checkpointed), and opened again after. Each file is renamed into
    place: a power cut leaves each the old one or the new one."""
    data_dir = db_path.parent
    aside = data_dir / f"{ASIDE}-{now.strftime('%Y%m%dT%H%M%S')}"
    n = 1
    while aside.exists():
        n += 1
        aside = data_dir / f"{ASIDE}-{now.strftime('%Y%m%dT%H%M%S')}-{n}"
    aside.mkdir(mode=0o700)
    for path in (db_path, db_path.with_name(db_path.name + "-wal"),
                 db_path.with_name(db_path.name + "-shm")):
        if path.exists():
            os.replace(path, aside / path.name)
    if checked.certificate is not None and checked.private_key is not None:
        cert = certificate or data_dir / CERTIFICATE
        key = private_key or data_dir / PRIVATE_KEY
        for path in (cert, key):
            if path.exists():
                shutil.copy2(path, aside / path.name)
        write_atomically(key, checked.private_key)
        write_atomically(cert, checked.certificate)
        os.chmod(cert, 0o644)
    os.replace(checked.database, db_path)
    _fsync_folder(data_dir)
    return aside


__all__ = ["BACKUP_NAME", "FORMAT", "MOST_UPLOAD", "VERSION", "BackupRefused", "Checked",
           "check", "install", "make", "snapshot", "write_atomically", "write_kept"]

"""The hub backup's routes (``server.backup``): the TD saves it, and restores it on a new hub.

``GET /api/td/backup``: the backup, made now, for the TD to keep off the hub (what survives
a lost or dead hub card). ``GET /api/td/backup/status``: when it was last saved. ``POST
/api/td/restore``: the body is a backup file; the credentials are checked before a byte of it
is read (``server.gate``), its size bounded (``server.bodylimit``), the file checked whole
(``server.backup.check``), then the hub becomes the one the backup was made of: its id, its
certificate and key, its database, the replaced ones kept aside. It serves on without a
restart: the store is opened again, the hub's state built again from it (``open_hub``, as a
start does), the TLS certificate loaded into the context new connections use, and the old id
announced by mDNS. Every clock paired with the old hub finds it and is accepted again.

Also ``keep_often``: the backup the hub keeps in its own data folder.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
import time
from datetime import UTC, datetime
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Query, Request, Response
from starlette.datastructures import State

from dipclock.i18n import Said, said
from dipclock.sentences import plural
from server import backup
from server.auth import TD, Session, TDWrite
from server.certificate import fingerprint_of
from server.context import Hub, HubDep
from server.opening import open_hub
from server.refusal import Refused
from server.responses import BackupStatus, Restored
from server.settings import Settings
from server.store import Store

router = APIRouter(prefix="/api/td", tags=["td"])
log = logging.getLogger("uvicorn.error")

#: meta key: when the TD last saved the backup, and the newest log line then
DOWNLOADED = "backup_downloaded"
#: the TD's actions after which the saved backup is out of date (the tables' pairings,
#: the round): the dashboard reminds the TD to save it again
REMIND_AFTER = frozenset({"pair", "unpair", "round", "tables", "event", "seating", "restore"})
CHECK = ("Check now: the round, its deadline and any pause are the backup's; the tables "
         "come back by themselves (the Tables grid shows them); then save a "
         "new hub backup.")


def kept_path(settings: Settings) -> str:
    return str(settings.data_dir / backup.BACKUP_NAME)


def _make(hub: Hub) -> bytes:
    s = hub.settings
    return backup.make(s.db_path, s.certificate, s.private_key)


@router.get("/backup", response_class=Response, responses={
    200: {"content": {"application/zip": {}}, "description": "the hub backup (a zip file)"}})
async def get_backup(hub: HubDep, _: TD) -> Response:
    """The hub backup, made now (off the event loop). It holds the TLS key and the clocks'
    token hashes: only the signed-in TD gets it."""
    def note() -> None:
        hub.store.set_meta(DOWNLOADED, json.dumps(
            {"at": hub.clock.now(), "head": hub.store.audit_head()}))

    # noted first, so the backup holds it: a hub restored from it says when it was saved
    await anyio.to_thread.run_sync(note)
    data = await anyio.to_thread.run_sync(_make, hub)
    now = datetime.now(UTC)
    name = f"dipclock-hub-backup-{hub.hub_id}-{now.strftime('%Y%m%d-%H%M')}.zip"
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store"})


@router.get("/backup/status", response_model=BackupStatus)
def backup_status(hub: HubDep, _: TD) -> BackupStatus:
    """When the backup was last saved, and whether the tables or the round changed since."""
    saved = hub.store.meta(DOWNLOADED)
    ago: float | None = None
    remind = True
    if saved is not None:
        noted = json.loads(saved)
        ago = max(0.0, hub.clock.now() - float(noted["at"]))
        head = int(noted["head"])
        remind = any(row.id > head and row.action in REMIND_AFTER
                     for row in hub.store.audit(200))
    kept = hub.settings.data_dir / backup.BACKUP_NAME
    try:
        kept_ago: float | None = max(0.0, time.time() - kept.stat().st_mtime)
    except FileNotFoundError:
        kept_ago = None
    return BackupStatus(hub_id=hub.hub_id, downloaded_ago_s=ago, remind=remind,
                        kept=backup.BACKUP_NAME, kept_ago_s=kept_ago)


def _occupied(hub: Hub) -> Said | None:
    """What a restore would replace on this hub, in words (None: nothing, a fresh hub)."""
    clocks, rounds = len(hub.store.clocks()), len(hub.store.rounds())
    if not clocks and not rounds:
        return None
    paired = plural("{n} paired clock", "{n} paired clocks", clocks)
    played = plural("{n} round", "{n} rounds", rounds)
    if clocks and rounds:
        return said("{first} and {second}", first=paired, second=played)
    return paired if clocks else played


@router.post("/restore", response_model=Restored)
async def restore(request: Request, hub: HubDep, session: TDWrite,
                  replace: Annotated[bool, Query(description=(
                      "replace this hub's own clocks and rounds (a second confirm)"))] = False,
                  ) -> Restored:
    """Make this hub the one the backup in the body was made of (a zip file, as ``GET
    /api/td/backup`` gave it). A hub that has paired clocks or rounds of its own is
    replaced only with ``replace=true``: the TD confirmed it twice."""
    app = request.app
    state: State = app.state
    if getattr(state, "restore_busy", False):
        raise Refused(409, said("a restore is already under way: wait for it"))
    state.restore_busy = True
    try:
        return await _restore(request, hub, session, replace)
    finally:
        state.restore_busy = False


async def _restore(request: Request, hub: Hub, session: Session, replace: bool) -> Restored:
    """``restore``, one at a time, never while the kept backup is being written."""
    state: State = request.app.state
    async with state.backup_lock:
        data = await request.body()
        if not data:
            raise Refused(400, said("no file sent: choose the hub backup file"))
        try:
            checked = await anyio.to_thread.run_sync(backup.check, data,
                                                     hub.settings.data_dir)
        except backup.BackupRefused as exc:
            raise Refused(422, exc) from None
        try:
            there = await anyio.to_thread.run_sync(_occupied, hub)
            if there is not None and not replace:
                raise Refused(409, said("this hub already has {held}: restoring the "
                                        "backup replaces them (they are kept aside). "
                                        "Confirm again to replace them.", held=there))
            new, aside = await anyio.to_thread.run_sync(_swap, hub, checked, session)
        finally:
            checked.discard()  # gone already once installed
        state.hub = new
        _reload_certificate(state, new.settings)
        await _announce(state, new)
        log.warning("hub restored from a backup made at %s: hub id %s; the replaced files "
                    "are in %s", checked.made_at, new.hub_id, aside)
        return Restored(hub_id=new.hub_id, fingerprint=new.fingerprint,
                        made_at=checked.made_at, clocks=checked.clocks,
                        rounds=checked.rounds, aside=aside, check=CHECK)


def _swap(old: Hub, checked: backup.Checked, session: Session) -> tuple[Hub, str]:
    """The backup's files installed and the hub's state built again from them, as a start
    builds it. The TD stays signed in, with the password just used: the session and the
    password hash are carried into the restored database."""
    s = old.settings
    kept = old.store.session(session.token_hash)
    now = datetime.now(UTC)
    old.store.close()  # waits for a statement under way; checkpoints its WAL
    try:
        aside = backup.install(checked, s.db_path, s.certificate, s.private_key, now)
    except OSError as exc:
        _reopen(old)
        raise Refused(507, said("the backup could not be put in place ({error}): this hub "
                                "is unchanged", error=str(exc.strerror))) from None
    try:
        store = Store(s.db_path)
        store.set_meta("td_password_hash", old.password_hash)
        # the tables took snapshots of a later seq from the old hub, and presses it has not:
        # a new id here, in every snapshot, has them take this one's and resend the presses
        store.set_meta("restored", secrets.token_hex(8))
        if kept is not None:
            store.add_session(session.token_hash, kept[0], kept[1])
        new = open_hub(s, old.clock, store, old.synced, old.boot,
                       fingerprint_of(s.certificate), old.regulars)
        with store.change(old.clock.moment(), "restore",
                          f"Hub restored from its backup of {checked.made_at} "
                          f"(the replaced hub's files: {aside.name})"):
            pass
    except (OSError, ValueError, sqlite3.Error) as exc:  # checked, yet: a disk full now
        log.error("restore: the backup is in place but cannot be opened: %s", exc)
        raise Refused(503, said("the backup is in place but the hub cannot open it ({error}): "
                                "restart the hub; its own files are kept in {folder}",
                                error=str(exc), folder=aside.name)) from None
    new.backroom = old.backroom
    return new, aside.name


def _reopen(old: Hub) -> None:
    """A restore that failed before its database was in place: the hub's own store again."""
    old.store = Store(old.settings.db_path)


def _reload_certificate(state: State, settings: Settings) -> None:
    """New TLS connections are served with the restored certificate (the one every paired
    clock pinned); connections open now keep theirs."""
    tls = getattr(state, "tls", None)
    if tls is not None and settings.certificate is not None:
        tls.load_cert_chain(settings.certificate, settings.private_key)


async def _announce(state: State, hub: Hub) -> None:
    """The restored id announced by mDNS in place of the replaced one."""
    from server.mdns import Announcement

    old = getattr(state, "mdns", None)
    if old is None:
        return
    await old.stop()
    s = hub.settings
    state.mdns = Announcement(hub.hub_id, s.scheme, s.host, s.port)
    await state.mdns.start()


async def keep_often(state: State) -> None:
    """The backup in the hub's data folder: looked at every ``backup_seconds`` (the first
    time one period after start), written off the event loop when the TD changed something
    since the last one (or there is none yet), or when anything changed (the tables'
    presses) and ``backup_schedule`` has passed. A failed write (a full disk) is said once
    in the log and tried again at the next turn."""
    written: tuple[int, int, int] | None = None  # the store's id and its counts
    at = float("-inf")
    failing = False
    while True:
        await asyncio.sleep(state.hub.settings.backup_seconds)
        hub: Hub = state.hub
        store, s = hub.store, hub.settings
        counts = (id(store), store.actions, store.writes)
        now = time.monotonic()
        due = (written is None or counts[:2] != written[:2]
               or (counts[2] != written[2] and now - at >= s.backup_schedule))
        if not due:
            continue
        try:
            async with state.backup_lock:  # not while a restore swaps the files
                await anyio.to_thread.run_sync(backup.write_kept, s.db_path, s.certificate,
                                               s.private_key, s.data_dir / backup.BACKUP_NAME)
            written, at, failing = counts, now, False
        except (OSError, sqlite3.Error) as exc:  # a full disk, a store mid-restore
            if not failing:
                log.warning("the hub backup in the data folder was not written: %s", exc)
            failing = True


__all__ = ["keep_often", "router"]

"""Out of the hub: the WDD's files and the event archive, for the TD only.

``GET /api/td/export/wdd``: a zip holding ``classification.csv`` and ``boards.csv``
(``server.exports``). ``GET /api/td/export/archive``: the event archive (``server.archive``).
``POST /api/td/import/archive``: the body is an event archive; the credentials are checked
before a byte of it is read (``server.gate``), its size bounded (``server.bodylimit``), the
file checked whole into a new database file, and only then swapped in for the hub's own
(the replaced file kept aside). A hub that already holds an event is replaced only with
``replace=true``: the TD confirmed it. The hub serves on without a restart, as after a
restore from a backup: its id, certificate, password and paired clocks stay its own.
"""

from __future__ import annotations

import io
import logging
import sqlite3
import zipfile
from datetime import UTC, datetime
from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Query, Request, Response
from starlette.datastructures import State

from dipclock.i18n import ENGLISH, Said, Words, said
from server import archive, exports
from server.auth import TD, Session, TDWrite
from server.certificate import fingerprint_of
from server.context import Hub, HubDep, heavy_read
from server.language import PhoneWords
from server.opening import open_hub
from server.refusal import Refused
from server.responses import ArchiveImported
from server.store import Store

router = APIRouter(prefix="/api/td", tags=["td"])
log = logging.getLogger("uvicorn.error")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M")


def _wdd_zip(hub: Hub) -> tuple[bytes, list[Said]]:
    done = exports.wdd_export(hub.store)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in done.files.items():
            z.writestr(name, data)
    return out.getvalue(), done.notes


@router.get("/export/wdd", response_class=Response, responses={
    200: {"content": {"application/zip": {}},
          "description": "classification.csv and boards.csv in a zip file"}})
async def export_wdd(_: TD, hub: HubDep) -> Response:
    """The World Diplomacy Database's two files, from the confirmed sheets; 409 with why
    before a board is confirmed. Names not on the roster are in ``X-Dipclock-Notes``."""
    try:
        data, notes = await heavy_read(hub, lambda: _wdd_zip(hub))
    except exports.ExportRefused as exc:
        raise Refused(409, exc) from None
    headers = {"Content-Disposition": f'attachment; filename="wdd-{_stamp()}.zip"',
               "Cache-Control": "no-store"}
    if notes:
        headers["X-Dipclock-Notes"] = str(len(notes))
    return Response(data, media_type="application/zip", headers=headers)


@router.get("/export/archive", response_class=Response, responses={
    200: {"content": {"application/zip": {}}, "description": "the event archive"}})
async def export_archive(_: TD, hub: HubDep) -> Response:
    """The event archive, made now (off the event loop)."""
    data = await anyio.to_thread.run_sync(archive.make, hub.settings.db_path)
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="dipclock-event-{_stamp()}.zip"',
        "Cache-Control": "no-store"})


@router.post("/import/archive", response_model=ArchiveImported)
async def import_archive(request: Request, hub: HubDep, session: TDWrite, words: PhoneWords,
                         replace: Annotated[bool, Query(description=(
                             "replace the event this hub holds (the TD confirmed it)"))] = False,
                         ) -> ArchiveImported:
    """Make the archive in the body this hub's event; its summary in the phone's
    language."""
    state: State = request.app.state
    if getattr(state, "restore_busy", False):
        raise Refused(409, said("a restore or an import is already under way: wait for it"))
    state.restore_busy = True
    try:
        async with state.backup_lock:  # never while the kept backup is written
            return await _import(request, hub, session, replace, words)
    finally:
        state.restore_busy = False


async def _import(request: Request, hub: Hub, session: Session, replace: bool,
                  words: Words = ENGLISH) -> ArchiveImported:
    data = await request.body()
    if not data:
        raise Refused(400, said("no file sent: choose the event archive file"))
    try:
        checked = await anyio.to_thread.run_sync(archive.check, data, hub.settings.data_dir)
    except archive.ArchiveRefused as exc:
        raise Refused(422, exc) from None
    try:
        there = await anyio.to_thread.run_sync(archive.holds_event, hub.store)
        if there is not None and not replace:
            raise Refused(409, said("this hub already holds an event ({held}): importing "
                                    "the archive replaces it (its database is kept aside). "
                                    "Confirm again to replace it.", held=there))
        new, aside = await anyio.to_thread.run_sync(_swap, hub, checked)
    finally:
        checked.discard()  # gone already once installed
    request.app.state.hub = new
    log.warning("%s; the replaced database is in %s", _summary(checked, ENGLISH), aside)
    return ArchiveImported(event=checked.event, made_at=checked.made_at,
                           rounds=checked.rounds, people=checked.people, aside=aside,
                           summary=_summary(checked, words))


def _summary(checked: archive.Checked, words: Words) -> str:
    """What was imported, as the TD reads it (the log keeps it in English)."""
    return words("{event} imported from its archive saved {when}: {rounds}, {people} on the "
                 "roster", event=checked.event or words("The event"),
                 when=_when(checked.made_at, words),
                 rounds=words.plural("{n} round", "{n} rounds", checked.rounds),
                 people=words.plural("{n} person", "{n} people", checked.people))


def _when(made_at: str, words: Words = ENGLISH) -> str:
    """"28 Nov 2026 09:48 UTC": when an archive was saved, as a TD reads it (in another
    language than English, by numbers: "2026-11-28 09:48 UTC", no month's English name)."""
    shape = "%d %b %Y %H:%M UTC" if words.lang == "en" else "%Y-%m-%d %H:%M UTC"
    try:
        return datetime.fromisoformat(made_at).astimezone(UTC).strftime(shape)
    except ValueError:
        return made_at or words("at an unknown time")


def _swap(old: Hub, checked: archive.Checked) -> tuple[Hub, str]:
    """The archive's database in place of the hub's and the hub's state built again from
    it, as a start builds it (the TD's session is carried with the hub's own rows)."""
    s = old.settings
    old.store.close()  # waits for a statement under way; checkpoints its WAL
    try:
        aside = archive.install(checked, s.db_path, old.clock.moment(), lambda words: (
            f"{words} saved {_when(checked.made_at)}"))
    except (OSError, sqlite3.Error) as exc:
        old.store = Store(s.db_path)
        raise Refused(507, said("the archive could not be put in place ({error}): this hub "
                                "is unchanged", error=str(exc))) from None
    try:
        store = Store(s.db_path)
        new = open_hub(s, old.clock, store, old.synced, old.boot,
                       fingerprint_of(s.certificate), old.regulars)
    except (OSError, ValueError, sqlite3.Error) as exc:
        log.error("archive import: the event is in place but cannot be opened: %s", exc)
        raise Refused(503, said("the event is in place but the hub cannot open it ({error}): "
                                "restart the hub; its replaced database is in {folder}",
                                error=str(exc), folder=aside.name)) from None
    new.backroom = old.backroom
    return new, aside.name


__all__ = ["router"]

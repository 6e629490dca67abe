"""``create_app(settings)``: the hub as a FastAPI app, its state opened in the lifespan."""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from dipclock.errors import DipclockError
from machine.timesync import boot_id, clock_synchronised
from server import errors, gcpauses
from server.backroom import Backroom
from server.bodylimit import BodyLimit
from server.certificate import fingerprint_of
from server.clock import Clock, HubClock, Listening, standing_of
from server.context import Hub
from server.gate import Gate
from server.headers import SecurityHeaders
from server.hubtime import NOTE_EVERY, note_time, restore
from server.mdns import Announcement
from server.pairing import Clocks
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.readlimit import PublicReads
from server.refusal import Refused
from server.regulars import Regulars
from server.resultsdesk import sheet_secret
from server.rounds import current, hall_venue
from server.routers import boardcall as boardcall_routes
from server.routers import call, clocks, kiosk, pages, results, session, td
from server.routers import clock as clock_routes
from server.settings import Settings
from server.slowclients import quiet_when_out_of_files
from server.store import Stale, Store, StoreConflict

log = logging.getLogger("uvicorn.error")


class SetupError(DipclockError):
    """The data dir cannot serve yet (no TD password): one line for the operator."""


def open_hub(
    settings: Settings,
    clock: Clock,
    store: Store,
    synced: Callable[[], bool | None] = clock_synchronised,
    boot: str | None = None,
    fingerprint: str | None = None,
    regulars: Regulars | None = None,
) -> Hub:
    """Credentials come from the store; the first start stores the settings' password hash.
    ``fingerprint``: the SHA-256 of the certificate served (None: plain HTTP);
    ``regulars``: the one the connections' guard reads (``server.serve.config``).

    The clock was just anchored on the wall clock: its standing is what the kernel says of
    that clock now, unless the TD set the hub's time earlier in this boot (``hubtime``).
    """
    stored = store.meta("td_password_hash")
    if stored is None:
        if settings.td_password_hash is None:
            raise SetupError("no TD password is set for this data dir")
        stored = store.set_meta_once("td_password_hash", settings.td_password_hash)
    # A hub started on an empty data dir counts seq from 1 again; kiosks see the new id
    # and take its snapshots instead of waiting for seq to pass the old hub's.
    hub_id = store.set_meta_once("hub_id", secrets.token_hex(8))
    sheet_secret(store)  # made now, not at a first snapshot when the disk may be full
    hub = Hub(
        settings=settings,
        store=store,
        clock=clock,
        fanout=Fanout(settings.send_timeout),
        logins=FailureLimit(settings.login_failures, settings.login_window),
        password_hash=stored,
        clocks=Clocks.load(store),
        fingerprint=fingerprint,
        hub_id=hub_id,
        synced=synced,
        clock_standing=standing_of(synced()),
        boot=boot,
        # hub time provisional: ``server.kepttime``; its last record read before any write
        kept=Listening(started=clock.mono(), last_seen=store.last_hub_time()),
        clock_epoch=store.clock_epoch(),
        regulars=Regulars() if regulars is None else regulars,
    )
    for paired in hub.clocks.by_hash.values():  # the hall's clocks, known from the start
        hub.regulars.saw(paired.address)
    restore(hub)
    return hub


async def _note_time_often(hub: Hub) -> None:
    """``server.hubtime.note_time`` every ``NOTE_EVERY`` s, off the event loop."""
    while True:
        await asyncio.sleep(NOTE_EVERY)
        await _note_time(hub)


async def _note_time(hub: Hub) -> None:
    """A note that cannot be written (a full disk) waits for the next: it is a bound."""
    try:
        await anyio.to_thread.run_sync(note_time, hub)
    except sqlite3.Error as exc:
        log.warning("hub time not noted: %s", exc)


def create_app(
    settings: Settings,
    clock: Clock | None = None,
    synced: Callable[[], bool | None] = clock_synchronised,
    boot: Callable[[], str | None] = boot_id,
) -> FastAPI:
    """The hub. ``clock`` defaults to the monotonic hub clock, ``synced`` to the kernel's
    word on the system clock, ``boot`` to this boot's id; tests pass fakes. Its
    ``state.regulars`` is the hall's addresses, for ``server.serve.config``."""
    regulars = Regulars()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        announcement = None
        backroom: Backroom | None = None
        quiet_when_out_of_files(asyncio.get_running_loop())
        try:
            hub = open_hub(settings, clock or HubClock(), store, synced, boot(),
                           fingerprint_of(settings.certificate), regulars)
            hub.backroom = backroom = Backroom(settings.job_seconds, settings.job_memory_mb,
                                               settings.jobs_waiting)  # started at its first job
            app.state.hub = hub
            if settings.mdns:
                announcement = Announcement(hub.hub_id, settings.scheme, settings.host,
                                            settings.port)
                await announcement.start()
            app.state.mdns = announcement
            noting = asyncio.create_task(_note_time_often(hub))
            collecting = asyncio.create_task(gcpauses.collect_often()) if gcpauses.timed() \
                else None
            yield
            noting.cancel()
            if collecting is not None:
                collecting.cancel()
            await _note_time(hub)
        finally:
            if backroom is not None:
                await backroom.close()
            if announcement is not None:
                await announcement.stop()
            store.close()

    app = FastAPI(title="dipclock hub", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.regulars = regulars
    errors.install(app)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        """A TD action ``server.actions`` turned down: its status and its one line."""
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    @app.exception_handler(StoreConflict)
    async def _conflict(request: Request, exc: StoreConflict) -> JSONResponse:
        """A change the store would not make (it raises no HTTP errors): a 409 with its
        one line (a change from a stale screen names what changed, on the venue's
        clock)."""
        message = exc.message
        if isinstance(exc, Stale):
            hub: Hub = request.app.state.hub
            tz = await anyio.to_thread.run_sync(  # store reads: off the event loop
                lambda: hall_venue(hub.store, current(hub.store)))
            message = exc.text(tz)
        return JSONResponse({"detail": message}, status_code=409)

    app.include_router(kiosk.router)
    app.include_router(clocks.router)
    app.include_router(session.router)
    app.include_router(td.router)
    app.include_router(call.router)
    app.include_router(clock_routes.router)
    app.include_router(pages.router)
    app.include_router(results.router)
    app.include_router(boardcall_routes.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.add_middleware(PublicReads)  # innermost: a read's address before its route
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)  # a body's size before its parsing
    app.add_middleware(Gate)  # outermost: a write's sender before a byte of its body
    return app

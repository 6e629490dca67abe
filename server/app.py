"""``create_app(settings)``: the hub as a FastAPI app, its state opened in the lifespan."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import State

from machine.timesync import boot_id, clock_synchronised
from server import errors, gcpauses
from server.backroom import Backroom
from server.bodylimit import BodyLimit
from server.certificate import fingerprint_of
from server.clock import Clock, HubClock
from server.context import Hub
from server.gate import Gate
from server.headers import SecurityHeaders
from server.hubtime import NOTE_EVERY, note_time
from server.language import words_asked, words_for
from server.mdns import Announcement
from server.opening import open_hub
from server.readlimit import PublicReads
from server.refusal import Refused
from server.regulars import Regulars
from server.rounds import current, hall_venue
from server.routers import backup as backup_routes
from server.routers import boardcall as boardcall_routes
from server.routers import call, clocks, kiosk, pages, results, session, td
from server.routers import clock as clock_routes
from server.routers import exports as export_routes
from server.routers import register as register_routes
from server.routers import replacements as replacement_routes
from server.routers import roster as roster_routes
from server.routers import votes as vote_routes
from server.routers import words as word_routes
from server.settings import Settings
from server.slowclients import quiet_when_out_of_files
from server.store import Stale, Store, StoreConflict

log = logging.getLogger("uvicorn.error")


async def _note_time_often(state: State) -> None:
    """``server.hubtime.note_time`` every ``NOTE_EVERY`` s, off the event loop (of the hub
    serving now: a restore builds another, ``server.routers.backup``)."""
    while True:
        await asyncio.sleep(NOTE_EVERY)
        await _note_time(state.hub)


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
            app.state.backup_lock = asyncio.Lock()  # a restore, or the kept backup's write
            noting = asyncio.create_task(_note_time_often(app.state))
            keeping = asyncio.create_task(backup_routes.keep_often(app.state))
            collecting = asyncio.create_task(gcpauses.collect_often()) if gcpauses.timed() \
                else None
            yield
            noting.cancel()
            keeping.cancel()
            if collecting is not None:
                collecting.cancel()
            await _note_time(app.state.hub)
        finally:
            if backroom is not None:
                await backroom.close()
            announced = getattr(app.state, "mdns", announcement)  # a restore's, if any
            if announced is not None:
                await announced.stop()
            store.close()
            serving = getattr(app.state, "hub", None)
            if serving is not None:
                serving.store.close()  # a restore's store, if any (closing twice is fine)

    app = FastAPI(title="dipclock hub", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.regulars = regulars
    errors.install(app)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused) -> JSONResponse:
        """A TD action ``server.actions`` turned down: its status and its one line, in the
        language the request asks for (no store read here: the header alone decides)."""
        return JSONResponse({"detail": exc.in_(words_asked(request))},
                            status_code=exc.status)

    @app.exception_handler(sqlite3.ProgrammingError)
    async def _restoring(request: Request, exc: sqlite3.ProgrammingError) -> JSONResponse:
        """A request caught by a restore in the moment the hub's store is swapped
        (``server.routers.backup``): the store it began with is closed."""
        log.warning("a request met a closed store (%s): a restore was under way", exc)
        return JSONResponse({"detail": "the hub is restarting: send it again in a moment"},
                            status_code=503)

    @app.exception_handler(StoreConflict)
    async def _conflict(request: Request, exc: StoreConflict) -> JSONResponse:
        """A change the store would not make (it raises no HTTP errors): a 409 with its
        one line (a change from a stale screen names what changed, on the venue's
        clock, in the language the request asks for, else the event's)."""
        message = exc.message if exc.said is None else exc.in_(words_asked(request))
        if isinstance(exc, Stale):
            hub: Hub = request.app.state.hub
            accept = request.headers.get("accept-language")

            def said() -> str:  # store reads: off the event loop
                cur = current(hub.store)
                words = words_for(accept, cur.profile if cur else hub.store.event())
                return exc.text(hall_venue(hub.store, cur), words)
            message = await anyio.to_thread.run_sync(said)
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
    app.include_router(backup_routes.router)
    app.include_router(roster_routes.router)
    app.include_router(export_routes.router)
    app.include_router(register_routes.router)
    app.include_router(replacement_routes.router)
    app.include_router(vote_routes.router)
    app.include_router(word_routes.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.add_middleware(PublicReads)  # innermost: a read's address before its route
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit)  # a body's size before its parsing
    app.add_middleware(Gate)  # outermost: a write's sender before a byte of its body
    return app

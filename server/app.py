"""``create_app(settings)``: the hub as a FastAPI app, its state opened in the lifespan."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from server import errors
from server.clock import Clock, HubClock
from server.context import Hub
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.routers import kiosk, pages, td
from server.settings import Settings
from server.store import Store


class SetupError(RuntimeError):
    """The data dir cannot serve yet (no TD password): one line for the operator."""


def open_hub(settings: Settings, clock: Clock, store: Store) -> Hub:
    """Credentials come from the store; the first start stores the settings' password hash."""
    stored = store.meta("td_password_hash")
    if stored is None:
        if settings.td_password_hash is None:
            raise SetupError("no TD password is set for this data dir")
        stored = store.set_meta_once("td_password_hash", settings.td_password_hash)
    key = store.set_meta_once("kiosk_key", secrets.token_urlsafe(18))
    # A hub started on an empty data dir counts seq from 1 again; kiosks see the new id
    # and take its snapshots instead of waiting for seq to pass the old hub's.
    hub_id = store.set_meta_once("hub_id", secrets.token_hex(8))
    return Hub(
        settings=settings,
        store=store,
        clock=clock,
        fanout=Fanout(settings.send_timeout),
        logins=FailureLimit(settings.login_failures, settings.login_window),
        kiosk_key=key,
        password_hash=stored,
        hub_id=hub_id,
    )


def create_app(settings: Settings, clock: Clock | None = None) -> FastAPI:
    """The hub. ``clock`` defaults to the monotonic hub clock; tests pass a fake one."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        try:
            app.state.hub = open_hub(settings, clock or HubClock(), store)
            yield
        finally:
            store.close()

    app = FastAPI(title="dipclock hub", lifespan=lifespan, docs_url=None, redoc_url=None)
    errors.install(app)
    app.include_router(kiosk.router)
    app.include_router(td.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    return app

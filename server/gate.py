"""Credentials before bodies: who sends a write is checked before a byte of its body is read.

FastAPI reads, decodes and validates a route's body before the route runs, and before any
check the route makes itself. An anonymous ``PUT /api/sheets/1/1`` of 8,000 unknown keys
was so validated and described (16 s, on the event loop every table's time sync shares)
before the hub found it had no key. This ASGI middleware stands in front: a write to a
route that needs credentials is answered 401 or 403 from its headers alone, with the same
line the route itself would give, and its body is never read. The checks are the routes'
own (``server.auth``, ``server.pairing``, ``server.resultsdesk.sheet_key_fits``), not a
second idea of who may write; the routes still make them (and the CSRF check) in full.

Which credential a write needs, by path:

- the TD's session: ``/api/td/...``, ``/api/clock``, ``/api/logout``;
- the table's paired clock: ``/api/tables/N/...``;
- the table's sheet key (its QR code) or the TD's session: ``/api/sheets/R/T...``;
- the table's sheet key: ``/api/votes/R/T...`` (a game-end vote from a player's phone);
- none: ``/api/login`` and ``/api/pair``, whose bodies are a few bytes (``server.bodylimit``)
  and whose own limits stand guard (``server.ratelimit``, ``server.pairing``).

A session or a sheet's key is looked up in the store: in a worker thread, as every store read
is, and only for a request that carries one.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import anyio.to_thread
from fastapi import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from dipclock.i18n import Said, said
from server.auth import COOKIE, bearer, current_session, require_td, spoken
from server.bodylimit import refuse
from server.context import Hub
from server.refusal import Refused
from server.resultsdesk import sheet_key_fits
from server.sheets import KEY_HEADER

#: methods that carry no body to guard
READS = frozenset({"GET", "HEAD", "OPTIONS"})
TD_PATHS = ("/api/td/", "/api/clock", "/api/logout")
TABLE = re.compile(r"/api/tables/(\d{1,3})/")
SHEET = re.compile(r"/api/sheets/(\d{1,2})/(\d{1,3})(?:/|$)")
#: a table's game-end votes, from its players' phones (the sheet's key only)
VOTES = re.compile(r"/api/votes/(\d{1,2})/(\d{1,3})(?:/|$)")
#: a sheet's write without its key and without the TD's session, said in the reader's
#: language (the ``str`` below: English, for the routes that say it too)
NO_SHEET_KEY_SAID = said("open this sheet from the table's QR code, or sign in as the TD")
WRONG_SHEET_KEY_SAID = said("this link is not this table's sheet: scan the table's QR code")
#: a vote's write without the table's key (a phone's: the TD votes on the dashboard)
NO_VOTE_KEY_SAID = said("open the vote from the table's QR code (its result sheet)")
NO_SHEET_KEY = str(NO_SHEET_KEY_SAID)
WRONG_SHEET_KEY = str(WRONG_SHEET_KEY_SAID)
NO_VOTE_KEY = str(NO_VOTE_KEY_SAID)


Check = Callable[[Hub, Request], Awaitable[None]]


async def _td(hub: Hub, request: Request) -> None:
    if COOKIE not in request.cookies:  # refused at once, with the route's own line
        require_td(request, hub)
    await anyio.to_thread.run_sync(require_td, request, hub)  # the session: a store read


def _table(n: int) -> Check:
    async def check(hub: Hub, request: Request) -> None:
        hub.clocks.check(bearer(request), n)  # the paired clocks are in memory
    return check


def _sheet(round_no: int, table: int) -> Check:
    def by_store(hub: Hub, request: Request, key: str | None) -> None:
        if key is not None:
            if not sheet_key_fits(hub.store, round_no, table, key):
                raise Refused(403, WRONG_SHEET_KEY_SAID)
        elif current_session(request, hub) is None:
            raise Refused(401, NO_SHEET_KEY_SAID)

    async def check(hub: Hub, request: Request) -> None:
        key = request.headers.get(KEY_HEADER)
        if key is None and COOKIE not in request.cookies:
            raise Refused(401, NO_SHEET_KEY_SAID)
        await anyio.to_thread.run_sync(by_store, hub, request, key)
    return check


def _votes(round_no: int, table: int) -> Check:
    def by_store(hub: Hub, key: str) -> None:
        if not sheet_key_fits(hub.store, round_no, table, key):
            raise Refused(403, WRONG_SHEET_KEY_SAID)

    async def check(hub: Hub, request: Request) -> None:
        key = request.headers.get(KEY_HEADER)
        if key is None:
            raise Refused(401, NO_VOTE_KEY_SAID)
        await anyio.to_thread.run_sync(by_store, hub, key)
    return check


def check_for(path: str) -> Check | None:
    """The credential check a write to ``path`` needs before its body (None: none here)."""
    if path.startswith(TD_PATHS):
        return _td
    if m := TABLE.match(path):
        return _table(int(m[1]))
    if m := SHEET.match(path):
        return _sheet(int(m[1]), int(m[2]))
    if m := VOTES.match(path):
        return _votes(int(m[1]), int(m[2]))
    return None


class Gate:
    """Wraps the hub's app: a write whose sender lacks its route's credential is refused
    (401/403, one line) before its body is read."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in READS:
            await self.app(scope, receive, send)
            return
        check = check_for(scope["path"])
        hub: Hub | None = getattr(scope["app"].state, "hub", None) if "app" in scope else None
        if check is None or hub is None:
            await self.app(scope, receive, send)
            return
        request = Request(scope)  # headers and cookies only: its body is not read here
        try:
            await check(hub, request)
        except HTTPException as exc:
            await refuse(send, exc.status_code, str(exc.detail), exc.headers)
            return
        except Refused as exc:  # in the language the request asks for, as ``server.app`` says
            await refuse(send, exc.status, spoken(request, exc.said)
                         if isinstance(exc.said, Said) else exc.message)
            return
        await self.app(scope, receive, send)


__all__ = ["Gate", "check_for"]

"""The public pages' data (``/api/hall``, ``/api/boardcall``), rendered once per change and
served as bytes, with validators.

Anyone on the hall's Wi-Fi may read these, and once each read built its reply from the
store: 40 connections reading the board call (55 a second) took a table's press p99 from
204 ms to 1.7 s, and with 999 tables seated one read cost 814 ms. Now a reply is built
once per *stamp*, what it depends on (a change counter of the store, ``Store.writes`` or
``Store.actions``, the query, a step of hub time for a page that counts down), in a worker
thread, one build at a time for the whole hub; every other read is a dict lookup and the
same bytes. Readers that arrive while a build runs wait for that one build, holding no
thread. Each reply carries an ``ETag`` (a hash of its bytes) and ``Cache-Control:
no-cache``: a browser asks again each poll with ``If-None-Match`` and, if nothing
changed, gets a 304 with no body. A big reply is also gzipped once, at its build, for the
clients that accept it (every browser): the board call of 999 tables is 320 KB as JSON and
20 KB gzipped, which is what a flood of reads otherwise makes the hub encrypt and send.

The stamps are in-memory counters the store raises after each commit, so a stamp read
before a build never names older data than the build reads. The hub is its database's only
writer: nothing else changes it behind the counters.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

#: what every cached reply says: keep it, but ask again (with its ETag) before using it
REVALIDATE = {"Cache-Control": "no-cache"}
#: a reply this big or bigger is gzipped too (a hall reply of a few KB is not worth it)
GZIP_FROM = 8192


@dataclass(frozen=True)
class Rendered:
    """One reply, as sent: its bytes and their ETag, and gzipped (None: not worth it) with
    an ETag of their own (another representation: RFC 9110, 8.8.3)."""

    stamp: Hashable
    body: bytes
    etag: str
    gzipped: bytes | None = None

    @classmethod
    def of(cls, stamp: Hashable, body: bytes) -> Rendered:
        """Built in the worker thread: the hash and the gzip are CPU too."""
        return cls(stamp, body, f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"',
                   gzip.compress(body, 6) if len(body) >= GZIP_FROM else None)

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gz"'


@dataclass
class PageCache:
    """The latest reply of each page (and query), with the stamp it was built for. Used on
    the hub's event loop only; its builds run in a worker thread of their own.

    Bounded: one entry per page and query (a board call's round is 1 to 99)."""

    _done: dict[Hashable, Rendered] = field(default_factory=dict)
    _building: dict[tuple[Hashable, Hashable], asyncio.Future[Rendered]] = field(
        default_factory=dict)
    _one: anyio.CapacityLimiter | None = None  # made on the event loop, at first use

    async def get(self, page: Hashable, stamp: Hashable, build: Callable[[], bytes]
                  ) -> Rendered:
        """``page``'s reply for ``stamp``: the one kept if it was built for ``stamp``, else
        ``build()`` run once in a worker thread (every reader of ``stamp`` meanwhile waits
        for that one). A reader that leaves does not cancel the build the others wait for."""
        kept = self._done.get(page)
        if kept is not None and kept.stamp == stamp:
            return kept
        running = self._building.get((page, stamp))
        if running is None:
            running = asyncio.ensure_future(self._build(page, stamp, build))
            self._building[(page, stamp)] = running
        return await asyncio.shield(running)

    async def _build(self, page: Hashable, stamp: Hashable, build: Callable[[], bytes]
                     ) -> Rendered:
        if self._one is None:
            self._one = anyio.CapacityLimiter(1)
        try:
            made = await anyio.to_thread.run_sync(lambda: Rendered.of(stamp, build()),
                                                  limiter=self._one)
            self._done[page] = made
            return made
        finally:
            del self._building[(page, stamp)]


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether a request's ``If-None-Match`` names ``etag`` (weakly, as RFC 9110 says for
    it), or is ``*``."""
    if not if_none_match:
        return False
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


def takes_gzip(accept_encoding: str | None) -> bool:
    """Whether a request's ``Accept-Encoding`` takes gzip (not refused with ``q=0``)."""
    for coding in (accept_encoding or "").split(","):
        name, *params = (part.strip() for part in coding.split(";"))
        if name.lower() not in ("gzip", "x-gzip"):
            continue
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False


def served(rendered: Rendered, request: Request,
           headers: Mapping[str, str] | None = None) -> Response:
    """``rendered`` as an answer, gzipped if it was and the client takes it: 304 with no
    body if the request already holds it, else 200 with its bytes; both with its ETag,
    ``no-cache`` and ``headers``."""
    zipped = rendered.gzipped is not None and takes_gzip(request.headers.get("accept-encoding"))
    etag = rendered.gzip_etag if zipped else rendered.etag
    sent = {"ETag": etag, **REVALIDATE, **(headers or {})}
    if rendered.gzipped is not None:
        sent["Vary"] = "Accept-Encoding"
    if matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=sent)
    if zipped:
        sent["Content-Encoding"] = "gzip"
    return Response(rendered.gzipped if zipped and rendered.gzipped is not None
                    else rendered.body, media_type="application/json", headers=sent)

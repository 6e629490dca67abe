"""Request bodies have a size, checked before anything parses them or asks who sent them.

A 100 MB anonymous JSON body once took the hub to 520 MB before its 401, and four at once
to ``/api/login`` to 1.5 GB. This ASGI middleware answers 413 as soon as a body is known to
be too big: at once from its ``Content-Length``, or after reading no more than the limit
of a body that does not say its length. Under the limit, the body it read is handed on
unchanged. Limits are by route, each well above what the route's real requests carry.

A body must also arrive within ``BODY_SECONDS``, else 408: a client trickling a body a byte
at a time would hold its connection, and a worker's wait, for as long as it liked. A body
still coming when a stopping hub's grace is over gets 503.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

KB = 1024
#: (path prefix, most bytes): the first prefix that matches decides, else ``DEFAULT``.
LIMITS: tuple[tuple[str, int], ...] = (
    ("/api/login", 4 * KB),  # a password
    ("/api/pair", 4 * KB),  # a clock asking to be paired
    ("/api/tables/", 256 * KB),  # a batch of up to 200 presses (about 120 bytes each)
    ("/api/td/event", 512 * KB),  # an event file of up to 100,000 characters, as JSON
    ("/api/td/seating", 2048 * KB),  # a seating CSV of up to 500,000 characters
    ("/api/td/teams", 1024 * KB),  # a teams CSV of up to 200,000 characters
    ("/api/td/roster", 2048 * KB),  # a roster CSV of up to 10,000 people
    ("/api/td/restore", 64 * KB * KB),  # a hub backup (server.backup.MOST_UPLOAD)
    ("/api/td/import/archive", 64 * KB * KB),  # an event archive (server.archive.MOST_UPLOAD)
)
DEFAULT = 64 * KB
#: time for a whole body: a 2 MB seating file over a poor hall Wi-Fi takes a few seconds
BODY_SECONDS = 30.0


def limit_for(path: str) -> int:
    return next((n for prefix, n in LIMITS if path.startswith(prefix)), DEFAULT)


class BodyLimit:
    """Wraps the hub's app: 413 with one line for a body over its route's limit."""

    def __init__(self, app: ASGIApp, body_seconds: float | None = None) -> None:
        self.app = app
        self.body_seconds = BODY_SECONDS if body_seconds is None else body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = limit_for(scope["path"])
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await refuse(send, 413, f"request body over {limit // KB} KB")
            return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # the client went away
                        break
                    size += len(message.get("body", b""))
                    if size > limit:
                        await refuse(send, 413, f"request body over {limit // KB} KB")
                        return
                    chunks.append(message.get("body", b""))
                    if not message.get("more_body", False):
                        message = {"type": "http.request", "body": b"".join(chunks),
                                   "more_body": False}
                        break
        except TimeoutError:
            await refuse(send, 408, f"request body not sent within {self.body_seconds:g} s")
            return
        except asyncio.CancelledError:
            # the hub is stopping and its grace for requests under way is over
            # (``server.serve.STOP_GRACE``): the client hears why, and the request ends here,
            # as the cancel asks, without a traceback in the log
            await refuse(send, 503, "the hub is restarting: send it again in a moment")
            return
        await self.app(scope, _replay([message], receive), send)


def _replay(messages: list[Message], then: Receive) -> Receive:
    """The messages already read, then the connection's own (its disconnect, when it comes)."""
    pending = list(messages)

    async def receive() -> Message:
        return pending.pop(0) if pending else await then()

    return receive


async def refuse(send: Send, status: int, detail: str,
                 headers: Mapping[str, str] | None = None) -> None:
    """Answer ``{"detail": detail}`` and close the connection: the request's body, unread,
    must not be taken for the next request."""
    body = json.dumps({"detail": detail}).encode()
    more = [(k.lower().encode("latin-1"), v.encode("latin-1"))
            for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *more]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["DEFAULT", "LIMITS", "BodyLimit", "limit_for", "refuse"]

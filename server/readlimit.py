"""Anonymous reads of the public pages are limited per address: a projector's polls always
pass, a flood's excess is refused at once.

The hall clock and the board call are open to anyone on the hall's Wi-Fi. Served from
``server.pagecache`` a read costs little, but a laptop looping on them still takes the
hub's event loop from the tables; so each address gets a token bucket: a burst of
``BURST`` reads, then ``RATE`` a second (a projector polls the hall once a second and the
board call once in five; a laptop showing both and reloaded a few times stays well under).
The excess is answered 429 with ``Retry-After``.

Where: a small ASGI middleware, so a refused read costs a dict lookup and a short answer,
before routing, FastAPI's dependencies or a ``Request`` are made; a dependency on the
routes would spend all of those on each read it refuses. It reads ``PUBLIC`` paths only;
every other request passes untouched. The hall's own clocks and the TD's phone
(``server.regulars``) are never limited.

Memory is bounded: the ``MOST`` addresses heard from last; one heard from longer ago
starts again with a full bucket.
"""

from __future__ import annotations

from collections import OrderedDict
from math import ceil

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: the public pages and the data they poll (the projector's hall clock and board call)
PUBLIC = frozenset({"/hall", "/api/hall", "/boardcall", "/api/boardcall"})
#: reads one address may make at once, and a second after that
BURST = 20.0
RATE = 4.0
#: addresses remembered
MOST = 4096


class Buckets:
    """A token bucket per key, the ``most`` used last (an LRU). On the event loop only."""

    def __init__(self, rate: float = RATE, burst: float = BURST, most: int = MOST) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self._kept: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, at

    def take(self, key: str, now: float) -> float | None:
        """Take one token for ``key`` at ``now`` (seconds on a monotonic clock): None if
        there was one, else the seconds until there is."""
        tokens, at = self._kept.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        self._kept[key] = (tokens - 1 if tokens >= 1 else tokens, now)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)
        return None if tokens >= 1 else (1 - tokens) / self.rate


class PublicReads:
    """Wraps the hub's app: 429 for an address's read of a ``PUBLIC`` path past its bucket.
    The hub (its clock, its regulars) is the one the app's lifespan opened."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.buckets = Buckets()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in PUBLIC:
            client = scope.get("client")
            address = client[0] if client else ""
            hub = scope["app"].state.hub
            if not hub.regulars.knows(address):
                wait = self.buckets.take(address, hub.clock.mono())
                if wait is not None:
                    seconds = max(1, ceil(wait))
                    refused = JSONResponse(
                        {"detail": f"too many reads from this address: try again in "
                                   f"{seconds} s"},
                        status_code=429, headers={"Retry-After": str(seconds)})
                    await refused(scope, receive, send)
                    return
        await self.app(scope, receive, send)

"""The hall's own addresses: its paired clocks' and the TD's phone's. Their connections'
TLS handshakes go ahead of a crowd of strangers (``server.slowclients``).

A flood of new connections (an attack from a laptop on the Wi-Fi, or a hundred phones
opening ``/hall`` at once) queues for its handshakes, each a few milliseconds of the hub's
one event loop; a table's time sync or the TD's pause does not wait behind it. An address
becomes a regular when a request from it carries a paired clock's token or the TD's
session, and stays one for ``KEEP_SECONDS`` after its last such request. The addresses the
clocks were paired from are regulars from their approval, and from the hub's start, so a
restarted hub knows its hall before the first request. Anyone can still connect: a
stranger only waits its turn.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

#: how long an address stays a regular after its last signed request: a day's session
KEEP_SECONDS = 12 * 3600.0
#: the most addresses kept: a hall's clocks and phones, many times over; past it the one
#: heard from longest ago is forgotten
MOST = 4096


class Regulars:
    """Addresses heard from with a clock's token or the TD's session, and when, on
    ``clock``: the connections' own monotonic clock (their timers run on it), not the hub's
    time, which the TD may move. Written by the routes' worker threads, read on the event
    loop."""

    def __init__(self, keep: float = KEEP_SECONDS, most: int = MOST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._keep = keep
        self._clock = clock
        self._most = most
        self._last: dict[str, float] = {}  # oldest first
        self._lock = threading.Lock()

    def saw(self, address: str | None) -> None:
        """A signed request came from ``address`` just now."""
        if not address:
            return
        now = self._clock()
        with self._lock:
            self._last.pop(address, None)
            self._last[address] = now
            while len(self._last) > self._most:
                del self._last[next(iter(self._last))]

    def knows(self, address: str) -> bool:
        """Whether ``address`` is one of the hall's (a dict read: one step under the GIL)."""
        last = self._last.get(address)
        return last is not None and self._clock() - last <= self._keep

"""Sign-in failures per client IP: a player on the venue Wi-Fi cannot guess the password.
A browser the TD signed in on before counts under its device instead (``server.signins``),
so a stranger's failures from the same address (a shared Wi-Fi's NAT) never refuse it.

An attempt counts as a failure *before* its password is hashed (``attempt``) and is taken
back only when it succeeds (``clear``): 200 guesses sent at once are ``limit`` hashes and
195 refusals, not 200 hashes checked before the first failure is recorded. The hashing
itself is one at a time per lane, on a thread of its own (``server.signins``).

Memory is bounded: past ``MOST`` keys with failures, the longest kept is forgotten. A flood
from more addresses than that may so get a few more guesses per address; the checks' one
thread bounds how many are checked a second all the same.
"""

from __future__ import annotations

import threading
from collections import deque

#: keys with failures kept at most
MOST = 4096


class FailureLimit:
    """At most ``limit`` failures per key in ``window`` seconds; then refuse until one ages out.

    Thread-safe: the sign-in route runs in worker threads."""

    def __init__(self, limit: int, window: float, most: int = MOST) -> None:
        self.limit = limit
        self.window = window
        self.most = most
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._failures.setdefault(key, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        if not q:
            self._failures.pop(key, None)
        return q

    def _wait(self, key: str, now: float) -> float | None:
        q = self._recent(key, now)
        if len(q) < self.limit:
            return None
        return max(1.0, self.window - (now - q[0]))

    def refused(self, key: str, now: float) -> float | None:
        """The seconds ``key`` must wait before its next attempt (None: it may go on),
        counting nothing."""
        with self._lock:
            return self._wait(key, now)

    def attempt(self, key: str, now: float) -> float | None:
        """Count an attempt as a failure now, before it is checked: None if it may go on,
        else the seconds to wait (and nothing counted)."""
        with self._lock:
            wait = self._wait(key, now)
            if wait is None:
                self._failures.setdefault(key, deque()).append(now)
                while len(self._failures) > self.most:
                    del self._failures[next(iter(self._failures))]
            return wait

    def clear(self, key: str) -> None:
        """A success: this key's failures (the counted attempt with them) are forgotten."""
        with self._lock:
            self._failures.pop(key, None)

"""Sign-in failures per client IP: a player on the venue Wi-Fi cannot guess the password."""

from __future__ import annotations

from collections import deque


class FailureLimit:
    """At most ``limit`` failures per key in ``window`` seconds; then refuse until one ages out."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._failures.setdefault(key, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        if not q:
            self._failures.pop(key, None)
        return q

    def retry_after(self, key: str, now: float) -> float | None:
        """Seconds to wait if ``key`` is blocked now, else None."""
        q = self._recent(key, now)
        if len(q) < self.limit:
            return None
        return max(1.0, self.window - (now - q[0]))

    def fail(self, key: str, now: float) -> None:
        self._recent(key, now)
        self._failures.setdefault(key, deque()).append(now)

    def clear(self, key: str) -> None:
        self._failures.pop(key, None)

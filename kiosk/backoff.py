"""How long a kiosk waits before trying the hub again."""

from __future__ import annotations

import random


class Backoff:
    """Jittered exponential delays: base, 2x base, ... up to cap, each times 0.5-1.

    The jitter keeps a hall of kiosks from stampeding a hub that just restarted.
    """

    def __init__(self, base: float = 1.0, cap: float = 30.0, rng: random.Random | None = None):
        self.base, self.cap = base, cap
        self._n = 0
        self._rng = rng or random.Random()

    def next(self) -> float:
        delay: float = min(self.cap, self.base * 2.0**self._n)
        self._n = min(self._n + 1, 30)
        return delay * self._rng.uniform(0.5, 1.0)

    def reset(self) -> None:
        self._n = 0

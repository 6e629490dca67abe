"""Hub time: local seconds that never jump when the machine's wall clock is stepped.

The wall clock is read once, at start-up, to anchor ``time.monotonic()``; after that only
the monotonic clock moves hub time. NTP stepping the hub machine's clock mid-round would
otherwise move every deadline in the hall at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from dipclock.sync import from_local, to_local


class Clock(Protocol):
    """What the hub needs from a clock; tests pass a fake that jumps to a deadline."""

    def now(self) -> float:
        """Hub time in local seconds (see docs/protocol.md)."""
        ...

    def moment(self) -> datetime:
        """Hub time as a naive local datetime, for ``dipclock.timeline``."""
        ...

    def mono(self) -> float:
        """Seconds on a clock that only runs forwards (rate limits, liveness)."""
        ...


def local_wall() -> float:
    """The wall clock as local seconds, read through ``time.time`` (patchable in tests)."""
    return from_local(datetime.fromtimestamp(time.time()))


class HubClock:
    """``monotonic() + offset``, the offset fixed when the hub starts."""

    def __init__(
        self,
        mono: Callable[[], float] | None = None,
        wall: Callable[[], float] | None = None,
    ) -> None:
        self._mono = mono or (lambda: time.monotonic())
        self._offset = (wall or local_wall)() - self._mono()

    def now(self) -> float:
        return self._mono() + self._offset

    def moment(self) -> datetime:
        return to_local(self.now())

    def mono(self) -> float:
        return self._mono()


class FakeClock:
    """A clock a test sets by hand: ``clock.t = from_local(deadline) + 20``."""

    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def moment(self) -> datetime:
        return to_local(self.t)

    def mono(self) -> float:
        return self.t

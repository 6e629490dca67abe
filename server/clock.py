"""Hub time: POSIX seconds that never jump when the machine's wall clock is stepped.

The wall clock is read once, at start-up, to anchor ``time.monotonic()``; after that only
the monotonic clock moves hub time. NTP stepping the hub machine's clock mid-round would
otherwise move every deadline in the hall at once. The one way to move hub time while the
hub runs is the TD's: ``set_to`` (from the phone, or the system's clock once NTP has set it),
logged and announced to every kiosk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from dipclock.sync import to_moment

#: How far the hub can trust its own time; the dashboard shows it beside the phone's.
SYNCHRONISED = "synchronised"  # anchored on a wall clock NTP had set
NOT_SYNCHRONISED = "not synchronised"  # anchored on a wall clock nobody had set
SET_BY_TD = "set by the TD"  # the TD set it from a phone
UNKNOWN = "unknown"  # this machine cannot say whether its clock is synchronised


class Clock(Protocol):
    """What the hub needs from a clock; tests pass a fake that jumps to a deadline
    (``tests.doubles.FakeClock``)."""

    def now(self) -> float:
        """Hub time in POSIX seconds (see docs/protocol.md)."""
        ...

    def moment(self) -> datetime:
        """Hub time as a naive UTC datetime, for ``dipclock.timeline``."""
        ...

    def mono(self) -> float:
        """Seconds on a clock that only runs forwards (rate limits, liveness)."""
        ...

    def wall(self) -> float:
        """The machine's wall clock now, as POSIX seconds: what a restart would anchor on."""
        ...

    def set_to(self, seconds: float) -> None:
        """Hub time is ``seconds`` now, and runs on monotonically from there."""
        ...


def wall_seconds() -> float:
    """The wall clock as POSIX seconds, read through ``time.time`` (patchable in tests)."""
    return time.time()


def standing_of(synchronised: bool | None) -> str:
    """The standing of a clock anchored on the wall clock, given what the kernel says."""
    if synchronised is None:
        return UNKNOWN
    return SYNCHRONISED if synchronised else NOT_SYNCHRONISED


class HubClock:
    """``monotonic() + offset``: the offset fixed when the hub starts, moved only by ``set_to``."""

    def __init__(
        self,
        mono: Callable[[], float] | None = None,
        wall: Callable[[], float] | None = None,
    ) -> None:
        self._mono = mono or (lambda: time.monotonic())
        self._wall = wall or wall_seconds
        self._offset = self._wall() - self._mono()

    def now(self) -> float:
        return self._mono() + self._offset

    def moment(self) -> datetime:
        return to_moment(self.now())

    def mono(self) -> float:
        return self._mono()

    def wall(self) -> float:
        return self._wall()

    def set_to(self, seconds: float) -> None:
        self._offset = seconds - self._mono()


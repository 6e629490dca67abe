"""Hub time: POSIX seconds that never jump when the machine's wall clock is stepped.

The wall clock is read once, at the first start of a boot, to anchor ``time.monotonic()``;
after that only the monotonic clock moves hub time, and a restart in the same boot takes
the anchor back (``server.hubtime``). NTP stepping the hub machine's clock mid-round would
otherwise move every deadline in the hall at once. Hub time moves only by ``set_to``: the
TD's (from the phone, or the system's clock once NTP has set it), logged and announced to
every kiosk; or, in the seconds after a start that followed a reboot, to the time the
tables kept (``server.kepttime``, with ``Listening`` below).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from dipclock.keptvote import KeptVerdict
from dipclock.sync import KEPT_LIMIT, to_moment

#: How far the hub can trust its own time; the dashboard shows it beside the phone's.
SYNCHRONISED = "synchronised"  # anchored on a wall clock NTP had set
NOT_SYNCHRONISED = "not synchronised"  # anchored on a wall clock nobody had set
SET_BY_TD = "set by the TD"  # the TD set it from a phone
KEPT_BY_TABLES = "kept by the tables"  # a restarted hub took the time its tables kept
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


#: How long a started hub listens for tables that kept the time: longer than the kiosks'
#: longest wait between two attempts to reach a hub that came back (``kiosk.backoff``).
LISTEN_SECONDS = 40.0
#: After the first table that kept the time, how long the hub waits for the others: a
#: hall's kiosks come back within a few seconds of each other (jittered backoff), and
#: their first exchanges are slow while they all do. The kiosks that kept the time count on
#: meanwhile, and each table's best-measured vote counts, so waiting costs no one anything
#: and gives the votes of the quiet seconds after the reconnection.
GATHER_SECONDS = 10.0


@dataclass
class Listening:
    """A started hub's ear for the time its tables kept (``Hub.kept``)."""

    started: float  # monotonic
    first: float | None = None  # monotonic: the first report from a table that kept it
    #: table -> its best-measured vote: (hub time - the time it kept, the round trip)
    votes: dict[int, tuple[float, float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: what was decided: the change made (0.0: the hub's time stood), None: not yet
    decided: float | None = None
    #: the latest hub time the store held at the start (``Store.last_hub_time``): read
    #: before this start writes anything, on a clock that may be wrong
    last_seen: datetime | None = None
    #: the votes weighed, once decided (``dipclock.keptvote``)
    verdict: KeptVerdict | None = None

    def open(self, mono: float) -> bool:
        """Whether the hub still gathers the tables' votes."""
        if self.decided is not None:
            return False
        if self.first is not None:
            return mono < self.first + GATHER_SECONDS
        return mono < self.started + LISTEN_SECONDS

    def gathering(self, mono: float) -> float | None:
        """Seconds until the tables' votes are counted, while one of them would move hub
        time and nothing is decided (None otherwise): it may yet move by the hour a
        rebooted Pi's clock was off, so nothing the TD does is stamped with it meanwhile.
        Tables that agree with the hub (its first start, a sound clock) hold nothing up."""
        with self.lock:
            if self.decided is not None or self.first is None:
                return None
            if all(abs(d) <= KEPT_LIMIT for d, _ in self.votes.values()):
                return None
        return max(0.0, self.first + GATHER_SECONDS - mono)

    def provisional(self, mono: float) -> bool:
        """Whether hub time may still move to the tables' (cheap, for ``/api/time``): a
        vote came and nothing is decided yet, or the listening is not over. A kiosk that
        kept the time holds it until then."""
        if self.decided is not None:
            return False
        return self.first is not None or mono < self.started + LISTEN_SECONDS

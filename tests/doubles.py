"""Test doubles, in one place and only here: nothing shipped in the packages is a test double.

Each stands in for a clock (the one thing a test must be able to set by hand); everything
else the tests use is the real part (gpiozero's MockFactory, pyserial's ``loop://``, SQLite
files under ``tmp_path``, a real uvicorn).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dipclock.sync import to_moment


class FakeClock:
    """The hub's clock (``server.clock.Clock``), set by hand: ``clock.t = to_seconds(deadline)
    + 20``.

    ``set_to`` moves hub time but not ``mono`` (as on the real clock); ``wall_offset`` is how
    far the machine's wall clock is from ``t``.
    """

    def __init__(self, t: float) -> None:
        self.t = t
        self.offset = 0.0
        self.wall_offset = 0.0

    def now(self) -> float:
        return self.t + self.offset

    def moment(self) -> datetime:
        return to_moment(self.now())

    def mono(self) -> float:
        return self.t

    def wall(self) -> float:
        return self.t + self.wall_offset

    def set_to(self, seconds: float) -> None:
        self.offset = seconds - self.t


class FakeMonotonic:
    """Stands in for ``time.monotonic`` (the button sources' ``clock``): time moves only when
    a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


@dataclass
class FixedTime:
    """The kiosk's time base (``kiosk.app.TimeBase``): hub time = monotonic + offset."""

    offset: float = 0.0
    verified: bool = True  # what ``trusted`` says

    def local(self, mono: float) -> float:
        return mono + self.offset

    def trusted(self) -> bool:
        return self.verified

    def stamp(self, mono: float) -> float:
        return mono + self.offset

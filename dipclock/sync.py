"""Clock sync between a kiosk and the hub: the NTP arithmetic, filtering and slewing.

A kiosk never trusts its own wall clock (a Pi has no RTC). It measures the offset from
its ``time.monotonic()`` to hub time with four timestamps, keeps the lowest-delay samples
of a recent window (a sample that waited in a Wi-Fi queue is a bad sample), and moves the
displayed clock gently towards the estimate rather than jumping. Hub time is POSIX
time, seconds since 1970-01-01 00:00 UTC: a daylight-saving change moves no deadline,
and the venue's zone is applied only where a time is shown (``dipclock.venuetime``).
"""

from __future__ import annotations

import statistics
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta

EPOCH = datetime(1970, 1, 1)


def to_moment(seconds: float) -> datetime:
    """Hub time (POSIX seconds) as the core's naive UTC datetime."""
    return EPOCH + timedelta(seconds=seconds)


def to_seconds(moment: datetime) -> float:
    """A naive UTC datetime as POSIX seconds."""
    return (moment - EPOCH).total_seconds()


@dataclass(frozen=True)
class Sample:
    """One exchange: kiosk sends at t0, hub receives t1, hub replies t2, kiosk gets it t3."""

    offset: float  # hub time - kiosk time
    delay: float  # round trip minus the hub's own processing
    taken: float  # kiosk time of t3


def sample(t0: float, t1: float, t2: float, t3: float) -> Sample:
    """The NTP estimate: the offset is exact if the two legs took equally long."""
    return Sample(
        offset=((t1 - t0) + (t2 - t3)) / 2,
        delay=max(0.0, (t3 - t0) - (t2 - t1)),
        taken=t3,
    )


#: How fast two clocks may part, s per s: a Pi's crystal is within ±50 ppm of true, so a
#: sample's offset is that much less certain for every second since it was taken (NTP's
#: dispersion, at the rate of this hardware rather than NTP's 15 ppm).
DRIFT = 50e-6


def error_bound(s: Sample, now: float, drift: float = DRIFT) -> float:
    """How far ``s``'s offset can be from the truth at ``now``: half its round trip (the
    legs may be lopsided) plus the clocks' drift since it was taken."""
    return s.delay / 2 + drift * max(0.0, now - s.taken)


class OffsetFilter:
    """Keeps the last ``size`` samples no older than ``max_age`` s; trusts the one with the
    least ``error_bound`` now: the fastest, unless a fresher one is nearly as fast (a kiosk
    syncing every 30 s would otherwise trust a sample minutes old, 50 µs off per second)."""

    def __init__(self, size: int = 8, max_age: float = 600.0, drift: float = DRIFT):
        self._samples: deque[Sample] = deque(maxlen=size)
        self.max_age = max_age
        self.drift = drift

    def add(self, s: Sample) -> None:
        self._samples.append(s)

    def best(self, now: float) -> Sample | None:
        fresh = [s for s in self._samples if now - s.taken <= self.max_age]
        return min(fresh, key=lambda s: error_bound(s, now, self.drift)) if fresh else None


class Slew:
    """The offset the display uses: follows the estimate at ``rate`` s per s, or steps.

    Small corrections (under ``step_over`` seconds) are slewed so the countdown never
    jumps back or skips a second; a large one (first sync, hub restarted with another
    clock) is applied at once, since showing the wrong minute is worse than one jump.
    """

    def __init__(self, rate: float = 0.05, step_over: float = 1.0):
        self.rate = rate
        self.step_over = step_over
        self.value: float | None = None
        self._at: float | None = None

    def update(self, target: float, now: float) -> float:
        if self.value is None or self._at is None or abs(target - self.value) >= self.step_over:
            self.value = target
        else:
            budget = self.rate * max(0.0, now - self._at)
            delta = max(-budget, min(budget, target - self.value))
            self.value += delta
        self._at = now
        return self.value


#: A restarted hub whose clock is further than this from the time its tables kept takes
#: theirs: more than a kiosk's own sample error and its monotonic clock's drift over a
#: restart, far less than a stepped or unsynchronised wall clock's error.
KEPT_LIMIT = 0.5


#: Votes whose round trip is within this of the fastest one's are counted
VOTE_SLACK = 0.002


def kept_time_change(votes: list[tuple[float, float]], limit: float = KEPT_LIMIT,
                     slack: float = VOTE_SLACK) -> float | None:
    """How far a restarted hub moves its clock to the time its tables kept, given each
    table's vote: (its difference, hub time minus the time it kept; the round trip of the
    exchange that measured it). None: the hub's time stands.

    A difference is off by up to half its round trip (more on a lopsided Wi-Fi link), so
    only the best-measured votes count: those within ``slack`` of the fastest. Of those,
    the median, so one table whose kept time is off (its Pi restarted on a bad guess) does
    not move the hall, and the tables that agree with the hub count as votes for it.
    """
    if not votes:
        return None
    fastest = min(rtt for _, rtt in votes)
    middle = statistics.median(d for d, rtt in votes if rtt <= fastest + slack)
    return -middle if abs(middle) > limit else None

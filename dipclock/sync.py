"""Clock sync between a kiosk and the hub: the NTP arithmetic, filtering and slewing.

A kiosk never trusts its own wall clock (a Pi has no RTC). It measures the offset from
its ``time.monotonic()`` to hub time with four timestamps, keeps the lowest-delay samples
of a recent window (a sample that waited in a Wi-Fi queue is a bad sample), and moves the
displayed clock gently towards the estimate rather than jumping. Hub time is POSIX
time, seconds since 1970-01-01 00:00 UTC: a daylight-saving change moves no deadline,
and the venue's zone is applied only where a time is shown (``dipclock.venuetime``).
"""

from __future__ import annotations

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
#: The shortest span between two samples that may tell the clocks' rate apart: a shorter
#: one gives a rate no better than ``DRIFT`` on any real link.
RATE_SPAN = 30.0


@dataclass(frozen=True)
class Rate:
    """How fast the offset moves (s per s: the two clocks' frequencies apart), and how far
    that can be off: ``(0.0, DRIFT)`` until two good samples far enough apart show it."""

    value: float = 0.0
    error: float = DRIFT


def rate_of(samples: list[Sample], drift: float = DRIFT) -> Rate:
    """The offset's rate from the pair of samples that pins it best: the slope between
    them is off by at most their half round trips over the time between them. Used only
    where that bound beats not knowing the rate at all (``drift``)."""
    best = Rate(0.0, drift)
    for i, a in enumerate(samples):
        for b in samples[i + 1:]:
            span = abs(b.taken - a.taken)
            if span < RATE_SPAN:
                continue
            error = (a.delay + b.delay) / 2 / span
            if error < best.error:
                slope = (b.offset - a.offset) / (b.taken - a.taken)
                best = Rate(max(-2 * drift, min(2 * drift, slope)), error)
    return best


def error_bound(s: Sample, now: float, drift: float = DRIFT) -> float:
    """How far ``s``'s offset, carried to ``now`` at a rate known to ``drift``, can be from
    the truth: half its round trip (the legs may be lopsided) plus the rate's error over
    the time since it was taken."""
    return s.delay / 2 + drift * abs(now - s.taken)


class OffsetFilter:
    """Keeps the last ``size`` samples and estimates the offset at any instant: the most
    certain sample (the fastest, unless a fresher one is nearly as fast), carried forward at
    the clocks' rate once two good samples far enough apart show it. A kiosk syncing every
    30 s would otherwise trust a sample minutes old, off by its age times its crystal's
    drift (50 µs per second), or follow every newer sample's noise.
    """

    def __init__(self, size: int = 8, drift: float = DRIFT):
        self._samples: deque[Sample] = deque(maxlen=size)
        self.drift = drift
        self._rate = Rate(0.0, drift)

    def add(self, s: Sample) -> None:
        self._samples.append(s)
        self._rate = rate_of(list(self._samples), self.drift)

    def __len__(self) -> int:
        return len(self._samples)

    @property
    def rate(self) -> Rate:
        return self._rate

    def best(self, now: float) -> Sample | None:
        """The sample whose offset, carried to ``now``, can be least far off (an old one
        only loses to a fresher one: a kiosk whose hub is away keeps its time)."""
        if not self._samples:
            return None
        return min(self._samples, key=lambda s: error_bound(s, now, self._rate.error))

    def estimate(self, now: float) -> float | None:
        """The offset at ``now``: the best sample's, moved on at the clocks' rate."""
        s = self.best(now)
        return None if s is None else s.offset + self._rate.value * (now - s.taken)


class Slew:
    """The offset the display uses: follows the estimate smoothly, or steps.

    A correction under ``step_over`` s is slewed, never stepped, so the countdown never
    jumps back or skips a second: at ``rate`` s per s, or at ``1 / settle`` of the gap per
    second when that is faster, up to ``fast``. A new sample's millisecond of noise then
    moves the screen by 0.2 ms a second, not at once (tables do not jitter apart, and a
    stepped wall clock shows as nothing at all), while the half second a TD corrects is
    taken in seconds. A large one (first sync, hub restarted with another clock) is applied
    at once, since showing the wrong minute is worse than one jump.
    """

    def __init__(self, rate: float = 200e-6, step_over: float = 1.0, settle: float = 5.0,
                 fast: float = 0.05):
        self.rate = rate
        self.step_over = step_over
        self.settle = settle
        self.fast = fast
        self.value: float | None = None
        self._at: float | None = None

    def update(self, target: float, now: float) -> float:
        if self.value is None or self._at is None or abs(target - self.value) >= self.step_over:
            self.value = target
        else:
            gap = target - self.value
            speed = min(self.fast, max(self.rate, abs(gap) / self.settle))
            budget = speed * max(0.0, now - self._at)
            self.value += max(-budget, min(budget, gap))
        self._at = now
        return self.value


#: A restarted hub whose clock is further than this from the time its tables kept takes
#: theirs: more than a kiosk's own sample error and its monotonic clock's drift over a
#: restart, far less than a stepped or unsynchronised wall clock's error.
KEPT_LIMIT = 0.5


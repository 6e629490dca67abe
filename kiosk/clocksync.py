"""The kiosk's estimate of hub time, from its time exchanges with the hub (no I/O).

``OffsetFilter`` keeps the most certain recent sample (one that waited in a Wi-Fi queue is
a bad one), carried forward at the clocks' rate once the samples show it, and the shown
clock moves towards that through ``Slew``, so a countdown never skips or repeats a second.
With no sample yet (a kiosk restarted while the hub is down) hub time is the wall clock
plus the hub-to-wall offset an earlier run saved: a guess, so ``verified`` is False until
a sample of the hub's current clock arrives. Part of ``kiosk.session``.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipclock.sync import KEPT_LIMIT, OffsetFilter, Sample, Slew
from kiosk.backoff import Backoff

FAST_SYNC = 2.0
#: While a restarted hub gathers the tables' votes (``server.kepttime``): each table's
#: best-measured vote counts, and the more exchanges in those seconds, the better the best
VOTE_SYNC = 0.5
#: Samples taken at the fast pace after the hub comes back (``ClockSync.drop``)
REFRESH_SAMPLES = 4
FAST_SAMPLES = 8
SLOW_SYNC = 30.0
WALL_SAVE_EVERY = 600.0  # s between two saves of the hub-to-wall offset in the outbox


@dataclass(frozen=True)
class Taken:
    """A sample taken: the report for the TD's grid, and the offset to save (or None)."""

    status: tuple[float, float]  # (hub time - the time the screen showed, round trip)
    save_wall_offset: float | None
    #: the sample came from a hub whose time is provisional, and this kiosk had kept the
    #: time across the hub's absence: ``status`` is the hub's difference from the kept time
    kept: bool = False


class ClockSync:
    """The samples, the offset they give and the slewed clock the screen shows."""

    def __init__(self, wall_offset: float | None, backoff: Backoff):
        self.wall_offset = wall_offset  # hub time - wall clock, as last measured
        self.status: tuple[float, float] | None = None  # the last report
        self.verified = False  # a sample of the hub's current clock arrived in this process
        self.samples = 0
        self._backoff = backoff
        self._filter = OffsetFilter()
        self._slew = Slew()
        self._fresh = False  # drop the samples at the next one
        self._resets = 0  # counts those drops: a sample taken across one is stale
        self._wall_saved_at: float | None = None
        self._voting = False  # the last sample was a vote: the hub has not settled yet

    @property
    def synced(self) -> bool:
        return len(self._filter) > 0

    def _target(self, mono: float) -> float | None:
        """Hub time - monotonic at ``mono``, by the samples (their best, at their rate)."""
        return self._filter.estimate(mono)

    def local(self, mono: float, wall_minus_mono: float) -> float:
        """Hub time at ``mono`` as the screen shows it (slewed), or the wall clock's guess."""
        target = self._target(mono)
        if target is not None:
            return mono + self._slew.update(target, mono)
        return mono + wall_minus_mono + (self.wall_offset or 0.0)

    def stamp(self, mono: float, wall_minus_mono: float) -> float:
        """Hub time at ``mono`` by the samples, unslewed: for re-stamping presses."""
        target = self._target(mono)
        if target is not None:
            return mono + target
        return self.local(mono, wall_minus_mono)

    def ticket(self) -> int:
        """Taken when an exchange is sent; ``take`` refuses a sample across a drop."""
        return self._resets

    def take(self, ticket: int, s: Sample, wall_minus_mono: float,
             provisional: bool = False) -> Taken | None:
        """Add a sample (None: it is stale, the hub's clock changed while it was out).

        A hub that has just started (``provisional``) and whose time is further than
        ``KEPT_LIMIT`` from the time this kiosk kept is not followed, only told: the hub
        then takes the time the tables kept (``server.kepttime``), or, if most tables
        agree with it, keeps its own and a later sample moves this one.
        """
        shown = self.local(s.taken, wall_minus_mono) - s.taken
        if ticket != self._resets:
            return None
        kept = provisional and self.verified
        estimate = self._target(s.taken)
        if kept and abs(s.offset - shown) > KEPT_LIMIT:
            self.samples = 0  # sync fast until the hub has settled
            self._voting = True
            # the vote: the hub's difference from this kiosk's best estimate of the time it
            # kept (not the slewed screen): the hub moves the hall by the median of the
            # tables' votes (``server.kepttime``)
            self.status = (s.offset - (shown if estimate is None else estimate), s.delay)
            return Taken(self.status, None, kept=True)
        if self._fresh or (estimate is not None
                           and abs(s.offset - estimate) > KEPT_LIMIT + s.delay / 2):
            # a new clock, or the hub's moved for real (a sample cannot be that far off by
            # its round trip): the samples start afresh; the shown clock slews on from where
            # it is (or steps, if far)
            self._fresh = False
            self._filter = OffsetFilter()
            self.samples = 0
        self._voting = False
        self.status = (s.offset - shown, s.delay)
        self._filter.add(s)
        self.samples += 1
        self.verified = True
        if self._wall_saved_at is not None and s.taken - self._wall_saved_at <= WALL_SAVE_EVERY:
            return Taken(self.status, None, kept)
        self._wall_saved_at = s.taken
        target = self._target(s.taken)
        self.wall_offset = (s.offset if target is None else target) - wall_minus_mono
        return Taken(self.status, self.wall_offset, kept)

    def drop(self, clock_changed: bool) -> None:
        """The hub went away (a sample in flight is stale), or ``clock_changed``: its clock
        is another one now, so the samples start afresh at the next one and this kiosk's
        time is a guess until then.

        A hub that only went away keeps its samples: it comes back on the same time (the
        time its tables kept, ``server.kepttime``), and a storm of first samples after its
        restart, slow while a whole hall reconnects, would each be trusted alone. A hub
        that came back on another time shows it by a sample far from them (``take``).

        Its first sample after the return is fresh but slow, taken while the whole hall
        reconnects (its lopsided wait at the hub biased every table's estimate the same
        way, 1.3 ms once): the next ``REFRESH_SAMPLES`` come at the fast pace, so the
        quiet ones soon outrank it."""
        self._resets += 1
        self._wall_saved_at = None  # save the hub-to-wall offset again at the next sample
        self.samples = min(self.samples, FAST_SAMPLES - REFRESH_SAMPLES)
        if clock_changed:
            self._fresh = True
            self.verified = False

    def next_wait(self, ok: bool) -> float:
        """Seconds to the next exchange: fast at first, slow once settled, backoff if down."""
        if not ok:
            return self._backoff.next()
        self._backoff.reset()
        if self._voting:
            return VOTE_SYNC
        return FAST_SYNC if self.samples < FAST_SAMPLES else SLOW_SYNC

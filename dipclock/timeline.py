"""The round's timetable: every deadline of one table, built once and then queried.

``TableClock`` walks a schedule once (``dipclock.gameclock``) and keeps the result; the
timetable, the breaks' real windows and every screen's view (``dipclock.phaseview``) are
questions to it. ``table_clock`` hands out the same built clock for the same (event,
schedule, table), so a kiosk drawing every frame or a dashboard polling every table does
not rebuild it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Literal

from dipclock.events import CallEnds, EventProfile
from dipclock.gameclock import (
    NEVER,
    BreakInterval,
    GameClock,
    Mark,
    Stop,
    build_clock,
    phase_marks,
    td_stops,
)
from dipclock.schedule import Pause, PhaseRef, Schedule, Season

#: Events with no fixed last year run until the TD ends them; views look this far ahead.
OPEN_HORIZON_YEAR = 1930
#: What `dipclock plan` shows for an event with no last year, unless told otherwise.
PLAN_HORIZON_YEAR = 1910

GameEnd = Literal["last_year", "call", "voted", "horizon"]
BreakState = Literal["due", "running", "over"]


@dataclass(frozen=True)
class Phase:
    """One movement phase in the round's timetable."""

    ref: PhaseRef
    minutes: float
    opens: datetime
    writing_from: datetime | None
    deadline: datetime

    @property
    def year(self) -> int:
        return self.ref.year

    @property
    def season(self) -> Season:
        return self.ref.season


@dataclass(frozen=True)
class Timetable:
    """The round's deadlines in order, and how the game ends.

    ``ends_at`` is the moment the game ends (its last deadline, or the call itself where
    the event's call rule says so; None: no end in view). ``scoring_phase`` is the Fall
    whose centres count: the last Fall played to its deadline, whatever phase ended it
    (None: no Fall was completed, the starting centres count).
    """

    phases: tuple[Phase, ...]
    ends: GameEnd
    last_year: int | None
    ends_at: datetime | None = None
    scoring_phase: PhaseRef | None = None

    def phase(self, ref: PhaseRef) -> Phase | None:
        return next((p for p in self.phases if p.ref == ref), None)


def effective_last_year(profile: EventProfile, schedule: Schedule) -> int | None:
    return schedule.last_year or profile.last_year


class TableClock:
    """One table's round, walked once: its game clock, its breaks and its deadlines.

    ``all_phases`` runs to the last year (else ``horizon_year``), ignoring the call;
    ``phases`` stops at the call. An open-ended break leaves later deadlines unknown: the
    table stops before them. ``stops`` are the TD's breaks and holds on this table, merged
    (``gameclock.td_stops``): late counts and late windows stand still in them.
    """

    def __init__(
        self,
        profile: EventProfile,
        schedule: Schedule,
        table: int | None = None,
        horizon_year: int = OPEN_HORIZON_YEAR,
    ) -> None:
        self.profile = profile
        self.schedule = schedule
        self.table = table
        self.last_year = effective_last_year(profile, schedule)
        self.marks: list[Mark] = phase_marks(profile, self.last_year or horizon_year)
        self.clock: GameClock
        self.breaks: list[BreakInterval]
        # a board clock stops at every deadline but the last until the board is ready
        stops = [] if profile.central_clock else [m.ref for m in self.marks[:-1]]
        self.clock, self.breaks = build_clock(
            schedule, [m.seconds for m in self.marks], table, stops
        )
        self.stops: tuple[Stop, ...] = td_stops(self.breaks)
        self.all_phases = self._walk()
        #: the phases the TD's call leaves; ``phases`` also stops where a vote at this
        #: table ended its game (no deadline after it is due, nor late)
        self.called = counted_phases(self.all_phases, schedule.call, profile.call_ends)
        self.voted_end = next((e for e in schedule.ends if e.applies_to(table)), None)
        self.phases = self.called if self.voted_end is None else tuple(
            p for p in self.called if p.deadline <= self.voted_end.at)
        self._timetable: Timetable | None = None

    def _walk(self) -> tuple[Phase, ...]:
        out: list[Phase] = []
        previous = self.clock.reach(0.0)  # the round's start
        for m in self.marks:
            writing = self.profile.writing_for(m.ref.year) * 60
            deadline = self.clock.reach(m.seconds)
            if deadline == NEVER:
                break
            writing_from = (
                self.clock.last_reach(m.seconds - writing, deadline) if writing else None
            )
            opens = self.clock.running_from(previous)
            out.append(Phase(m.ref, m.minutes, opens, writing_from, deadline))
            previous = deadline
        return tuple(out)

    def timetable(self) -> Timetable:
        """Every movement phase, in order, and why the list stops where it does.

        The game ends at the last year (schedule, else event), or at the call (by the
        event's call rule, ``counted_phases``), else the table runs to the horizon.
        """
        if self._timetable is None:
            self._timetable = self._ends()
        return self._timetable

    def _ends(self) -> Timetable:
        ends: GameEnd = "last_year" if self.last_year else "horizon"
        phases = self.all_phases
        call = self.schedule.call
        if call is not None and (len(self.called) < len(self.all_phases) or not self.last_year):
            phases, ends = self.called, "call"
        ends_at = phases[-1].deadline if phases and ends != "horizon" else None
        if ends == "call" and self.profile.call_ends == "at_call":
            ends_at = call
        if self.voted_end is not None and (ends_at is None or self.voted_end.at < ends_at):
            # the board's players agreed a result: the vote's chart counts, no Fall's
            return Timetable(phases=self.phases, ends="voted", last_year=self.last_year,
                             ends_at=self.voted_end.at, scoring_phase=None)
        falls = [p.ref for p in phases if p.season == "fall"]
        scoring = falls[-1] if falls and ends != "horizon" else None
        return Timetable(phases=phases, ends=ends, last_year=self.last_year,
                         ends_at=ends_at, scoring_phase=scoring)

    def active_breaks(self, now: datetime) -> list[BreakInterval]:
        return [b for b in self.breaks if b.start <= now < b.end]

    def break_window(self, pause: Pause) -> tuple[datetime | None, datetime | None]:
        """When ``pause`` (one of the schedule's) starts and ends on this table's clock.

        (None, None) for a break at a deadline the round never reaches; an end of None is
        an open-ended break still running.
        """
        for b in self.breaks:
            if b.pause is pause or b.pause == pause:
                return b.start, None if b.end == NEVER else b.end
        return None, None


def counted_phases(
    phases: tuple[Phase, ...], call: datetime | None, rule: CallEnds
) -> tuple[Phase, ...]:
    """The phases a call at ``call`` leaves in the game, by the event's call rule.

    Every rule keeps only deadlines at or before the call (a call never ends a game
    later than the call); ``last_fall`` then ends at the last Fall among them, the start
    of an adjustment phase, so a Spring after it does not count.
    """
    if call is None:
        return phases
    kept = tuple(p for p in phases if p.deadline <= call)
    if rule == "last_fall":
        while kept and kept[-1].season != "fall":
            kept = kept[:-1]
    return kept


@lru_cache(maxsize=512)
def table_clock(
    profile: EventProfile,
    schedule: Schedule,
    table: int | None = None,
    horizon_year: int = OPEN_HORIZON_YEAR,
) -> TableClock:
    """The built clock for these inputs, built on first use (inputs are frozen models)."""
    return TableClock(profile, schedule, table, horizon_year)


def timetable(
    profile: EventProfile,
    schedule: Schedule,
    table: int | None = None,
    horizon_year: int = OPEN_HORIZON_YEAR,
) -> Timetable:
    """Every movement phase of the round, in order, with its real deadline."""
    return table_clock(profile, schedule, table, horizon_year).timetable()


def break_window(
    profile: EventProfile, schedule: Schedule, pause: Pause
) -> tuple[datetime | None, datetime | None]:
    """When ``pause`` starts and ends on its table's clock (see ``TableClock.break_window``)."""
    return table_clock(profile, schedule, pause.table).break_window(pause)


def break_state(
    profile: EventProfile, schedule: Schedule, pause: Pause, now: datetime
) -> BreakState:
    """A break not started yet, running, or over (ran its time, or the TD resumed)."""
    start, end = break_window(profile, schedule, pause)
    if start is None or start > now:
        return "over" if pause.ended is not None and pause.ended <= now else "due"
    return "over" if end is not None and end <= now else "running"

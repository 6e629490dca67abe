"""The round's clock: deadlines, pauses, holds and what a screen shows at any moment.

Everything here is a pure function of (event profile, round schedule, moment). The hub's
dashboard and every kiosk call the same functions with the same schedule, which is why
every screen in the hall agrees.

The model: a *game clock* runs from the round's start. Each movement phase owns a fixed
stretch of game time (its length), so phase k's deadline is a fixed game-time mark G_k.
Breaks stop the game clock; adjustments move it back (extra time) or forward (time taken
away). A deadline happens at the first real moment the game clock reaches its mark. That
gives the continuous central clock of the events for free: the next phase starts at the
previous deadline, whatever the board is doing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dipclock.events import FIRST_YEAR, EventProfile, Year

Season = Literal["spring", "fall"]
Stage = Literal["before_start", "negotiating", "writing", "paused", "held", "game_over"]

#: Events with no fixed last year run until the TD ends them; views look this far ahead.
OPEN_HORIZON_YEAR = 1930
#: What `dipclock plan` shows for an event with no last year, unless told otherwise.
PLAN_HORIZON_YEAR = 1910

_INF = datetime.max


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PhaseRef(_Strict):
    """A movement phase: ``S1903`` is the Spring 1903 phase."""

    year: Year
    season: Season

    @classmethod
    def parse(cls, text: str) -> PhaseRef:
        """``S1903``, ``F1904`` (``A`` for Autumn is accepted too)."""
        code = text.strip().upper()
        seasons = {"S": "spring", "F": "fall", "A": "fall"}
        if len(code) != 5 or code[0] not in seasons or not code[1:].isdigit():
            raise ValueError(f"{text!r} is not a phase like S1903 or F1904")
        return cls(year=int(code[1:]), season=seasons[code[0]])

    @property
    def code(self) -> str:
        return f"{self.season[0].upper()}{self.year}"

    @property
    def title(self) -> str:
        return f"{self.season.capitalize()} {self.year}"

    @property
    def index(self) -> int:
        return (self.year - FIRST_YEAR) * 2 + (self.season == "fall")


class Pause(_Strict):
    """The clock stopped: a break for every table, or (``table`` set) a hold on one board.

    It starts at a moment (``at``) or at a phase's deadline (``at_deadline``, the wdc2003
    meal-break rule). It ends when the TD resumes (``ended``), else after ``minutes``, else
    at the announced restart (``until``); with none of these it is open-ended. A break
    before the round stops the countdown to the start as well: the round starts later.
    """

    at: datetime | None = None
    at_deadline: PhaseRef | None = None
    minutes: Annotated[float, Field(ge=0, le=7 * 24 * 60)] | None = None  # at most a week
    until: datetime | None = None
    ended: datetime | None = None
    table: int | None = None
    reason: str = ""

    @model_validator(mode="after")
    def _one_start(self) -> Pause:
        if (self.at is None) == (self.at_deadline is None):
            raise ValueError("a pause starts either at a moment or at a deadline")
        return self


class Adjustment(_Strict):
    """Time given (positive seconds) or taken away (negative) at a moment, for all or one table."""

    at: datetime
    seconds: float
    table: int | None = None


class Schedule(_Strict):
    """One round as the hub knows it: the input of every function here."""

    start: datetime
    last_year: Year | None = None
    call: datetime | None = None
    pauses: tuple[Pause, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    title: str = ""


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
    """The round's deadlines in order, and how the game ends."""

    phases: tuple[Phase, ...]
    ends: str  # "last_year", "call" or "horizon"
    last_year: int | None

    def phase(self, ref: PhaseRef) -> Phase | None:
        return next((p for p in self.phases if p.ref == ref), None)


@dataclass(frozen=True)
class PhaseView:
    """What a screen shows at one moment. Remaining times are in seconds, never negative."""

    now: datetime
    stage: Stage
    phase: PhaseRef | None  # the phase being played (None before start / after the end)
    remaining: float  # to the deadline, or to the start before the round
    deadline: datetime | None  # None while an open-ended break runs
    writing_from: datetime | None
    writing_seconds: float
    previous: Phase | None  # the phase whose deadline passed last
    next_phase: PhaseRef | None
    next_minutes: float | None
    next_length_changes: bool
    victory_centres: int | None
    final_year: bool
    pause: Pause | None
    restart_at: datetime | None  # when a break or hold ends, where known
    game_over_reason: str | None  # "last_year" or "called"

    @property
    def since_previous(self) -> float | None:
        """Seconds since the last deadline (for late orders)."""
        if self.previous is None:
            return None
        return (self.now - self.previous.deadline).total_seconds()


# --- the game clock -------------------------------------------------------------------


@dataclass(frozen=True)
class _Segment:
    t: datetime
    g: float  # game seconds at t
    running: bool


class _Clock:
    """The real-time -> game-time map of one table, as piecewise segments."""

    def __init__(self, segments: list[_Segment]):
        self.segments = segments

    def game(self, t: datetime) -> float:
        seg = self.segments[0]
        for s in self.segments:
            if s.t <= t:
                seg = s
            else:
                break
        if t < seg.t:  # before everything: the clock simply runs
            return seg.g - (seg.t - t).total_seconds()
        return seg.g + ((t - seg.t).total_seconds() if seg.running else 0.0)

    def reach(self, mark: float) -> datetime:
        """The first real moment the game clock is at or past ``mark`` (datetime.max: never)."""
        segs = self.segments
        if mark <= segs[0].g:
            return segs[0].t - timedelta(seconds=segs[0].g - mark)
        for i, s in enumerate(segs):
            end = segs[i + 1].t if i + 1 < len(segs) else _INF
            if s.g >= mark:
                return s.t
            if s.running:
                span = (end - s.t).total_seconds() if end != _INF else float("inf")
                if s.g + span >= mark:
                    return s.t + timedelta(seconds=mark - s.g)
        return _INF

    def last_reach(self, mark: float, until: datetime) -> datetime:
        """The moment from which the clock stays at or past ``mark`` up to ``until``.

        Unlike ``reach``, time given back after a first crossing counts: the writing
        minute starts when the clock last enters it, not when it first did.
        """
        segs = self.segments
        cross = segs[0].t - timedelta(seconds=segs[0].g - mark) if segs[0].g >= mark else None
        for i, s in enumerate(segs):
            if s.t > until:
                break
            if s.g >= mark:
                cross = cross or s.t
                continue
            cross = None
            end = min(segs[i + 1].t, until) if i + 1 < len(segs) else until
            if s.running and s.g + (end - s.t).total_seconds() >= mark:
                cross = s.t + timedelta(seconds=mark - s.g)
        return cross if cross is not None else until

    def running_from(self, t: datetime) -> datetime:
        """The first moment at or after ``t`` when the clock runs (after a break there)."""
        current = None
        for s in self.segments:
            if s.t <= t:
                current = s
            elif current is not None and not current.running:
                if s.running:
                    return s.t
                current = s
        if current is None or current.running:
            return t
        return _INF

    def paused_at(self, t: datetime) -> bool:
        seg = None
        for s in self.segments:
            if s.t <= t:
                seg = s
        return seg is not None and not seg.running


def _applies(item_table: int | None, table: int | None) -> bool:
    return item_table is None or item_table == table


def _pause_end(p: Pause, start: datetime) -> datetime:
    if p.ended is not None:
        return max(p.ended, start)
    if p.minutes is not None:
        return start + timedelta(minutes=p.minutes)
    if p.until is not None:
        return max(p.until, start)
    return _INF


def _phase_marks(profile: EventProfile, last_year: int) -> list[tuple[PhaseRef, float, float]]:
    """(phase, minutes, game-time mark of its deadline) for every phase to ``last_year``."""
    out, g = [], 0.0
    for year in range(FIRST_YEAR, last_year + 1):
        for season in ("spring", "fall"):
            minutes = profile.phase_minutes(year, season)
            g += minutes * 60
            out.append((PhaseRef(year=year, season=season), minutes, g))
    return out


def _build_clock(
    schedule: Schedule, marks: list[float], table: int | None
) -> tuple[_Clock, list[tuple[datetime, datetime, Pause]]]:
    """Walk the round in real time, applying breaks and adjustments in the order they happen.

    Breaks anchored at a deadline start when the game clock reaches that deadline's mark,
    so they follow every earlier break. Returns the clock and each break's real interval.
    """
    timed: list[tuple[datetime, int, object]] = []
    for p in schedule.pauses:
        if _applies(p.table, table) and p.at is not None:
            timed.append((p.at, 1, p))
    for a in schedule.adjustments:
        if _applies(a.table, table):
            timed.append((a.at, 0, a))
    timed.sort(key=lambda e: (e[0], e[1]))
    anchored = sorted(
        (
            (marks[p.at_deadline.index], p)
            for p in schedule.pauses
            if _applies(p.table, table) and p.at_deadline is not None
            and p.at_deadline.index < len(marks)
        ),
        key=lambda e: e[0],
    )

    t0 = min([schedule.start] + [e[0] for e in timed])
    t, g = t0, -(schedule.start - t0).total_seconds()
    segments = [_Segment(t, g, True)]
    open_ends: list[datetime] = []  # real ends of the breaks in force
    intervals: list[tuple[datetime, datetime, Pause]] = []
    ti = ai = 0

    def running() -> bool:
        return not open_ends

    while ti < len(timed) or ai < len(anchored) or open_ends:
        candidates: list[tuple[datetime, int]] = []
        if ti < len(timed):
            candidates.append((timed[ti][0], 0))
        if ai < len(anchored):
            mark = anchored[ai][0]
            if mark <= g:
                candidates.append((t, 1))
            elif running():
                candidates.append((t + timedelta(seconds=mark - g), 1))
        if open_ends:
            candidates.append((min(open_ends), 2))
        when, kind = min(candidates, key=lambda c: (c[0], c[1]))
        if when == _INF:
            break
        if running():
            g += (when - t).total_seconds()
        t = when
        if kind == 0:
            item = timed[ti][2]
            ti += 1
            if isinstance(item, Adjustment):
                g = _adjust(g, item.seconds, marks)
            else:
                assert isinstance(item, Pause)
                end = _pause_end(item, t)
                intervals.append((t, end, item))
                open_ends.append(end)
        elif kind == 1:
            pause = anchored[ai][1]
            ai += 1
            g = max(g, anchored[ai - 1][0])
            end = _pause_end(pause, t)
            intervals.append((t, end, pause))
            open_ends.append(end)
        else:
            open_ends.remove(min(open_ends))
        segments.append(_Segment(t, g, running()))
    return _Clock(segments), intervals


def _adjust(g: float, seconds: float, marks: list[float]) -> float:
    """Give time (seconds > 0) or take it away, never past the deadline now running."""
    if seconds >= 0:
        return g - seconds
    current = next((m for m in marks if m > g), None)
    target = g - seconds
    return min(target, current) if current is not None else target


# --- public functions -----------------------------------------------------------------


def effective_last_year(profile: EventProfile, schedule: Schedule) -> int | None:
    return schedule.last_year or profile.last_year


def timetable(
    profile: EventProfile,
    schedule: Schedule,
    table: int | None = None,
    horizon_year: int = OPEN_HORIZON_YEAR,
) -> Timetable:
    """Every movement phase of the round, in order, with its real deadline.

    The game ends at the last year (schedule, else event), or at the call (the last
    deadline at or before it), else the table runs to ``horizon_year``. An open-ended
    break leaves later deadlines unknown: the table stops before them.
    """
    last = effective_last_year(profile, schedule)
    plan_to = last or horizon_year
    phases, _ = _phases(profile, schedule, table, plan_to)
    ends = "last_year" if last else "horizon"
    if schedule.call is not None:
        kept = tuple(p for p in phases if p.deadline <= schedule.call)
        if len(kept) < len(phases) or not last:
            phases, ends = kept, "call"
    return Timetable(phases=tuple(phases), ends=ends, last_year=last)


def _phases(
    profile: EventProfile, schedule: Schedule, table: int | None, last_year: int
) -> tuple[tuple[Phase, ...], _Clock]:
    marks = _phase_marks(profile, last_year)
    clock, _ = _build_clock(schedule, [m for _, _, m in marks], table)
    return _phases_on(profile, clock, marks), clock


def _phases_on(
    profile: EventProfile, clock: _Clock, marks: list[tuple[PhaseRef, float, float]]
) -> tuple[Phase, ...]:
    writing = profile.writing_minutes * 60
    out: list[Phase] = []
    previous = clock.reach(0.0)  # the round's start
    for ref, minutes, mark in marks:
        deadline = clock.reach(mark)
        if deadline == _INF:
            break
        writing_from = clock.last_reach(mark - writing, deadline) if writing else None
        out.append(Phase(ref, minutes, clock.running_from(previous), writing_from, deadline))
        previous = deadline
    return tuple(out)


def break_window(
    profile: EventProfile, schedule: Schedule, pause: Pause
) -> tuple[datetime | None, datetime | None]:
    """When ``pause`` (one of the schedule's) starts and ends on its table's clock.

    (None, None) for a break at a deadline the round never reaches; an end of None is an
    open-ended break still running.
    """
    last = effective_last_year(profile, schedule) or OPEN_HORIZON_YEAR
    marks = [m for _, _, m in _phase_marks(profile, last)]
    _, intervals = _build_clock(schedule, marks, pause.table)
    for start, end, p in intervals:
        if p is pause or p == pause:
            return start, None if end == _INF else end
    return None, None


def break_state(
    profile: EventProfile, schedule: Schedule, pause: Pause, now: datetime
) -> Literal["due", "running", "over"]:
    """A break not started yet, running, or over (ran its time, or the TD resumed)."""
    start, end = break_window(profile, schedule, pause)
    if start is None or start > now:
        return "over" if pause.ended is not None and pause.ended <= now else "due"
    return "over" if end is not None and end <= now else "running"


def view(
    profile: EventProfile, schedule: Schedule, now: datetime, table: int | None = None
) -> PhaseView:
    """What the screen of ``table`` (None: the hall clock) shows at ``now``."""
    last = effective_last_year(profile, schedule)
    marks = _phase_marks(profile, last or OPEN_HORIZON_YEAR)
    clock, intervals = _build_clock(schedule, [m for _, _, m in marks], table)
    all_phases = _phases_on(profile, clock, marks)
    phases = all_phases
    if schedule.call is not None:
        phases = tuple(p for p in all_phases if p.deadline <= schedule.call)
    g = clock.game(now)
    paused = clock.paused_at(now)
    active = [iv for iv in intervals if iv[0] <= now < iv[1]]
    pause = _main_pause(active)
    restart = max(iv[1] for iv in active) if active else None
    restart = None if restart == _INF else restart
    past = [p for p in phases if p.deadline <= now]
    previous = past[-1] if past else None
    idx = len(past)

    over: str | None = None
    if schedule.call is not None and now >= schedule.call:
        over = "called"
    elif idx >= len(marks):
        over = "last_year"
    elif idx >= len(phases) and idx < len(all_phases):
        over = "called"  # the next deadline would fall after the call

    common = dict(
        now=now,
        previous=previous,
        pause=pause if paused else None,
        restart_at=restart if paused else None,
        writing_seconds=profile.writing_minutes * 60,
    )
    if over:
        return PhaseView(
            stage="game_over",
            phase=None,
            remaining=0.0,
            deadline=None,
            writing_from=None,
            next_phase=None,
            next_minutes=None,
            next_length_changes=False,
            victory_centres=None,
            final_year=False,
            game_over_reason=over,
            **common,
        )

    remaining_marks = marks[idx:]
    ref, minutes, mark = remaining_marks[0]
    current = phases[idx] if idx < len(phases) else None
    if g < 0:
        stage: Stage = "paused" if paused else "before_start"
        remaining = -g
    else:
        remaining = max(0.0, mark - g)
        if paused:
            stage = "held" if pause is not None and pause.table is not None else "paused"
        elif profile.writing_minutes and remaining <= profile.writing_minutes * 60:
            stage = "writing"
        else:
            stage = "negotiating"
    nxt = remaining_marks[1] if len(remaining_marks) > 1 else None
    if nxt is not None and idx + 1 >= len(phases) and len(phases) < len(all_phases):
        nxt = None  # the call ends the game before the next phase would
    return PhaseView(
        stage=stage,
        phase=ref,
        remaining=remaining,
        deadline=current.deadline if current else None,
        writing_from=current.writing_from if current else None,
        next_phase=nxt[0] if nxt else None,
        next_minutes=nxt[1] if nxt else None,
        next_length_changes=bool(nxt) and _length_changes(profile, nxt[0]),
        victory_centres=profile.victory_centres(ref.year),
        final_year=last is not None and ref.year == last,
        game_over_reason=None,
        **common,
    )


def _length_changes(profile: EventProfile, ref: PhaseRef) -> bool:
    if ref.year == FIRST_YEAR:
        return False
    return profile.phase_minutes(ref.year, ref.season) != profile.phase_minutes(
        ref.year - 1, ref.season
    )


def _main_pause(active: Iterable[tuple[datetime, datetime, Pause]]) -> Pause | None:
    """The break to show: a hall-wide one before a table hold."""
    found = sorted(active, key=lambda iv: (iv[2].table is not None, iv[0]))
    return found[0][2] if found else None

"""The game clock of one table: real time to game time, through breaks and adjustments.

The model: a *game clock* runs from the round's start. Each movement phase owns a fixed
stretch of game time (its length), so phase k's deadline is a fixed game-time mark G_k.
Breaks stop the game clock; adjustments move it back (extra time) or forward (time taken
away). A deadline happens at the first real moment the game clock reaches its mark. That
gives the continuous central clock of the events for free: the next phase starts at the
previous deadline, whatever the board is doing.

Built once per (schedule, table) by ``dipclock.timeline.TableClock`` and then queried.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum
from typing import Final

from dipclock.events import FIRST_YEAR, EventProfile
from dipclock.schedule import Adjustment, Pause, PhaseRef, Schedule

#: "Never": the moment a stopped clock reaches a mark, the end of an open-ended break.
NEVER: Final = datetime.max
#: The reason of a board clock's stop at a deadline: the board adjudicates, then says so.
ADJUDICATING: Final = "Adjudicating"


class Happening(IntEnum):
    """What changes the clock; at the same instant they apply in this order."""

    TIMED = 0  # an adjustment, or a break starting at a moment (adjustments first)
    AT_DEADLINE = 1  # a break starting when the clock reaches a deadline
    BREAK_ENDS = 2


@dataclass(frozen=True)
class Mark:
    """A movement phase's place on the game clock: its deadline at ``seconds`` game time."""

    ref: PhaseRef
    minutes: float
    seconds: float


@dataclass(frozen=True)
class BreakInterval:
    """When a break or hold really ran (``end`` is NEVER while it is open-ended).

    ``board``: the stop of a board clock at a deadline, until the board is ready.
    """

    start: datetime
    end: datetime
    pause: Pause
    board: bool = False


#: A stretch of real time in which a table's clock stood still for the TD (a break or a
#: hold): (start, end), end NEVER while it is open-ended.
Stop = tuple[datetime, datetime]


def td_stops(breaks: Iterable[BreakInterval]) -> tuple[Stop, ...]:
    """The TD's breaks and holds among ``breaks``, merged into disjoint stretches in time
    order: the time every count the clock drives stands still (``dipclock.late``). A board
    clock's own stop at a deadline is not one: the board adjudicates, late orders count on.
    """
    return merged((b.start, b.end) for b in breaks if not b.board)


def merged(stops: Iterable[Stop]) -> tuple[Stop, ...]:
    """``stops`` in time order, overlapping or touching ones as one, empty ones dropped."""
    out: list[Stop] = []
    for a, b in sorted(s for s in stops if s[1] > s[0]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


@dataclass(frozen=True)
class _Segment:
    t: datetime
    g: float  # game seconds at t
    running: bool


class GameClock:
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
        """The first real moment the game clock is at or past ``mark`` (NEVER: never)."""
        segs = self.segments
        if mark <= segs[0].g:
            return segs[0].t - timedelta(seconds=segs[0].g - mark)
        for i, s in enumerate(segs):
            end = segs[i + 1].t if i + 1 < len(segs) else NEVER
            if s.g >= mark:
                return s.t
            if s.running:
                span = (end - s.t).total_seconds() if end != NEVER else float("inf")
                if s.g + span >= mark:
                    return s.t + timedelta(seconds=mark - s.g)
        return NEVER

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
        return NEVER

    def paused_at(self, t: datetime) -> bool:
        seg = None
        for s in self.segments:
            if s.t <= t:
                seg = s
        return seg is not None and not seg.running


def phase_marks(profile: EventProfile, last_year: int) -> list[Mark]:
    """Every movement phase to ``last_year`` with the game-time mark of its deadline."""
    out, g = [], 0.0
    for year in range(FIRST_YEAR, last_year + 1):
        for season in ("spring", "fall"):
            ref = PhaseRef(year=year, season=season)
            minutes = profile.phase_minutes(year, ref.season)
            g += minutes * 60
            out.append(Mark(ref, minutes, g))
    return out


def _pause_end(p: Pause, start: datetime) -> datetime:
    if p.ended is not None:
        return max(p.ended, start)
    if p.minutes is not None:
        return start + timedelta(minutes=p.minutes)
    if p.until is not None:
        return max(p.until, start)
    return NEVER


def build_clock(
    schedule: Schedule,
    marks: list[float],
    table: int | None,
    board_stops: Sequence[PhaseRef] = (),
) -> tuple[GameClock, list[BreakInterval]]:
    """Walk the round in real time, applying breaks and adjustments in the order they happen.

    Breaks anchored at a deadline start when the game clock reaches that deadline's mark,
    so they follow every earlier break. ``board_stops`` (a board clock) are the deadlines
    after which the clock waits for the board: each stop ends at the table's first
    ``BoardStart`` at or after the moment it began, so a signal given while the clock
    still ran starts nothing. Returns the clock and each break's real interval.
    """
    starts = sorted(s.at for s in schedule.board_starts if s.applies_to(table))
    timed: list[tuple[datetime, int, Pause | Adjustment]] = []
    for p in schedule.pauses:
        if p.applies_to(table) and p.at is not None:
            timed.append((p.at, 1, p))
    for a in schedule.adjustments:
        if a.applies_to(table):
            timed.append((a.at, 0, a))
    timed.sort(key=lambda e: (e[0], e[1]))
    anchored: list[tuple[float, Pause, bool]] = sorted(
        [
            (marks[p.at_deadline.index], p, False)
            for p in schedule.pauses
            if p.applies_to(table) and p.at_deadline is not None
            and p.at_deadline.index < len(marks)
        ]
        + [
            (marks[ref.index], Pause(at_deadline=ref, reason=ADJUDICATING, table=table), True)
            for ref in board_stops
            if ref.index < len(marks)
        ],
        key=lambda e: (e[0], e[2]),
    )

    t0 = min([schedule.start] + [e[0] for e in timed])
    t, g = t0, -(schedule.start - t0).total_seconds()
    segments = [_Segment(t, g, True)]
    open_ends: list[datetime] = []  # real ends of the breaks in force
    intervals: list[BreakInterval] = []
    ti = ai = 0

    def running() -> bool:
        return not open_ends

    def start_break(pause: Pause, board: bool = False) -> None:
        end = next((s for s in starts if s >= t), NEVER) if board else _pause_end(pause, t)
        intervals.append(BreakInterval(t, end, pause, board))
        open_ends.append(end)

    while ti < len(timed) or ai < len(anchored) or open_ends:
        candidates: list[tuple[datetime, Happening]] = []
        if ti < len(timed):
            candidates.append((timed[ti][0], Happening.TIMED))
        if ai < len(anchored):
            mark = anchored[ai][0]
            if mark <= g:
                candidates.append((t, Happening.AT_DEADLINE))
            elif running():
                candidates.append((t + timedelta(seconds=mark - g), Happening.AT_DEADLINE))
        if open_ends:
            candidates.append((min(open_ends), Happening.BREAK_ENDS))
        when, kind = min(candidates)
        if when == NEVER:
            break
        if running():
            g += (when - t).total_seconds()
        t = when
        if kind is Happening.TIMED:
            item = timed[ti][2]
            ti += 1
            if isinstance(item, Adjustment):
                g = _adjust(g, item.seconds, marks)
            else:
                start_break(item)
        elif kind is Happening.AT_DEADLINE:
            mark, pause, board = anchored[ai]
            ai += 1
            g = max(g, mark)
            start_break(pause, board)
        else:
            open_ends.remove(min(open_ends))
        segments.append(_Segment(t, g, running()))
    return GameClock(segments), intervals


def _adjust(g: float, seconds: float, marks: list[float]) -> float:
    """Give time (seconds > 0) or take it away, never past the deadline now running."""
    if seconds >= 0:
        return g - seconds
    current = next((m for m in marks if m > g), None)
    target = g - seconds
    return min(target, current) if current is not None else target

"""What the clock says at one moment: the stage, the phase and the time left.

``view`` is a question to a table's built clock (``dipclock.timeline.table_clock``); the
screen model (``dipclock.screen``) words its answer for the table, the dashboard and the
hall alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from dipclock.events import FIRST_YEAR, EventProfile
from dipclock.gameclock import NEVER, BreakInterval
from dipclock.schedule import Pause, PhaseRef, Schedule
from dipclock.timeline import Phase, table_clock

Stage = Literal[
    "before_start", "negotiating", "writing", "paused", "held", "adjudicating", "game_over"
]
GameOver = Literal["last_year", "called", "voted"]


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
    game_over_reason: GameOver | None
    #: Where the game ends, once that is known (the last year, or the TD's call): the
    #: last phase that counts and the Fall whose centres count (None: no Fall completed,
    #: the starting centres count). Both None while the game has no end in view.
    last_counted: PhaseRef | None = None
    scoring_phase: PhaseRef | None = None
    #: the vote's result where a vote ended the game ("Draw agreed, Fall 1905: ...")
    voted: str = ""


def view(
    profile: EventProfile, schedule: Schedule, now: datetime, table: int | None = None
) -> PhaseView:
    """What the screen of ``table`` (None: the hall clock) shows at ``now``."""
    built = table_clock(profile, schedule, table)
    marks, all_phases, phases = built.marks, built.all_phases, built.called
    g = built.clock.game(now)
    paused = built.clock.paused_at(now)
    active = built.active_breaks(now)
    pause = _main_pause(active) if paused else None
    restart = max(b.end for b in active) if active and paused else None
    restart = None if restart == NEVER else restart
    past = [p for p in phases if p.deadline <= now]
    previous = past[-1] if past else None
    idx = len(past)
    writing_seconds = profile.writing_for((marks[min(idx, len(marks) - 1)]).ref.year) * 60

    ending = built.timetable()
    last_counted = ending.phases[-1].ref if ending.phases and ending.ends != "horizon" else None
    over: GameOver | None = None
    if schedule.call is not None and now >= schedule.call:
        over = "called"
    elif idx >= len(marks):
        over = "last_year"
    elif idx >= len(phases) and idx < len(all_phases):
        over = "called"  # the next deadline would fall after the call
    ended = built.voted_end if built.voted_end and now >= built.voted_end.at else None
    if ended is not None and over is None:
        over = "voted"  # the board's players agreed a result: its clock stops here

    if over:
        return PhaseView(
            now=now, stage="game_over", phase=None, remaining=0.0, deadline=None,
            writing_from=None, writing_seconds=writing_seconds, previous=previous,
            next_phase=None, next_minutes=None, next_length_changes=False,
            victory_centres=None, final_year=False, pause=pause, restart_at=restart,
            game_over_reason=over, last_counted=last_counted,
            scoring_phase=ending.scoring_phase,
            voted=ended.headline if ended is not None and over == "voted" else "",
        )

    mark = marks[idx]
    current = phases[idx] if idx < len(phases) else None
    stage: Stage
    # Before the round's real start the big number counts to it. Time given early in the
    # first phase may put the game clock below 0 again later: the round is under way then.
    if now < built.clock.reach(0.0):
        stage = "paused" if paused else "before_start"
        remaining = -g
    else:
        remaining = max(0.0, mark.seconds - g)
        if paused and active and all(b.board for b in active):
            stage = "adjudicating"  # a board clock, waiting for the board to be ready
        elif paused:
            stage = "held" if pause is not None and pause.table is not None else "paused"
        elif writing_seconds and remaining <= writing_seconds:
            stage = "writing"
        else:
            stage = "negotiating"
    nxt = marks[idx + 1] if idx + 1 < len(marks) else None
    if nxt is not None and idx + 1 >= len(phases) and len(phases) < len(all_phases):
        nxt = None  # the call ends the game before the next phase would
    last = built.last_year
    return PhaseView(
        now=now,
        stage=stage,
        phase=mark.ref,
        remaining=remaining,
        deadline=current.deadline if current else None,
        writing_from=current.writing_from if current else None,
        writing_seconds=writing_seconds,
        previous=previous,
        next_phase=nxt.ref if nxt else None,
        next_minutes=nxt.minutes if nxt else None,
        next_length_changes=nxt is not None and _length_changes(profile, nxt.ref),
        victory_centres=profile.victory_centres(mark.ref.year),
        final_year=last is not None and mark.ref.year == last,
        pause=pause,
        restart_at=restart,
        game_over_reason=None,
        last_counted=last_counted,
        scoring_phase=ending.scoring_phase,
    )


def _length_changes(profile: EventProfile, ref: PhaseRef) -> bool:
    if ref.year == FIRST_YEAR:
        return False
    return profile.phase_minutes(ref.year, ref.season) != profile.phase_minutes(
        ref.year - 1, ref.season
    )


def _main_pause(active: Iterable[BreakInterval]) -> Pause | None:
    """The break to show: a hall-wide one before a table hold."""
    found = sorted(active, key=lambda b: (b.board, b.pause.table is not None, b.start))
    return found[0].pause if found else None

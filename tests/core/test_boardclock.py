"""Board clocks (``central_clock = false``): each phase starts when its board is ready."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.boardclock import ready_signals, with_board_starts
from dipclock.events import BUILTIN, EventProfile
from dipclock.late import out_of_game
from dipclock.phaseview import view
from dipclock.schedule import BoardStart, Pause, PhaseRef, Schedule
from dipclock.screen import READY_HINT, build
from dipclock.timeline import table_clock, timetable

START = datetime(2026, 5, 1, 19, 0)
CLUB = BUILTIN["wdc2006"].model_copy(update={"central_clock": False, "id": "club"})
S1901, F1901, S1902 = (PhaseRef.parse(c) for c in ("S1901", "F1901", "S1902"))


@dataclass(frozen=True)
class Hold:
    power: str
    at: datetime
    kind: str = "hold"


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_the_clock_stops_at_each_deadline_until_the_board_is_ready() -> None:
    schedule = Schedule(start=START, board_starts=(BoardStart(at=at(25), table=3),))
    phases = timetable(CLUB, schedule, table=3).phases
    assert phases[0].deadline == at(17)  # Spring 1901, 17 minutes, from the start
    assert phases[1].opens == at(25)  # the board said it was ready 8 minutes later
    assert phases[1].deadline == at(25 + 15)
    assert len(phases) == 2  # Spring 1902 waits for the next signal: not known yet


def test_another_table_s_signal_starts_nothing_here() -> None:
    schedule = Schedule(start=START, board_starts=(BoardStart(at=at(25), table=4),))
    assert len(timetable(CLUB, schedule, table=3).phases) == 1


def test_a_signal_while_the_clock_still_runs_starts_nothing() -> None:
    early = Schedule(start=START, board_starts=(BoardStart(at=at(10), table=3),))
    assert len(timetable(CLUB, early, table=3).phases) == 1


def test_a_break_still_stops_a_board_clock() -> None:
    schedule = Schedule(
        start=START,
        board_starts=(BoardStart(at=at(20), table=1),),
        pauses=(Pause(at=at(30), minutes=10, reason="Pizza"),),
    )
    phases = timetable(CLUB, schedule, table=1).phases
    assert phases[1].opens == at(20)
    assert phases[1].deadline == at(20 + 15 + 10)


def test_the_screen_waits_for_the_board_and_tells_the_players_how_to_start() -> None:
    schedule = Schedule(start=START)
    screen = build(CLUB, schedule, at(20), table=2)
    assert screen.look == "adjudicating"
    assert screen.label == "Adjudicating: Fall 1901 starts when the board is ready"
    assert screen.big == "15:00" and screen.count_to is None and not screen.ticking
    assert READY_HINT in screen.notes
    hall = build(CLUB, schedule, at(20), buttons=False)
    assert hall.label == "Board clocks: each board starts its next phase when it is ready"
    assert READY_HINT not in hall.notes


def test_a_chord_of_two_holds_is_the_board_ready_and_takes_no_one_out() -> None:
    holds = [Hold("A", at(20)), Hold("F", at(20) + timedelta(seconds=1.5))]
    assert ready_signals(holds) == [holds[1].at]
    assert out_of_game(holds, START, board=True) == set()
    # on a central clock the same two holds are two powers going out
    assert out_of_game(holds, START) == {"A", "F"}
    schedule = with_board_starts(Schedule(start=START), holds, table=2)
    assert schedule.board_starts == (BoardStart(at=holds[1].at, table=2),)
    v = view(CLUB, schedule, at(21), table=2)
    assert v.stage == "negotiating" and v.phase == F1901


def test_holds_apart_or_by_one_power_are_not_a_chord() -> None:
    apart = [Hold("A", at(20)), Hold("F", at(20) + timedelta(seconds=2.5))]
    same = [Hold("A", at(20)), Hold("A", at(20) + timedelta(seconds=1))]
    assert ready_signals(apart) == [] and ready_signals(same) == []
    assert out_of_game(apart, START, board=True) == {"A", "F"}


def test_the_kiosk_and_the_hub_read_the_same_start_from_the_same_holds() -> None:
    holds = [Hold("E", at(18)), Hold("R", at(18.01)), Hold("T", at(40)), Hold("G", at(40.02))]
    hub = with_board_starts(Schedule(start=START), holds, table=5)
    # a kiosk with the hub's schedule and only some of the holds keeps the hub's starts
    kiosk = with_board_starts(hub, holds[:2], table=5)
    assert kiosk == hub and with_board_starts(hub, holds, table=5) is hub
    phases = timetable(CLUB, kiosk, table=5).phases
    assert [p.ref for p in phases] == [S1901, F1901, S1902]


@settings(max_examples=100, deadline=None)
@given(gaps=st.lists(st.integers(0, 30 * 60), min_size=1, max_size=8))
def test_every_phase_gets_its_whole_length_however_long_the_board_takes(
    gaps: list[int],
) -> None:
    """Deadline minus opening is the phase's length, and each phase opens at a signal."""
    profile: EventProfile = CLUB
    starts, t = [], START + timedelta(minutes=17)
    built = table_clock(profile, Schedule(start=START), 1)
    for gap, mark in zip(gaps, built.marks[1:], strict=False):
        t += timedelta(seconds=gap)
        starts.append(BoardStart(at=t, table=1))
        t += timedelta(minutes=mark.minutes)
    phases = timetable(profile, Schedule(start=START, board_starts=tuple(starts)), 1).phases
    assert len(phases) == len(starts) + 1
    for phase, start in zip(phases[1:], starts, strict=True):
        assert phase.opens == start.at
        assert phase.deadline - phase.opens == timedelta(minutes=phase.minutes)


def test_the_banner_says_the_board_is_ready_not_that_a_power_went_out() -> None:
    holds = [Hold("A", at(25)), Hold("F", at(25) + timedelta(seconds=1))]
    schedule = with_board_starts(Schedule(start=START), holds, table=2)
    screen = build(CLUB, schedule, at(25) + timedelta(seconds=2), presses=holds,
                   out=out_of_game(holds, START, board=True), table=2)
    assert screen.banner == "Board ready: Fall 1901 starts"
    assert screen.look == "negotiating"
    assert all(chip.state != "out" for chip in screen.chips)


def test_a_chord_split_between_the_hub_and_the_kiosk_takes_no_one_out() -> None:
    """The hub stored Austria's hold alone (France's still on its way) and so lists Austria
    out; the kiosk, holding France's hold, sees the chord: the board is ready, nobody out."""
    austria, france = Hold("A", at(20)), Hold("F", at(20) + timedelta(seconds=1.5))
    hub_out = out_of_game([austria], START, board=True)
    assert hub_out == {"A"}
    assert out_of_game([france], START, hub_out, board=True, seen=[austria]) == set()
    # both already at the hub: its list is right and stays so
    assert out_of_game([], START, set(), board=True, seen=[austria, france]) == set()
    # a hold of the hub's that is no chord still counts
    late = Hold("F", at(20) + timedelta(seconds=5))
    assert out_of_game([late], START, hub_out, board=True, seen=[austria]) == {"A", "F"}

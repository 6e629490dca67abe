"""Whether a press's stamp can be a press of the round it falls in (``dipclock.stamps``): a
stamp after the round is over is one no press could count with, and a late press, or one
in a break, is never refused."""

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.late import LATE_WINDOW, Press, submissions
from dipclock.schedule import Pause, Schedule
from dipclock.stamps import AHEAD, round_over, stamp_fault
from dipclock.timeline import table_clock

START = datetime(2024, 5, 4, 9, 30)
WDC2006 = BUILTIN["wdc2006"]  # S1901 due 09:47 ... F1902 10:34


def over(schedule: Schedule, event: str = "wdc2006") -> datetime | None:
    return round_over(table_clock(BUILTIN[event], schedule))


def test_a_round_is_over_when_the_late_window_after_its_last_deadline_closes():
    assert over(Schedule(start=START, last_year=1902)) == datetime(2024, 5, 4, 10, 39)


def test_a_break_in_the_last_window_holds_it_open_and_an_open_ended_one_for_good():
    last = datetime(2024, 5, 4, 10, 34)
    lunch = Pause(at=last, until=last + timedelta(minutes=45))
    assert over(Schedule(start=START, last_year=1902, pauses=(lunch,))) == (
        last + timedelta(minutes=50))
    assert over(Schedule(start=START, last_year=1902, pauses=(Pause(at=last),))) is None


def test_a_call_at_the_call_ends_the_round_no_sooner_than_the_call():
    """wdc2018: the game ends at the call itself; the last deadline before it was 10:02."""
    call = datetime(2024, 5, 4, 10, 15)
    assert over(Schedule(start=START, call=call), "wdc2018") == call


def test_a_round_with_no_end_in_view_is_never_over():
    assert over(Schedule(start=START), "graduated20") is None  # no last year, no call


def test_what_a_stamp_cannot_be():
    now = datetime(2024, 5, 4, 10, 0)
    end = datetime(2024, 5, 4, 10, 39)
    assert stamp_fault(now + AHEAD, START, end, now) is None  # a clock's error at most
    assert stamp_fault(now + AHEAD + timedelta(seconds=1), START, end, now) == "ahead"
    assert stamp_fault(now.replace(year=2034), START, end, None) == "after"  # hub unsettled
    assert stamp_fault(START - timedelta(seconds=1), START, end, now) == "before"
    assert stamp_fault(now.replace(year=2014), START, end, now) == "before"
    assert stamp_fault(end + timedelta(seconds=1), START, end, end + timedelta(hours=1)
                       ) == "after"
    assert stamp_fault(end, START, end, end) is None
    assert stamp_fault(end + timedelta(days=1), START, None, end + timedelta(days=1)) is None


@settings(max_examples=60, deadline=None)
@given(last_year=st.integers(1901, 1904),
       lunch_at=st.integers(0, 7), lunch=st.integers(1, 90),
       late=st.floats(0.001, 24 * 3600), power=st.sampled_from("AEFGIRT"))
def test_no_press_stamped_after_the_round_is_over_could_count_and_every_late_one_is_kept(
        last_year, lunch_at, lunch, late, power):
    """Against the late rule itself: a press after ``round_over`` counts for no phase, so
    refusing it loses nothing; a press in the window after the last deadline is late
    orders, and ``stamp_fault`` keeps it."""
    clock = table_clock(WDC2006, Schedule(start=START, last_year=last_year))
    deadlines = [p.deadline for p in clock.phases]
    at = deadlines[min(lunch_at, len(deadlines) - 1)]
    schedule = Schedule(start=START, last_year=last_year,
                        pauses=(Pause(at=at, until=at + timedelta(minutes=lunch)),))
    clock = table_clock(WDC2006, schedule)
    end = round_over(clock)
    assert end is not None
    after = end + timedelta(seconds=late)
    assert submissions(clock.phases, [Press(power, after)], stops=clock.stops) == []
    assert stamp_fault(after, START, end, after) == "after"
    last = clock.phases[-1].deadline
    in_window = last + min(timedelta(seconds=late), LATE_WINDOW)
    [sub] = submissions(clock.phases, [Press(power, in_window)], stops=clock.stops)
    assert sub.late and stamp_fault(in_window, START, end, in_window) is None

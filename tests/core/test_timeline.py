"""Timetables of the built-in events, checked by hand against the rule texts, and views."""

from datetime import datetime, timedelta
from itertools import pairwise

import pytest

from dipclock.events import BUILTIN
from dipclock.phaseview import view
from dipclock.schedule import Adjustment, Pause, PhaseRef, Schedule
from dipclock.timeline import timetable

D = datetime.fromisoformat


def deadlines(event, start, **kw):
    table = timetable(BUILTIN[event], Schedule(start=D(start), **kw))
    return {p.ref.code: p.deadline for p in table.phases}, table


def test_wdc2006_from_ten_reaches_fall_1909_at_14_48():
    # rule 6: Spring 17, Fall 15; rule 17: to 1909. 9 x 32 min = 4 h 48.
    dl, table = deadlines("wdc2006", "2006-08-04T10:00")
    assert dl["S1901"] == D("2006-08-04T10:17")
    assert dl["F1901"] == D("2006-08-04T10:32")
    assert list(dl)[-1] == "F1909"
    assert dl["F1909"] == D("2006-08-04T14:48")
    assert table.ends == "last_year" and len(table.phases) == 18


def test_wdc2003_lengths_change_in_1906_and_the_clock_always_runs():
    # 5 x (20+17) = 185 min to F1905; then 18 + 15 per year.
    dl, table = deadlines("wdc2003", "2003-02-14T19:00", last_year=1907)
    assert dl["S1901"] == D("2003-02-14T19:20")
    assert dl["F1901"] == D("2003-02-14T19:37")  # Fall starts the moment Spring expires
    assert dl["F1905"] == D("2003-02-14T22:05")
    assert dl["S1906"] == D("2003-02-14T22:23")
    assert dl["F1906"] == D("2003-02-14T22:38")
    assert dl["F1907"] == D("2003-02-14T23:11")
    assert table.phases[1].opens == dl["S1901"]


def test_wdc2018_lengths_change_in_1907():
    # 6 x (18+16) = 204 min to F1906, then 17 + 15.
    dl, _ = deadlines("wdc2018", "2018-10-05T09:00", last_year=1907)
    assert dl["F1906"] == D("2018-10-05T12:24")
    assert dl["S1907"] == D("2018-10-05T12:41")
    assert dl["F1907"] == D("2018-10-05T12:56")


def test_wdc2019_writing_minute_and_seven_years():
    dl, table = deadlines("wdc2019", "2019-09-06T10:00")
    first = table.phases[0]
    assert first.writing_from == D("2019-09-06T10:17")  # 17 negotiation + 1 writing
    assert first.deadline == D("2019-09-06T10:18")
    assert table.phases[1].writing_from == D("2019-09-06T10:33")  # Fall 15 + 1
    assert list(dl)[-1] == "F1907"
    assert dl["F1907"] == D("2019-09-06T13:58")  # 7 x 34 min


@pytest.mark.parametrize("round_number, last", [(1, "F1909"), (2, "F1911"), (3, "F1911")])
def test_graduated20_game_length_by_round(round_number, last):
    profile = BUILTIN["graduated20"]
    year = profile.round(round_number).last_year
    dl, _ = deadlines("graduated20", "2010-01-01T19:00", last_year=year)
    assert list(dl)[-1] == last
    assert all(b - a == timedelta(minutes=20) for a, b in pairwise(dl.values()))


def test_meal_break_at_a_spring_deadline_moves_every_later_deadline():
    pause = Pause(at_deadline=PhaseRef.parse("S1903"), minutes=60, reason="Meal break")
    plain, _ = deadlines("wdc2003", "2003-02-14T09:00", last_year=1906)
    dl, table = deadlines("wdc2003", "2003-02-14T09:00", last_year=1906, pauses=(pause,))
    for code, moment in plain.items():
        shift = timedelta(minutes=60) if moment > plain["S1903"] else timedelta(0)
        assert dl[code] == moment + shift, code
    assert table.phase(PhaseRef.parse("F1903")).opens == plain["S1903"] + timedelta(minutes=60)


def test_view_during_the_meal_break_and_at_its_end():
    profile = BUILTIN["wdc2003"]
    pause = Pause(at_deadline=PhaseRef.parse("S1903"), minutes=75, reason="Meal break")
    s = Schedule(start=D("2003-02-15T09:00"), pauses=(pause,))
    s1903 = D("2003-02-15T10:34")  # 2 x 37 + 20 min
    v = view(profile, s, s1903 + timedelta(minutes=10))
    assert v.stage == "paused" and v.pause.reason == "Meal break"
    assert v.restart_at == s1903 + timedelta(minutes=75)
    assert v.phase == PhaseRef.parse("F1903") and v.remaining == 17 * 60
    v = view(profile, s, s1903 + timedelta(minutes=75))
    assert v.stage == "negotiating" and v.remaining == 17 * 60
    v = view(profile, s, s1903 + timedelta(minutes=76))
    assert v.remaining == 16 * 60


def test_open_ended_break_then_resume():
    profile = BUILTIN["wdc2006"]
    start = D("2006-08-04T10:00")
    open_break = Pause(at=D("2006-08-04T10:10"), reason="Fire alarm")
    v = view(profile, Schedule(start=start, pauses=(open_break,)), D("2006-08-04T11:00"))
    assert v.stage == "paused" and v.remaining == 7 * 60
    assert v.deadline is None and v.restart_at is None
    resumed = open_break.model_copy(update={"ended": D("2006-08-04T11:05")})
    s = Schedule(start=start, pauses=(resumed,))
    v = view(profile, s, D("2006-08-04T11:06"))
    assert v.stage == "negotiating" and v.remaining == 6 * 60
    assert v.deadline == D("2006-08-04T11:12")


def test_break_with_announced_restart_time():
    profile = BUILTIN["wdc2006"]
    lunch = Pause(at=D("2006-08-04T12:00"), until=D("2006-08-04T13:45"), reason="Lunch")
    s = Schedule(start=D("2006-08-04T10:00"), pauses=(lunch,))
    v = view(profile, s, D("2006-08-04T13:00"))
    assert v.stage == "paused" and v.restart_at == D("2006-08-04T13:45")
    # 12:00 is 120 min in: S1904 runs 11:36-11:53, F1904 11:53-12:08 -> 8 min left
    assert v.phase == PhaseRef.parse("F1904") and v.remaining == 8 * 60
    assert v.deadline == D("2006-08-04T13:53")


def test_hold_on_one_table_moves_only_that_table():
    profile = BUILTIN["wdc2006"]
    hold = Pause(at=D("2006-08-04T10:05"), minutes=3, table=4, reason="TD ruling")
    s = Schedule(start=D("2006-08-04T10:00"), pauses=(hold,))
    assert view(profile, s, D("2006-08-04T10:06"), table=4).stage == "held"
    assert view(profile, s, D("2006-08-04T10:06"), table=5).stage == "negotiating"
    four = timetable(profile, s, table=4).phases[0].deadline
    five = timetable(profile, s, table=5).phases[0].deadline
    assert (four, five) == (D("2006-08-04T10:20"), D("2006-08-04T10:17"))


def test_extension_for_one_board_and_time_taken_from_all():
    profile = BUILTIN["wdc2006"]
    s = Schedule(
        start=D("2006-08-04T10:00"),
        adjustments=(
            Adjustment(at=D("2006-08-04T10:05"), seconds=120, table=2),
            Adjustment(at=D("2006-08-04T10:06"), seconds=-60),
        ),
    )
    t2 = timetable(profile, s, table=2).phases
    t3 = timetable(profile, s, table=3).phases
    assert t2[0].deadline == D("2006-08-04T10:18")
    assert t3[0].deadline == D("2006-08-04T10:16")
    assert t3[1].deadline == D("2006-08-04T10:31")


def test_taking_away_more_time_than_is_left_ends_the_phase_now():
    profile = BUILTIN["wdc2006"]
    s = Schedule(
        start=D("2006-08-04T10:00"),
        adjustments=(Adjustment(at=D("2006-08-04T10:10"), seconds=-3600),),
    )
    phases = timetable(profile, s).phases
    assert phases[0].deadline == D("2006-08-04T10:10")
    assert phases[1].deadline == D("2006-08-04T10:25")


def test_call_time_ends_the_timetable_at_the_last_deadline_before_it():
    dl, table = deadlines("wdc2018", "2018-10-07T09:00", call=D("2018-10-07T14:30"))
    # 1901-06: 204 min -> 12:24; then 32 min years: F1907 12:56, F1908 13:28, F1909 14:00,
    # S1910 14:17; F1910 would be 14:32, after the call.
    assert list(dl)[-1] == "S1910"
    assert dl["S1910"] == D("2018-10-07T14:17")
    assert table.ends == "call"
    v = view(BUILTIN["wdc2018"], Schedule(start=D("2018-10-07T09:00"), call=D("2018-10-07T14:30")),
             D("2018-10-07T14:20"))
    assert v.stage == "game_over" and v.game_over_reason == "called"
    v = view(BUILTIN["wdc2018"], Schedule(start=D("2018-10-07T09:00"), call=D("2018-10-07T14:30")),
             D("2018-10-07T14:10"))
    assert v.stage == "negotiating" and v.next_phase is None


@pytest.mark.parametrize("rule", ["last_deadline", "last_fall", "at_call"])
def test_a_call_exactly_at_a_deadline_keeps_that_phase(rule):
    """A deadline at the call is at or before it: the phase is played out, by every rule."""
    from dipclock.timeline import counted_phases

    table = timetable(BUILTIN["wdc2006"], Schedule(start=D("2024-05-04T09:00")))
    fall = table.phases[1]  # F1901, due 09:32
    kept = counted_phases(table.phases, fall.deadline, rule)
    assert kept[-1] == fall
    assert fall not in counted_phases(table.phases, fall.deadline - timedelta(seconds=1), rule)


def test_view_stages_through_a_wdc2019_round():
    profile = BUILTIN["wdc2019"]
    s = Schedule(start=D("2019-09-06T10:00"))
    before = view(profile, s, D("2019-09-06T09:58:30"))
    assert (before.stage, before.remaining) == ("before_start", 90)
    neg = view(profile, s, D("2019-09-06T10:05"))
    assert (neg.stage, neg.phase.code, neg.remaining) == ("negotiating", "S1901", 13 * 60)
    writing = view(profile, s, D("2019-09-06T10:17:30"))
    assert (writing.stage, writing.remaining) == ("writing", 30)
    after = view(profile, s, D("2019-09-06T10:18:16"))
    assert after.phase.code == "F1901" and after.previous.ref.code == "S1901"
    assert after.previous.deadline == D("2019-09-06T10:18")
    last = view(profile, s, D("2019-09-06T13:50"))
    assert last.final_year and last.phase.code == "F1907" and last.next_phase is None
    over = view(profile, s, D("2019-09-06T13:58"))
    assert (over.stage, over.game_over_reason) == ("game_over", "last_year")


def test_view_tells_victory_threshold_and_length_changes():
    profile = BUILTIN["wdc2003"]
    s = Schedule(start=D("2003-02-14T19:00"))
    # F1905 runs 21:48-22:05; the next phase, S1906, is 18 min instead of 20.
    v = view(profile, s, D("2003-02-14T22:00"))
    assert v.phase.code == "F1905" and v.victory_centres == 18
    assert (v.next_phase.code, v.next_minutes, v.next_length_changes) == ("S1906", 18, True)
    v = view(profile, s, D("2003-02-14T22:10"))
    assert v.victory_centres == 17 and not v.final_year


def test_phase_ref_parsing():
    assert PhaseRef.parse("s1903") == PhaseRef(year=1903, season="spring")
    assert PhaseRef.parse("A1904").season == "fall"
    for bad in ("X1903", "S19", "1903", "S190a"):
        with pytest.raises(ValueError):
            PhaseRef.parse(bad)


def test_break_window_and_state_follow_the_clock():
    from dipclock.timeline import break_state, break_window

    profile = BUILTIN["wdc2003"]
    meal = Pause(at_deadline=PhaseRef.parse("S1902"), minutes=45, reason="Meal break")
    s = Schedule(start=D("2003-02-15T09:00"), pauses=(meal,))
    # S1902 deadline: 37 + 20 min -> 09:57
    assert break_window(profile, s, meal) == (D("2003-02-15T09:57"), D("2003-02-15T10:42"))
    assert break_state(profile, s, meal, D("2003-02-15T09:50")) == "due"
    assert break_state(profile, s, meal, D("2003-02-15T10:00")) == "running"
    assert break_state(profile, s, meal, D("2003-02-15T10:42")) == "over"
    cancelled = meal.model_copy(update={"ended": D("2003-02-15T09:30")})
    s2 = Schedule(start=D("2003-02-15T09:00"), pauses=(cancelled,))
    assert break_state(profile, s2, cancelled, D("2003-02-15T09:40")) == "over"
    assert timetable(profile, s2).phases[3].deadline == D("2003-02-15T10:14")  # F1902, unmoved
    never = Pause(at_deadline=PhaseRef.parse("S1925"), minutes=5)
    s3 = Schedule(start=D("2003-02-15T09:00"), last_year=1905, pauses=(never,))
    assert break_window(profile, s3, never) == (None, None)


def test_a_phase_opens_when_its_clock_runs_after_time_taken_away_and_a_break():
    profile = BUILTIN["wdc2006"]
    s1901 = D("2006-08-04T10:17")
    cut = Adjustment(at=s1901, seconds=-60)
    plain = timetable(profile, Schedule(start=D("2006-08-04T10:00"), adjustments=(cut,)))
    assert plain.phases[1].opens == s1901  # not a millisecond before the deadline
    meal = Pause(at_deadline=PhaseRef.parse("S1901"), minutes=30)
    s = Schedule(start=D("2006-08-04T10:00"), adjustments=(cut,), pauses=(meal,))
    assert timetable(profile, s).phases[1].opens == s1901 + timedelta(minutes=30)


def test_the_writing_minute_starts_on_its_instant_not_a_tick_later():
    profile = BUILTIN["wdc2019"]
    s = Schedule(start=D("2019-09-06T10:00"))
    tick = timedelta(microseconds=1)
    at = D("2019-09-06T10:17")  # 17 minutes of negotiation, then silence
    assert view(profile, s, at - tick).stage == "negotiating"
    assert (view(profile, s, at).stage, view(profile, s, at).remaining) == ("writing", 60)
    assert view(profile, s, D("2019-09-06T10:18") - tick).stage == "writing"


def test_time_given_during_the_writing_minute_moves_its_start():
    profile = BUILTIN["wdc2019"]
    extra = Adjustment(at=D("2019-09-06T10:17:30"), seconds=120)
    s = Schedule(start=D("2019-09-06T10:00"), adjustments=(extra,))
    first = timetable(profile, s).phases[0]
    assert first.deadline == D("2019-09-06T10:20")
    assert first.writing_from == D("2019-09-06T10:19")  # when the clock last entered it
    assert view(profile, s, D("2019-09-06T10:18")).stage == "negotiating"
    assert view(profile, s, D("2019-09-06T10:19:30")).stage == "writing"


def test_a_table_clock_is_built_once_and_rebuilt_when_the_schedule_changes():
    """A kiosk asks for a view and a timetable every frame: the walk is done once."""
    from dipclock.timeline import table_clock

    start = D("2006-08-04T10:00")
    p = BUILTIN["wdc2006"]
    s = Schedule(start=start)
    first = table_clock(p, s, 3)
    assert table_clock(p, Schedule(start=start), 3) is first  # equal inputs, same clock
    assert table_clock(p, s, 4) is not first  # another table may have its own holds
    paused = s.model_copy(update={"pauses": (Pause(at=start + timedelta(minutes=5)),)})
    rebuilt = table_clock(p, paused, 3)
    assert rebuilt is not first
    assert rebuilt.phases == ()  # an open-ended break from 10:05: no deadline is known
    assert first.phases[0].deadline == start + timedelta(minutes=17)


def test_time_given_early_in_the_first_phase_never_puts_the_round_back_before_its_start():
    """+5 min at 10:01 on a round that started at 10:00: at 10:02 the table is negotiating
    with 20 minutes left, not "starts in 3:00" (the game clock is below 0, the round is on)."""
    start = D("2006-08-04T10:00")
    s = Schedule(start=start, adjustments=(Adjustment(at=D("2006-08-04T10:01"), seconds=300),))
    v = view(BUILTIN["wdc2006"], s, D("2006-08-04T10:02"))
    assert (v.stage, v.phase.code, v.remaining) == ("negotiating", "S1901", 20 * 60)
    before = view(BUILTIN["wdc2006"], s, D("2006-08-04T09:59"))
    assert (before.stage, before.remaining) == ("before_start", 60)

"""The timeline's invariants, for any event, start, breaks and adjustments (hypothesis)."""

from datetime import datetime, timedelta
from itertools import pairwise

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.phaseview import view
from dipclock.schedule import Adjustment, Pause, PhaseRef, Schedule
from dipclock.timeline import timetable

START = datetime(2020, 6, 6, 10, 0)
events = st.sampled_from(sorted(BUILTIN))
offsets = st.integers(min_value=0, max_value=6 * 3600)  # seconds into the round


@st.composite
def schedules(draw):
    anchored = draw(
        st.lists(
            st.builds(
                lambda y, s, m: Pause(at_deadline=PhaseRef(year=y, season=s), minutes=m),
                st.integers(1901, 1906),
                st.sampled_from(["spring", "fall"]),
                st.integers(1, 90),
            ),
            max_size=2,
        )
    )
    extra = draw(
        st.lists(
            st.builds(
                lambda at, s: Adjustment(at=START + timedelta(seconds=at), seconds=s),
                offsets,
                st.integers(1, 600),
            ),
            max_size=2,
        )
    )
    return Schedule(start=START, last_year=1908, pauses=tuple(anchored), adjustments=tuple(extra))


@settings(max_examples=150, deadline=None)
@given(events, schedules())
def test_deadlines_strictly_increase(event, schedule):
    phases = timetable(BUILTIN[event], schedule).phases
    assert phases, "a round has deadlines"
    for a, b in pairwise(phases):
        assert a.deadline < b.deadline
        assert a.deadline <= b.opens < b.deadline


@settings(max_examples=150, deadline=None)
@given(events, schedules(), offsets, st.integers(1, 120))
def test_a_pause_of_n_minutes_moves_every_later_deadline_by_n(event, schedule, at, minutes):
    profile = BUILTIN[event]
    moment = START + timedelta(seconds=at)
    # an adjustment is made at a real moment: one after the pause would land in another
    # phase, so only earlier ones belong in this property
    schedule = schedule.model_copy(
        update={"adjustments": tuple(a for a in schedule.adjustments if a.at < moment)}
    )
    assume(view(profile, schedule, moment).stage not in ("paused", "held"))
    before = timetable(profile, schedule).phases
    paused = schedule.model_copy(
        update={"pauses": schedule.pauses + (Pause(at=moment, minutes=minutes),)}
    )
    after = timetable(profile, paused).phases
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        shift = timedelta(minutes=minutes) if old.deadline > moment else timedelta(0)
        assert new.deadline == old.deadline + shift, old.ref.code


@settings(max_examples=200, deadline=None)
@given(events, schedules(), offsets, st.integers(0, 900))
def test_remaining_time_never_negative_and_falls_with_the_clock(event, schedule, at, step):
    profile = BUILTIN[event]
    t1 = START + timedelta(seconds=at)
    t2 = t1 + timedelta(seconds=step)
    v1, v2 = view(profile, schedule, t1), view(profile, schedule, t2)
    assert v1.remaining >= 0 and v2.remaining >= 0
    running = ("negotiating", "writing")
    quiet = not any(t1 <= a.at <= t2 for a in schedule.adjustments)
    phases = timetable(profile, schedule).phases
    # no break starts in between: every break here starts at a deadline
    no_deadline_between = not any(t1 < p.deadline <= t2 for p in phases)
    if v1.stage in running and v2.stage in running and quiet and no_deadline_between:
        assert v1.phase == v2.phase
        assert abs((v1.remaining - v2.remaining) - step) < 1e-6

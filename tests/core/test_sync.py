"""The NTP arithmetic, the lowest-delay filter and the slewed display offset."""

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipclock.sync import (
    DRIFT,
    OffsetFilter,
    Slew,
    error_bound,
    sample,
    to_moment,
    to_seconds,
)


@given(
    st.floats(-1e6, 1e6), st.floats(0, 2), st.floats(0, 2), st.floats(0, 0.5),
)
def test_symmetric_legs_give_the_exact_offset(offset, leg, other, processing):
    t0 = 1000.0
    t1 = t0 + leg + offset
    t2 = t1 + processing
    t3 = t2 - offset + leg
    s = sample(t0, t1, t2, t3)
    assert abs(s.offset - offset) < 1e-6
    assert abs(s.delay - 2 * leg) < 1e-6


def test_filter_trusts_the_fastest_recent_sample():
    f = OffsetFilter(size=4, max_age=60)
    slow, fast, latest = (sample(0, 10.5, 10.5, 1.0),  # offset 10.0, delay 1.0
                          sample(2, 12.2, 12.2, 2.1),  # offset 10.15, delay 0.1: the one
                          sample(3, 13.5, 13.5, 3.6))  # offset 10.2, delay 0.6
    assert len({slow.offset, fast.offset, latest.offset}) == 3  # each choice tells apart
    for s in (slow, fast, latest):
        f.add(s)
    assert f.best(4) == fast
    assert f.best(1000) is None  # all too old


def test_an_old_sample_gives_way_to_a_fresh_one_nearly_as_fast():
    """Sampled every 30 s, a kiosk whose crystal is 50 ppm off would trust a sample minutes
    old and be off by its age times the drift: the fresher one wins once the older one's
    age costs more than the half round trip it saves."""
    f = OffsetFilter(size=8, max_age=600)
    old = sample(0, 10.001, 10.001, 0.002)  # delay 2 ms, taken at 0.002
    fresh = sample(200, 210.0025, 210.0025, 200.005)  # delay 5 ms, taken at 200.005
    f.add(old)
    f.add(fresh)
    assert f.best(old.taken + 1) == old  # alone, or nearly as fresh: the faster one
    assert f.best(200.005) == fresh  # 200 s at 50 ppm (10 ms) is worse than 1.5 ms more
    assert error_bound(old, 200.005) == pytest.approx(0.001 + DRIFT * 200.003)
    still = OffsetFilter(size=8, max_age=600, drift=0)  # no drift: the fastest, however old
    still.add(old)
    still.add(fresh)
    assert still.best(200.005) == old


def test_slew_moves_gently_and_steps_when_far():
    s = Slew(rate=0.05, step_over=1.0)
    assert s.update(10.0, now=0) == 10.0  # first value: step
    assert s.update(10.3, now=1) == 10.05  # 50 ms per second
    assert abs(s.update(10.3, now=3) - 10.15) < 1e-9
    assert s.update(20.0, now=4) == 20.0  # far off: step


def test_local_seconds_round_trip():
    moment = datetime(2006, 8, 4, 10, 17, 5, 250000)
    assert to_moment(to_seconds(moment)) == moment

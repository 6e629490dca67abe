"""The NTP arithmetic, the lowest-delay filter and the slewed display offset."""

from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from dipclock.sync import OffsetFilter, Slew, sample, to_moment, to_seconds


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


def test_slew_moves_gently_and_steps_when_far():
    s = Slew(rate=0.05, step_over=1.0)
    assert s.update(10.0, now=0) == 10.0  # first value: step
    assert s.update(10.3, now=1) == 10.05  # 50 ms per second
    assert abs(s.update(10.3, now=3) - 10.15) < 1e-9
    assert s.update(20.0, now=4) == 20.0  # far off: step


def test_local_seconds_round_trip():
    moment = datetime(2006, 8, 4, 10, 17, 5, 250000)
    assert to_moment(to_seconds(moment)) == moment

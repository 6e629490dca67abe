"""The NTP arithmetic, the lowest-delay filter and the slewed display offset."""

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipclock.sync import (
    DRIFT,
    OffsetFilter,
    Rate,
    Sample,
    Slew,
    error_bound,
    rate_of,
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
    f = OffsetFilter(size=4)
    slow, fast, latest = (sample(0, 10.5, 10.5, 1.0),  # offset 10.0, delay 1.0
                          sample(2, 12.2, 12.2, 2.1),  # offset 10.15, delay 0.1: the one
                          sample(3, 13.5, 13.5, 3.6))  # offset 10.2, delay 0.6
    assert len({slow.offset, fast.offset, latest.offset}) == 3  # each choice tells apart
    for s in (slow, fast, latest):
        f.add(s)
    assert f.best(4) == fast and f.estimate(4) == fast.offset  # too close for a rate
    assert f.rate == Rate(0.0, DRIFT)


def test_an_old_sample_gives_way_to_a_fresh_one_nearly_as_fast():
    """With no rate known, a sample minutes old is off by its age times a crystal's drift:
    the fresher one wins once the older one's age costs more than the half round trip it
    saves."""
    old = sample(0, 10.001, 10.001, 0.002)  # delay 2 ms, taken at 0.002
    fresh = sample(200, 210.0025, 210.0025, 200.005)  # delay 5 ms, taken at 200.005
    assert error_bound(old, 200.005) == pytest.approx(0.001 + DRIFT * 200.003)
    assert error_bound(fresh, 200.005) == pytest.approx(0.0025)
    assert error_bound(old, 1.0) < error_bound(fresh, 1.0)


def drifting(skew: float, noise: list[float], every: float, delay: float = 0.002
             ) -> list[Sample]:
    """Samples of a kiosk clock running ``skew`` fast against the hub, one every ``every``
    s, each leg ``delay`` / 2 but for a lopsidedness of ``noise[i]`` (|noise| <= delay)."""
    out = []
    for i, lop in enumerate(noise):
        real = 100.0 + i * every
        t0 = 7.0 + real * (1 + skew)  # the kiosk's clock: its own zero and rate
        up, down = (delay + lop) / 2, (delay - lop) / 2
        t1 = 5000.0 + real + up  # the hub's clock: real time plus its own zero
        t3 = 7.0 + (real + up + down) * (1 + skew)
        out.append(sample(t0, t1, t1, t3))
    return out


def truth(skew: float, mono: float) -> float:
    """Hub time minus the kiosk's clock at the kiosk's ``mono``."""
    real = (mono - 7.0) / (1 + skew)
    return 5000.0 + real - mono


@given(st.floats(-50e-6, 50e-6), st.lists(st.floats(-0.002, 0.002), min_size=8, max_size=8))
def test_the_estimate_stays_within_its_bound_as_the_crystal_drifts(skew, noise):
    """Sampled every 30 s over 4 minutes on a 2 ms link, then a minute with no sample:
    the estimate is within the best sample's half round trip plus the rate's error over
    its age, and a few milliseconds whatever the crystal's drift (unmoved, it would be
    off by up to 50 ppm of the 5 minutes since the first sample: 15 ms)."""
    f = OffsetFilter(size=8)
    for s in drifting(skew, noise, every=30.0):
        f.add(s)
    now = max(s.taken for s in drifting(skew, noise, every=30.0)) + 60.0
    best = f.best(now)
    err = abs(f.estimate(now) - truth(skew, now))
    # and, second order, the drift over a sample's own round trip: the round trip is timed
    # on one clock, the hub's part of it on the other (2 ms at 50 ppm: 0.1 µs)
    assert err <= error_bound(best, now, f.rate.error) + abs(skew) * best.delay + 1e-9
    assert f.rate.error < DRIFT / 2  # two samples 210 s apart pin the rate to ~10 ppm
    assert err < 0.003


def test_the_rate_is_that_of_the_clocks():
    f = OffsetFilter(size=8)
    for s in drifting(40e-6, [0.0] * 8, every=30.0):
        f.add(s)
    assert f.rate.value == pytest.approx(-40e-6, rel=1e-3)  # the kiosk's clock gains
    short = rate_of(drifting(40e-6, [0.0] * 8, every=2.0))  # 14 s: too short to tell
    assert short == Rate(0.0, DRIFT)


def test_slew_moves_gently_and_steps_when_far():
    s = Slew(rate=0.05, step_over=1.0, settle=1e9)
    assert s.update(10.0, now=0) == 10.0  # first value: step
    assert s.update(10.3, now=1) == 10.05  # 50 ms per second
    assert abs(s.update(10.3, now=3) - 10.15) < 1e-9
    assert s.update(20.0, now=4) == 20.0  # far off: step


def test_a_millisecond_of_sample_noise_moves_the_screen_by_a_fifth_of_it_a_second():
    """The default: a kiosk's new sample 1 ms from the last moves its countdown over five
    seconds, not at once; a TD's half-second correction is taken in well under a minute."""
    s = Slew()
    s.update(10.0, now=0)
    assert s.update(10.001, now=1) == pytest.approx(10.0002)
    assert s.update(10.001, now=3) == pytest.approx(10.0006)
    assert s.update(10.001, now=6) == 10.001
    target, t = 10.501, 6.0
    while abs(s.value - target) > 0.01:  # 50 ms a second at first, then a fifth of the gap
        t += 0.1
        s.update(target, now=t)
    assert t < 6 + 25  # within 10 ms of the TD's time in 25 s, then all of it
    assert s.update(target, now=t + 20) == target


def test_local_seconds_round_trip():
    moment = datetime(2006, 8, 4, 10, 17, 5, 250000)
    assert to_moment(to_seconds(moment)) == moment

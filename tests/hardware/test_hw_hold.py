"""The one press/hold rule every source shares."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import ButtonEvent, PressHoldTracker


def test_short_push_is_a_press_stamped_at_down() -> None:
    t = PressHoldTracker("test")
    t.down("F", 10.0)
    assert t.poll(12.9) == []
    assert t.up("F", 12.9) == ButtonEvent("F", "press", 10.0, "test")


def test_poll_emits_one_hold_at_the_threshold_and_release_adds_nothing() -> None:
    t = PressHoldTracker("test")
    t.down("R", 10.0)
    assert t.poll(13.7) == [ButtonEvent("R", "hold", 13.0, "test")]
    assert t.poll(20.0) == []
    assert t.up("R", 21.0) is None


def test_external_timer_hold_then_release_adds_nothing() -> None:
    t = PressHoldTracker("test")
    t.down("G", 1.0)
    assert t.held("G", 4.01) == ButtonEvent("G", "hold", 4.01, "test")
    assert t.held("G", 4.02) is None
    assert t.up("G", 4.5) is None


def test_release_after_hold_time_without_poll_is_a_hold_not_a_press() -> None:
    t = PressHoldTracker("test")
    t.down("T", 0.0)
    assert t.up("T", 5.0) == ButtonEvent("T", "hold", 3.0, "test")


def test_held_for_a_button_not_down_is_ignored() -> None:
    t = PressHoldTracker("test")
    assert t.held("A", 1.0) is None
    assert t.up("A", 2.0) is None


def test_glitch_shorter_than_min_press_is_not_a_press() -> None:
    t = PressHoldTracker("test", min_press_seconds=0.05)
    t.down("I", 1.0)
    assert t.up("I", 1.01) is None
    t.down("I", 2.0)
    assert t.up("I", 2.08) == ButtonEvent("I", "press", 2.0, "test")


def test_powers_are_independent() -> None:
    t = PressHoldTracker("test")
    t.down("A", 0.0)
    t.down("E", 1.0)
    assert t.poll(3.5) == [ButtonEvent("A", "hold", 3.0, "test")]
    assert t.up("E", 3.5) == ButtonEvent("E", "press", 1.0, "test")
    assert t.up("A", 3.6) is None


def test_cancel_forgets_pushes() -> None:
    t = PressHoldTracker("test")
    t.down("A", 0.0)
    t.cancel()
    assert t.poll(10.0) == []
    assert t.up("A", 10.0) is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"hold_seconds": 0}, "hold_seconds"), ({"min_press_seconds": 3.0}, "min_press")],
)
def test_bad_settings_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PressHoldTracker("test", **kwargs)


def test_unknown_power_is_refused() -> None:
    with pytest.raises(ValueError):
        PressHoldTracker("test").down("X", 0.0)


HOLD, MIN_PRESS = 3000, 50  # integer milliseconds keep the boundary arithmetic exact

push = st.tuples(
    st.integers(0, 5000),  # gap before the push
    st.integers(0, 6000),  # how long it is down
    st.lists(st.integers(0, 6000), max_size=4),  # polls, as offsets from the down time
    st.booleans(),  # a repeated (auto-repeat) down in the middle
    st.booleans(),  # a stray up before the push
)


@given(st.sampled_from("AEFGIRT"), st.lists(push, max_size=8))
def test_every_push_gives_exactly_the_event_its_duration_says(power: str, pushes: list) -> None:
    t = PressHoldTracker("test", HOLD, MIN_PRESS)
    now = 0
    for gap, duration, polls, repeat, stray_up in pushes:
        now += gap
        if stray_up:
            assert t.up(power, now) is None
        down, up = now, now + duration
        t.down(power, down)
        got: list[ButtonEvent] = []
        for offset in sorted(p for p in polls if p < duration):
            if repeat and offset > duration // 2:
                t.down(power, down + offset)
            got += t.poll(down + offset)
        ended = t.up(power, up)
        got += [ended] if ended else []
        if duration >= HOLD:
            assert got == [ButtonEvent(power, "hold", down + HOLD, "test")]
        elif duration >= MIN_PRESS:
            assert got == [ButtonEvent(power, "press", down, "test")]
        else:
            assert got == []
        now = up

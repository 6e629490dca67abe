"""Keyboard as buttons: the kiosk forwards key edges and polls once a frame."""

from __future__ import annotations

import pytest

from dipclock.errors import DipclockError
from hardware import ButtonEvent, ButtonsClosed, KeyboardButtons


def test_quick_tap_is_a_press_stamped_at_key_down(events, take_all) -> None:
    kb = KeyboardButtons(events)
    assert kb.key_down("a", 100.0)
    kb.poll(100.5)
    assert events.empty()  # nothing until the key is released
    assert kb.key_up("a", 100.8)
    assert take_all(events) == [ButtonEvent("A", "press", 100.0, "keyboard")]


def test_held_key_gives_one_hold_while_down_and_no_press_on_release(events, take_all) -> None:
    kb = KeyboardButtons(events)
    kb.key_down("R", 10.0)
    kb.poll(12.99)
    assert events.empty()
    kb.poll(13.2)
    kb.poll(14.0)
    kb.key_up("R", 15.0)
    assert take_all(events) == [ButtonEvent("R", "hold", 13.0, "keyboard")]


def test_release_past_hold_time_without_polling_is_still_a_hold(events, take_all) -> None:
    kb = KeyboardButtons(events)
    kb.key_down("T", 0.0)
    kb.key_up("T", 4.0)
    assert take_all(events) == [ButtonEvent("T", "hold", 3.0, "keyboard")]


def test_key_repeat_does_not_move_the_press_time(events, take_all) -> None:
    kb = KeyboardButtons(events)
    for t in (5.0, 5.5, 5.53, 5.56):  # OS auto-repeat sends more key-downs
        kb.key_down("g", t)
    kb.key_up("g", 5.6)
    assert take_all(events) == [ButtonEvent("G", "press", 5.0, "keyboard")]


def test_other_keys_are_not_consumed(events) -> None:
    kb = KeyboardButtons(events)
    assert not kb.key_down("x", 1.0)
    assert not kb.key_up("x", 1.1)
    assert not kb.key_down("space", 1.0)
    assert events.empty()


def test_times_default_to_the_injected_clock(events, clock, take_all) -> None:
    kb = KeyboardButtons(events, clock=clock)
    kb.key_down("I")
    start = clock()
    clock.advance(0.3)
    kb.key_up("I")
    assert take_all(events) == [ButtonEvent("I", "press", start, "keyboard")]
    kb.key_down("E")
    clock.advance(3.0)
    kb.poll()
    assert take_all(events) == [ButtonEvent("E", "hold", clock(), "keyboard")]


def test_hold_seconds_is_configurable(events, take_all) -> None:
    kb = KeyboardButtons(events, hold_seconds=1.0)
    kb.key_down("F", 0.0)
    kb.poll(1.0)
    assert take_all(events) == [ButtonEvent("F", "hold", 1.0, "keyboard")]


def test_overlapping_keys_are_independent(events, take_all) -> None:
    kb = KeyboardButtons(events)
    kb.key_down("A", 0.0)
    kb.key_down("E", 0.1)
    kb.key_up("E", 0.2)
    kb.poll(3.0)
    kb.key_up("A", 3.1)
    assert take_all(events) == [
        ButtonEvent("E", "press", 0.1, "keyboard"),
        ButtonEvent("A", "hold", 3.0, "keyboard"),
    ]


def test_cancel_on_focus_loss_forgets_keys_down(events) -> None:
    kb = KeyboardButtons(events)
    kb.key_down("A", 0.0)
    kb.cancel()  # window lost focus: the key-up will never come
    kb.poll(10.0)
    kb.key_up("A", 10.0)
    assert events.empty()


def test_a_closed_keyboard_refuses_keys_and_forgets_the_ones_down(events) -> None:
    with KeyboardButtons(events) as kb:
        assert not kb.closed
        kb.key_down("A", 0.0)
    assert kb.closed
    kb.close()  # again: nothing
    for use in (lambda: kb.key_up("A", 0.5), lambda: kb.key_down("E", 1.0),
                lambda: kb.poll(9.0), kb.cancel):
        with pytest.raises(ButtonsClosed, match="keyboard buttons are closed"):
            use()
    assert events.empty()
    assert isinstance(ButtonsClosed("x"), DipclockError)

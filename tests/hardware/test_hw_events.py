"""ButtonEvent is the contract with the kiosk: it must refuse anything the clock can't use."""

from __future__ import annotations

import dataclasses
import queue

import pytest

from hardware import POWERS, ButtonEvent
from hardware.events import post


def test_powers_are_in_table_order() -> None:
    assert POWERS == "AEFGIRT"


def test_event_is_frozen_and_compares_by_value() -> None:
    e = ButtonEvent("A", "press", 1.5, "gpio")
    assert e == ButtonEvent("A", "press", 1.5, "gpio")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.power = "E"  # type: ignore[misc]


@pytest.mark.parametrize("power", ["X", "a", "", "AE"])
def test_event_refuses_unknown_power(power: str) -> None:
    with pytest.raises(ValueError, match="power"):
        ButtonEvent(power, "press", 0.0, "gpio")


def test_event_refuses_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind"):
        ButtonEvent("A", "release", 0.0, "gpio")  # type: ignore[arg-type]


def test_post_drops_and_logs_instead_of_blocking_on_a_full_queue(caplog) -> None:
    q: queue.Queue[ButtonEvent] = queue.Queue(maxsize=1)
    post(q, ButtonEvent("A", "press", 1.0, "gpio"))
    post(q, ButtonEvent("E", "press", 2.0, "gpio"))  # would block forever with put()
    assert q.get_nowait().power == "A"
    assert q.empty()
    assert "dropped" in caplog.text

"""``make card-test`` judges a screendump by its colours (``benchmarks.card_test.clock_shown``):
the real frames the drawing code made for the README say which are the table's clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.card_test import clock_shown

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.mark.parametrize("frame", ["negotiating", "last-minutes", "late-orders", "writing",
                                   "before-start", "meal-break", "held"])
def test_a_counting_screen_is_the_clock(frame: str) -> None:
    assert clock_shown(SHOTS / f"{frame}.png")


@pytest.mark.parametrize("frame", ["looking-for-the-hub", "cannot-start", "hall"])
def test_the_pairing_screen_and_others_are_not(frame: str) -> None:
    """The first card-test run took the pairing screen, power tiles and all, for the clock."""
    assert not clock_shown(SHOTS / f"{frame}.png")


def test_no_picture_is_no_clock(tmp_path: Path) -> None:
    assert not clock_shown(tmp_path / "missing.png")


def test_a_power_cut_before_any_press_was_acknowledged_proves_nothing() -> None:
    """card-test's power-cut step: 0 lost out of 0 acknowledged is not a pass."""
    from benchmarks.card_test import WANTED, judged

    figures = {k: True for k in WANTED} | {"power_cut_lost": 0, "power_cut_acknowledged": 12}
    assert judged(figures)
    assert not judged(figures | {"power_cut_acknowledged": 0})
    assert not judged(figures | {"power_cut_lost": 1})
    assert not judged({k: v for k, v in figures.items() if k != "raspi3b_userspace"})
    assert not judged(figures | {"failed": "power_cut: no presses within 180 s"})

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

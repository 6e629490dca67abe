"""The table's vote drawn at every screen size: its panel above the chips and each voter's
mark on its chip, the countdown still the largest thing on the screen (wdc2018: "The clock
DOES NOT STOP for draw votes"); nothing cut off, nothing over another (``test_draw`` runs
the same scenes through its own checks)."""

from __future__ import annotations

import pytest

from kiosk.draw import Painter
from kiosk.screenshots import SCENES, draw

from .test_draw import SIZES, assert_on_screen_and_apart

painter = Painter()
VOTING = [s for s in SCENES if s.vote is not None and s.vote.state != "passed"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", VOTING, ids=lambda s: s.name)
def test_the_vote_panel_and_marks_beside_a_large_countdown(scene: object,
                                                           size: tuple[int, int]) -> None:
    surface, drawn, screen = draw(scene, size, painter)  # type: ignore[arg-type]
    assert_on_screen_and_apart(surface, drawn)
    vote = screen.vote
    assert vote is not None
    assert " ".join(d.text for d in drawn if d.role == "vote") == vote.headline
    assert " ".join(d.text for d in drawn if d.role == "vote_status") == vote.status
    marks = {d.role.split("-")[1]: d.text for d in drawn if d.role.endswith("-vote")}
    assert marks == {m.letter: m.word for m in vote.marks}
    big = next(d for d in drawn if d.role == "big")
    panel = [d for d in drawn if d.role in ("vote", "vote_status")]
    chips = [d for d in drawn if d.role.startswith("chip-")]
    assert big.rect.h >= min(size) * 0.25, "the countdown is small"
    assert all(big.rect.bottom <= p.rect.top for p in panel), "the panel hides the countdown"
    assert all(p.rect.bottom <= min(c.rect.top for c in chips) for p in panel)


def test_the_vetoed_result_is_drawn_on_its_own_colour() -> None:
    scene = next(s for s in SCENES if s.name == "vote-vetoed")
    surface, drawn, screen = draw(scene, (800, 480), painter)
    line = next(d for d in drawn if d.role == "vote")
    assert screen.vote is not None and screen.vote.state == "vetoed"
    assert surface.get_at((line.rect.left - 2, line.rect.centery))[:3] == (150, 40, 44)

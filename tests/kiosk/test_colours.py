"""States for everyone (issue 38): the table screen's colours read back from the real frames.

Every stage is drawn by the live code (``benchmarks.contrast``, on the scenes of
``kiosk.screenshots``) on the official 7-inch display's 800x480, where text is smallest; the
colours are sampled where ``render`` says it drew. The rules: WCAG 2's text contrast; states
side by side apart by luminance or told by a word; "orders in" against "late" apart by
colour alone, as a player with each of the three common colour-vision deficiencies sees it;
nothing flashes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import re
from pathlib import Path

import numpy as np
import pygame
import pytest

from benchmarks import contrast
from kiosk.screenshots import draw

DEFICIENCIES = tuple(contrast.DEFICIENCIES)


@pytest.fixture(scope="module")
def frames() -> list[contrast.Frame]:
    return contrast.frames((800, 480))


@pytest.fixture(scope="module")
def pairs(frames: list[contrast.Frame]) -> list[contrast.Pair]:
    return contrast.pairs(frames)


def test_the_measure_is_wcag_s():
    """The standard's own end points, and issue 38's measure of the old "in" chip."""
    assert contrast.ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast.ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast.ratio((245, 246, 248), (30, 150, 74)) == pytest.approx(3.5, abs=0.05)


def test_every_stage_and_every_chip_state_is_drawn(frames: list[contrast.Frame]):
    looks = {f.look for f in frames}
    assert {"before_start", "negotiating", "warning", "writing", "late", "paused", "held",
            "adjudicating", "game_over"} <= looks
    assert any(f.scene.startswith("vote") for f in frames)
    assert set(contrast.ROW_STATES) <= {s for f in frames for s in f.chips}


def test_every_text_meets_wcag_contrast(frames: list[contrast.Frame]):
    """WCAG 2.2 1.4.3: 4.5:1, or 3:1 for large text (24 px and up)."""
    _meets_wcag(frames)


def test_every_text_meets_wcag_contrast_on_a_portrait_panel():
    """480x800, where a long label wraps onto small lines (the game over's band)."""
    _meets_wcag(contrast.frames((480, 800)))


def _meets_wcag(frames: list[contrast.Frame]) -> None:
    low = [f"{t.scene}: {t.role} {t.text!r} {t.ink} on {t.background} {t.ratio:.2f}:1 "
           f"(least {t.least}:1)" for f in frames for t in f.texts if t.ratio < t.least]
    assert not low, "\n".join(low)


def test_every_state_carries_its_word(frames: list[contrast.Frame]):
    """A chip says its state ("IN", "+12 s", "OUT"; waiting: empty, alone in that), a band
    its stage, so no state is told by colour alone."""
    for f in frames:
        assert f.label.strip(), f.scene
        for state, (_, word) in f.chips.items():
            assert bool(word) == (state != "waiting"), (f.scene, state, word)
    words = {s: w for f in frames for s, (_, w) in f.chips.items()}
    assert words["in"] == "IN" and words["out"] == "OUT"
    assert words["late"].startswith("+") and words["late"].endswith(" s")
    assert words["just_late"].startswith("IN +")


def test_states_side_by_side_differ_by_luminance_or_word(pairs: list[contrast.Pair]):
    """Chips in a row, and the stage bands a player compares: 3:1 apart in luminance, or
    told by a word; "in" against "late" (chips and bands) by luminance itself."""
    for p in pairs:
        if p.seen != "normal":
            continue
        assert p.ratio >= contrast.STATES_MIN or p.told_by_word, p
        if p.at_a_glance:
            assert p.ratio >= contrast.STATES_MIN, p


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_colour_blind_players_tell_the_states_apart(pairs: list[contrast.Pair],
                                                    deficiency: str):
    """As a player with protanopia, deuteranopia or tritanopia sees the frame: no two states
    alike (under 3:1 in luminance and under ``ALIKE_DELTA_E`` in CAM02-UCS) unless a word
    tells them apart, and "in" against "late" never alike."""
    for p in pairs:
        if p.seen != deficiency:
            continue
        assert not p.alike or p.told_by_word, p
        if p.at_a_glance:
            assert not p.alike, p


def test_simulation_sees_the_old_colours_as_alike():
    """The check can fail: issue 38's old "in" green and "late" red are alike to a
    deuteranope (1.04:1 in luminance, a difference of 10)."""
    old_in, old_late = (30, 150, 74), (214, 36, 36)
    a, b = (contrast.seen_as(c, "deuteranopia") for c in (old_in, old_late))
    assert contrast.ratio(a, b) < contrast.STATES_MIN
    assert contrast.difference(a, b) < contrast.ALIKE_DELTA_E
    assert contrast.difference(old_in, old_late) > 2 * contrast.ALIKE_DELTA_E


def most_changes_in_a_second(shots: list[np.ndarray]) -> int:
    """Of frames a tenth of a second apart: the most times one pixel changes within ten."""
    changed = np.stack([np.abs(b - a).sum(axis=2) > 30
                        for a, b in itertools.pairwise(shots)])
    return max(int(changed[i:i + 10].sum(axis=0).max()) for i in range(len(changed) - 9))


@pytest.mark.parametrize("name", ["late-orders", "last-minutes", "held"])
def test_nothing_flashes(name: str):
    """WCAG 2.3.1: no more than three flashes (a flash: a pair of opposing changes) in any
    second. The screen is drawn as the app draws it (``kiosk.state`` at the moment, then
    ``render``), every tenth of a second over two seconds: no pixel changes more than six
    times in a second (the countdown's digits, and a late count, change once a second)."""
    scene = contrast.scene(name)
    shots = []
    for tenth in range(21):
        at = scene.at + dt.timedelta(milliseconds=100 * tenth)
        surface, _, _ = draw(dataclasses.replace(scene, at=at), (400, 240))
        shots.append(pygame.surfarray.array3d(surface).astype(np.int16))
    assert most_changes_in_a_second(shots) <= 6
    if name != "held":  # a held table's time stands still
        assert most_changes_in_a_second(shots) >= 1, "the countdown should tick"


def test_a_blink_would_be_caught():
    """The check can fail: a band blinking at 5 Hz (on, off, every tenth) changes ten times
    a second."""
    on, off = np.zeros((4, 4, 3), np.int16), np.full((4, 4, 3), 200, np.int16)
    assert most_changes_in_a_second([on if i % 2 else off for i in range(21)]) == 10
    assert most_changes_in_a_second([on if (i // 10) % 2 else off for i in range(21)]) <= 2


STYLE = Path(__file__).resolve().parents[2] / "server" / "static" / "style.css"


def css_rules() -> dict[str, dict[str, str]]:
    """style.css's rules by selector, each ``var(--name)`` replaced by its value in
    ``:root`` (the sheet is small and flat: a rule per selector list, no nesting to speak
    of, so a pattern reads it; no CSS parser is a dependency of the project)."""
    rules: dict[str, dict[str, str]] = {}
    text = re.sub(r"/\*.*?\*/", "", STYLE.read_text(encoding="utf-8"), flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        decls = dict((k.strip(), v.strip()) for k, _, v in
                     (d.partition(":") for d in body.split(";") if ":" in d))
        for sel in selectors.split(","):
            rules.setdefault(" ".join(sel.split()), {}).update(decls)
    root = rules.get(":root", {})
    for decls in rules.values():
        for k, v in decls.items():
            decls[k] = re.sub(r"var\((--[\w-]+)\)", lambda m: root.get(m.group(1), ""), v)
    return rules


def hex_colour(value: str) -> tuple[int, int, int]:
    h = value.strip().lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def test_the_dashboard_s_chips_and_marks_read_for_everyone():
    """The TD's grid (``grid.js``): each chip and mark's text 4.5:1 on its colour; "in"
    against "late" 3:1 apart in luminance and under each deficiency; "in" told by a tick as
    well as its green (its text is the power's letter alone), "out" by a line through it,
    "late" by its seconds."""
    rules = css_rules()
    base = rules[".chip"]
    for sel in (".chip", ".chip.in", ".chip.late", ".mark", ".mark.ok", ".mark.warn",
                ".mark.bad"):
        got = {**(base if sel.startswith(".chip") else rules[".mark"]), **rules[sel]}
        assert "opacity" not in got, sel
        ink, ground = hex_colour(got["color"]), hex_colour(got["background"])
        assert contrast.ratio(ink, ground) >= contrast.TEXT_MIN, (sel, got)
    chip_in = hex_colour(rules[".chip.in"]["background"])
    chip_late = hex_colour(rules[".chip.late"]["background"])
    assert contrast.ratio(chip_in, chip_late) >= contrast.STATES_MIN
    for how in DEFICIENCIES:
        a, b = contrast.seen_as(chip_in, how), contrast.seen_as(chip_late, how)
        assert contrast.ratio(a, b) >= contrast.STATES_MIN, how
    assert rules[".chip.in::after"]["content"].strip('"').strip()
    assert "line-through" in rules[".chip.out"]["text-decoration"]
    assert "opacity" not in rules[".chip.out"]

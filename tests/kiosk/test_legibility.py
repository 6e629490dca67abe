"""The distance table's arithmetic and measurement (``benchmarks.legibility``): the sign
rule's own figures, and the countdown's ink measured on a real frame."""

from __future__ import annotations

import pytest

from benchmarks.legibility import DISPLAYS, measure, reads_from, row


def test_the_sign_rule_s_own_figures():
    """ADA 703.5.5: 16 mm up to 1.83 m, plus 3.2 mm per 305 mm beyond: 23 mm reads to
    about 2.5 m (issue 38's figure for the 7-inch display's countdown)."""
    assert reads_from(16.0) == pytest.approx(1.83)
    assert reads_from(19.2) == pytest.approx(1.83 + 0.305)
    assert reads_from(23.0) == pytest.approx(2.50, abs=0.01)
    assert reads_from(15.9) is None


def test_the_countdown_is_measured_on_the_frame_the_table_shows():
    touch = measure(DISPLAYS[0])
    countdown = touch["countdown"]
    assert isinstance(countdown, dict)
    # 800x480 at 0.179 mm a pixel: the digits fill most of the band between the label
    # and the chips, some 140 px
    assert 110 <= countdown["px"] <= 170 and 20 <= countdown["mm"] <= 31
    assert countdown["reads_from_m"] == pytest.approx(reads_from(countdown["mm"]), abs=0.06)
    tv = measure(DISPLAYS[-1])
    assert tv["countdown"]["mm"] > 5 * countdown["mm"]  # type: ignore[index]
    assert row(touch).startswith('| Raspberry Pi Touch Display 7" | 800x480 | ')

"""A power's second press within 30 s (``dipclock.late.REPEAT``) on the table's clock, drawn
with SDL's dummy driver: a repeat of the first press says so, and when a press counts for
the phase to come, so a press meant for it is never lost unseen; a bounce says nothing of
its own; and a press that confirms a line of the result sheet is never taken as a repeat.

wdc2019 from 10:00: Spring 1901's deadline 10:18. The kiosk's clock is the test's."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pygame
import pytest

from dipclock.events import BUILTIN
from dipclock.late import REPEAT
from dipclock.snapshot import TableResult
from dipclock.timeline import timetable
from kiosk.app import FixedRound
from kiosk.draw import Painter, render
from kiosk.outbox import StoredConfirmation, StoredPress
from kiosk.state import Screen

from .conftest import Table, make_table

SIZES = [(800, 480), (1280, 800)]


def t(hms: str) -> datetime:
    return datetime.fromisoformat(f"2019-09-06T{hms}")


def chip(screen: Screen, letter: str) -> tuple[str, str]:
    c = next(c for c in screen.chips if c.letter == letter)
    return c.state, c.note


def drawn_banner(screen: Screen, size: tuple[int, int]) -> list[str]:
    """The banner as the kiosk draws it on a screen of ``size``."""
    drawn = render(pygame.Surface(size), screen, Painter())
    return [d.text for d in drawn if d.role == "banner"]


def test_a_second_press_just_after_a_deadline_is_said_to_be_the_first_one_s_repeat(
        table: Table) -> None:
    assert REPEAT == timedelta(seconds=30)
    table.press("E", t("10:17:50"))  # Spring 1901's orders, on time
    assert table.screen(t("10:17:51")).banner == "England: orders in"
    table.press("E", t("10:18:10"))  # 20 s later: a repeat of it, not Fall 1901's orders
    s = table.screen(t("10:18:11"))
    said = "England: already in for Spring 1901; for Fall 1901, press again from 10:18:40"
    assert s.banner == said
    assert chip(s, "E") == ("waiting", "")  # not in for Fall 1901, and not shown so
    for size in SIZES:
        assert drawn_banner(s, size) == [said], size
    # pressed again too soon, the time to wait follows that press
    table.press("E", t("10:18:30"))
    assert table.screen(t("10:18:31")).banner == (
        "England: already in for Spring 1901; for Fall 1901, press again from 10:19")
    # from then on, a press is Fall 1901's orders
    table.press("E", t("10:19:00"))
    s = table.screen(t("10:19:01"))
    assert s.banner == "England: orders in" and chip(s, "E") == ("in", "IN")


def test_a_second_press_within_the_phase_is_already_in(table: Table) -> None:
    table.press("E", t("10:10:00"))
    table.press("E", t("10:10:20"))
    s = table.screen(t("10:10:21"))
    assert s.banner == "England: already in" and chip(s, "E") == ("in", "IN")
    # and one just before the deadline is too, though the deadline passes within 30 s
    table.press("F", t("10:17:40"))
    table.press("F", t("10:17:55"))
    assert table.screen(t("10:17:56")).banner == "France: already in"


def test_a_bounce_keeps_the_banner_of_the_press_it_bounced_off(table: Table) -> None:
    """A contact's bounce 0.3 s after the press (``dipclock.debounce``: the hub merges it,
    and this clock keeps its own copy) does not turn "orders in" into "already in"."""
    table.press("E", t("10:10:00"))
    table.press("E", t("10:10:00.300"))
    s = table.screen(t("10:10:01"))
    assert s.banner == "England: orders in"
    for size in SIZES:
        assert drawn_banner(s, size) == ["England: orders in"], size


def test_a_press_confirming_the_sheet_is_no_repeat(tmp_path: Path) -> None:
    """At game over, a power that pressed its last orders a moment before the deadline
    confirms its line of the sheet with its next press, however soon: a confirmation, not a
    repeat swallowed."""
    table = make_table(tmp_path, last_year=1901)
    try:
        rnd = table.kiosk.source.current()
        assert rnd is not None
        last = timetable(BUILTIN["wdc2019"], rnd.schedule).phases[-1].deadline
        result = TableResult(round=1, version=1, year=1901, ending="A draw of all survivors",
                             centres={"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5})
        table.kiosk.source = FixedRound(replace(rnd, result=result))
        at = last - timedelta(seconds=10)
        assert isinstance(table.press("E", at), StoredPress)  # on time for the last phase
        made = table.press("E", last + timedelta(seconds=5))  # 15 s later: the sheet's line
        assert isinstance(made, StoredConfirmation) and made.power == "E"
        s = table.screen(last + timedelta(seconds=6))
        assert s.sheet is not None
        assert next(ln for ln in s.sheet.lines if ln.letter == "E").state == "pending"
    finally:
        table.outbox.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_repeat_is_drawn_whole_with_the_player_named(tmp_path: Path,
                                                         size: tuple[int, int]) -> None:
    table = make_table(tmp_path)
    try:
        rnd = table.kiosk.source.current()
        assert rnd is not None
        table.kiosk.source = FixedRound(replace(
            rnd, players=(("E", "Maximiliane Oberhuber-Wittgenstein"),)))
        table.press("E", t("10:17:50"))
        table.press("E", t("10:18:10"))
        s = table.screen(t("10:18:11"))
        assert s.banner.startswith("England (Maximiliane Oberhuber-Wittgenstein): already in")
        assert drawn_banner(s, size) == [s.banner]
    finally:
        table.outbox.close()

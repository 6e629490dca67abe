"""What a power's button means while the table's clock shows its result sheet, and what the
sheet's lines show (``dipclock.sheetlines``), over every case the rule names."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.late import LATE_WINDOW, Press
from dipclock.schedule import Schedule
from dipclock.screen import BANNER_SECONDS
from dipclock.sheetlines import (
    ALL_CONFIRMED,
    ASK,
    FINAL,
    Confirm,
    SentState,
    TableNow,
    confirms,
    late_counts,
    line_states,
    sheet_view,
)
from dipclock.snapshot import TableResult
from dipclock.timeline import timetable

from . import test_purity as purity

PROFILE = BUILTIN["wdc2006"]
SCHEDULE = Schedule(start=datetime(2019, 9, 6, 10, 0), last_year=1901)
PHASES = timetable(PROFILE, SCHEDULE, 3).phases
LAST = PHASES[-1].deadline  # Fall 1901's: the game ends there
#: every power but Italy in for Fall 1901 before its deadline: Italy counts late after it
IN_FOR_FALL = tuple(Press(p, LAST - timedelta(minutes=1)) for p in "AEFGRT")
MOMENTS = {
    "playing": LAST - timedelta(seconds=30),
    "late window": LAST + timedelta(seconds=17),
    "after the window": LAST + LATE_WINDOW + timedelta(seconds=1),
}
CENTRES = {"A": 5, "E": 4, "F": 6, "G": 0, "I": 7, "R": 6, "T": 6}


@dataclass(frozen=True)
class Line:
    """A confirmation as the clock's outbox keeps it (``Sent``)."""

    power: str
    round: int
    version: int
    state: SentState
    at: datetime = LAST + LATE_WINDOW


def result(version: int = 2, confirmed: str = "", **fields: object) -> TableResult:
    return TableResult.model_validate({
        "round": 1, "version": version, "year": 1901, "centres": CENTRES,
        "ending": "A draw of all survivors", "scores": {p: 10.0 for p in CENTRES},
        "confirmed": tuple(confirmed)} | fields)


def at(moment: datetime, presses: tuple[Press, ...] = IN_FOR_FALL,
       out: frozenset[str] = frozenset()) -> TableNow:
    return TableNow(PROFILE, SCHEDULE, moment, presses, out, 3)


def test_the_module_is_pure_core() -> None:
    purity.test_core_module_imports_nothing_that_does_io("sheetlines")
    purity.test_core_module_never_calls_a_clock_or_a_file("sheetlines")


SHEETS = {"none": None, "to confirm": result(), "final": result(final=True),
          "problem": result(problem="Italy has 7 centres: a solo in 1901 needs 18")}
MINE = {"none": (), "pending": ("pending", 2), "taken": ("taken", 2),
        "refused": ("refused", 2), "pending, older version": ("pending", 1)}


@pytest.mark.parametrize(("kind", "moment", "power", "sheet", "mine", "hub_has_it"),
                         list(itertools.product(("press", "hold"), MOMENTS, "AI", SHEETS, MINE,
                                                (False, True))))
def test_a_button_confirms_exactly_when_the_rule_says(kind: str, moment: str, power: str,
                                                      sheet: str, mine: str,
                                                      hub_has_it: bool) -> None:
    """Every combination: a short press, at game over, of a power not counting late (Italy
    counts late in the window), on a sheet to confirm whose line is not confirmed by the hub
    nor on its way from this clock for this version. Anything else is an ordinary press."""
    shown = SHEETS[sheet]
    if shown is not None and hub_has_it:
        shown = shown.model_copy(update={"confirmed": (power,)})
    made = [Line(power, 1, MINE[mine][1], MINE[mine][0])] if MINE[mine] else []
    line_done = hub_has_it or mine in ("pending", "taken")
    expected = (kind == "press" and sheet == "to confirm" and moment != "playing"
                and not (moment == "late window" and power == "I") and not line_done)
    got = confirms(at(MOMENTS[moment]), power, kind, shown, made)
    assert got == (Confirm(1, power, 2) if expected else None)


def test_a_power_out_of_the_game_confirms_its_line_and_is_never_late() -> None:
    """Germany was held out: no orders owed, so it is not counting late in the window, and
    its player signs its line (no centres) like any other."""
    now = at(MOMENTS["late window"], tuple(p for p in IN_FOR_FALL if p.power != "G"),
             frozenset("G"))
    assert late_counts(now) == {"I": 17.0}
    assert confirms(now, "G", "press", result()) == Confirm(1, "G", 2)


def test_late_counts_only_at_game_over_and_only_in_the_window() -> None:
    assert late_counts(at(MOMENTS["playing"])) is None
    assert late_counts(at(MOMENTS["late window"])) == {"I": 17.0}
    assert late_counts(at(MOMENTS["after the window"])) == {}
    # a late press stops the count: its power confirms at its next press
    pressed = (*IN_FOR_FALL, Press("I", LAST + timedelta(seconds=20)))
    now = at(LAST + timedelta(seconds=30), pressed)
    assert late_counts(now) == {}
    assert confirms(now, "I", "press", result()) == Confirm(1, "I", 2)


def test_a_pause_after_the_last_deadline_holds_the_late_window_open() -> None:
    """A hall paused just after the game's last deadline stops the late count there too
    (``dipclock.late``): Italy, 17 running seconds late when the TD paused, is still
    counting late half an hour on, so its press is its late orders, not a confirmation."""
    from dipclock.schedule import Pause

    paused = SCHEDULE.model_copy(update={"pauses": (
        Pause(at=LAST + timedelta(seconds=17), minutes=60, reason="Lunch"),)})
    now = TableNow(PROFILE, paused, LAST + timedelta(minutes=30), IN_FOR_FALL, (), 3)
    assert late_counts(now) == {"I": 17.0}
    assert confirms(now, "I", "press", result()) is None


def test_on_a_board_clock_the_game_over_is_the_board_s_own() -> None:
    """A club night: each phase starts when the board is ready, so the game ends later than
    a central clock would say; until then a press is a press."""
    club = PROFILE.model_copy(update={"central_clock": False})
    central_end = at(LAST + LATE_WINDOW + timedelta(seconds=1))
    board = TableNow(club, SCHEDULE, central_end.now, IN_FOR_FALL, frozenset(), 3)
    assert late_counts(board) is None  # Spring 1901 done, the board never said it was ready
    assert confirms(board, "A", "press", result()) is None


def test_line_states_the_hub_s_word_then_this_clock_s_for_this_version() -> None:
    shown = result(confirmed="A")
    mine = [Line("A", 1, 2, "refused"), Line("E", 1, 2, "pending"), Line("F", 1, 2, "taken"),
            Line("G", 1, 1, "taken"), Line("I", 2, 2, "taken"), Line("R", 1, 2, "refused"),
            Line("R", 1, 2, "pending")]
    assert line_states(shown, mine) == {"A": "confirmed", "E": "pending", "F": "confirmed",
                                        "G": "open", "I": "open", "R": "pending", "T": "open"}


def test_the_sheet_shows_each_line_and_the_one_thing_to_do() -> None:
    players = {"A": "Ann", "I": "Elena Rossi  "}
    view = sheet_view(at(MOMENTS["late window"]), result(confirmed="A"),
                      [Line("E", 1, 2, "pending")], players)
    assert view is not None
    assert [(ln.power, ln.player, ln.centres, ln.score, ln.state, ln.late)
            for ln in view.lines] == [
        ("Austria", "Ann", "5", "10.00", "confirmed", ""),
        ("England", "", "4", "10.00", "pending", ""),
        ("France", "", "6", "10.00", "open", ""),
        ("Germany", "", "0", "10.00", "open", ""),
        ("Italy", "Elena Rossi", "7", "10.00", "open", "late +17 s"),
        ("Russia", "", "6", "10.00", "open", ""),
        ("Turkey", "", "6", "10.00", "open", "")]
    assert view.ending == "Fall 1901 · A draw of all survivors"
    assert (view.instruction, view.tone) == (ASK, "ask")
    # seated Austria and Italy: the sheet is done once both have confirmed
    both = sheet_view(at(MOMENTS["after the window"]), result(confirmed="A"),
                      [Line("I", 1, 2, "pending")], players)
    assert both is not None and (both.instruction, both.tone) == (ALL_CONFIRMED, "done")
    nobody = sheet_view(at(MOMENTS["after the window"]), result(confirmed="AEFGIR"))
    assert nobody is not None and nobody.tone == "ask"  # nobody seated: all seven
    final = sheet_view(at(MOMENTS["after the window"]), result(final=True))
    assert final is not None and (final.instruction, final.tone) == (FINAL, "done")
    blocked = sheet_view(at(MOMENTS["after the window"]),
                         result(problem="Italy has 7 centres: a solo in 1901 needs 18",
                                scores={}, centres={"I": 7}))
    assert blocked is not None and blocked.tone == "problem"
    assert blocked.instruction == ("Correct the sheet on the phone: Italy has 7 centres: a "
                                   "solo in 1901 needs 18")
    assert [(ln.centres, ln.score) for ln in blocked.lines][3:5] == [("-", ""), ("7", "")]


def test_no_sheet_is_shown_before_the_game_is_over_or_before_it_is_entered() -> None:
    assert sheet_view(at(MOMENTS["playing"]), result()) is None
    assert sheet_view(at(MOMENTS["after the window"]), None) is None


def test_the_banner_says_what_the_last_confirmation_did_while_it_is_the_latest() -> None:
    moment = MOMENTS["after the window"]
    players = {"E": "Bob"}
    mine = [Line("E", 1, 2, "pending", moment - timedelta(seconds=3))]
    view = sheet_view(at(moment), result(), mine, players)
    assert view is not None and view.banner == "England (Bob): line confirmed"
    for refused in ([Line("E", 1, 2, "refused", moment - timedelta(seconds=3))],
                    # pressed on version 1; version 2 came before the hub's answer
                    [Line("E", 1, 1, "pending", moment - timedelta(seconds=3))]):
        view = sheet_view(at(moment), result(), refused, players)
        assert view is not None and view.banner == (
            "England (Bob): not confirmed, the sheet changed: check it and press again")
        assert view.lines[1].state == "open"
    later = at(moment + timedelta(seconds=BANNER_SECONDS - 3))
    view = sheet_view(later, result(), mine, players)
    assert view is not None and view.banner == ""
    pressed_after = at(moment, (*IN_FOR_FALL, Press("T", moment - timedelta(seconds=1))))
    view = sheet_view(pressed_after, result(), mine, players)
    assert view is not None and view.banner == ""


@given(st.floats(min_value=-60, max_value=LATE_WINDOW.total_seconds() + 60),
       st.sets(st.sampled_from("AEFGIRT")))
def test_a_power_counting_late_never_confirms(seconds: float, pressed: set[str]) -> None:
    """Whoever has not pressed for the last phase, at any moment around its deadline: a
    power the sheet shows counting late hands in orders with its press, never a line."""
    presses = tuple(Press(p, LAST - timedelta(minutes=1)) for p in pressed)
    now = at(LAST + timedelta(seconds=seconds), presses)
    late = late_counts(now) or {}
    view = sheet_view(now, result())
    for power in "AEFGIRT":
        got = confirms(now, power, "press", result())
        if power in late:
            assert got is None
            assert view is not None and next(
                ln for ln in view.lines if ln.letter == power).late.startswith("late +")
        else:
            assert (got is not None) == (now.now >= LAST)  # game over from the deadline on

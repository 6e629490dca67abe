"""Where a table's clock parts from the hall's (``dipclock.screen.apart``): what the hall's
projector lists under its own clock."""

from __future__ import annotations

from datetime import datetime

from dipclock.events import BUILTIN
from dipclock.late import Press
from dipclock.schedule import Adjustment, BoardStart, Pause, Schedule
from dipclock.screen import Apart, apart, build

WDC2006 = BUILTIN["wdc2006"]  # Spring 1901 17 min: deadline 10:17; Fall 1901 15 min: 10:32
CLUB = WDC2006.model_copy(update={"central_clock": False, "id": "club"})


def t(hms: str) -> datetime:
    return datetime.fromisoformat(f"2024-05-04T{hms}")


START = t("10:00:00")


def apart_at(at: str, table: int = 7, profile=WDC2006, presses=(), **schedule: object
             ) -> Apart | None:
    s = Schedule.model_validate({"start": START, **schedule})
    hall = build(profile, s, t(at), buttons=False)
    return apart(hall, build(profile, s, t(at), presses, table=table))


def running(**fields: object) -> Apart:
    """An ``Apart`` of a table that plays on: only the ``fields`` given differ."""
    return Apart(**({"stage": "negotiating", "held": False, "reason": "", "restart": "",
                     "extra": None, "phase": "", "deadline": ""} | fields))


def test_a_table_with_nothing_of_its_own_is_the_hall_s_clock_even_with_late_powers() -> None:
    assert apart_at("10:05:00") is None
    # its late powers are its own business: only its clock is compared
    late = (Press("A", t("10:17:20")),)
    assert apart_at("10:18:00", presses=(Press("E", t("10:16:00")),)) is None
    assert apart_at("10:18:00", presses=late) is None
    # another table's extra time is that table's
    assert apart_at("10:05:00", adjustments=[Adjustment(at=t("10:01:00"), seconds=90,
                                                        table=3)]) is None


def test_extra_time_and_time_taken_away_say_how_much_and_the_deadline() -> None:
    given = [Adjustment(at=t("10:01:00"), seconds=120, table=7)]
    assert apart_at("10:05:00", adjustments=given) == running(extra=120.0,
                                                              deadline="Deadline 10:19")
    taken = [Adjustment(at=t("10:01:00"), seconds=-90, table=7)]
    assert apart_at("10:05:00", adjustments=taken) == running(extra=-90.0,
                                                              deadline="Deadline 10:15:30")
    # the hall's deadline has passed, the table's not: it still negotiates Spring 1901
    late = apart_at("10:18:00", adjustments=given)
    assert late == running(extra=120.0, phase="Spring 1901", deadline="Deadline 10:19")
    # once both play Fall 1901, the table is still two minutes behind
    assert apart_at("10:25:00", adjustments=given).extra == 120.0


def test_a_held_table_says_why_and_when_it_restarts() -> None:
    hold = Pause(at=t("10:04:00"), table=7, reason="TD ruling")
    assert apart_at("10:05:00", pauses=[hold]) == running(stage="held", held=True,
                                                          reason="TD ruling")
    timed = Pause(at=t("10:04:00"), minutes=10, table=7)
    got = apart_at("10:05:00", pauses=[timed])
    assert (got.held, got.reason, got.restart) == (True, "", "10:14")
    # resumed after three minutes: three minutes behind the hall from then on
    resumed = Pause(at=t("10:04:00"), ended=t("10:07:00"), table=7, reason="TD ruling")
    assert apart_at("10:08:00", pauses=[resumed]) == running(extra=180.0,
                                                             deadline="Deadline 10:20")


def test_a_hall_wide_break_is_the_hall_s_and_extra_time_still_shows_in_it() -> None:
    lunch = Pause(at=t("10:05:00"), reason="Lunch")
    assert apart_at("10:10:00", pauses=[lunch]) is None
    given = [Adjustment(at=t("10:01:00"), seconds=60, table=7)]
    got = apart_at("10:10:00", pauses=[lunch], adjustments=given)
    assert (got.held, got.extra, got.deadline) == (False, 60.0, "")


def test_a_board_on_its_own_clock_shows_its_own_phase() -> None:
    started = [BoardStart(at=t("10:20:00"), table=7)]
    got = apart_at("10:25:00", profile=CLUB, board_starts=started)
    assert got == running(phase="Fall 1901", deadline="Deadline 10:35")
    # a board still adjudicating shows what the hall shows
    assert apart_at("10:25:00", table=3, profile=CLUB, board_starts=started) is None
    # one adjudicating ahead of the hall waits for its own next phase
    assert apart_at("10:40:00", profile=CLUB, board_starts=started) == running(
        stage="adjudicating", phase="Spring 1902")

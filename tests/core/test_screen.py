"""The screen model every clock shows (``dipclock.screen.build``), at the moments that matter."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from dipclock.events import BUILTIN
from dipclock.late import Press
from dipclock.schedule import Pause, PhaseRef, Schedule
from dipclock.screen import Screen, build, duration_text
from dipclock.timeline import timetable

from . import test_purity as purity


def t(hms: str) -> datetime:
    return datetime.fromisoformat(f"2019-09-06T{hms}")


START = t("10:00:00")


def screen(event: str = "wdc2019", at: str = "10:05:00", presses: tuple[Press, ...] = (),
           table: int | None = None, **schedule: object) -> Screen:
    s = Schedule.model_validate({"start": START, **schedule})
    return build(BUILTIN[event], s, t(at), presses, table=table)


def test_the_screen_module_is_pure_core() -> None:
    purity.test_core_module_imports_nothing_that_does_io("screen")
    purity.test_core_module_never_calls_a_clock_or_a_file("screen")
    import ast
    import inspect

    import dipclock.screen

    tree = ast.parse(inspect.getsource(dipclock.screen))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in imported if m.startswith(("kiosk", "server"))}


@pytest.mark.parametrize(
    ("at", "look", "big", "count_to"),
    [
        ("09:55:00.300", "before_start", "5:00", "10:00:00"),  # 299.7 s shows 5:00
        ("10:05:00", "negotiating", "13:00", "10:18:00"),
        ("10:16:00", "warning", "2:00", "10:18:00"),
        ("10:17:30", "writing", "0:30", "10:18:00"),
    ],
)
def test_a_running_clock_says_what_it_counts_to(at: str, look: str, big: str,
                                                count_to: str) -> None:
    s = screen(at=at)
    assert (s.look, s.big, s.count_to, s.ticking) == (look, big, t(count_to), True)
    later = screen(at=(t(at) + timedelta(seconds=7)).time().isoformat())
    assert later.big == duration_text((t(count_to) - t(at)).total_seconds() - 7)


def test_meal_break_counts_to_the_restart_and_says_the_phase_time_after() -> None:
    meal = Pause(at_deadline=PhaseRef.parse("S1901"), minutes=60, reason="Meal break")
    # every power handed in before the break ("after submission and before adjudication")
    handed_in = tuple(Press(p, t("10:19:00")) for p in "AEFGIRT")
    s = screen("wdc2003", "10:30:00", handed_in, pauses=(meal,))  # deadline 10:20
    assert (s.look, s.label) == ("paused", "Meal break, clock restarts at 11:20")
    assert (s.big, s.count_to, s.ticking) == ("50:00", t("11:20:00"), True)
    assert s.notes[0] == "Then Fall 1901: 17:00 to the deadline"
    # a power not in when the break began is late, its count standing at its first second
    late = screen("wdc2003", "10:30:00", handed_in[1:], pauses=(meal,))
    assert late.notes[0] == "Austria +1 s paused, leniency used (30 s)", late.notes
    s = screen("wdc2003", "11:20:00", handed_in, pauses=(meal,))
    assert (s.look, s.phase, s.big) == ("negotiating", "Fall 1901", "17:00")
    assert "18 centres to win in 1901" in s.notes


def test_a_break_with_no_restart_time_stops_the_clock() -> None:
    s = screen(at="10:10:00", pauses=(Pause(at=t("10:05:00"), reason="Fire alarm"),))
    assert (s.look, s.label, s.big) == ("paused", "Fire alarm: the clock is stopped", "Break")
    assert (s.count_to, s.ticking) == (None, False)
    assert s.notes[0] == "Then Spring 1901: 13:00 to the deadline"


def test_a_hold_is_the_held_tables_alone() -> None:
    hold = Pause(at=t("10:05:00"), minutes=10, table=3)
    s = screen(at="10:07:00", table=3, pauses=(hold,))
    assert (s.look, s.label) == ("held", "Table held by the TD, clock restarts at 10:15")
    assert (s.big, s.count_to, s.ticking) == ("13:00", None, False)  # frozen where it stopped
    assert screen(at="10:15:00", table=3, pauses=(hold,)).look == "negotiating"
    hall = screen(at="10:07:00", pauses=(hold,))  # the hall clock: every other table
    assert (hall.look, hall.big, hall.ticking) == ("negotiating", "11:00", True)


def test_game_over_after_the_last_year_and_when_called() -> None:
    s = screen("wdc2006", "10:05:00", last_year=1901)  # S17 F15: last deadline 10:32
    assert "Final year" in s.notes
    s = screen("wdc2006", "10:40:00", last_year=1901)
    assert (s.look, s.big, s.label) == ("game_over", "Game over", "Fall 1901 was the last deadline")
    assert (s.count_to, s.ticking, s.deadline) == (None, False, "")
    # wdc2018: S1901 10:18, F1901 would end at 10:34, after the call: boards play on to it
    s = screen("wdc2018", "10:20:00", call=t("10:30:00"))
    assert (s.look, s.big, s.count_to, s.ticking) == ("game_over", "10:00", t("10:30:00"), True)
    assert s.label == "No more deadlines: the round ends at 10:30"
    s = screen("wdc2018", "10:31:00", call=t("10:30:00"))
    assert s.look == "game_over" and s.label.startswith("Round called") and not s.ticking


def test_victory_threshold_and_next_length() -> None:
    phases = timetable(BUILTIN["wdc2003"], Schedule(start=START)).phases
    f1905 = next(p for p in phases if p.ref.code == "F1905")
    s = screen("wdc2003", f1905.opens.time().isoformat())
    assert "18 centres to win in 1905" in s.notes
    assert "Next: Spring 1906, 18 min" in s.notes
    assert s.big == duration_text(17 * 60)


def test_late_powers_are_counted_live_and_grouped() -> None:
    on_time = tuple(Press(p, t("10:17:00")) for p in "AE")
    s = screen(at="10:18:16", presses=on_time)
    assert s.look == "late" and s.label == "Spring 1901 deadline passed: orders late"
    assert s.notes[0] == "5 powers +16 s, referee decides"
    assert s.valid_for == pytest.approx(1.0)
    two_left = on_time + tuple(Press(p, t("10:18:10")) for p in "FGI")
    assert screen(at="10:18:16", presses=two_left).notes[0] == (
        "Russia and Turkey +16 s, referee decides")


@pytest.mark.parametrize(
    ("presses", "at", "banner"),
    [
        ((Press("A", t("09:58:00")),), "09:58:01",
         "Austria: not counted, the round has not started"),
        ((Press("E", t("10:10:00")),), "10:10:01", "England: orders in"),
        ((Press("E", t("10:10:00")), Press("E", t("10:11:00"))), "10:11:01", "England: already in"),
        ((Press("F", t("14:10:00")),), "14:10:01", "France: not counted, the game is over"),
        ((Press("G", t("10:10:00"), "hold"),), "10:10:01", "Germany is out of the game"),
    ],
)
def test_the_banner_says_what_a_press_did(presses: tuple[Press, ...], at: str, banner: str) -> None:
    out = {p.power for p in presses if p.kind == "hold"}
    s = build(BUILTIN["wdc2006"], Schedule(start=START, last_year=1907), t(at), presses, out)
    assert s.banner == banner
    assert s.valid_for == pytest.approx(1.0)  # the banner has 7 s to go; the clock ticks first
    gone = build(BUILTIN["wdc2006"], Schedule(start=START, last_year=1907),
                 t(at) + timedelta(seconds=8), presses, out)
    assert gone.banner == ""


def test_a_screen_stays_right_until_the_next_second_or_the_banner_ends() -> None:
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:05:00.250"))
    assert s.big == "13:00" and s.valid_for == pytest.approx(0.75)
    press = (Press("E", t("10:04:52.600")),)
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:05:00.500"), press)
    assert s.banner == "England: orders in" and s.valid_for == pytest.approx(0.1)


def test_a_clock_with_no_buttons_never_says_orders_are_late() -> None:
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:18:16"), buttons=False)
    assert (s.look, s.label, s.big, s.chips, s.banner) == (
        "negotiating", "Negotiating", "15:44", (), "")
    table = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:18:16"))
    assert table.look == "late" and table.big == s.big and len(table.chips) == 7


SEATED = {"I": "Ann Smith", "R": "Boris Ivanov", "A": "Carla Weiss"}


def test_the_late_notes_and_the_banner_name_the_seated_player_and_the_chips_stay_short() -> None:
    on_time = tuple(Press(p, t("10:17:00")) for p in "AEFGT")
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:18:16"), on_time,
              players=SEATED)
    assert s.notes[0] == "Italy (Ann Smith) and Russia (Boris Ivanov) +16 s, referee decides"
    assert [(c.letter, c.name) for c in s.chips if c.state == "late"] == [
        ("I", "Italy"), ("R", "Russia")]
    late = (*on_time, Press("I", t("10:18:17")))
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:18:18"), late, players=SEATED)
    assert s.banner.startswith("Italy (Ann Smith) +17 s, ")
    assert s.notes[0] == "Russia (Boris Ivanov) +18 s, referee decides"
    # a power nobody was seated at, or no seating at all: the power alone, as before
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:10:01"),
              (Press("E", t("10:10:00")),), players=SEATED)
    assert s.banner == "England: orders in"
    s = build(BUILTIN["wdc2019"], Schedule(start=START), t("10:10:01"),
              (Press("A", t("10:10:00")), Press("G", t("10:10:00.5"), "hold")), {"G"},
              players=SEATED)
    assert s.banner == "Germany is out of the game"


def test_a_late_count_stands_still_through_a_pause_and_says_so() -> None:
    """The hall paused for lunch while Italy was 40 s late: the count and its penalty wait
    for the clock, and the late line says it is paused (graduated20: deadline 10:20)."""
    lunch = Schedule(start=START, pauses=(Pause(at=t("10:20:40"), minutes=60, reason="Lunch"),))
    on_time = tuple(Press(p, t("10:19:00")) for p in "AEFGRT")

    def at(hms: str, table: int | None = 3) -> Screen:
        return build(BUILTIN["graduated20"], lunch, t(hms), on_time, table=table,
                     players=SEATED)

    first, later = at("10:30:00"), at("11:15:30.5")
    for s in (first, later):
        assert (s.look, s.label) == ("paused", "Lunch, clock restarts at 11:20:40")
        assert s.notes[0] == "Italy (Ann Smith) +40 s paused, 3-unit NMR"
        [italy] = [c for c in s.chips if c.letter == "I"]
        assert (italy.state, italy.note, italy.detail) == ("late", "+40 s", "3-unit NMR")
    assert first.notes == later.notes and first.chips == later.chips
    after = at("11:20:45")
    assert after.look == "late" and after.notes[0] == "Italy (Ann Smith) +45 s, 3-unit NMR"


def test_a_hold_freezes_the_late_count_of_the_held_table_alone() -> None:
    hold = Pause(at=t("10:20:40"), minutes=10, table=3, reason="ruling")
    schedule = Schedule(start=START, pauses=(hold,))
    on_time = tuple(Press(p, t("10:19:00")) for p in "AEFGRT")
    held = build(BUILTIN["graduated20"], schedule, t("10:27:00"), on_time, table=3)
    assert held.look == "held" and held.notes[0] == "Italy +40 s paused, 3-unit NMR"
    other = build(BUILTIN["graduated20"], schedule, t("10:27:00"), on_time, table=4)
    assert other.look == "negotiating"  # its window shut at 10:25
    assert [c.state for c in other.chips if c.letter == "I"] == ["waiting"]


def test_the_grid_s_late_line_groups_the_powers_by_the_penalty_they_head_for() -> None:
    from dipclock.screen import late_summary

    assert late_summary([("A", "Red card"), ("I", "Yellow card"), ("F", "Red card")]) == (
        "A F → Red card; I → Yellow card")

"""The kiosk driven through every stage by jumping its clock: what it shows, what it records."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from .conftest import Table, make_table


def t(hms: str, day: str = "2019-09-06") -> datetime:
    return datetime.fromisoformat(f"{day}T{hms}")


def test_before_start_counts_down_to_the_round(table: Table) -> None:
    s = table.screen(t("09:55:00"))
    assert s.look == "before_start"
    assert s.big == "5:00"
    assert "starts at 10:00" in s.label
    assert s.deadline == "First deadline 10:18"


def test_the_start_shown_follows_time_added_before_the_round(tmp_path: Path) -> None:
    from dipclock.schedule import Adjustment

    late_start = make_table(tmp_path, adjustments=(Adjustment(at=t("09:50:00"), seconds=600),))
    s = late_start.screen(t("09:55:00"))
    assert "starts at 10:10" in s.label and s.big == "15:00"


def test_presses_outside_the_round_say_they_do_not_count(table: Table) -> None:
    table.press("A", t("09:58:00"))
    assert table.screen().banner == "Austria: not counted, the round has not started"
    table.press("T", t("09:59:00"), kind="hold")  # a button test before the round
    s = table.screen(t("10:05:00"))
    assert next(c for c in s.chips if c.letter == "T").state == "waiting"
    table.press("F", t("14:10:00"))  # last deadline 13:58, and its 5-minute late window
    assert table.screen().banner == "France: not counted, the game is over"


def test_negotiating_then_warning_then_writing(table: Table) -> None:
    s = table.screen(t("10:05:00"))
    assert (s.look, s.big, s.phase, s.deadline) == ("negotiating", "13:00", "Spring 1901",
                                                    "Deadline 10:18")
    assert table.screen(t("10:15:59")).look == "negotiating"
    s = table.screen(t("10:16:00"))
    assert (s.look, s.big, s.label) == ("warning", "2:00", "Last minutes")
    s = table.screen(t("10:17:30"))
    assert (s.look, s.big, s.label) == ("writing", "0:30", "WRITING, silence")


def test_warning_threshold_is_configurable(table: Table) -> None:
    table.kiosk.warning_seconds = 5 * 60
    assert table.screen(t("10:13:00")).look == "warning"
    assert table.screen(t("10:12:59")).look == "negotiating"


def test_frame_says_how_long_it_stays_right(table: Table) -> None:
    table.at(t("10:05:00"))
    table.mono += 0.25
    fr = table.kiosk.frame(table.mono)
    assert fr.screen.big == "13:00"  # 779.75 s left shows as 13:00 for 0.75 s more
    assert fr.valid_for == pytest.approx(0.75)


def test_deadline_passed_counts_late_powers_live(table: Table) -> None:
    table.press("F", t("10:17:50"))
    s = table.screen(t("10:18:16"))
    assert s.look == "late"
    assert s.phase == "Fall 1901" and s.big == "15:44"
    chips = {c.letter: c for c in s.chips}
    assert chips["F"].state == "waiting"  # on time for Spring, not yet in for Fall
    assert (chips["I"].state, chips["I"].note, chips["I"].detail) == (
        "late", "+16 s", "Referee decides")
    assert s.notes[0] == "6 powers +16 s, referee decides"
    for power in "AEGIR":
        table.press(power, t("10:18:20"))
    assert table.screen(t("10:18:21")).notes[0] == "Turkey +21 s, referee decides"


def test_a_late_press_stops_the_count_and_shows_the_penalty(tmp_path: Path) -> None:
    tb = make_table(tmp_path, "graduated20", "2019-09-06T10:00")  # Spring deadline 10:20
    stored = tb.press("I", t("10:20:17"))
    s = tb.screen()
    chip = next(c for c in s.chips if c.letter == "I")
    assert (chip.state, chip.note, chip.detail) == ("just_late", "IN +17 s", "2-unit NMR")
    assert s.banner == "Italy +17 s, 2-unit NMR"
    assert next(c for c in s.chips if c.letter == "A").note == "+17 s"
    # a few seconds later the banner is gone and Italy no longer counts
    s = tb.screen(t("10:20:40"))
    assert s.banner == ""
    assert next(c for c in s.chips if c.letter == "I").state == "waiting"
    assert next(c for c in s.chips if c.letter == "A").note == "+40 s"
    # recorded, with the press's own moment, before it was shown
    rows = tb.outbox.presses()
    assert [(r.id, r.power, r.kind, r.at) for r in rows] == [
        (stored.id, "I", "press", t("10:20:17"))]


def test_the_late_window_closes_after_five_minutes(table: Table) -> None:
    assert table.screen(t("10:23:00")).look == "late"
    assert table.screen(t("10:23:01")).look == "negotiating"


def test_on_time_press_shows_in(table: Table) -> None:
    table.press("E", t("10:10:00"))
    s = table.screen()
    assert s.banner == "England: orders in"
    assert [c.state for c in s.chips] == ["waiting", "in"] + ["waiting"] * 5
    table.press("E", t("10:11:00"))
    assert table.screen().banner == "England: already in"


def test_hold_marks_a_power_out_and_back(table: Table) -> None:
    table.press("G", t("10:10:00"), kind="hold")
    s = table.screen()
    assert s.banner == "Germany is out of the game"
    s = table.screen(t("10:18:30"))
    g = next(c for c in s.chips if c.letter == "G")
    assert (g.state, g.note) == ("out", "OUT")  # greyed, never counted late
    table.press("G", t("10:19:00"), kind="hold")
    assert table.screen().banner == "Germany is back in the game"
    assert next(c for c in table.screen().chips if c.letter == "G").state == "late"
    assert [r.kind for r in table.outbox.presses()] == ["hold", "hold"]


# The stage logic itself (breaks, holds, game over, notes) is the core's:
# tests/core/test_screen.py. Here: the kiosk shows it, with its presses and outbox.


def test_hub_lost_is_a_small_flag_and_the_clock_runs(table: Table) -> None:
    class Lost:
        round = table.kiosk.source.round  # type: ignore[attr-defined]

        def current(self):  # noqa: ANN202
            return self.round

        def hub_lost(self) -> bool:
            return True

        def sent(self) -> None:
            pass

    table.kiosk.source = Lost()
    s = table.screen(t("10:05:00"))
    assert s.hub_lost and s.look == "negotiating" and s.big == "13:00"


def test_presses_survive_a_restart(tmp_path: Path) -> None:
    tb = make_table(tmp_path)
    tb.press("A", t("10:10:00"))
    tb.press("T", t("10:18:05"))
    tb.outbox.close()
    again = make_table(tmp_path)  # same outbox file, new kiosk
    s = again.screen(t("10:18:07"))
    chips = {c.letter: c for c in s.chips}
    assert chips["T"].state == "just_late" and chips["T"].note == "IN +5 s"
    assert chips["A"].state == "waiting" and chips["E"].note == "+7 s"
    assert len(again.outbox.presses()) == 2


def test_a_press_shows_at_once_even_when_the_same_moment_was_drawn_before(table: Table) -> None:
    moment = datetime(2019, 9, 6, 10, 5, 0, 300000)
    before = table.screen(moment)  # drawn, and cached until the next second
    assert next(c for c in before.chips if c.letter == "F").state == "waiting"
    table.press("F", moment)
    after = table.screen(moment)  # the same instant: the cache must not hide the press
    assert next(c for c in after.chips if c.letter == "F").state == "in"
    assert after.banner == "France: orders in"

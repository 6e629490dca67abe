"""A whole tournament day through the dashboard alone (issue 9's last Done-when).

A real uvicorn hub (``ThreadHub``) on a clock the test moves (``FakeClock``: no sleeps),
the TD's dashboard on a phone in Debian's headless Chromium, and the hall view beside it.
Every TD step is a control on the dashboard (click, fill, a confirmation accepted and its
question kept); the tables' presses are posted with the kiosk key, as a kiosk's outbox
posts them. The day: round 1 on an uploaded event with its own phase lengths and a lunch
break with a restart time; round 2 on built-in wdc2006 with a break at a deadline, extra
time for one table and a hold on another; round 3 called with its preview; late presses
and decisions in every round; at the end each round's CSV holds every decision as made.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import BUILTIN, EventProfile
from dipclock.powers import POWERS
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from kiosk import state
from tests.chromium import SHOTS, TdPhone, chromium
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD
from tests.server.live import Clocks, ThreadHub

pytestmark = [pytest.mark.browser]

DAY = "2024-05-04"
#: a bound on a hang (the page polls every 2 s on a busy machine), not a timing margin
WAIT = 30_000
WDC2006 = BUILTIN["wdc2006"].name

#: the event of our own: Spring 14 min, Fall 11 min (wdc2006: 17 and 15), so a round-1 row
#: judged by wdc2006 would show another deadline
SPRING_OPEN = """\
name = "Spring Open"
central_clock = true
writing_minutes = 0
last_year = 1906

[[phase_lengths]]
from_year = 1901
spring = 14
fall = 11

[penalty]
model = "yellow_red"
grace_seconds = 30
"""

FIRST = {"A": "Anna", "E": "Edward", "F": "Chloé", "G": "Greta", "I": "Ivo", "R": "Rada",
         "T": "Tarik"}
FAMILY = ["Moreau", "Berg", "O'Neill", "Kowalski"]


def player(round_no: int, table: int, power: str) -> str:
    return f"{FIRST[power]} {FAMILY[(round_no + table) % len(FAMILY)]}"


def at(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with ThreadHub(tmp_path / "hub", synced=lambda: True,
                   clock=FakeClock(to_seconds(at("08:30:00")))) as h:
        yield h


class Day(TdPhone):
    """The hub, its clock, and the TD's dashboard on a phone."""

    def __init__(self, browser: Any, hub: Any) -> None:
        super().__init__(browser, hub.url, PASSWORD)
        self.hub = hub  # a ThreadHub on a FakeClock (its TD helpers are LiveHub's)
        self.reader = self.hub.td()  # pairs the kiosks' clocks, and reads the CSVs
        self.clocks = Clocks(self.reader)

    def now(self, hms: str) -> None:
        self.hub.clock.t = to_seconds(at(hms))

    def click(self, selector: str) -> list[str]:
        """Click a control whose action ends in a "Done" toast; the questions it asked."""
        from playwright.sync_api import expect

        toast = self.page.locator("#toast")
        # emptied first: the last action's toast, hidden but still reading "Done: ...", must
        # not pass for this one (the toast hides itself after 3 s: its text is what counts)
        self.page.evaluate("(t => { t.hidden = true; t.textContent = ''; })($('toast'))")
        n = len(self.asked)
        self.page.click(selector)
        expect(toast).to_contain_text("Done: ", timeout=WAIT)
        assert len(self.asked) > n
        expect(toast).to_have_text("Done: " + self.asked[-1].split("?")[0])
        # "Done" shows before the page's refresh after it, and a tap during that refresh is
        # "Still sending" (the next click, in a fresh clone's run): the action ends when
        # the dashboard takes taps again, as ``tests.chromium.acted`` waits
        self.page.wait_for_function("() => !acting", timeout=WAIT)
        self.page.evaluate("$('toast').hidden = true")  # not over the page's screenshots
        return self.asked[n:]

    def open(self, summary: str) -> None:
        """Unfold a folded part of the page (a <details>) by its summary, if folded."""
        details = self.page.locator("details", has=self.page.locator(
            f"summary:has-text('{summary}')")).first
        if details.get_attribute("open") is None:
            details.locator("summary").first.click()

    def set_up_round(self, number: int, start: str) -> list[str]:
        self.open("Set up")
        self.page.fill("#round-number", str(number))
        self.page.fill("#round-start", f"{DAY}T{start}")
        return self.click("#btn-round")

    def decide(self, row_id: str, verb: str, note: str = "", final: str = "") -> list[str]:
        """A decision on a row of the review, with its note (and new penalty, for Change)."""
        from playwright.sync_api import expect

        row = self.page.locator(f"#pen-{row_id}")
        expect(row).to_be_visible(timeout=WAIT)
        if note:
            row.locator("input[aria-label=note]").fill(note)
        self.answer = final
        asked = self.click(f"#pen-{row_id} button:has-text('{verb}')")
        expect(row).to_have_class("penalty decided", timeout=WAIT)
        return asked

    def phase_presses(self, table: int, deadline: str, late: dict[str, int]) -> None:
        """Every power at ``table`` presses for the phase ending at ``deadline``: on time,
        a minute before, except ``late`` (power: seconds after the deadline)."""
        end = at(deadline)
        presses = [{"id": f"{table}-{deadline}-{p}", "power": p, "kind": "press",
                    "at": (end + timedelta(seconds=late[p]) if p in late
                           else end - timedelta(minutes=1)).isoformat()} for p in POWERS]
        r = httpx.post(f"{self.hub.url}/api/tables/{table}/presses", json={"presses": presses},
                       headers=self.clocks[table], timeout=60)
        assert r.status_code == 200 and r.json()["stored"] == len(presses), r.text

    def kiosk_screen(self, table: int, hms: str) -> Any:
        """What ``table``'s kiosk shows at ``hms``, from the very snapshot the hub sends it
        (``kiosk.state.build``: the kiosk's own screen model)."""
        snap = httpx.get(f"{self.hub.url}/api/tables/{table}/snapshot",
                         headers=self.clocks[table], timeout=60).json()
        return state.build(EventProfile.model_validate(snap["event"]),
                           Schedule.model_validate(snap["schedule"]), at(hms), [],
                           table=table).screen

    def csv_rows(self, round_no: int) -> dict[tuple[int, str, str], dict[str, str]]:
        """The round's CSV as the TD downloads it, late rows by (table, power, phase)."""
        r = self.reader.get("/api/penalties.csv", params={"round": round_no})
        r.raise_for_status()
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert {row["round"] for row in rows} == {str(round_no)}
        return {(int(row["table"]), row["power"], row["phase"]): row
                for row in rows if row["kind"] == "late"}

    def shot(self, name: str, part: str = "") -> None:
        """A screenshot of the phone's page (or of one part of it) to look at."""
        path = f"{SHOTS}/dipclock-day-{name}.png"
        if part:
            self.page.locator(part).screenshot(path=path)
        else:
            self.page.screenshot(path=path)


def seating_csv() -> str:
    lines = ["round,table,power,player"]
    lines += [f"{r},{t},{POWERS[p]},{player(r, t, p)}"
              for r in (1, 2, 3) for t in (1, 2, 3) for p in POWERS]
    return "\n".join(lines) + "\n"


def test_a_tournament_day_through_the_dashboard_alone(browser: Any, hub: ThreadHub,
                                                      tmp_path: Path) -> None:
    from playwright.sync_api import expect

    day = Day(browser, hub)
    page = day.page
    hall = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
    hall.goto(hub.url + "/hall")

    # --- 08:30, set-up: our own event, round 1 at 09:00, three tables, the seating --------
    event_file = tmp_path / "spring-open.toml"
    event_file.write_text(SPRING_OPEN)
    day.open("Set up")
    page.set_input_files("#event-file", str(event_file))
    assert day.click("#btn-event-file") == ["Use spring-open.toml for the event?"]
    assert day.set_up_round(1, "09:00") == ["Set up round 1 starting 2024-05-04 09:00?"]
    page.fill("#tables-spec", "3")
    assert day.click("#btn-tables") == ["Set up 3 tables?"]
    seats = tmp_path / "seating.csv"
    seats.write_text(seating_csv(), encoding="utf-8")
    page.set_input_files("#seating-file", str(seats))
    assert day.click("#btn-seating") == ["Import 63 seats from seating.csv?"]
    expect(page.locator("#event-name")).to_have_text("Spring Open", timeout=WAIT)
    expect(page.locator(".tile")).to_have_count(3, timeout=WAIT)

    # --- round 1: Spring 1901 ends 09:14, Fall 1901 09:25, Spring 1902 09:39 ------------
    day.now("09:26:00")
    day.phase_presses(1, "09:14:00", late={"E": 20})
    day.phase_presses(2, "09:14:00", late={"F": 45})
    day.phase_presses(1, "09:25:00", late={"A": 5})
    day.phase_presses(2, "09:25:00", late={"G": 10})
    day.now("09:31:00")  # every late window shut
    expect(page.locator("#pen-1-2-G-F1901")).to_be_visible(timeout=WAIT)
    expect(page.locator("#pen-1-1-E-S1901")).to_contain_text(
        f"T1 England ({player(1, 1, 'E')}) Spring 1901", timeout=WAIT)
    day.decide("1-1-E-S1901", "Confirm")
    assert day.decide("1-2-F-S1901", "Change", note="kiosk far from the table",
                      final="Yellow card (TD)") == [
        f"New penalty for table 2 France ({player(1, 2, 'F')}) Spring 1901:",
        f"Change the penalty for table 2 France ({player(1, 2, 'F')}) Spring 1901?"]
    day.decide("1-2-G-F1901", "Waive", note="button box unplugged")
    # T1 A F1901 stays undecided: it is ruled on after round 3, through the round picker

    # lunch at 09:31, the clock to restart at 10:30: every screen counts to the restart
    page.fill("#pause-reason", "Lunch")
    page.fill("#pause-until", "10:30")
    assert day.click("#btn-pause") == ["Pause every clock now, restart at 10:30 (in 59 min)?"]
    expect(page.locator("#pause-until")).to_have_value("")  # the next pause starts afresh
    restart = re.compile(r"^(59:\d\d|58:\d\d)$")  # ticks between polls: 59 min, not 8 min
    expect(page.locator("#stage")).to_contain_text("10:30", timeout=WAIT)
    expect(page.locator("#remaining")).to_have_text(restart, timeout=WAIT)
    expect(hall.locator("#remaining")).to_have_text(restart, timeout=WAIT)
    expect(hall.locator("#stage")).to_contain_text("10:30", timeout=WAIT)
    kiosk = day.kiosk_screen(1, "09:31:00")
    assert (kiosk.big, kiosk.label) == ("59:00", "Lunch, clock restarts at 10:30")
    day.shot("lunch", "#clock")
    hall.screenshot(path=f"{SHOTS}/dipclock-day-lunch-hall.png")
    day.now("10:31:00")  # the restart time has come: the clocks run again by themselves
    expect(page.locator("#stage")).to_contain_text("Negotiating", timeout=WAIT)
    expect(page.locator("#stage")).to_contain_text("Spring 1902", timeout=WAIT)

    # --- 13:30: wdc2006 for round 2; round 1 keeps its event -----------------------------
    day.now("13:30:00")
    round1 = day.csv_rows(1)
    day.open("Set up")
    page.select_option("#event-builtin", "wdc2006")
    assert day.click("#btn-event") == [
        "Use wdc2006 from round 2 on? Round 1 keeps Spring Open."]
    expect(page.locator("#event-name")).to_have_text(
        f"Spring Open · next round: {WDC2006}", timeout=WAIT)
    assert day.set_up_round(2, "14:00") == ["Set up round 2 starting 2024-05-04 14:00?"]
    expect(page.locator("#event-name")).to_have_text(WDC2006, timeout=WAIT)
    expect(hall.locator("#hall-event")).to_contain_text(WDC2006, timeout=WAIT)
    assert day.csv_rows(1) == round1  # round 1 as played, decisions and deadlines

    # --- round 2 (wdc2006: Spring 1901 ends 14:17): a break at that deadline, +90 s for
    # table 2, table 3 held for a ruling from 14:05 to 14:08 ------------------------------
    day.now("14:05:00")
    day.open("Break at a coming deadline")
    expect(page.locator("#break-deadline option[value='S1901']")).to_have_count(1, timeout=WAIT)
    page.select_option("#break-deadline", "S1901")
    page.fill("#break-minutes", "5")
    assert day.click("#btn-break") == ["Break of 5 min at the Spring 1901 deadline?"]
    day.open("Add or take away time")
    page.fill("#adj-seconds", "90")
    page.select_option("#adj-table", "2")
    assert day.click("#btn-add") == ["Add 90 s for table 2?"]
    day.open("Hold one table")
    page.select_option("#hold-table", "3")
    page.fill("#hold-reason", "Rules question")
    assert day.click("#btn-hold") == ["Hold table 3 now?"]
    def tile(n: int) -> Any:
        return page.locator(f".tile[data-table='{n}']")

    expect(tile(2).locator(".tile-own")).to_have_text("+90 s at 14:05", timeout=WAIT)
    expect(tile(2).locator(".tile-deadline")).to_contain_text("Deadline 14:18:30")
    expect(tile(3).locator(".tile-label")).to_have_text("Table held by the TD: Rules question")
    expect(tile(1).locator(".tile-deadline")).to_contain_text("Deadline 14:17")
    day.shot("extra-time-and-hold", "#grid")
    day.now("14:08:00")
    assert day.click("#btn-unhold") == ["Release table 3?"]
    expect(tile(3).locator(".tile-label")).to_have_text("Negotiating", timeout=WAIT)
    expect(tile(3).locator(".tile-deadline")).to_contain_text("Deadline 14:20", timeout=WAIT)

    # the break: 14:17 to 14:22 on table 1 (the hall's clock); at 14:19 three minutes left
    day.now("14:19:00")
    expect(page.locator("#stage")).to_contain_text("Break", timeout=WAIT)
    expect(page.locator("#remaining")).to_have_text(re.compile(r"^(3:00|2:5\d)$"),
                                                    timeout=WAIT)
    expect(hall.locator("#remaining")).to_have_text(re.compile(r"^(3:00|2:5\d)$"),
                                                    timeout=WAIT)
    kiosk = day.kiosk_screen(1, "14:19:00")
    assert (kiosk.big, kiosk.label) == ("3:00", "Break, clock restarts at 14:22")
    day.shot("break-at-deadline", "#clock")
    hall.screenshot(path=f"{SHOTS}/dipclock-day-break-hall.png")

    # late counts stand still in the break: orders handed in during it, after the deadline,
    # are late in their first second (table 2's own deadline is 90 s later, 14:18:30)
    day.now("14:30:00")
    day.phase_presses(1, "14:17:00", late={"E": 12})
    day.phase_presses(2, "14:18:30", late={"F": 20, "T": 50})
    day.decide("2-1-E-S1901", "Confirm", note="first offence")
    day.decide("2-2-F-S1901", "Waive", note="extra time not shown on the kiosk")
    day.decide("2-2-T-S1901", "Change", final="2 units deleted")

    # --- round 3 at 17:00, same event; called at 17:30 with its preview ------------------
    day.now("16:45:00")
    # round 2 plays on (wdc2006's games end at 1909, or at a call): the TD is asked first
    assert day.set_up_round(3, "17:00") == [
        "Set up round 3 starting 2024-05-04 17:00?\nRound 2 is under way (Spring 1906, 17:00 "
        "on the clock): every table stops showing it and shows round 3 instead."]
    expect(page.locator("#event-name")).to_have_text(WDC2006, timeout=WAIT)
    day.now("17:25:00")
    day.phase_presses(1, "17:17:00", late={"G": 8})
    day.phase_presses(3, "17:17:00", late={"R": 25, "I": 3})
    day.decide("3-1-G-S1901", "Change", note="second time today", final="Red card")
    day.decide("3-3-R-S1901", "Confirm")

    day.now("17:30:00")
    day.open("Call the round")
    n = len(day.asked)
    page.click("#btn-call")
    expect(page.locator("#btn-call-undo")).to_be_visible(timeout=WAIT)
    question = day.asked[n]
    assert question.startswith("Call round 3 at 17:30:00?"), question
    for t in (1, 2, 3):
        assert f"Table {t}: the game ends after Spring 1901 (17:17:00)" in question, question
        expect(page.locator(f"#call-preview li[data-table='{t}']")).to_contain_text(
            "ends after Spring 1901 (17:17:00)")
    day.shot("call-preview", "#actions")
    for shown in (page, hall):  # the dashboard's card and the projector say the same
        expect(shown.locator("#stage")).to_contain_text("Round called", timeout=WAIT)
    assert page.locator("#remaining").inner_text() == hall.locator("#remaining").inner_text()
    hall.screenshot(path=f"{SHOTS}/dipclock-day-called-hall.png")
    day.decide("3-3-I-S1901", "Waive", note="decided after the call")

    # --- and one more on round 1, through the round picker ------------------------------
    page.select_option("#review-round", "1")
    expect(page.locator("#csv-round")).to_have_attribute("href", "/api/penalties.csv?round=1",
                                                         timeout=WAIT)
    day.decide("1-1-A-F1901", "Waive", note="round 1, ruled at the end of the day")
    expect(page.locator("#undecided")).to_be_hidden(timeout=WAIT)
    day.shot("review-round-1", "#review")
    day.shot("end")
    hall.screenshot(path=f"{SHOTS}/dipclock-day-end-hall.png")

    # --- the CSV of each round: every decision exactly as made --------------------------
    def got(round_no: int) -> dict[tuple[int, str, str], tuple[str, ...]]:
        return {k: (r["deadline"], r["decision"], r["final"], r["note"], r["player"])
                for k, r in day.csv_rows(round_no).items()}

    r1 = day.csv_rows(1)
    assert got(1) == {
        (1, "E", "S1901"): (f"{DAY}T09:14:00", "confirm", r1[1, "E", "S1901"]["proposed"], "",
                            player(1, 1, "E")),
        (2, "F", "S1901"): (f"{DAY}T09:14:00", "change", "Yellow card (TD)",
                            "kiosk far from the table", player(1, 2, "F")),
        (1, "A", "F1901"): (f"{DAY}T09:25:00", "waive", "Waived",
                            "round 1, ruled at the end of the day", player(1, 1, "A")),
        (2, "G", "F1901"): (f"{DAY}T09:25:00", "waive", "Waived", "button box unplugged",
                            player(1, 2, "G")),
    }
    # judged by Spring Open's deadlines: seconds late as pressed, not against wdc2006's 09:17
    assert [r1[k]["seconds_late"] for k in sorted(r1)] == ["5.0", "20.0", "45.0", "10.0"]
    r2 = day.csv_rows(2)
    assert got(2) == {
        (1, "E", "S1901"): (f"{DAY}T14:17:00", "confirm", r2[1, "E", "S1901"]["proposed"],
                            "first offence", player(2, 1, "E")),
        (2, "F", "S1901"): (f"{DAY}T14:18:30", "waive", "Waived",
                            "extra time not shown on the kiosk", player(2, 2, "F")),
        (2, "T", "S1901"): (f"{DAY}T14:18:30", "change", "2 units deleted", "",
                            player(2, 2, "T")),
    }
    # the break at the deadline stopped the late counts at their first second
    assert [(r2[k]["seconds_late"], r2[k]["started_second"]) for k in sorted(r2)] == [
        ("0.001", "1")] * 3
    r3 = day.csv_rows(3)
    assert got(3) == {
        (1, "G", "S1901"): (f"{DAY}T17:17:00", "change", "Red card", "second time today",
                            player(3, 1, "G")),
        (3, "R", "S1901"): (f"{DAY}T17:17:00", "confirm", r3[3, "R", "S1901"]["proposed"], "",
                            player(3, 3, "R")),
        (3, "I", "S1901"): (f"{DAY}T17:17:00", "waive", "Waived", "decided after the call",
                            player(3, 3, "I")),
    }
    assert all(r["decided_at"] for rows in (r1, r2, r3) for r in rows.values())
    assert day.errors == []

"""A round is a record and every round stays reviewable: driven through the dashboard in
Debian's headless Chromium, against a real uvicorn hub whose time the test sets.

Kiosks' presses are posted with the kiosk key as a kiosk's outbox posts them; every TD step
the issue names (upload an event, set up rounds and tables, decide, choose the next event,
pick a round to review) is a click on the dashboard.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import BUILTIN
from tests.chromium import SHOTS, TdPhone, acted, element_shot, phone
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub, at, clocks_of, held_hub

pytestmark = [pytest.mark.browser]

WDC2006 = BUILTIN["wdc2006"].name
MY_OPEN = Path(__file__).resolve().parents[2] / "examples/events/my-open.toml"
#: a bound on a hang (the page polls every 2 s on a busy machine), not a timing margin
WAIT = 30_000


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h



class Dashboard(TdPhone):
    """The TD's phone on ``hub``, with the set-up steps these tests take."""

    def __init__(self, browser: Any, hub: ThreadHub) -> None:
        super().__init__(browser, hub.url, PASSWORD)

    def click(self, selector: str) -> str:
        """Click, and the question the dashboard asked (the click's action is done when the
        toast says so)."""
        n = len(self.asked)
        acted(self.page, selector)
        assert len(self.asked) > n
        return self.asked[n]

    def open_set_up(self) -> None:
        # after the first state is drawn: an empty hub's dashboard opens Set up itself then,
        # and a click racing it would close it again
        self.page.wait_for_function("() => last !== null", timeout=WAIT)
        if self.page.locator("#setup[open]").count() == 0:
            self.page.click("#setup > summary")

    def set_up_round(self, number: int, start: datetime) -> str:
        self.open_set_up()
        self.page.fill("#round-number", str(number))
        self.page.fill("#round-start", start.isoformat(timespec="minutes"))
        return self.click("#btn-round")


def kiosk_post(hub: ThreadHub, td: httpx.Client, table: int, *presses: tuple) -> None:
    body = {"presses": [{"id": i, "power": p, "kind": "press", "at": a.isoformat()}
                        for i, p, a in presses]}
    r = httpx.post(f"{hub.url}/api/tables/{table}/presses", json=body,
                   headers=clocks_of(td)[table])
    assert r.status_code == 200 and r.json()["stored"] == len(presses), r.text


def csv_rows(td: httpx.Client, round_no: int | None = None) -> list[dict[str, str]]:
    r = td.get("/api/penalties.csv", params={} if round_no is None else {"round": round_no})
    r.raise_for_status()
    return list(csv.DictReader(io.StringIO(r.text)))


def test_choosing_the_next_rounds_event_keeps_round_one_as_played(browser, hub):
    from playwright.sync_api import expect

    dash, page = Dashboard(browser, hub), None
    page = dash.page
    page.set_input_files("#event-file", str(MY_OPEN))
    assert dash.click("#btn-event-file") == "Use my-open.toml for the event?"
    assert dash.set_up_round(1, START) == "Set up round 1 starting 2024-05-04 09:00?"
    page.fill("#tables-spec", "2")
    dash.click("#btn-tables")
    expect(page.locator("#event-name")).to_have_text("My Open 2026", timeout=WAIT)

    # my-open: Spring 1901 ends 09:15, Fall 1901 09:27; 5 late presses on two tables
    at(hub, START + timedelta(minutes=40))
    td = hub.td()
    s, f = START + timedelta(minutes=15), START + timedelta(minutes=27)
    kiosk_post(hub, td, 1, ("a", "A", s + timedelta(seconds=40)),
               ("e", "E", s + timedelta(seconds=50)), ("f", "F", f + timedelta(seconds=70)))
    kiosk_post(hub, td, 2, ("g", "G", s + timedelta(seconds=35)),
               ("i", "I", f + timedelta(seconds=45)))
    row = page.locator("#pen-1-1-E-S1901")
    expect(row).to_be_visible(timeout=WAIT)
    page.locator("#pen-1-1-A-S1901 button", has_text="Confirm").click()
    expect(page.locator("#pen-1-1-A-S1901")).to_have_class("penalty decided", timeout=WAIT)
    row.locator("input[aria-label=note]").fill("clock unclear")
    dash.answer = "1 unit deleted"
    row.locator("button", has_text="Change").click()
    expect(row).to_contain_text("1 unit deleted", timeout=WAIT)
    page.locator("#pen-1-2-G-S1901 button", has_text="Waive").click()
    expect(page.locator("#pen-1-2-G-S1901")).to_contain_text("Waived", timeout=WAIT)
    td.post("/api/td/call", json={}).raise_for_status()  # the call's own button is issue 9's item 3
    at(hub, START + timedelta(minutes=41))
    before = csv_rows(td, 1)
    late = [r for r in before if r["kind"] == "late"]
    assert len(late) == 5
    assert [(r["power"], r["decision"], r["final"], r["note"]) for r in late if r["decision"]] == [
        ("G", "waive", "Waived", ""), ("A", "confirm", late[1]["proposed"], ""),
        ("E", "change", "1 unit deleted", "clock unclear")]

    page.select_option("#event-builtin", "wdc2006")
    expect(page.locator("#event-name")).to_have_text("My Open 2026", timeout=WAIT)
    assert dash.click("#btn-event") == "Use wdc2006 from round 2 on? Round 1 keeps My Open 2026."
    assert csv_rows(td, 1) == before  # every row, decision and deadline as played
    assert csv_rows(td) == before
    expect(page.locator("#event-name")).to_contain_text(
        f"My Open 2026 · next round: {WDC2006}", timeout=WAIT)
    hall = phone(browser).new_page()
    hall.goto(hub.url + "/hall")
    expect(hall.locator("#hall-event")).to_contain_text("My Open 2026", timeout=WAIT)
    page.screenshot(path=f"{SHOTS}/dipclock-dashboard-next-event.png")

    # round 2, set up later, plays wdc2006; round 1 is still as played
    dash.set_up_round(2, START + timedelta(hours=5))
    expect(page.locator("#event-name")).to_have_text(WDC2006, timeout=WAIT)
    assert csv_rows(td, 1) == before
    assert dash.errors == []


def wdc2006_round_one(hub):
    """Round 1 of wdc2006 on two tables, the hub 40 minutes in; the TD's API client."""
    td = hub.td()
    for method, path, body in (("PUT", "/api/td/event", {"builtin": "wdc2006"}),
                               ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
                               ("PUT", "/api/td/tables", {"count": 2})):
        td.request(method, path, json=body).raise_for_status()
    at(hub, START + timedelta(minutes=40))
    return td


def test_a_round_one_row_is_decided_after_round_two_is_set_up(browser, hub):
    from playwright.sync_api import expect

    td = wdc2006_round_one(hub)
    s1901 = START + timedelta(minutes=17)  # wdc2006
    kiosk_post(hub, td, 1, ("a", "A", s1901 + timedelta(seconds=15)))
    dash = Dashboard(browser, hub)
    page = dash.page
    expect(page.locator("#pen-1-1-A-S1901")).to_be_visible(timeout=WAIT)
    round2 = START + timedelta(hours=5)
    dash.set_up_round(2, round2)
    at(hub, round2 + timedelta(minutes=40))
    kiosk_post(hub, td, 2, ("e", "E", round2 + timedelta(minutes=17, seconds=5)))
    expect(page.locator("#pen-2-2-E-S1901")).to_be_visible(timeout=WAIT)
    expect(page.locator("#pen-1-1-A-S1901")).to_have_count(0)
    undecided = td.get("/api/td/state").json()["undecided"]
    expect(page.locator("#undecided")).to_have_text(f"{undecided} late orders to decide",
                                                    timeout=WAIT)

    page.select_option("#review-round", "1")
    row = page.locator("#pen-1-1-A-S1901")
    expect(row).to_be_visible(timeout=WAIT)
    expect(page.locator("#csv-round")).to_have_attribute("href", "/api/penalties.csv?round=1")
    row.locator("input[aria-label=note]").fill("first offence, kiosk far")
    row.locator("button", has_text="Waive").click()
    expect(row).to_contain_text("Waived", timeout=WAIT)
    expect(page.locator("#undecided")).to_have_text(f"{undecided - 1} late orders to decide",
                                                    timeout=WAIT)
    page.locator("#review").screenshot(path=f"{SHOTS}/dipclock-review-round-picker.png")
    [got] = [r for r in csv_rows(td, 1) if r["kind"] == "late"]
    assert (got["decision"], got["note"]) == ("waive", "first offence, kiosk far")
    assert dash.errors == []


def test_set_tables_0_is_refused_in_words(browser, hub):
    from playwright.sync_api import expect

    dash = Dashboard(browser, hub)
    dash.open_set_up()
    for spec in ("0", "", "0-3"):
        dash.page.fill("#tables-spec", spec)
        dash.page.click("#btn-tables")
        expect(dash.page.locator("#toast")).to_contain_text("tables:", timeout=WAIT)
        expect(dash.page.locator("#toast")).to_have_class("bad")
    assert dash.asked == [] and dash.errors == []


def test_an_empty_hub_opens_on_set_up(browser, hub):
    from playwright.sync_api import expect

    dash = Dashboard(browser, hub)
    page = dash.page
    setup, clock = page.locator("#setup-card"), page.locator("#clock")
    expect(page.locator("#setup")).to_have_attribute("open", "", timeout=WAIT)
    assert setup.bounding_box()["y"] < clock.bounding_box()["y"]
    expect(page.locator("#event-name")).to_have_text("No event chosen")
    page.select_option("#event-builtin", "wdc2006")
    dash.click("#btn-event")
    dash.set_up_round(1, START)
    page.fill("#tables-spec", "1-3")
    dash.click("#btn-tables")
    assert setup.bounding_box()["y"] < clock.bounding_box()["y"]  # not moved under the TD
    # opened again with the round and tables set up: the clock first, set-up folded below
    page.reload()
    page.wait_for_selector("#app:not([hidden])")
    expect(page.locator("#round-title")).not_to_be_empty(timeout=WAIT)
    expect(page.locator("#setup")).not_to_have_attribute("open", "")
    assert setup.bounding_box()["y"] > clock.bounding_box()["y"]
    assert dash.errors == []


def test_seating_imported_on_the_dashboard_names_the_player_in_the_review(browser, hub):
    from playwright.sync_api import expect

    td = wdc2006_round_one(hub)
    kiosk_post(hub, td, 1, ("e", "E", START + timedelta(minutes=17, seconds=15)))
    dash = Dashboard(browser, hub)
    page = dash.page
    expect(page.locator("#pen-1-1-E-S1901")).to_be_visible(timeout=WAIT)
    dash.open_set_up()
    page.fill("#seating-csv", "round,table,power,player\n1,1,England,Alice Smith\n1,1,F,Bo Li\n")
    assert dash.click("#btn-seating") == "Import 2 seats?"
    expect(page.locator("#pen-1-1-E-S1901")).to_contain_text("T1 England (Alice Smith) Spring 1901",
                                                            timeout=WAIT)
    page.fill("#seating-csv", "1,1,Spain,Al\n")
    page.click("#btn-seating")
    expect(page.locator("#toast")).to_contain_text("seating line 1: power: 'Spain' is not a power",
                                                   timeout=WAIT)
    [got] = [r for r in csv_rows(td, 1) if r["kind"] == "late"]
    assert got["player"] == "Alice Smith"
    assert dash.errors == []


def test_units_typed_on_a_late_row_name_the_orders_a_graduated_penalty_deletes(browser, hub):
    from playwright.sync_api import expect

    td = hub.td()
    for method, path, body in (("PUT", "/api/td/event", {"builtin": "graduated20"}),
                               ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
                               ("PUT", "/api/td/tables", {"count": 1})):
        td.request(method, path, json=body).raise_for_status()
    at(hub, START + timedelta(minutes=30))
    deadline = START + timedelta(minutes=BUILTIN["graduated20"].phase_minutes(1901, "spring"))
    kiosk_post(hub, td, 1, ("e", "E", deadline + timedelta(seconds=40)))  # 3 started 15 s
    dash = Dashboard(browser, hub)
    page = dash.page
    row = page.locator("#pen-1-1-E-S1901")
    expect(row).to_contain_text("3-unit NMR", timeout=WAIT)
    row.locator("input.units").fill("F Lon, F Nth, A Lvp, A Edi")
    # the thumb leaves the field and the page refreshes, drawing the row anew: what was
    # typed is still there to be saved
    page.evaluate("document.activeElement.blur(); refresh()")
    expect(row.locator("input.units")).to_have_value("F Lon, F Nth, A Lvp, A Edi")
    assert dash.click("#pen-1-1-E-S1901 button:has-text('Units')") == (
        'Set the units of table 1 England Spring 1901 to "F Lon, F Nth, A Lvp, A Edi"?')
    expect(row.locator("em")).to_contain_text("3-unit NMR: delete", timeout=WAIT)
    shown = row.locator("em").inner_text()
    element_shot(row, f"{SHOTS}/dipclock-units-row.png")
    [got] = [r for r in csv_rows(td, 1) if r["kind"] == "late"]
    assert got["proposed"] == shown and got["units"] == "F Lon, F Nth, A Lvp, A Edi"
    row.locator("button", has_text="Confirm").click()
    expect(row).to_have_class("penalty decided", timeout=WAIT)
    [got] = [r for r in csv_rows(td, 1) if r["kind"] == "late"]
    assert got["final"] == shown  # confirmed with the orders it deletes
    assert dash.errors == []

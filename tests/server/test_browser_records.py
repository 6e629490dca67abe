"""Records a TD can defend, on the dashboard in Debian's headless Chromium against a real
uvicorn hub whose time the test sets: the next round's number filled in, a played round
refused a rewrite and reopened only on purpose (with what would move, and an undo), a
double tap that is one action, a second phone's stale change refused with what changed,
the call's preview gone once answered no, and the Results card naming whose lines are
missing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.chromium import SHOTS, TdPhone, phone
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub, at, clocks_of, held_hub
from tests.server.test_browser_rounds import WAIT, Dashboard
from tests.server.test_records_live import (
    F1901,
    S1901,
    SEATS,
    START,
    csv_rows,
    ok,
    presses,
    snapshot,
)

pytestmark = [pytest.mark.browser]


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


class Asking(Dashboard):
    """The dashboard, answering no to a question while ``self.no`` is set."""

    no = False

    def _dialog(self, d: Any) -> None:
        self.asked.append(d.message)
        if self.no:
            d.dismiss()
        elif d.type == "prompt":
            d.accept(self.answer)
        else:
            d.accept()

    def wait_asked(self, count: int) -> None:
        """Until the page has asked ``count`` questions (30 s at most: a bound on a hang)."""
        import time

        deadline = time.monotonic() + WAIT / 1000
        while len(self.asked) < count:
            assert time.monotonic() < deadline, f"the page asked {len(self.asked)} questions"
            self.page.wait_for_timeout(50)  # lets the page's dialog events arrive

    def toast(self) -> str:
        from playwright.sync_api import expect

        expect(self.page.locator("#toast")).to_be_visible(timeout=WAIT)
        return str(self.page.locator("#toast").inner_text())

    def clear_toast(self) -> None:
        self.page.evaluate("(t => { t.hidden = true; t.textContent = ''; })($('toast'))")


def set_up(dash: Asking, hub: ThreadHub) -> None:
    page = dash.page
    page.select_option("#event-builtin", "graduated20")
    dash.click("#btn-event")
    dash.open_set_up()
    # an empty hub's form offers round 1
    assert page.input_value("#round-number") == "1"
    page.fill("#round-start", START.isoformat(timespec="minutes"))
    assert dash.click("#btn-round") == "Set up round 1 starting 2026-11-25 10:00?"
    page.fill("#tables-spec", "2")
    dash.click("#btn-tables")
    ok(hub.td().put("/api/td/seating", json={"csv": SEATS}))


def test_a_played_round_is_reopened_only_on_purpose_and_its_undo_restores_it(browser, hub):
    from playwright.sync_api import expect

    dash = Asking(browser, hub)
    page = dash.page
    set_up(dash, hub)
    td = hub.td()
    at(hub, F1901 + timedelta(minutes=10))
    presses(hub, td, 1, ("a", "A", S1901 + timedelta(seconds=20)),
            ("e", "E", S1901 + timedelta(seconds=40)))
    ok(td.post("/api/td/penalties", json={"round": 1, "table": 1, "power": "A",
                                           "phase": "S1901", "decision": "confirm"}))
    before = csv_rows(td, 1)
    # round 1 has presses: the form offers round 2, with its start left to type
    expect(page.locator("#round-number")).to_have_value("2", timeout=WAIT)
    expect(page.locator("#btn-round")).to_have_text("Set up round 2")
    row = page.locator("#rounds-list li[data-round='1']")
    expect(row).to_contain_text("played: 2 button presses, 1 ruling", timeout=WAIT)

    # the tired TD types round 1 and tomorrow's start: refused before any question
    page.fill("#round-number", "1")
    page.fill("#round-start", (START + timedelta(days=1)).isoformat(timespec="minutes"))
    n = len(dash.asked)
    dash.clear_toast()
    page.click("#btn-round")
    assert dash.toast() == "Round 1 is a record: reopen it to correct it"
    expect(page.locator("#round-preview")).to_contain_text("tap Reopen… beside it")
    page.locator("#setup-card").screenshot(path=f"{SHOTS}/dipclock-round-is-a-record.png")
    assert len(dash.asked) == n and csv_rows(td, 1) == before

    # reopened on purpose: what would move is listed and asked; answered no, nothing moves
    row.locator("button", has_text="Reopen…").click()
    expect(page.locator("#round-mode")).to_contain_text("Reopening round 1, a record")
    assert page.locator("#round-number").evaluate("e => e.readOnly")
    page.fill("#round-start", (START + timedelta(minutes=2)).isoformat(timespec="minutes"))
    dash.no = True
    n = len(dash.asked)
    page.click("#btn-round")
    dash.wait_asked(n + 1)
    expect(page.locator("#round-preview")).to_be_hidden(timeout=WAIT)
    dash.no = False
    question = dash.asked[-1]
    assert question.startswith("Reopen round 1 (2 button presses, 1 ruling) and correct it?")
    assert "Spring 1901 10:20:00 → 10:22:00" in question and "ruling" in question
    assert csv_rows(td, 1) == before
    asked = dash.click("#btn-round")
    assert asked == question
    expect(page.locator("#round-undo")).to_contain_text("round 1 starts 2026-11-25 10:02",
                                                        timeout=WAIT)
    assert csv_rows(td, 1) != before
    assert dash.click("#btn-round-undo").startswith("Undo: round 1 starts 2026-11-25 10:02")
    assert csv_rows(td, 1) == before
    assert dash.errors == []


def test_a_double_tap_is_one_action_and_a_stale_phone_is_told_what_changed(browser, hub):
    from playwright.sync_api import expect

    dash = Asking(browser, hub)
    page = dash.page
    set_up(dash, hub)
    at(hub, START + timedelta(minutes=5))
    other = TdPhone(browser, hub.url, PASSWORD)
    other.page.wait_for_function("() => last !== null && last.data.round !== null",
                                 timeout=WAIT)
    # the other phone stops polling: its screen stays as it was drawn
    other.page.evaluate("clearInterval(polling); polling = 'stopped'")

    page.click("#actions details:has(#btn-add) > summary")
    page.fill("#adj-seconds", "60")
    page.dblclick("#btn-add")
    items = page.locator("#pauses li.adjustment")
    expect(items).to_have_count(1, timeout=WAIT)
    expect(items.first).to_contain_text("+60 s, all tables")
    state = ok(hub.td().get("/api/td/state"))
    assert [a["seconds"] for a in state["adjustments"]] == [60]

    # the other phone, drawn before the first one's change, adds time too: refused
    other.page.click("#actions details:has(#btn-add) > summary")
    other.page.click("#btn-add")
    expect(other.page.locator("#toast")).to_contain_text(
        "Not done: this changed meanwhile: 10:05:00 add 60 s, all tables.", timeout=WAIT)
    # and it now shows the hub's state: the first phone's +60 s
    expect(other.page.locator("#pauses li.adjustment")).to_have_count(1, timeout=WAIT)
    assert [a["seconds"] for a in ok(hub.td().get("/api/td/state"))["adjustments"]] == [60]

    # add time has an undo
    assert dash.click("#pauses li.adjustment button").startswith("Undo +60 s, all tables")
    expect(items).to_have_count(0, timeout=WAIT)

    # the call's preview: answered no, it goes
    page.click("#actions details:has(#btn-call) > summary")
    dash.no = True
    n = len(dash.asked)
    page.click("#btn-call")
    dash.wait_asked(n + 1)
    assert dash.asked[-1].startswith("Call round 1 at 10:05:00?")
    expect(page.locator("#call-preview")).to_be_hidden(timeout=WAIT)
    dash.no = False
    assert ok(hub.td().get("/api/td/state"))["round"]["call"] is None
    assert dash.errors == [] and other.errors == []


def test_the_results_card_names_the_missing_lines_and_asks_before_an_incomplete_sheet(
        browser, hub):
    from playwright.sync_api import expect

    dash = Asking(browser, hub)
    page = dash.page
    set_up(dash, hub)
    td = hub.td()
    at(hub, START + timedelta(hours=7))  # round 1 (to Fall 1909) is over
    board = {"centres": dict(A=5, E=4, F=6, G=0, I=7, R=6, T=6), "year": 1909,
             "eliminated": {"G": 1905}}
    ok(td.put("/api/sheets/1/1", json=board, headers={"If-Match": "0"}))
    shown = snapshot(hub, td, 1)["result"]
    r = td.post(f"{hub.url}/api/tables/1/confirmations", headers=clocks_of(td)[1], json={
        "confirmations": [{"id": p, "round": 1, "power": p, "version": shown["version"]}
                          for p in "AEFGR"]})
    assert r.status_code == 200 and len(r.json()["taken"]) == 5
    card = page.locator("#sheets li[data-table='1']")
    expect(card).to_contain_text("5/7 confirmed · waiting for Italy (I1), Turkey (T1)",
                                 timeout=WAIT)
    asked = dash.click("#sheets li[data-table='1'] button:has-text('Confirm')")
    assert asked.startswith("Confirm table 1's sheet without Italy (I1), Turkey (T1)? They "
                            "have not confirmed their lines: it is recorded as your "
                            "confirmation.")
    expect(card).to_contain_text("confirmed by the TD without Italy (I1), Turkey (T1)",
                                 timeout=WAIT)
    page.evaluate("document.querySelector('.top').style.position = 'static'")
    page.locator("#results-card").screenshot(path=f"{SHOTS}/dipclock-results-missing.png")

    # a blocked sheet: its Confirm buttons cannot be used, and look it
    solo = {**board, "centres": dict(A=7, E=4, F=6, G=0, I=5, R=6, T=6), "ending": "solo",
            "solo": "A"}
    ok(td.put("/api/sheets/1/2", json=solo, headers={"If-Match": "0"}))
    blocked = page.locator("#sheets li[data-table='2'] button:has-text('Confirm')")
    expect(blocked).to_be_disabled(timeout=WAIT)
    sheet = phone(browser).new_page()
    sheet.goto(hub.url + "/dashboard")  # the TD signs in on another phone, opens the sheet
    sheet.fill("#password", PASSWORD)
    sheet.click("#signin button[type=submit]")
    sheet.wait_for_selector("#app:not([hidden])")
    sheet.goto(hub.url + "/sheet/1/2")
    button = sheet.locator("#confirm li[data-power=A] button")
    expect(button).to_be_disabled(timeout=WAIT)
    live = sheet.locator("#btn-save")
    colours = [b.evaluate("e => getComputedStyle(e).backgroundColor") for b in (button, live)]
    assert colours[0] != colours[1], colours  # it does not look like a button to press
    expect(sheet.locator("#flags li").first).to_contain_text("a solo in 1909 needs 18")
    flag = sheet.locator("#flags li").first.evaluate("e => getComputedStyle(e).color")
    assert flag not in ("rgb(27, 31, 36)", "rgb(0, 0, 0)"), flag  # styled, not body text
    sheet.screenshot(path=f"{SHOTS}/dipclock-sheet-blocked.png", full_page=True)
    assert dash.errors == []

"""The dashboard in a real headless Chromium against a real hub, as a TD's phone uses it."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import httpx
import pytest
from websockets.sync.client import connect

from dipclock.sync import to_moment
from tests.chromium import SHOTS, phone, signed_in
from tests.server.conftest import PASSWORD
from tests.server.live import Clocks, LiveHub
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]


def test_td_pauses_resumes_and_waives_from_a_phone(browser, tmp_path):
    live = LiveHub(tmp_path / "hub").start()
    try:
        _drive(browser, live)
    finally:
        live.stop()


def _drive(browser, live: LiveHub) -> None:
    from playwright.sync_api import expect

    api = live.td()
    now = to_moment(httpx.get(live.url + "/api/time").json()["t1"])
    start = (now - timedelta(minutes=17, seconds=40)).replace(microsecond=0)
    set_up(api, start, tables=8)
    auth = Clocks(api)
    late = {"id": "b7d0-late", "power": "E", "kind": "press",
            "at": (start + timedelta(minutes=17, seconds=21)).isoformat()}
    httpx.post(f"{live.url}/api/tables/2/presses", json={"presses": [late]},
               headers=auth[2]).raise_for_status()
    for n in (1, 2, 3):
        httpx.post(f"{live.url}/api/tables/{n}/status", json={"offset": 0.004 * n, "rtt": 0.02},
                   headers=auth[n]).raise_for_status()

    def snapshot(n: int = 2) -> dict:
        return httpx.get(f"{live.url}/api/tables/{n}/snapshot", headers=auth[n]).json()

    ctx = phone(browser)
    page = ctx.new_page()
    dialogs: list[str] = []

    def accept(d) -> None:
        dialogs.append(d.message)
        d.accept()

    page.on("dialog", accept)
    page.goto(live.url + "/dashboard")
    page.fill("#password", PASSWORD)
    page.click("#signin button[type=submit]")
    expect(page.locator("#app")).to_be_visible()
    expect(page.locator(".tile")).to_have_count(8)
    expect(page.locator("#stage")).to_contain_text("Negotiating · Fall 1901")
    expect(page.locator("#pen-1-2-E-S1901")).to_contain_text("21 s late")

    ws_url = f"{live.url.replace('http', 'ws')}/api/tables/5/ws"
    with connect(ws_url, open_timeout=30, additional_headers=auth[5]) as ws:
        first = json.loads(ws.recv(timeout=30))
        page.fill("#pause-reason", "Lunch")
        page.click("#btn-pause")
        expect(page.locator("#stage")).to_contain_text("Lunch: the clock is stopped")
        expect(page.locator("#remaining")).to_have_text("Break")
        assert dialogs[-1] == "Pause every clock now?"
        pushed = json.loads(ws.recv(timeout=30))  # the kiosk on table 5 follows at once
        assert pushed["seq"] > first["seq"]
        assert pushed["schedule"]["pauses"][-1]["reason"] == "Lunch"
        assert pushed["schedule"]["pauses"][-1]["ended"] is None
        page.screenshot(path=f"{SHOTS}/dipclock-dashboard-paused.png", full_page=False)

        page.click("#btn-resume")
        expect(page.locator("#stage")).to_contain_text("Negotiating")
        resumed = json.loads(ws.recv(timeout=30))
        assert resumed["seq"] > pushed["seq"] and resumed["schedule"]["pauses"][-1]["ended"]
    assert snapshot()["schedule"]["pauses"][-1]["ended"]  # the polling kiosks agree

    row = page.locator("#pen-1-2-E-S1901")
    row.locator("input[aria-label=note]").fill("kiosk button stuck")
    row.get_by_role("button", name="Waive").click()
    expect(row).to_contain_text("Waived")
    pen = api.get("/api/td/penalties").json()[0]
    assert (pen["decision"], pen["final"], pen["note"]) == ("waive", "Waived",
                                                              "kiosk button stuck")
    audit = [a["summary"] for a in api.get("/api/td/state").json()["audit"][:3]]
    assert audit[0].startswith("penalty waive: table 2 E S1901") and audit[1] == "resume all tables"
    page.screenshot(path=f"{SHOTS}/dipclock-dashboard.png", full_page=False)
    page.screenshot(path=f"{SHOTS}/dipclock-dashboard-full.png", full_page=True)

    hall = ctx.new_page()
    hall.set_viewport_size({"width": 1280, "height": 720})
    hall.goto(live.url + "/hall")
    expect(hall.locator("#stage")).to_contain_text("Fall 1901")
    expect(hall.locator("#remaining")).not_to_have_text("--:--")
    hall.screenshot(path=f"{SHOTS}/dipclock-hall.png")
    ctx.close()


def round_under_way(live: LiveHub, ago: timedelta, tables: int) -> tuple[datetime, Clocks]:
    """A wdc2006 round that started ``ago`` before the hub's now; its start and the tables'
    clocks."""
    api = live.td()
    now = to_moment(httpx.get(live.url + "/api/time").json()["t1"]).replace(microsecond=0)
    set_up(api, now - ago, tables=tables)
    return now - ago, Clocks(api)


def test_a_note_being_typed_survives_refreshes_and_restart_times_are_checked(browser, tmp_path):
    from playwright.sync_api import expect

    live = LiveHub(tmp_path / "hub").start()
    try:
        # S1901 ended 20 s ago
        start, auth = round_under_way(live, timedelta(minutes=17, seconds=40), tables=4)

        def late_press(table: int, power: str) -> None:
            body = {"id": f"late-{table}-{power}", "power": power, "kind": "press",
                    "at": (start + timedelta(minutes=17, seconds=5)).isoformat()}
            httpx.post(f"{live.url}/api/tables/{table}/presses", json={"presses": [body]},
                       headers=auth[table]).raise_for_status()

        late_press(3, "F")
        page, asked = signed_in(browser, live.url, PASSWORD)
        note = page.locator("#pen-1-3-F-S1901 input")
        note.type("player was in the toilet, TD saw")  # focus stays in the box
        late_chip = page.locator('[data-table="4"] .chip.late', has_text="G")
        expect(late_chip).to_have_count(1)
        late_press(4, "G")
        expect(late_chip).to_have_count(0)  # a refresh has come and gone while typing...
        expect(note).to_have_value("player was in the toilet, TD saw")  # ...and left the note
        expect(note).to_be_focused()
        page.locator("#stage").click()  # done typing: the list may refresh again
        expect(page.locator("#pen-1-4-G-S1901")).to_be_visible()
        expect(page.locator("#pen-1-3-F-S1901 input")).to_have_value(
            "player was in the toilet, TD saw")

        hub_now = to_moment(httpx.get(live.url + "/api/time").json()["t1"])
        soon = (hub_now + timedelta(minutes=75)).strftime("%H:%M")
        page.fill("#pause-until", soon)
        page.click("#btn-pause")
        expect(page.locator("#stage")).to_contain_text(f"clock restarts at {soon}")
        assert asked[-1].startswith(f"Pause every clock now, restart at {soon} (in 1 h 1")
        page.click("#btn-resume")
        expect(page.locator("#stage")).to_contain_text("Negotiating")
        typo = (hub_now - timedelta(minutes=30)).strftime("%H:%M")  # i.e. tomorrow: refused
        page.fill("#pause-until", typo)
        n = len(asked)
        page.click("#btn-pause")
        expect(page.locator("#toast")).to_contain_text("h away: check the time")
        assert len(asked) == n  # nothing was asked, nothing paused
        page.context.close()
    finally:
        live.stop()


def test_the_dashboard_lists_a_power_that_never_pressed(browser, tmp_path):
    from playwright.sync_api import expect

    live = LiveHub(tmp_path / "hub").start()
    try:
        # S1901 ended 6 min ago: its late window is shut
        start, auth = round_under_way(live, timedelta(minutes=17 + 6), tables=3)
        on_time = [{"id": f"ok-{p}", "power": p, "kind": "press",
                    "at": (start + timedelta(minutes=16)).isoformat()} for p in "AFGIRT"]
        httpx.post(f"{live.url}/api/tables/3/presses", json={"presses": on_time},
                   headers=auth[3]).raise_for_status()
        page, _ = signed_in(browser, live.url, PASSWORD)
        row = page.locator("#pen-1-3-E-S1901")
        expect(row).to_contain_text("no press recorded")
        expect(row).to_contain_text("No orders: red card")
        expect(page.locator("#penalties li")).to_have_count(1)  # tables 1-2 never used buttons
    finally:
        live.stop()


def test_the_pages_countdown_runs_on_and_rounds_up_as_the_kiosk_does(browser, tmp_path):
    from kiosk.state import duration_text

    live = LiveHub(tmp_path / "hub").start()
    try:
        page = browser.new_page(bypass_csp=True)
        page.goto(live.url + "/hall")
        page.wait_for_function("typeof renderClock === 'function'")
        # the hub's screen as served 1.5 s ago, 90.4 s before the deadline: 88.9 s now
        shown = page.evaluate("""() => {
            const clock = {look: "negotiating", label: "Negotiating", phase: "Spring 1901",
                           big: "1:31", ticking: true, seconds_left: 90.4, deadline: "",
                           notes: []};
            last = {data: {clock, hub_time: 0}, at: performance.now() - 1500};
            renderClock(clock);
            const ticked = document.getElementById("remaining").textContent;
            const stopped = {...clock, look: "held", big: "1:31", ticking: false};
            renderClock(stopped);  // a clock the hub says is stopped is shown as it is
            return [ticked, document.getElementById("remaining").textContent];
        }""")
        # not frozen (1:31), not floored (1:28)
        assert shown == [duration_text(88.9), "1:31"] and shown[0] == "1:29"
        page.close()
    finally:
        live.stop()

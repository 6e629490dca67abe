"""The dashboard's hub-time card and the hall of Pis on the grid, in a real headless Chromium
at phone sizes, against a real uvicorn whose wall clock and time-sync probe the test sets."""

from __future__ import annotations

import json
import re
import time
from datetime import datetime, timedelta

import httpx
import pytest
from websockets.sync.client import connect

from dipclock.sync import to_moment, to_seconds
from server.clock import wall_seconds
from tests.chromium import SHOTS, signed_in
from tests.server.conftest import PASSWORD
from tests.server.live import Clocks, ThreadHub
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]


def test_the_td_sees_the_hub_is_behind_and_sets_its_time_from_the_phone(browser, tmp_path):
    from playwright.sync_api import expect

    shift, synced = [-125.0], [False]  # a Pi that booted on an old time, no time server
    hub = ThreadHub(tmp_path / "hub", synced=lambda: synced[0],
                    wall=lambda: wall_seconds() + shift[0])
    with hub:
        api = hub.td()
        auth = hub.auth(api, 1)
        page, asked = signed_in(browser, hub.url, PASSWORD)
        warning = page.locator("#time-warning")
        # 125 s, give or take the poll's round trip on a busy machine
        expect(page.locator("#time-diff")).to_have_text(re.compile(r"−2 min [4-6] s"))
        expect(warning).to_contain_text(
            re.compile(r"The hub's clock is 2 min [4-6] s behind this phone's\."))
        expect(warning).to_contain_text("not synchronised")
        for width in (360, 412):
            page.set_viewport_size({"width": width, "height": 740})
            assert page.locator("#time .time-row").evaluate(
                "r => r.scrollWidth <= r.clientWidth"), f"the clocks overflow at {width} px"
            page.locator("#time").screenshot(path=f"{SHOTS}/dipclock-hub-time-{width}.png")

        with connect(f"{hub.url.replace('http', 'ws')}/api/tables/1/ws",
                     open_timeout=30, additional_headers=auth) as ws:
            assert json.loads(ws.recv(timeout=30))["clock"] == 0
            page.get_by_text("Set the hub's time", exact=True).click()
            page.click("#btn-time-phone")
            expect(warning).to_be_hidden()
            assert re.fullmatch(r"Set the hub's time from \d\d:\d\d:\d\d to this phone's "
                                r"\d\d:\d\d:\d\d \(\+2 min [4-6] s\)\? Every table resyncs to it\.",
                                asked[-1]), asked[-1]
            assert json.loads(ws.recv(timeout=30))["clock"] == 1  # the kiosk resyncs
        expect(page.locator("#time-standing")).to_have_text("Hub clock set from a TD's phone.")
        logged = api.get("/api/td/state").json()["audit"][0]["summary"]
        # the log names the day too when the change crosses midnight (a run at 23:59)
        stamp = r"(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d"
        assert re.fullmatch(rf"hub time set from {stamp} to {stamp}, \+12[4-6] s", logged), logged

        shift[0], synced[0] = 0.0, True  # NTP reaches a time server and steps the clock
        use_system = page.locator("#btn-time-system")
        expect(use_system).to_be_visible()
        use_system.click()
        expect(use_system).to_be_hidden()
        assert asked[-1].startswith("Use the system's synchronised time? The hub's clock moves ")
        expect(page.locator("#time-standing")).to_have_text(
            "Hub clock synchronised with a time server (NTP).")
        expect(warning).to_be_hidden()
        assert api.get("/api/td/state").json()["clock"]["epoch"] == 2
        page.context.close()


def about(kiosk_id: str, **changes) -> dict:
    return {"id": kiosk_id, "version": "0.2.0", "uptime": 4 * 3600 + 754.0,
            "buttons": ["gpio"], "pin_factory": "lgpio", "box": None, "power": "ok",
            "clock": "hub"} | changes


def test_the_grid_shows_the_hall_of_pis_readably_on_a_phone(browser, tmp_path):
    from playwright.sync_api import expect

    with ThreadHub(tmp_path / "hub") as hub:
        api = hub.td()
        now = to_moment(httpx.get(hub.url + "/api/time").json()["t1"]).replace(microsecond=0)
        set_up(api, now - timedelta(minutes=5), tables=6)
        auth = Clocks(api)
        reports = {  # table: [(the kiosk's address, what it says), ...]
            1: [("127.0.0.11", about("card-11"))],
            2: [("127.0.0.22", about("card-22", buttons=["serial"], pin_factory=None,
                                     box="disconnected", power="under-voltage now",
                                     clock="unverified", uptime=95.0))],
            3: [("127.0.0.12", about("card-12")), ("127.0.0.31", about("card-31"))],
            4: [("127.0.0.44", None)],  # an older kiosk: no block
            5: [("127.0.0.55", about("card-55", buttons=["keyboard"], pin_factory=None,
                                     power="throttled since boot", clock="system",
                                     box="connected", version="0.2.0-dev+g1a2b3c4"))],
        }
        for table, kiosks in reports.items():
            for address, info in kiosks:
                with httpx.Client(transport=httpx.HTTPTransport(local_address=address)) as c:
                    body = {"offset": 0.003, "rtt": 0.018} | ({"kiosk": info} if info else {})
                    c.post(f"{hub.url}/api/tables/{table}/status", json=body,
                           headers=auth[table]).raise_for_status()

        page, _ = signed_in(browser, hub.url, PASSWORD)
        tile = lambda n: page.locator(f'.tile[data-table="{n}"]')  # noqa: E731
        expect(tile(3)).to_have_class(re.compile(r"\bclaimed\b"))
        expect(tile(3).locator(".claim")).to_have_text(
            "2 kiosks say they are table 3: 127.0.0.12, 127.0.0.31")
        expect(tile(1)).to_contain_text("v0.2.0 · 127.0.0.11")
        expect(tile(1)).to_contain_text("up 4 h 12 min · gpio\u00a0(lgpio)")
        expect(tile(1).locator(".mark")).to_have_text(["clock: hub"])  # power ok: no mark
        expect(tile(2).locator(".mark.bad")).to_have_text(
            ["box unplugged", "clock not verified", "under-voltage now"])
        expect(tile(2)).to_contain_text("up 1 min · serial")
        expect(tile(4)).to_contain_text("3 ms · rtt 18 ms")
        expect(tile(4).locator(".pi")).to_have_count(0)
        expect(tile(5).locator(".mark.warn")).to_have_text(["clock: system",
                                                            "throttled since boot"])
        expect(tile(5).locator(".mark.ok")).to_have_text(["box ok"])
        expect(tile(6).locator(".pi")).to_have_count(0)
        for width in (360, 412):
            page.set_viewport_size({"width": width, "height": 900})
            # nothing sticks out sideways, and no tile's text runs over another's
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # read in one go: the grid is drawn anew every 2 s, and a tile located before
            # a redraw has no box after it
            boxes = page.evaluate("""() => [1, 2, 3, 4, 5, 6].map((n) => document
                .querySelector(`.tile[data-table="${n}"]`).getBoundingClientRect().toJSON())""")
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                            or a["y"] + a["height"] <= b["y"]
                            or b["y"] + b["height"] <= a["y"]), (a, b)
            for n in range(1, 7):
                inner = tile(n).evaluate("t => t.scrollWidth <= t.clientWidth")
                assert inner, f"table {n}'s tile overflows at {width} px"
            page.locator("#grid").screenshot(path=f"{SHOTS}/dipclock-hall-of-pis-{width}.png")
        page.context.close()


AUCKLAND = """
name = "Auckland Open"
timezone = "Pacific/Auckland"
[[phase_lengths]]
spring = 15
fall = 15
[penalty]
model = "warning"
"""


def test_a_phone_in_another_zone_reads_and_sets_the_venue_s_time(browser, tmp_path):
    """The venue is in Auckland, the TD's phone still on New York time: the dashboard shows
    the hub's clock and the phone's in the venue's zone, sees they agree, and setting the
    hub from the phone moves it by the seconds they differ, not by the zones' 17 hours."""
    from zoneinfo import ZoneInfo

    from playwright.sync_api import expect

    hub = ThreadHub(tmp_path / "hub")
    with hub:
        api = hub.td()
        api.put("/api/td/event", json={"toml": AUCKLAND}).raise_for_status()
        context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844},
                                      timezone_id="America/New_York")
        page = context.new_page()
        asked: list[str] = []
        page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
        page.goto(hub.url + "/dashboard")
        assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == (
            "America/New_York")
        page.fill("#password", PASSWORD)
        page.click("#signin button[type=submit]")
        page.wait_for_selector("#app:not([hidden])")
        shown = page.locator("#time-hub")
        expect(shown).to_have_text(re.compile(r"\d\d:\d\d:\d\d"))
        venue = ZoneInfo("Pacific/Auckland")
        before = datetime.now(venue).replace(microsecond=0)
        hh, mm, ss = (int(x) for x in shown.inner_text().split(":"))
        after = datetime.now(venue)
        # the page's clock as read, between the two readings of the venue's (its next tick
        # and the hub's sample of the time: a second either side)
        seen = (before.hour * 3600 + before.minute * 60 + before.second,
                hh * 3600 + mm * 60 + ss)
        ahead = (seen[1] - seen[0]) % 86400
        assert ahead <= (after - before).total_seconds() + 1 or ahead >= 86400 - 1, (
            before, after, shown.inner_text())
        # the two clocks agree to the second, not 17 hours apart
        expect(page.locator("#time-diff")).to_have_text(re.compile(r"^[+−]?\d\.\d s$"))
        page.get_by_text("Set the hub's time", exact=True).click()
        clicked = time.monotonic()
        page.click("#btn-time-phone")
        expect(page.locator("#time-standing")).to_have_text("Hub clock set from a TD's phone.")
        logged = api.get("/api/td/state").json()["audit"][0]["summary"]
        took = time.monotonic() - clicked  # the phone's reading is at most this old
        moved = float(re.search(r", ([+-][\d.]+) s$", logged).group(1))
        assert abs(moved) <= took + 0.5, (logged, took)  # and the log rounds to the second
        context.close()


def test_the_hall_lists_the_tables_whose_clock_is_not_the_hall_s(browser, tmp_path):
    """Issue 21: the projector showed the hall's clock only. Tables given time, time taken
    away, held (with the TD's reason) or held and resumed are listed under it, one short
    line each, readable and on screen at a projector's sizes."""
    from playwright.sync_api import expect

    from tests.doubles import FakeClock

    day = "2024-05-04"
    moment = lambda hms: datetime.fromisoformat(f"{day}T{hms}")  # noqa: E731
    with ThreadHub(tmp_path / "hub", synced=lambda: True,
                   clock=FakeClock(to_seconds(moment("08:00:00")))) as hub:
        td = hub.td()
        set_up(td, moment("09:00:00"), tables=40)

        def at(hms: str, *changes: tuple[str, dict]) -> None:
            hub.clock.t = to_seconds(moment(hms))
            for path, body in changes:
                td.post(path, json=body).raise_for_status()

        at("09:04:00", ("/api/td/pauses", {"table": 6}))
        at("09:05:00", ("/api/td/adjustments", {"seconds": 120, "table": 2}),
           ("/api/td/adjustments", {"seconds": -60, "table": 5}))
        at("09:06:00", ("/api/td/resume", {"table": 6}),
           ("/api/td/pauses", {"table": 4, "reason": "TD ruling"}))
        at("09:07:00")
        # the hub says which tables differ, and how
        apart = td.get("/api/hall").json()["apart"]
        assert [(a["table"], a["held"], a["reason"], a["extra"], a["deadline"])
                for a in apart] == [(2, False, "", 120.0, "Deadline 09:19"),
                                    (4, True, "TD ruling", None, ""),
                                    (5, False, "", -60.0, "Deadline 09:16"),
                                    (6, False, "", 120.0, "Deadline 09:19")]

        page = browser.new_context(bypass_csp=True,  # its wait is eval'd text (chromium.phone)
                                   viewport={"width": 1280, "height": 720}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(hub.url + "/hall")
        lines = page.locator("#hall-apart li")
        expect(lines).to_have_text(["Table 2: 2 min extra · Deadline 09:19",
                                    "Table 4 held: TD ruling",
                                    "Table 5: 1 min less · Deadline 09:16",
                                    "Table 6: 2 min extra · Deadline 09:19"])
        expect(page.locator("#stage")).to_have_text("Negotiating · Spring 1901")

        def on_screen(size: dict, name: str) -> None:
            page.set_viewport_size(size)
            # the page fits its list to the new size (a bound on a hang, not a margin)
            page.wait_for_function("document.documentElement.scrollHeight <= innerHeight",
                                   timeout=30_000)
            page.screenshot(path=f"{SHOTS}/dipclock-hall-apart-{name}.png")
            clock, boxes = page.evaluate("""() => [
                document.getElementById("remaining").getBoundingClientRect().toJSON(),
                [...document.querySelectorAll("#hall-apart li")].map(
                    (li) => li.getBoundingClientRect().toJSON())]""")
            assert len(boxes) == lines.count()
            for box in boxes:  # under the clock, inside the screen
                assert box["top"] >= clock["bottom"], (name, box, clock)
                assert box["bottom"] <= size["height"], (name, box)
                assert 0 <= box["left"] and box["right"] <= size["width"], (name, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

        for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
            on_screen(size, f"{size['width']}")

        # past the hall's deadline: table 2 still plays Spring 1901, the others Fall 1901
        at("09:18:00")
        expect(lines.first).to_have_text("Table 2: 2 min extra · Spring 1901 · Deadline 09:19")
        # many tables apart: the clock and the list smaller, all still on the screen
        at("09:19:00", *(("/api/td/adjustments", {"seconds": 30 * n, "table": n})
                         for n in range(7, 41)))
        expect(lines).to_have_count(38)
        for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
            on_screen(size, f"many-{size['width']}")
        assert errors == []
        page.context.close()


def test_the_td_sees_each_tables_vote_on_the_hubs_time_and_undoes_the_move(browser, tmp_path):
    """A hub rebooted an hour ahead takes the time three of its four tables kept; the TD's
    dashboard names every vote, and one tap puts the time back on the machine's clock."""
    from playwright.sync_api import expect

    from server.clock import GATHER_SECONDS, LISTEN_SECONDS
    from tests.server.test_hall_time_attack import Hall
    from tests.server.test_hall_time_attack import set_up as set_up_tables

    # the hall's time is this phone's: the hub's moves (by hand) are gone once it takes it
    hall = Hall(tmp_path / "hub", running=True,
                start=wall_seconds() - (LISTEN_SECONDS + 1 + 60 + GATHER_SECONDS))
    with hall.hub() as (_hub, td):
        set_up_tables(hall, td, 4)
        hall.later(LISTEN_SECONDS + 1)
    hall.later(60, wall_step=3600.0)
    with hall.hub() as (hub, td):
        for table, vote in ((1, 0.2), (2, 3600.0), (3, 3600.0), (4, 3600.0)):
            assert hall.status(hub, table, vote, 0.01) == 204
        hall.later(GATHER_SECONDS)
        page, asked = signed_in(browser, hub.url, PASSWORD)
        standing = page.locator("#time-standing")
        expect(standing).to_have_text(
            "Hub clock taken from the time the tables kept while it restarted. Its machine's "
            "clock was 1 h 0 min ahead; 3 tables had kept the time, so no deadline moved. "
            "Each table's vote (hub minus the time it kept): table 1 +0.20 s, table 2 "
            "+3600.00 s, table 3 +3600.00 s, table 4 +3600.00 s.")
        page.locator("#time").screenshot(path=f"{SHOTS}/dipclock-hub-time-kept.png")
        undo = page.locator("#btn-time-machine")
        undo.click()
        expect(undo).to_be_hidden()
        assert asked[-1] == ("Undo the time the tables kept? The hub's clock moves +1 h 0 min, "
                             "back to its machine's clock; every table resyncs to it.")
        assert td.get("/api/td/state").json()["audit"][0]["summary"].startswith(
            "hub time put back on the hub machine's own clock")
        page.context.close()

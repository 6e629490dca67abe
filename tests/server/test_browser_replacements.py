"""The "A player leaves" card on a 360 px phone (issue 36): round 1 seated, the TD picks
table 2, Germany, Fall 1903 and a player from the roster, records it, sees it listed and
undoes a civil disorder recorded after it; the event leaves the score to the TD (wdc2019),
so the share is asked for. Debian's headless Chromium against a real uvicorn hub."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from tests.chromium import SHOTS, element_shot
from tests.server.conftest import START
from tests.server.test_browser_rounds import (  # noqa: F401 (hub: a fixture)
    WAIT,
    Dashboard,
    hub,
)

pytestmark = [pytest.mark.browser]

SEATS = "".join(f"1,{t},{p},{p}{t}\n" for t in (1, 2) for p in "AEFGIRT")


def set_up(td: httpx.Client) -> None:
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "wdc2019"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat(timespec="seconds")}),
        ("PUT", "/api/td/tables", {"count": 2}),
        ("PUT", "/api/td/seating", {"csv": SEATS}),
        ("POST", "/api/td/roster/people", {"given_name": "Zoe", "family_name": "Late"}),
    ):
        td.request(method, path, json=body).raise_for_status()


def test_a_replacement_is_recorded_on_a_phone(browser, hub, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    td = hub.td()
    set_up(td)
    dash = Dashboard(browser, hub)
    page = dash.page
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#leaves-desk > summary")
    expect(page.locator("#lv-round")).to_have_value("1", timeout=WAIT)
    expect(page.locator("#lv-rule")).to_have_text(
        "The event leaves the score to you: give the new player's share.", timeout=WAIT)
    page.select_option("#lv-table", "2")
    page.select_option("#lv-power", label="Germany: G2")
    page.select_option("#lv-phase", label="Fall 1903")
    page.fill("#lv-player", "Zoe Late")
    # no share where the event leaves the score to the TD: refused with what to give
    page.click("#btn-lv-record")
    expect(page.locator("#toast")).to_contain_text("give Zoe Late's share", timeout=WAIT)
    page.wait_for_function("() => !acting", timeout=WAIT)
    page.fill("#lv-share", "40")
    assert dash.click("#btn-lv-record") == "Record Germany at table 2: Zoe Late from Fall 1903?"
    expect(page.locator("#lv-list li")).to_have_count(1, timeout=WAIT)
    expect(page.locator("#lv-list li").first).to_contain_text(
        "Table 2, Germany: Zoe Late from Fall 1903 (40 %) (started: G2)")
    # then civil disorder from Spring 1905, and undone
    page.select_option("#lv-power", label="Germany: G2")
    page.select_option("#lv-phase", label="Spring 1905")
    page.check("#lv-cd")  # civil disorder scores for no one: no share asked
    dash.click("#btn-lv-record")
    expect(page.locator("#lv-list li")).to_have_count(2, timeout=WAIT)
    shot = tmp_path / "leaves-card.png"
    page.add_style_tag(content=".top { position: static; }")
    page.evaluate("document.getElementById('toast').hidden = true")
    element_shot(page.locator("#leaves-card"), str(shot))
    if SHOTS:
        element_shot(page.locator("#leaves-card"), os.path.join(SHOTS, "leaves-card.png"))
    assert Path(shot).stat().st_size > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert dash.click("#lv-list li:nth-child(2) button").startswith(
        "Undo table 2, Germany: civil disorder from Spring 1905?")
    expect(page.locator("#lv-list li")).to_have_count(1, timeout=WAIT)
    got = td.get("/api/td/replacements/1").json()["records"]
    assert [(r["who"], r["phase"], r["share"]) for r in got] == [("Zoe Late", "F1903", 40.0)]
    assert dash.errors == []

"""The Roster card on a 360 px phone (issue 36): a roster file imported with a bad line
refused by its number and the good lines kept when the TD says so; round 1 registered (all
pre-registered at once, a late arrival found by searching, a volunteer to sit out, a
withdrawal); the Seating card seats from the register, the volunteer sitting out first
(then the non-pre-registered, as wdc2019 II.1b3), the event's bonus for it said; after
the board call a late arrival is refused with why. Debian's headless Chromium against a
real uvicorn hub."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from dipclock.roster import COLUMNS
from tests.chromium import SHOTS, element_shot
from tests.server.conftest import START
from tests.server.live import ThreadHub
from tests.server.test_browser_rounds import (  # noqa: F401 (hub: a fixture)
    MY_OPEN,
    WAIT,
    Dashboard,
    hub,
)

pytestmark = [pytest.mark.browser]

#: 15 pre-registered players, two who did not pre-register (one with accents), and a bad
#: line (line 5: no such country) in the middle
LINES = [f"Player,{i:02d},1,,,,FR,,yes,," for i in range(1, 16)]
LINES[3:3] = ["Bad,Country,1,,,,ZZ,,yes,,"]
LINES += ["José,García,1,,,,ES,Madrid,no,,", "Zoe,Late,1,,,,GB,,no,,"]
ROSTER = ",".join(COLUMNS) + "\n" + "\n".join(LINES) + "\n"


def row(name: str) -> str:
    return f"#roster-list li:has(.roster-name:text-is('{name}'))"


#: an event of the TD's own that sits out the volunteers, then the non-pre-registered (as
#: wdc2019 II.1b3), and gives a volunteer who sits out 5 points
EVENT = (MY_OPEN.read_text(encoding="utf-8")
         + "sit_out_not_preregistered_first = true\nsit_out_bonus = 5\n")


def set_up(td: httpx.Client) -> None:
    for method, path, body in (
        ("PUT", "/api/td/event", {"toml": EVENT}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat(timespec="seconds")}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        td.request(method, path, json=body).raise_for_status()


@pytest.fixture
def live(request: pytest.FixtureRequest) -> ThreadHub:
    """test_browser_rounds' hub: a real uvicorn hub whose clock the test holds."""
    held: ThreadHub = request.getfixturevalue("hub")
    return held


def test_a_round_registered_on_the_roster_card_is_seated_from_it(browser, live, tmp_path):
    from playwright.sync_api import expect

    td = live.td()
    set_up(td)
    dash = Dashboard(browser, live)
    page = dash.page
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#roster-desk > summary")
    expect(page.locator("#reg-round")).to_have_value("1", timeout=WAIT)
    expect(page.locator("#roster-none")).to_have_text(
        "The roster is empty: import a file or add a person.", timeout=WAIT)

    # the file: refused whole, its bad line named; then its good lines kept
    page.click("#roster-import-box > summary")
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    page.set_input_files("#roster-file", str(roster))
    page.click("#btn-roster-import")
    expect(page.locator("#roster-refused li")).to_have_count(1, timeout=WAIT)
    expect(page.locator("#roster-refused li")).to_contain_text("Line 5: nationality: 'ZZ'")
    expect(page.locator("#roster-import-done")).to_contain_text(
        "1 line refused: nothing was imported")
    page.click("#btn-roster-keep")
    expect(page.locator("#roster-import-done")).to_have_text(
        "Imported: 17 added, 0 updated, 1 line refused", timeout=WAIT)
    expect(page.locator("#roster-summary")).to_have_text("· 17 people", timeout=WAIT)
    page.click("#roster-import-box > summary")

    # round 1: every pre-registered player here in one tap
    page.click("#btn-reg-prereg")
    expect(page.locator("#toast")).to_have_text(
        "round 1: 15 pre-registered players marked present", timeout=WAIT)
    expect(page.locator("#reg-summary")).to_have_text(
        "Round 1: 15 here, 2 not here yet.", timeout=WAIT)
    # a late arrival, found by typing part of the name without its accent
    page.fill("#roster-search", "garc")
    expect(page.locator("#roster-list li")).to_have_count(1)
    page.click(f"{row('José García')} button")
    expect(page.locator(f"{row('José García')} button")).to_have_text("Here ✓", timeout=WAIT)
    page.fill("#roster-search", "")
    # a volunteer to sit out, and a withdrawal from the event (asked, and said yes)
    page.select_option(f"{row('Player 03')} select", "sitting_out")
    expect(page.locator(row("Player 03"))).to_contain_text("Asks to sit out", timeout=WAIT)
    page.select_option(f"{row('Player 15')} select", "withdrawn")
    expect(page.locator(row("Player 15"))).to_contain_text("Withdrawn", timeout=WAIT)
    assert dash.asked[-1].startswith("Player 15 withdraws from the event, from round 1 on?")
    expect(page.locator("#reg-summary")).to_have_text(
        "Round 1: 14 here, 1 not here yet, 1 asking to sit out, 1 withdrawn.", timeout=WAIT)
    shot = tmp_path / "roster-card.png"
    page.add_style_tag(content=".top { position: static; }")  # not drawn over the card
    page.evaluate("document.getElementById('toast').hidden = true")
    element_shot(page.locator("#roster-card"), str(shot))
    if SHOTS:
        element_shot(page.locator("#roster-card"), os.path.join(SHOTS, "roster-card.png"))
    assert Path(shot).stat().st_size > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scroll

    # the Seating card seats from the register: 15 players, the volunteer sits out first
    page.click("#seat-desk > summary")
    expect(page.locator("#seat-register-note")).to_have_text(
        "From round 1's register: 15 players, 0 pairs kept apart. If some must sit out, "
        "first asked to sit out: Player 03; then not pre-registered: José García.",
        timeout=WAIT)
    players = page.input_value("#seat-players").splitlines()
    assert len(players) == 15 and "José García" in players and "Player 15" not in players
    page.fill("#seat-seed", "1")
    page.click("#btn-seat-draft")
    expect(page.locator("#seat-quality")).to_contain_text("sitting out: Player 03",
                                                          timeout=WAIT)
    expect(page.locator("#seat-notes")).to_contain_text(
        "Sitting out at their request: Player 03. The event's sit-out bonus is 5 points each")
    assert dash.click("#btn-seat-call").startswith("Call round 1's seating, 2 tables?")
    seated = {s["player"] for s in td.get("/api/td/seating", params={"round": 1}).json()}
    assert len(seated) == 14 and "José García" in seated and "Player 03" not in seated

    # after the board call, a late arrival is refused with what to do instead
    page.click(f"{row('Zoe Late')} button")
    expect(page.locator("#toast")).to_contain_text(
        "round 1's seating is called: Zoe Late is not added to it by the register. Seat "
        "them by seating the round again with the tables kept", timeout=WAIT)
    expect(page.locator("#reg-summary")).to_contain_text("Its seating is called", timeout=WAIT)
    assert dash.errors == []


def test_a_person_added_edited_kept_apart_and_found_by_search(browser, live):
    from playwright.sync_api import expect

    td = live.td()
    set_up(td)
    for given, family in (("Ann", "Lee"), ("Bob", "Ray")):
        td.post("/api/td/roster/people",
                json={"given_name": given, "family_name": family}).raise_for_status()
    dash = Dashboard(browser, live)
    page = dash.page
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#roster-desk > summary")
    expect(page.locator("#roster-summary")).to_have_text("· 2 people", timeout=WAIT)

    # added on the form; a bad country is refused with the code to give, nothing added
    page.click("#roster-person > summary")
    page.fill("#rp-given_name", "Cécile")
    page.fill("#rp-family_name", "Dubois")
    page.fill("#rp-nationality", "UK")
    page.click("#btn-person-save")
    expect(page.locator("#toast")).to_contain_text("United Kingdom is GB", timeout=WAIT)
    page.fill("#rp-nationality", "FR")
    page.check("#rp-preregistered")
    page.click("#btn-person-save")
    expect(page.locator("#toast")).to_have_text("Cécile Dubois added to the roster",
                                                timeout=WAIT)
    expect(page.locator("#roster-summary")).to_have_text("· 3 people", timeout=WAIT)
    # edited from the person's menu: the form holds what they have
    page.select_option(f"{row('Cécile Dubois')} select", "edit")
    expect(page.locator("#rp-nationality")).to_have_value("FR")
    page.fill("#rp-club", "Paris")
    page.click("#btn-person-save")
    expect(page.locator("#toast")).to_have_text("Cécile Dubois changed on the roster",
                                                timeout=WAIT)
    people = {p["name"]: p for p in td.get("/api/td/roster").json()["people"]}
    assert people["Cécile Dubois"]["club"] == "Paris"
    assert people["Cécile Dubois"]["preregistered"]

    # search as you type, accents and capitals aside
    page.fill("#roster-search", "CECI")
    expect(page.locator("#roster-list li")).to_have_count(1)
    page.fill("#roster-search", "nobody")
    expect(page.locator("#roster-none")).to_have_text('Nobody on the roster matches "nobody".')
    page.fill("#roster-search", "")

    # a pair kept apart, picked by name, then no longer
    page.click("#roster-apart-box > summary")
    page.select_option("#apart-a", label="Ann Lee")
    page.select_option("#apart-b", label="Cécile Dubois")
    page.click("#btn-apart")
    expect(page.locator("#apart-list li")).to_have_text(["Ann Lee and Cécile DuboisRemove"],
                                                        timeout=WAIT)
    assert [(a["a_name"], a["b_name"]) for a in td.get("/api/td/roster/apart").json()] == [
        ("Ann Lee", "Cécile Dubois")]
    assert dash.click("#apart-list li button") == (
        "Stop keeping Ann Lee and Cécile Dubois apart?")
    expect(page.locator("#apart-none")).to_be_visible(timeout=WAIT)

    # removed from the menu, after saying yes
    page.select_option(f"{row('Bob Ray')} select", "remove")
    expect(page.locator("#roster-summary")).to_have_text("· 2 people", timeout=WAIT)
    assert dash.asked[-1] == "Remove Bob Ray from the roster? Their kept-apart pairs go too."
    # the export link is the hub's file
    page.click("#roster-import-box > summary")
    assert page.get_attribute("#roster-export", "href") == "/api/td/roster.csv"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert dash.errors == []


def test_while_another_round_s_register_loads_no_tap_lands_on_the_last_one(browser, live):
    """The TD changes the round: until its register has come, the list takes no tap (a tap
    meant for round 2 once marked round 1, whose list was still on the screen); a slow
    answer for a round the TD has left is not drawn over the round chosen since."""
    from playwright.sync_api import expect

    td = live.td()
    set_up(td)
    td.post("/api/td/roster/people",
            json={"given_name": "Ann", "family_name": "Lee"}).raise_for_status()
    dash = Dashboard(browser, live)
    page = dash.page
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#roster-desk > summary")
    expect(page.locator(f"{row('Ann Lee')} button")).to_be_enabled(timeout=WAIT)
    held: list = []
    page.route("**/api/td/register/2", lambda route: held.append(route))
    page.fill("#reg-round", "2")
    with page.expect_request("**/api/td/register/2", timeout=WAIT):
        page.press("#reg-round", "Tab")  # the browser's own change, as a TD's tap elsewhere
    expect(page.locator("#reg-summary")).to_have_text("Loading round 2…", timeout=WAIT)
    expect(page.locator(f"{row('Ann Lee')} button")).to_be_disabled(timeout=WAIT)
    page.click(f"{row('Ann Lee')} button", force=True)  # a tap on the list while it loads
    assert td.get("/api/td/register/1").json()["counts"]["present"] == 0
    # round 3 chosen while round 2's answer is held: round 2's answer, when it comes, is
    # not drawn as round 3's
    page.fill("#reg-round", "3")
    page.press("#reg-round", "Tab")
    expect(page.locator("#reg-summary")).to_have_text("Round 3: 0 here, 1 not here yet.",
                                                      timeout=WAIT)
    with page.expect_response("**/api/td/register/2", timeout=WAIT):
        for route in held:
            route.continue_()
    # the page's own handlers have run once two frames have passed after the answer
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")
    expect(page.locator("#reg-summary")).to_have_text("Round 3: 0 here, 1 not here yet.")
    page.click(f"{row('Ann Lee')} button")
    expect(page.locator(f"{row('Ann Lee')} button")).to_have_text("Here ✓", timeout=WAIT)
    marks = {p["name"]: p["status"]
             for p in td.get("/api/td/register/3").json()["people"]}
    assert marks == {"Ann Lee": "present"}
    assert all(p["status"] == "absent" for p in td.get("/api/td/register/2").json()["people"])
    assert dash.errors == []

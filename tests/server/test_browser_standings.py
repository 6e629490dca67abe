"""The standings on the projector and on the TD's phone (issue 21), in Debian's headless
Chromium against a real uvicorn hub: 21 players, more than a screen holds, every one shown
in turn; "1 game", not "1 games"; the names in a column on a phone."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest

from dipclock.powers import LETTERS
from dipclock.sync import to_seconds
from tests.chromium import SHOTS
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub
from tests.server.test_browser_rounds import WAIT, Dashboard, hub  # noqa: F401 (a fixture)
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

#: 21 players of every length a name has, three boards; tables 1 and 2 end alike, so their
#: players share ranks ("1=", "3=", ...) beside ranks of two digits
NAMES = ["Al", "Béatrice Quennell-Okonkwo", "Cy", "Dmitri Vasilyevich Karamazov", "Eve",
         "Fu Lin", "Gwendolyn Ap Rhys", "Hal", "Ingrid Sørensen", "Jo", "Kwame Mensah",
         "Lou", "Mo", "Nadia Boulanger-Villeneuve", "Oz", "Pia", "Quentin", "Ruth",
         "Sam", "Tove Jansson", "Ugo"]
BOARDS = {1: "10 8 6 4 3 2 1", 2: "10 8 6 4 3 2 1", 3: "9 7 7 5 3 2 1"}


@pytest.fixture
def played(request: pytest.FixtureRequest) -> ThreadHub:
    """Round 1 of wdc2006 played on three tables, every sheet confirmed (on
    test_browser_rounds' hub)."""
    live: ThreadHub = request.getfixturevalue("hub")
    td = live.td()
    set_up(td, START, tables=3)
    seats = [{"round": 1, "table": t, "power": p, "player": NAMES[(t - 1) * 7 + i]}
             for t in BOARDS for i, p in enumerate(LETTERS)]
    td.put("/api/td/seating", json={"seats": seats}).raise_for_status()
    live.clock.t = to_seconds(START + timedelta(hours=6))  # every game over
    for table, centres in BOARDS.items():
        body = {"centres": dict(zip(LETTERS, map(int, centres.split()), strict=True)),
                "year": 1909}
        td.put(f"/api/sheets/1/{table}", json=body,
               headers={"If-Match": "0"}).raise_for_status()  # the first version
        td.post(f"/api/td/sheets/1/{table}/final", json={"incomplete": True},
                headers={"If-Match": "1"}).raise_for_status()
    return live


#: each row of the projector's table: shown or not, its player, and where it sits on screen
ROWS = """() => [...document.querySelectorAll("#standings-rows tr")].map((tr) => {
    const r = tr.getBoundingClientRect();
    return {shown: r.height > 0 && getComputedStyle(tr).display !== "none",
            player: tr.children[1].textContent, top: r.top, bottom: r.bottom};
})"""


def shown_page(page: Any, height: int) -> list[str]:
    """The players on the projector now: every one of them wholly on the screen."""
    rows = page.evaluate(ROWS)
    shown = [r for r in rows if r["shown"]]
    for r in shown:
        assert r["bottom"] <= height, (r, height)
    return [r["player"] for r in shown]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_projector_shows_every_row_in_turn_a_screen_at_a_time(browser, played, size):
    from playwright.sync_api import expect

    width, height = size
    context = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(played.url + "/dashboard")
    page.fill("#password", PASSWORD)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    # the page turns by its own timers: the test moves them, the page's time stopped before
    # it opens (an hour ahead, so no load on this machine can have passed that instant)
    page.clock.install(time=time.time())
    page.clock.pause_at(time.time() + 3600)
    page.goto(played.url + "/standings")
    expect(page.locator("#standings-rows tr")).to_have_count(21, timeout=WAIT)
    counter = page.locator("#standings-page")
    expect(counter).to_have_text(re.compile(r"^1–\d+ of 21$"), timeout=WAIT)
    seen: list[str] = []
    for turn in range(3):
        first = len(seen) + 1
        players = shown_page(page, height)
        assert players, f"an empty page at {size}"
        expect(counter).to_have_text(f"{first}–{first + len(players) - 1} of 21")
        page.screenshot(path=f"{SHOTS}/dipclock-standings-{width}-page{turn + 1}.png")
        seen += players
        if len(seen) == 21:
            break
        page.clock.run_for(8_000)  # a page turn
    assert sorted(seen) == sorted(NAMES)  # every player once, none cut off
    assert 1 < turn + 1 <= 3  # more than one screen, but whole screens of rows
    page.clock.run_for(8_000)  # and round again to the first
    expect(counter).to_have_text(re.compile(r"^1–\d+ of 21$"))
    assert errors == []
    context.close()


def test_the_phone_says_1_game_and_lines_the_names_up(browser, played):
    from playwright.sync_api import expect

    dash = Dashboard(browser, played)
    page = dash.page
    rows = page.locator("#standings li")
    expect(rows).to_have_count(21, timeout=WAIT)
    expect(rows.first).to_contain_text("· 1 game")
    assert "games" not in page.locator("#standings").inner_text()
    # every name starts at one x, whatever its rank's width ("1=", "10", "21")
    starts = page.evaluate("""() => [...document.querySelectorAll("#standings li")].map((li) => {
        const name = li.querySelector(".name");
        return [li.querySelector(".rank").textContent, name.getBoundingClientRect().left];
    })""")
    ranks = {rank for rank, _ in starts}
    assert {"1=", "10"} <= ranks or any(len(r) > 2 for r in ranks), ranks
    assert len({round(x) for _, x in starts}) == 1, starts
    page.evaluate("document.querySelector('.top').style.position = 'static'")
    page.locator("#standings").screenshot(path=f"{SHOTS}/dipclock-standings-phone.png")
    assert dash.errors == []

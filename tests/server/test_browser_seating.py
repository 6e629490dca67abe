"""After a seating or teams import the dashboard says what was imported, and shows the
seating table by table, flagging an empty seat and a player seated twice in a round
(issue 21): the TD's phone in Debian's headless Chromium against a real uvicorn hub."""

from __future__ import annotations

import pytest

from tests.chromium import SHOTS
from tests.server.conftest import START
from tests.server.live import ThreadHub
from tests.server.test_browser_rounds import WAIT, Dashboard, hub  # noqa: F401 (a fixture)
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

#: round 1: table 1 has no Turkey, and Alice Smith sits at tables 1 and 2 ("alice  smith"
#: the second time: one player however typed); table 3 is set up with no one seated.
#: Round 2: two full tables.
SEATING = {
    (1, 1): "Ann,Alice Smith,Cat,Dan,Eve,Fay,",
    (1, 2): "Hal,Ida,Jon,alice  smith,Lea,Max,Ned",
    (2, 1): "Ann,Cat,Dan,Eve,Fay,Hal,Ida",
    (2, 2): "Jon,Lea,Max,Ned,Ola,Pat,Alice Smith",
}
TEXTS = """() => Object.fromEntries([...document.querySelectorAll("#seating-view .seat-table")]
    .map((t) => [t.dataset.table, {
        flags: [...t.querySelectorAll(".flag")].map((f) => f.textContent),
        seats: [...t.querySelectorAll(".seats li")].map((li) => li.textContent)}]))"""


@pytest.fixture
def three_tables(request: pytest.FixtureRequest) -> ThreadHub:
    """wdc2006, round 1 and three tables, nobody seated yet (on test_browser_rounds' hub)."""
    live: ThreadHub = request.getfixturevalue("hub")
    set_up(live.td(), START, tables=3)
    return live


def test_an_import_says_what_it_did_and_the_seating_shows_table_by_table(browser,
                                                                        three_tables):
    from playwright.sync_api import expect

    dash = Dashboard(browser, three_tables)
    page = dash.page
    dash.open_set_up()
    lines = [f"{r},{t},{p},{n}" for (r, t), names in SEATING.items()
             for p, n in zip("AEFGIRT", names.split(","), strict=True) if n]
    page.fill("#seating-csv", "round,table,power,player\n" + "\n".join(lines))
    assert dash.click("#btn-seating") == "Import 27 seats?"
    expect(page.locator("#seating-summary")).to_have_text(
        "Imported: seating: 27 players, rounds 1-2, tables 1-2")

    count = page.locator("#seating-count")
    expect(count).to_have_text("3 tables, 12 players · 3 to check", timeout=WAIT)
    tables = page.evaluate(TEXTS)
    assert tables["1"]["flags"] == ["empty seat: Turkey",
                                    "Alice Smith is also seated at table 2"]
    assert tables["1"]["seats"][1] == "EnglandAlice Smith"
    assert tables["1"]["seats"][6] == "Turkeyempty"
    assert tables["2"]["flags"] == ["alice  smith is also seated at table 1"]
    assert tables["3"] == {"flags": ["no players seated"], "seats": []}
    for n in ("1", "2"):
        assert len(tables[n]["seats"]) == 7
    page.evaluate("document.querySelector('.top').style.position = 'static'")
    for width in (360, 412):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#seating-box").screenshot(path=f"{SHOTS}/dipclock-seating-{width}.png")

    page.select_option("#seating-round", "2")
    expect(count).to_have_text("2 tables, 14 players")
    tables = page.evaluate(TEXTS)
    assert sorted(tables) == ["1", "2"] and all(not t["flags"] for t in tables.values())
    assert tables["2"]["seats"][6] == "TurkeyAlice Smith"

    page.fill("#teams-csv-text", "team,player\nReds,Alice Smith\nReds,Nobody Here\nBlues,Ann\n")
    assert dash.click("#btn-teams") == "Set the teams (3 players)?"
    expect(page.locator("#teams-summary")).to_have_text("Set: teams: 2 teams, 3 players")
    teams = page.locator("#teams-view li")
    expect(teams).to_have_count(2)
    expect(teams.nth(0)).to_have_text("Blues Ann")
    expect(teams.nth(1)).to_have_text(
        "Reds Alice Smith, Nobody Herenot seated in any round: Nobody Here")
    page.locator("#setup").screenshot(path=f"{SHOTS}/dipclock-setup-seating.png")
    assert dash.errors == []


def test_the_seating_is_there_when_set_up_is_opened(browser, three_tables):
    """No import on this phone: opening Set up reads what the hub holds."""
    from playwright.sync_api import expect

    seats = [{"round": 1, "table": 1, "power": p, "player": f"P{p}"} for p in "AEFGIRT"]
    three_tables.td().put("/api/td/seating", json={"seats": seats}).raise_for_status()
    dash = Dashboard(browser, three_tables)
    dash.open_set_up()
    expect(dash.page.locator("#seating-count")).to_have_text(
        "3 tables, 7 players · 2 to check", timeout=WAIT)
    expect(dash.page.locator("#seating-view .seat-table.flagged")).to_have_count(2)
    assert dash.errors == []

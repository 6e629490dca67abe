"""After a seating or teams import the dashboard says what was imported, and shows the
seating table by table, flagging an empty seat and a player seated twice in a round
(issue 21): the TD's phone in Debian's headless Chromium against a real uvicorn hub. What is
flagged is what the hub's core finds, a player the same player only when the name is the
same (issue 34: the page had its own powers, its own idea of one player and its own checks);
the Seating card says what the players present make by the event's rules."""

from __future__ import annotations

import pytest

from tests.chromium import SHOTS
from tests.server.conftest import START
from tests.server.live import ThreadHub
from tests.server.test_browser_rounds import WAIT, Dashboard, hub  # noqa: F401 (a fixture)
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

#: round 1: table 1 has no Turkey, and Alice Smith sits at tables 1 and 2; "ann" at table 2
#: is not table 1's "Ann" (the core compares names as typed, and so does the page now);
#: table 3 is set up with no one seated. Round 2: two full tables.
SEATING = {
    (1, 1): "Ann,Alice Smith,Cat,Dan,Eve,Fay,",
    (1, 2): "Hal,Ida,Jon,Alice Smith,Lea,Max,ann",
    (2, 1): "Ann,Cat,Dan,Eve,Fay,Hal,Ida",
    (2, 2): "Jon,Lea,Max,Ned,Ola,Pat,Alice Smith",
}
TEXTS = """() => Object.fromEntries([...document.querySelectorAll("#seating-view .seat-table")]
    .map((t) => [t.dataset.table, {
        flags: [...t.querySelectorAll(".flag")].map((f) => f.textContent),
        seats: [...t.querySelectorAll(".seats li")].map((li) => li.textContent),
        twice: [...t.querySelectorAll(".seats li.twice .player")].map((p) => p.textContent)}]))"""


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
    assert tables["1"]["flags"] == ["no player for Turkey",
                                    "Alice Smith is seated at tables 1, 2"]
    assert tables["1"]["seats"][1] == "England Alice Smith"
    assert tables["1"]["seats"][6] == "Turkey empty"
    assert tables["2"]["flags"] == ["Alice Smith is seated at tables 1, 2"]  # not "ann"
    assert tables["1"]["twice"] == tables["2"]["twice"] == ["Alice Smith"]
    assert tables["3"] == {"flags": ["no players seated"], "seats": [], "twice": []}
    for n in ("1", "2"):
        assert len(tables[n]["seats"]) == 7
    # the page says what the hub's Seating card would refuse the round for, line for line
    judged = three_tables.td().post("/api/td/seating/check", json={"round": 1, "tables": [
        {"table": int(n), "seats": {p: name for p, name in zip(
            "AEFGIRT", SEATING.get((1, int(n)), ",,,,,,").split(","), strict=True) if name}}
        for n in tables]}).json()["problems"]
    shown = {f if f.startswith("Alice") else f"table {n}: {f}"
             for n, t in tables.items() for f in t["flags"]}
    assert shown == set(judged)
    page.evaluate("document.querySelector('.top').style.position = 'static'")
    for width in (360, 412):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("#seating-box").screenshot(path=f"{SHOTS}/dipclock-seating-{width}.png")

    page.select_option("#seating-round", "2")
    expect(count).to_have_text("2 tables, 14 players")
    tables = page.evaluate(TEXTS)
    assert sorted(tables) == ["1", "2"] and all(not t["flags"] for t in tables.values())
    assert tables["2"]["seats"][6] == "Turkey Alice Smith"

    # "alice smith" is not the Alice Smith seated: the team table would not count her
    page.fill("#teams-csv-text", "team,player\nReds,Alice Smith\nReds,Nobody Here\nBlues,Ann\n"
                                 "Blues,alice smith\n")
    assert dash.click("#btn-teams") == "Set the teams (4 players)?"
    expect(page.locator("#teams-summary")).to_have_text("Set: teams: 2 teams, 4 players")
    teams = page.locator("#teams-view li")
    expect(teams).to_have_count(2)
    expect(teams.nth(0)).to_have_text(
        "Blues Ann, alice smithnot seated in any round: alice smith")
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


@pytest.mark.parametrize(("event", "plan", "two_boards"), [
    ("wdc2006", "23 players: 3 tables, 2 sitting out", False),
    ("wdc2019", "23 players: 3 tables, 2 sitting out (or 5 on two boards)", True),
])
def test_the_seating_card_says_what_the_players_make_by_the_event_s_rules(
        browser, request, event, plan, two_boards):
    """The card once offered "or 5 on two boards" for every event and counted a name typed
    twice once: the hub now says what the players make by the event's rules (wdc2006 has
    no two boards, wdc2019 scores a second board as one game), and the field for players
    on two boards is there only where the event has them."""
    from playwright.sync_api import expect

    live: ThreadHub = request.getfixturevalue("hub")
    td = live.td()
    for path, body in (("/api/td/event", {"builtin": event}),
                       ("/api/td/round", {"number": 1, "start": START.isoformat()}),
                       ("/api/td/tables", {"count": 3})):
        td.put(path, json=body).raise_for_status()
    dash = Dashboard(browser, live)
    page = dash.page
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#seat-desk > summary")
    players = [f"Player {n:02d}" for n in range(1, 24)]
    page.fill("#seat-players", "\n".join(players))
    said = page.locator("#seat-players-count")
    expect(said).to_have_text(plan, timeout=WAIT)
    two = page.locator("#seat-two")
    if two_boards:
        expect(two).to_be_visible()
    else:
        expect(two).to_be_hidden()
    page.fill("#seat-players", "\n".join([*players[:8], "Player 01"]))
    expect(said).to_have_text("players: Player 01 is listed twice", timeout=WAIT)
    assert dash.errors == []

"""A three-round event from seating to the final standings, through the result sheets on
the players' phones and the TD's Results card, in Debian's headless Chromium against a
real uvicorn hub (HTTPS, as a hall runs it). The standings CSV is checked against the
core's standings of the same boards."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import BUILTIN
from dipclock.powers import LETTERS, POWERS
from dipclock.scoring import GameResult, score_game
from dipclock.standings import GameScore, standings, team_standings
from tests.chromium import SHOTS, phone
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub, at, clocks_of, held_hub
from tests.server.test_browser_rounds import WAIT, Dashboard

pytestmark = [pytest.mark.browser]

PLAYERS = [f"Player {n:02d}" for n in range(1, 15)]
#: (round, table) -> the board as its sheet is filled in: centres, eliminations, solo
BOARDS: dict[tuple[int, int], dict[str, Any]] = {
    (1, 1): {"centres": "5 4 6 0 7 6 6", "eliminated": {"G": 1905}},
    (1, 2): {"centres": "10 8 6 4 3 2 1"},
    (2, 1): {"centres": "18 4 4 4 4 0 0", "eliminated": {"R": 1906, "T": 1908}, "solo": "A"},
    (2, 2): {"centres": "7 7 5 5 4 3 3"},
    (3, 1): {"centres": "9 9 8 4 4 0 0", "eliminated": {"R": 1907, "T": 1909}},
    (3, 2): {"centres": "12 3 3 4 5 6 1"},
}
LAST_YEAR = {1: 1909, 2: 1911, 3: 1911}  # graduated20: Friday to 1909, then 1911


def seat(round_no: int, table: int) -> dict[str, str]:
    """Each round deals the fourteen players to two boards in a new order."""
    order = PLAYERS[round_no * 3:] + PLAYERS[:round_no * 3]
    return {p: order[(table - 1) * 7 + i] for i, p in enumerate(LETTERS)}


def centres(board: dict[str, Any]) -> dict[str, int]:
    return dict(zip(LETTERS, map(int, board["centres"].split()), strict=True))


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def fill_sheet(page: Any, board: dict[str, Any], year: int) -> None:
    """What a player does on the sheet: every power's centres, the year an eliminated one
    went, how the game ended. The page asks each player to confirm their own line with
    their power's button on the table's clock (``press_lines``): it offers no button."""
    from playwright.sync_api import expect

    got = centres(board)
    for letter in LETTERS:
        row = page.locator(f"#centres tr[data-power={letter}]")
        row.locator(".centres-in").fill(str(got[letter]))
        if letter in board.get("eliminated", {}):
            row.locator(".out-in").fill(str(board["eliminated"][letter]))
    page.fill("#year", str(year))
    if "solo" in board:
        page.check("input[name=ending][value=solo]")
        page.select_option("#solo", board["solo"])
    page.click("#btn-save")
    expect(page.locator("#sheet-status")).to_contain_text("waiting for the players",
                                                          timeout=WAIT)
    expect(page.locator("#total")).to_have_text(f"{sum(got.values())} of 34")
    expect(page.locator("#confirm-how")).to_contain_text("press your power's button")
    assert page.locator("#confirm button").count() == 0


def press_lines(hub: ThreadHub, td: httpx.Client, table: int, page: Any) -> None:
    """Each player presses their power's button on the table's clock, which shows the
    sheet (as its outbox sends it); the phone's page then shows every line confirmed."""
    from playwright.sync_api import expect

    r = httpx.get(f"{hub.url}/api/tables/{table}/snapshot", headers=clocks_of(td)[table],
                  verify=hub.verify)
    shown = r.json()["result"]
    r = httpx.post(f"{hub.url}/api/tables/{table}/confirmations", headers=clocks_of(td)[table],
                   verify=hub.verify, json={"confirmations": [
                       {"id": f"{shown['round']}-{table}-{p}", "round": shown["round"],
                        "power": p, "version": shown["version"]} for p in LETTERS]})
    assert r.status_code == 200 and len(r.json()["taken"]) == 7, r.text
    for name in POWERS.values():
        expect(page.locator("#confirm li", has_text=name)).to_contain_text(
            "✓ confirmed on the clock", timeout=WAIT)
    expect(page.locator("#sheet-status")).to_contain_text("confirmed by the players",
                                                          timeout=WAIT)


def sheet_link(hub: ThreadHub, td: httpx.Client, table: int) -> str:
    """The address in the QR code the table's kiosk draws at game over."""
    r = httpx.get(f"{hub.url}/api/tables/{table}/snapshot", headers=clocks_of(td)[table],
                  verify=hub.verify)
    r.raise_for_status()
    return hub.url + r.json()["sheet"]


def test_three_rounds_from_seating_to_the_final_standings(browser, hub):
    from playwright.sync_api import expect

    dash = Dashboard(browser, hub)
    page = dash.page
    page.select_option("#event-builtin", "graduated20")
    dash.click("#btn-event")
    dash.open_set_up()
    lines = [f"{r},{t},{p},{n}" for r in (1, 2, 3) for t in (1, 2) for p, n in seat(r, t).items()]
    page.fill("#seating-csv", "round,table,power,player\n" + "\n".join(lines))
    dash.click("#btn-seating")
    # graduated20's team round is round 2: two teams of seven, as they sit that round
    teams = {"Table One": list(seat(2, 1).values()), "Table Two": list(seat(2, 2).values())}
    page.fill("#teams-csv-text", "team,player\n" + "\n".join(
        f"{team},{name}" for team, names in teams.items() for name in names))
    assert dash.click("#btn-teams") == "Set the teams (14 players)?"
    td = hub.td()
    player = phone(browser).new_page()
    player_errors: list[str] = []
    player.on("dialog", lambda d: d.accept())
    player.on("pageerror", lambda e: player_errors.append(str(e)))
    games: list[GameScore] = []
    for round_no in (1, 2, 3):
        start = START + timedelta(hours=6 * (round_no - 1))
        dash.set_up_round(round_no, start)
        if round_no == 1:
            page.fill("#tables-spec", "2")
            dash.click("#btn-tables")
        at(hub, start + timedelta(hours=5, minutes=30))  # every game over
        year = LAST_YEAR[round_no]
        for table in (1, 2):
            board = BOARDS[round_no, table]
            player.goto(sheet_link(hub, td, table))
            expect(player.locator("#sheet-counts")).to_have_text(
                f"Fall {year} centres count", timeout=WAIT)
            expect(player.locator("#centres tr[data-power=A] .player")).to_have_text(
                seat(round_no, table)["A"])
            fill_sheet(player, board, year)
            press_lines(hub, td, table, player)
            if (round_no, table) == (1, 1):
                player.evaluate("window.scrollTo(0, 0)")
                player.screenshot(path=f"{SHOTS}/dipclock-result-sheet.png")
            result = GameResult(centres(board), year, solo=board.get("solo"),
                                eliminated=board.get("eliminated", {}))
            for letter, score in score_game("manorcon", result, 18).items():
                games.append(GameScore(round_no, seat(round_no, table)[letter], score,
                                       str(table), letter, centres(board)[letter]))
        # the TD confirms both sheets on the Results card
        for table in (1, 2):
            row = page.locator(f"#sheets li[data-table='{table}']")
            expect(row).to_contain_text("confirmed by the players", timeout=WAIT)
            assert dash.click(f"#sheets li[data-table='{table}'] button:has-text('Confirm')") \
                == f"Confirm table {table}'s sheet? Its scores count from now on."
            expect(row).to_contain_text("confirmed by the TD", timeout=WAIT)
        expect(page.locator("#standings-after")).to_have_text(f"after round {round_no}",
                                                              timeout=WAIT)
        core = standings(games, BUILTIN["graduated20"].standings)
        expect(page.locator("#standings li").first).to_contain_text(core[0].player)
        expect(page.locator("#standings li")).to_have_count(len(core))

    # graduated20 19.9: most centres, then score, and the solo rule (round 2 table 1's
    # losers to Austria's solo win nothing a board without a solo gave)
    expect(page.locator("#best-countries li")).to_have_count(7)
    expect(page.locator("#best-countries li", has_text="Austria")).to_contain_text(
        f"{seat(2, 1)['A']} (75.00, 18 centres, round 2)")
    # the sticky bar would cover the card's heading in a picture of the card alone
    page.evaluate("document.querySelector('.top').style.position = 'static'")
    page.locator("#results-card").screenshot(path=f"{SHOTS}/dipclock-results-card.png")
    text = td.get("/api/standings.csv").text
    got = [(int(r["rank"]), r["player"], float(r["total"]))
           for r in csv.DictReader(io.StringIO(text))]
    final = standings(games, BUILTIN["graduated20"].standings)
    assert got == [(s.rank, s.player, round(s.total, 2)) for s in final]
    assert len(got) == 14
    scores = list(csv.DictReader(io.StringIO(td.get("/api/results.csv").text)))
    assert len(scores) == 42
    ranked = team_standings(games, teams, BUILTIN["graduated20"].standings)
    got_teams = [(int(r["rank"]), r["team"], float(r["total"])) for r in
                 csv.DictReader(io.StringIO(td.get("/api/teams.csv").text))]
    assert got_teams == [(t.rank, t.team, round(t.total, 2)) for t in ranked]
    expect(page.locator("#teams li").first).to_contain_text(ranked[0].team)

    projector = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 720},
                                    storage_state=page.context.storage_state()).new_page()
    projector_errors: list[str] = []
    projector.on("pageerror", lambda e: projector_errors.append(str(e)))
    projector.goto(hub.url + "/standings")
    expect(projector.locator("#standings-rows tr")).to_have_count(14, timeout=WAIT)
    expect(projector.locator("#standings-rows tr").first).to_contain_text(final[0].player)
    projector.screenshot(path=f"{SHOTS}/dipclock-standings.png")
    expect(projector.locator("#proj-countries li")).to_have_count(7)
    expect(projector.locator("#proj-teams li")).to_have_count(2)
    assert dash.errors == [] and player_errors == [] and projector_errors == []



def test_a_save_from_a_sheet_loaded_before_the_td_s_final_is_refused_and_says_so(
        browser, hub):
    """TD A opens table 1's sheet as entered (version 1) on a phone and starts a
    correction; meanwhile TD B confirms the sheet. A's save names the version its page
    showed: the hub refuses it, the page says what changed and when (the venue's clock) and
    shows the sheet as it is now. The final stands; the game stays in the standings."""
    from playwright.sync_api import expect

    td = hub.td()
    for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                       ("/api/td/round", {"number": 1, "start": START.isoformat(),
                                          "last_year": 1901}),
                       ("/api/td/tables", {"tables": [1]}),
                       ("/api/td/seating", {"csv": "".join(f"1,1,{p},Player {p}\n"
                                                           for p in LETTERS)})):
        td.put(path, json=body).raise_for_status()
    at(hub, START + timedelta(hours=1))  # Fall 1901's deadline, the game's end, is past
    draw = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}, "year": 1901}
    assert td.put("/api/sheets/1/1", json=draw, headers={"If-Match": "0"}).json()["version"] == 1
    page = phone(browser).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(hub.url + "/dashboard")  # TD A signs in on a phone and opens the sheet
    page.fill("#password", PASSWORD)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    page.goto(hub.url + "/sheet/1/1")
    expect(page.locator("#sheet-status")).to_contain_text("waiting for the players",
                                                          timeout=WAIT)
    # the correction typed: the page keeps the sheet it showed while a field has the focus
    page.locator("#centres tr[data-power=A] .centres-in").fill("6")
    page.locator("#centres tr[data-power=G] .centres-in").fill("3")

    at(hub, START + timedelta(hours=1, minutes=2))
    r = td.post("/api/td/sheets/1/1/final", json={"incomplete": True}, headers={"If-Match": "1"})
    assert r.status_code == 200 and r.json()["status"] == "final", r.text  # TD B's Confirm
    when = td.get("/api/td/state").json()["now"][11:16]  # the venue's clock
    at(hub, START + timedelta(hours=1, minutes=5))
    page.click("#btn-save")
    expect(page.locator("#toast")).to_have_text(
        f"the TD marked this sheet final at {when} since you loaded it: reload to see it, "
        "and make your change again if it is still needed", timeout=WAIT)
    expect(page.locator("#sheet-status")).to_contain_text("confirmed by the TD", timeout=WAIT)
    expect(page.locator("#centres tr[data-power=A] .centres-in")).to_have_value("5")
    view = td.get("/api/sheets/1/1").json()
    assert view["status"] == "final" and view["sheet"]["centres"]["A"] == 5
    assert view["version"] == 2 and errors == []
    standing = td.get("/api/td/standings").json()["standings"]
    assert sorted(s["player"] for s in standing) == sorted(f"Player {p}" for p in LETTERS)

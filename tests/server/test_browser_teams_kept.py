"""The TD's day in Debian's headless Chromium against a real uvicorn hub (issue 34, items 1
and 5): uploading an own event "from round 2 on" with graduated20's teams set asks about
the teams, keeps them and says on the dashboard that the new event will not score them;
the Standings CSV link of mixed totals says so beside it, and its file in every row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import START
from tests.server.live import ThreadHub, at, held_hub
from tests.server.test_browser_rounds import MY_OPEN, WAIT, Dashboard
from tests.server.test_teams_and_mixed_files import BOARDS, NO_PRIZE, PLAYERS, ROUND_2, TEAMS

pytestmark = [pytest.mark.browser]

GRADUATED20 = "Three-round weekend, graduated penalties"


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def ok(r: httpx.Response) -> dict:
    assert r.status_code == 200, r.text
    return r.json()


def seat_and_score(td: httpx.Client, round_no: int, year: int) -> None:
    """As ``test_teams_and_mixed_files``: 21 players at three tables, each sheet entered
    and confirmed by the TD."""
    order = PLAYERS[round_no * 5:] + PLAYERS[:round_no * 5]
    ok(td.put("/api/td/seating", json={"csv": "\n".join(
        f"{round_no},{t},{p},{order[(t - 1) * 7 + i]}"
        for t in (1, 2, 3) for i, p in enumerate("AEFGIRT"))}))
    for table, board in enumerate(BOARDS, start=1):
        ok(td.put(f"/api/sheets/{round_no}/{table}", json={**board, "year": year},
                  headers={"If-Match": "0"}))
        ok(td.post(f"/api/td/sheets/{round_no}/{table}/final", json={"incomplete": True},
                   headers={"If-Match": "1"}))


def test_an_own_event_from_round_two_keeps_the_teams_and_the_page_says_so(browser, hub):
    from playwright.sync_api import expect

    td = hub.td()
    ok(td.put("/api/td/event", json={"builtin": "graduated20"}))
    ok(td.put("/api/td/round", json={"number": 1, "start": START.isoformat()}))
    ok(td.put("/api/td/tables", json={"count": 3}))
    ok(td.put("/api/td/teams", json={"csv": "".join(
        f"{t},{p}\n" for t, ps in TEAMS.items() for p in ps)}))
    seat_and_score(td, 1, 1909)
    at(hub, START + timedelta(hours=5))

    dash = Dashboard(browser, hub)
    page = dash.page
    dash.open_set_up()
    page.set_input_files("#event-file", str(MY_OPEN))
    said = NO_PRIZE[0].upper() + NO_PRIZE[1:] + "."
    assert dash.click("#btn-event-file") == (
        f"Use my-open.toml from round 2 on? Round 1 keeps {GRADUATED20}.\n{said}")
    # until round 2 plays it, the Results card says what the coming event does to the teams
    expect(page.locator("#teams-coming")).to_have_text(said, timeout=WAIT)
    assert ok(td.get("/api/td/teams")) == {t: sorted(ps) for t, ps in TEAMS.items()}

    ok(td.put("/api/td/round", json={"number": 2, "start": ROUND_2.isoformat()}))
    seat_and_score(td, 2, 1906)
    expect(page.locator("#standings-after")).to_have_text("after round 2", timeout=WAIT)
    # the Teams card stays, saying why it is empty, with no CSV link to a table not made
    expect(page.locator("#teams-box")).to_be_visible(timeout=WAIT)
    expect(page.locator("#teams-note")).to_have_text(NO_PRIZE)
    expect(page.locator("#teams-csv")).to_be_hidden()
    expect(page.locator("#teams-coming")).to_be_hidden()

    # mixed totals: said beside the Standings CSV link, and in every row of its file
    expect(page.locator("#standings-mixed")).to_be_visible()
    link = page.locator("#standings-csv")
    expect(link).to_have_attribute("href", "/api/standings.csv?round=2&mixed=1")
    beside = page.locator("#results-card h2 .csv-mixed")
    expect(beside).to_be_visible()
    expect(beside).to_have_text("mixed systems: each row says so")
    mixed = ok(td.get("/api/td/standings?round=2"))["mixed"]
    got = list(csv.DictReader(io.StringIO(td.get(link.get_attribute("href") or "").text)))
    assert len(got) == 21 and {r["note"] for r in got} == {mixed[0].upper() + mixed[1:]}
    assert dash.errors == []

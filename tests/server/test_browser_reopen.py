"""Reopening a played round on the dashboard, in Debian's headless Chromium against a real
uvicorn hub whose time the test sets: the call keeps its seconds (a call at 10:40:41 sent
back as 10:40 would end a game whose deadline falls in those seconds a phase early), and
the question says what the tables will do (a reopened earlier round leaves them on the
round they play), from what the hub says it will do."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from tests.server.live import ThreadHub, at, held_hub
from tests.server.test_browser_records import Asking, set_up
from tests.server.test_browser_rounds import WAIT
from tests.server.test_records_live import F1901, S1901, START, ok, presses

pytestmark = [pytest.mark.browser]

#: graduated20 from 10:00 with 30 s added at 10:05: Fall 1901's deadline 10:40:30; the
#: round called at 10:40:41, so Fall 1901 counts (called at 10:40:00, it would not)
CALLED = F1901 + timedelta(seconds=41)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def called_round_one(dash: Asking, hub: ThreadHub) -> httpx.Client:
    """Round 1 set up on the dashboard, played with 30 s added, and called at 10:40:41."""
    set_up(dash, hub)
    td = hub.td()
    at(hub, START + timedelta(minutes=5))
    ok(td.post("/api/td/adjustments", json={"seconds": 30}))
    at(hub, S1901 + timedelta(minutes=1))
    presses(hub, td, 1, ("a", "A", S1901 + timedelta(seconds=10)))
    at(hub, CALLED)
    assert ok(td.post("/api/td/call", json={}))["call"] == CALLED.isoformat()
    return td


def reopen(dash: Asking, number: int) -> None:
    """Tap Reopen… beside round ``number`` under Rounds, and give it a later last year
    (which moves nothing played in a called round)."""
    from playwright.sync_api import expect

    page = dash.page
    dash.open_set_up()
    row = page.locator(f"#rounds-list li[data-round='{number}']")
    expect(row).to_contain_text("played:", timeout=WAIT)
    row.locator("button", has_text="Reopen…").click()
    expect(page.locator("#round-mode")).to_contain_text(f"Reopening round {number}, a record")
    page.fill("#round-last", "1908")


def test_reopening_a_round_keeps_its_call_to_the_second(browser, hub):
    dash = Asking(browser, hub)
    page = dash.page
    td = called_round_one(dash, hub)
    at(hub, CALLED + timedelta(minutes=3))
    reopen(dash, 1)
    assert page.input_value("#round-call") == CALLED.isoformat()
    question = dash.click("#btn-round")
    assert question.startswith("Reopen round 1 (")
    assert "\nNothing played would move.\n" in question, question
    round_one = next(r for r in ok(td.get("/api/td/state"))["rounds"] if r["number"] == 1)
    assert (round_one["call"], round_one["last_year"]) == (CALLED.isoformat(), 1908)
    assert dash.errors == []


def test_reopening_an_earlier_round_says_the_tables_stay_on_theirs(browser, hub):
    from playwright.sync_api import expect

    dash = Asking(browser, hub)
    page = dash.page
    td = called_round_one(dash, hub)
    round_two = START + timedelta(hours=1)
    ok(td.put("/api/td/round", json={"number": 2, "start": round_two.isoformat()}))
    at(hub, round_two + timedelta(minutes=5))  # round 2 under way: Spring 1901, 15:00 left
    expect(page.locator("#stage")).not_to_contain_text("Game over", timeout=WAIT)
    reopen(dash, 1)
    n = len(dash.asked)
    dash.no = True
    page.click("#btn-round")
    dash.wait_asked(n + 1)
    dash.no = False
    question = dash.asked[-1]
    assert question.startswith("Reopen round 1 (")
    # what the tables show stays round 2's: not round 1's "Game over", nor a jump to it
    assert question.endswith("\nThe tables stay on round 2, as they are: Negotiating · "
                             "Spring 1901 · 15:00 · Deadline 11:20"), question
    for untrue in ("jumps to", "Game over", "stops showing", "Every table would show"):
        assert untrue not in question, question
    # the hub says the same to any client: the round the tables play, and what they show
    preview = ok(td.post("/api/td/round/preview", json={
        "number": 1, "start": START.isoformat(), "last_year": 1908,
        "call": CALLED.isoformat(), "reopen": True}))
    assert preview["tables_round"] == 2 and preview["questions"] == []
    assert dash.click("#btn-round") == question
    state = ok(td.get("/api/td/state"))
    assert state["round"]["number"] == 2  # the tables stayed on round 2, as said
    assert dash.errors == []

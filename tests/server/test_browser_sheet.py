"""The result sheet's page as a player's phone shows it (issue 34 item 7), in Debian's headless
Chromium against a real uvicorn hub whose time the test holds: each line's power and player
apart, on the screen and in the text a screen reader reads; and a game the table's clock
ended before the event lets a vote end one offers what the rules give it (its centres
count), not "A draw of all survivors" under "A vote can end a game from 1905"."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dipclock.powers import LETTERS
from tests.chromium import signed_in
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub, at, held_hub
from tests.server.test_browser_rounds import WAIT

pytestmark = [pytest.mark.browser]

#: what the page shows of each choice of ending offered (its words without the powers of
#: its list), in order, and which one is picked
ENDINGS = """() => [...document.querySelectorAll("input[name=ending]")]
    .filter((i) => !i.closest("label").hidden).map((i) => {
        const words = i.closest("label").cloneNode(true);
        words.querySelectorAll("select").forEach((s) => s.remove());
        return { words: words.textContent.trim(), picked: i.checked }; })"""
#: a line's power (its first part) and player: their text, and where each is drawn
APART = """(box) => {
    const power = document.createRange();
    power.selectNodeContents(box.firstChild);
    const a = power.getBoundingClientRect();
    const b = box.querySelector(".player").getBoundingClientRect();
    return { text: box.textContent, below: b.top >= a.bottom - 1 }; }"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def sheet_page(browser: Any, hub: ThreadHub, last_year: int) -> tuple[Any, list[str]]:
    """wdc2006 ("A vote can end a game from 1905"), round 1 to Fall ``last_year``, table 1
    seated, every game over; the TD's phone on table 1's sheet."""
    td = hub.td()
    for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                       ("/api/td/round", {"number": 1, "start": START.isoformat(),
                                          "last_year": last_year}),
                       ("/api/td/tables", {"tables": [1]}),
                       ("/api/td/seating", {"csv": "".join(f"1,1,{p},Player {p}\n"
                                                           for p in LETTERS)})):
        td.put(path, json=body).raise_for_status()
    at(hub, START + timedelta(hours=6))
    page, _ = signed_in(browser, hub.url, PASSWORD)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(hub.url + "/sheet/1/1")
    return page, errors


def test_a_game_called_before_a_vote_could_end_it_defaults_to_its_centre_count(browser, hub):
    from playwright.sync_api import expect

    page, errors = sheet_page(browser, hub, 1901)
    expect(page.locator("#sheet-counts")).to_have_text("Fall 1901 centres count", timeout=WAIT)
    expect(page.locator("#endings-note")).to_contain_text("A vote can end a game from 1905.")
    assert page.evaluate(ENDINGS) == [
        {"words": "The game ended on the clock: the Fall 1901 centres count", "picked": True},
        {"words": "A solo by", "picked": False}]
    assert page.locator(".draw-in").count() == 0
    expect(page.locator("#year")).to_have_value("1901")
    for letter, n in zip(LETTERS, (5, 5, 5, 4, 5, 5, 5), strict=True):
        page.locator(f"#centres tr[data-power={letter}] .centres-in").fill(str(n))
    expect(page.locator("#total")).to_have_text("34 of 34")
    page.click("#btn-save")
    expect(page.locator("#sheet-status")).to_contain_text("waiting for the players",
                                                          timeout=WAIT)
    assert page.locator("#flags li").count() == 0  # scored: the clock's end, not a vote
    assert page.evaluate(ENDINGS)[0]["picked"]
    assert errors == []


def test_a_game_a_vote_could_end_defaults_to_the_draw(browser, hub):
    from playwright.sync_api import expect

    page, errors = sheet_page(browser, hub, 1907)
    expect(page.locator("#sheet-counts")).to_have_text("Fall 1907 centres count", timeout=WAIT)
    assert page.evaluate(ENDINGS) == [{"words": "A draw of all survivors", "picked": True},
                                      {"words": "A solo by", "picked": False}]
    assert errors == []


def test_each_line_shows_its_power_and_its_player_apart(browser, hub):
    from playwright.sync_api import expect

    page, errors = sheet_page(browser, hub, 1907)
    row = page.locator("#centres tr[data-power=A] th")
    expect(row.locator(".player")).to_have_text("Player A", timeout=WAIT)
    assert row.evaluate(APART) == {"text": "Austria, Player A", "below": True}
    for letter, n in zip(LETTERS, (5, 5, 5, 4, 5, 5, 5), strict=True):
        page.locator(f"#centres tr[data-power={letter}] .centres-in").fill(str(n))
    page.click("#btn-save")
    line = page.locator("#confirm li[data-power=A] > span").first
    expect(line).to_contain_text("Player A", timeout=WAIT)
    assert line.evaluate(APART) == {"text": "Austria, Player A", "below": True}
    assert errors == []

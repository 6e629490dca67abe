"""The board call (issue 25) on a real uvicorn hub whose time the test holds, the TD's phone
in Debian's headless Chromium: round 1 and round 2 seated on the Seating card, two players
swapped by hand with the figures judged again, each called; ``/boardcall`` paging by itself
through the tables (the page's clock run by the test, not waited for); the TD's hall message
sent and cleared, on ``/hall`` and on the tables; and a table's kiosk drawing its board call
from the hub's own snapshot."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from dipclock.sync import to_seconds
from tests.chromium import SHOTS
from tests.server.conftest import START
from tests.server.live import ThreadHub, at, clocks_of, held_hub
from tests.server.test_browser_rounds import WAIT, Dashboard
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

PLAYERS = [f"Player {n:02d}" for n in range(1, 22)]
ROUND_2 = START + timedelta(hours=5)
CALL = "Round 2 board call on the projector"
QUALITY = "#seat-quality"
DRAFT_TABLES = """() => [...document.querySelectorAll("#seat-draft .seat-table")].map((t) => ({
    table: Number(t.dataset.table),
    seats: Object.fromEntries([...t.querySelectorAll("button.player")]
        .map((b) => [b.dataset.power, b.textContent])) }))"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=30)) as h:
        yield h


def stored(td: httpx.Client, number: int) -> list[dict]:
    seats = td.get("/api/td/seating", params={"round": number}).json()
    tables: dict[int, dict[str, str]] = {}
    for s in seats:
        tables.setdefault(s["table"], {})[s["power"]] = s["player"]
    return [{"table": n, "seats": t} for n, t in sorted(tables.items())]


def test_two_rounds_seated_on_the_card_called_and_shown_to_the_hall(browser, hub):
    from playwright.sync_api import expect

    td = hub.td()
    set_up(td, START, tables=3)
    dash = Dashboard(browser, hub)
    page = dash.page
    page.wait_for_function("() => last !== null", timeout=WAIT)
    page.click("#seat-desk > summary")
    # the card guesses the round once it has read the hub (nothing seated: round 1); typing
    # before that guess lands would type into it ("11")
    expect(page.locator("#seat-round")).to_have_value("1", timeout=WAIT)
    page.fill("#seat-round", "1")
    page.fill("#seat-players", "\n".join(PLAYERS))
    expect(page.locator("#seat-players-count")).to_have_text("21 players: 3 tables")
    page.fill("#seat-seed", "3")
    page.click("#btn-seat-draft")
    expect(page.locator(QUALITY)).to_have_text(
        "Round 1: 3 tables · 0 pairs met before · 0 powers repeated", timeout=WAIT)
    first = page.evaluate(DRAFT_TABLES)
    assert dash.click("#btn-seat-call") == (
        "Call round 1's seating, 3 tables? It replaces round 1's seating and each table's "
        "clock shows its players.")
    assert stored(td, 1) == first
    expect(page.locator("#seating-count")).to_have_text("3 tables, 21 players", timeout=WAIT)

    # round 2: the card guesses the next round and round 1's players
    expect(page.locator("#seat-round")).to_have_value("2", timeout=WAIT)
    assert sorted(page.input_value("#seat-players").splitlines()) == PLAYERS
    page.fill("#seat-seed", "3")
    page.click("#btn-seat-draft")
    # three tables of seven from three: each new table holds at least 5 pairs who met
    expect(page.locator(QUALITY)).to_contain_text("Round 2: 3 tables · 15 pairs met before",
                                                  timeout=WAIT)
    if SHOTS:
        page.locator("#seat-card").screenshot(path=os.path.join(SHOTS, "seating-card.png"))
    drafted = page.evaluate(DRAFT_TABLES)
    a, b = drafted[0]["seats"]["A"], drafted[1]["seats"]["E"]
    page.click("#seat-draft .seat-table[data-table='1'] button[data-power='A']")
    page.click("#seat-draft .seat-table[data-table='2'] button[data-power='E']")
    expect(page.locator("#toast")).to_have_text(f"Swapped {a} and {b}", timeout=WAIT)
    swapped = page.evaluate(DRAFT_TABLES)
    assert swapped[0]["seats"]["A"] == b and swapped[1]["seats"]["E"] == a
    judged = td.post("/api/td/seating/check", json={"round": 2, "tables": swapped}).json()
    q = judged["quality"]
    expect(page.locator(QUALITY)).to_contain_text(
        f"{q['pairs_met_before']} pairs met before · {q['powers_repeated']} power", timeout=WAIT)
    assert dash.click("#btn-seat-call").startswith("Call round 2's seating, 3 tables?")
    assert stored(td, 2) == swapped

    # the TD tells the hall where to look
    page.fill("#message-text", CALL)
    assert dash.click("#btn-message-send") == (
        f'Show "{CALL}" on every table and the hall clock, until you clear it?')

    # the projector: a page of tables at a time, turning by itself
    td.put("/api/td/round", json={"number": 2, "start": ROUND_2.isoformat()}).raise_for_status()
    # a narrow window (three tables fill a projector's page: test_the_board_call_fills...)
    hall = browser.new_page(bypass_csp=True, viewport={"width": 390, "height": 720})
    hall.clock.install(time=datetime.now().timestamp())
    hall.goto(hub.url + "/boardcall")
    expect(hall.locator("#call-page")).to_have_text("Page 1 of 2", timeout=WAIT)
    expect(hall.locator("#call-title")).to_have_text("Second Individual Round · board call")

    def shown() -> dict[int, dict[str, str]]:
        return {int(t.get_attribute("data-table")): dict(
            zip(t.locator(".power").all_text_contents(), t.locator(".player").all_text_contents(),
                strict=True)) for t in hall.locator(".call-table").all()}

    names = {"A": "Austria", "E": "England", "F": "France", "G": "Germany", "I": "Italy",
             "R": "Russia", "T": "Turkey"}
    want = {t["table"]: {names[p]: n for p, n in t["seats"].items()} for t in swapped}
    page_one = shown()
    assert page_one == {n: want[n] for n in (1, 2)}
    hall.clock.run_for(12_000)  # one page turn
    expect(hall.locator("#call-page")).to_have_text("Page 2 of 2", timeout=WAIT)
    assert shown() == {3: want[3]}
    hall.set_viewport_size({"width": 1280, "height": 720})
    hall.clock.run_for(12_000)
    expect(hall.locator(".call-table")).to_have_count(3, timeout=WAIT)
    if SHOTS:
        hall.screenshot(path=os.path.join(SHOTS, "boardcall.png"))
    hall.close()

    hall = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
    hall.goto(hub.url + "/hall")
    expect(hall.locator("#hall-message")).to_have_text(CALL, timeout=WAIT)

    # a table's kiosk before round 2 starts: its board call, from the hub's snapshot,
    # under the TD's message
    at(hub, ROUND_2 - timedelta(minutes=6))
    kiosk_board_call(hub, td, want[1], CALL)

    # the TD clears the message: gone from the hall and from the tables' snapshot
    assert dash.click("#btn-message-clear") == (
        f'Clear "{CALL}" from every table and the hall clock?')
    expect(hall.locator("#hall-message")).to_be_hidden(timeout=WAIT)
    kiosk_board_call(hub, td, want[1], "")
    hall.close()
    page.context.close()


def kiosk_board_call(hub: ThreadHub, td: httpx.Client, seats: dict[str, str],
                     message: str) -> None:
    """Table 1's kiosk, fed the hub's snapshot as a kiosk is, draws the board call: the
    table's number and its seven players by power, in the powers' order, and the TD's
    ``message`` across the top ("": none)."""
    import pygame

    from dipclock.sync import to_moment
    from kiosk import state
    from kiosk.draw import Painter, render
    from kiosk.feed import parse_snapshot

    snap = httpx.get(f"{hub.url}/api/tables/1/snapshot", headers=clocks_of(td)[1]).json()
    received = parse_snapshot(snap, 1)
    rnd = received.round
    assert rnd is not None and rnd.schedule.start == ROUND_2
    now = to_moment(httpx.get(f"{hub.url}/api/time").json()["t1"])
    frame = state.with_message(
        state.build(rnd.profile, rnd.schedule, now, table=1, players=dict(rnd.players)),
        received.message, now)
    assert frame.screen.message == message
    assert frame.screen.look == "before_start"
    assert dict(frame.screen.board_call) == seats
    assert [p for p, _ in frame.screen.board_call] == list(seats)
    pygame.font.init()
    surface = pygame.Surface((1280, 720))
    drawn = {d.role: d.text for d in render(surface, frame.screen, Painter())
             if d.role in ("board_table", "big", "message")}
    assert drawn == {"board_table": "1", "big": "6:00"} | (
        {"message": message} if message else {})
    if SHOTS:
        pygame.image.save(surface, os.path.join(SHOTS, "kiosk-board-call-live.png"))


#: issue 34: the board call of a round named in 80 characters, with real-length names
LONG_NAME = "Second Individual Round of the Spring Open, the Saturday afternoon board, hall B"
LONG_START = datetime(2024, 5, 4, 14, 0)
MESSAGE = "Find your table now: the round starts at 14:00 sharp"
FIRSTS = ("Alexandra", "Bob", "Christophe", "Dagmar", "Eve", "Friedrich", "Gus", "Hanna")
LASTS = ("Konstantinou", "Li", "Vanderbilt-Jones", "Weiss", "Rossi", "Petrov", "Yilmaz")
#: the boxes of the page, read in one go: each table's card, each name's box and whether
#: its text is cut, the names' font size, the message's banner and the heading's lines
CALL_BOXES = """() => ({
    cards: [...document.querySelectorAll(".call-table")].map((t) => ({
        table: Number(t.dataset.table), ...t.getBoundingClientRect().toJSON() })),
    cut: [...document.querySelectorAll(".call-table .player")]
        .filter((p) => p.scrollWidth > p.clientWidth).map((p) => p.textContent),
    font: parseFloat(getComputedStyle(document.querySelector(".call-table .player")).fontSize),
    banner: document.getElementById("hall-message").getBoundingClientRect().toJSON(),
    head: document.querySelector(".call-head").getBoundingClientRect().toJSON(),
    start: document.getElementById("call-start").getBoundingClientRect().toJSON(),
})"""


def seated(tables: int) -> list[dict]:
    """Every seat of ``tables`` tables, each player named differently (up to 27 letters)."""
    return [{"round": 1, "table": t, "power": p,
             "player": f"{FIRSTS[(t + i) % len(FIRSTS)]} {LASTS[i]} {t}"}
            for t in range(1, tables + 1) for i, p in enumerate("AEFGIRT")]


@pytest.mark.parametrize("tables", [3, 30])
def test_the_board_call_fills_the_projector_with_the_start_and_the_message(
        browser, hub, tables):
    """Issue 34: three tables took 45 % of a 1280x720 projector, their 20 px names cut off
    beside empty space, with neither the time to the start nor the hall message. Now the
    tables are as large as the screen lets them be, no name cut, a page at a time while
    they stay readable, under the round's start counting down and the TD's message."""
    from playwright.sync_api import expect

    td = hub.td()
    at(hub, LONG_START - timedelta(minutes=6))
    set_up(td, LONG_START, tables=tables)
    td.put("/api/td/round", json={"number": 1, "start": LONG_START.isoformat(),
                                  "title": LONG_NAME}).raise_for_status()
    seats = seated(tables)
    td.put("/api/td/seating", json={"seats": seats}).raise_for_status()
    td.put("/api/td/message", json={"text": MESSAGE, "minutes": 10}).raise_for_status()
    # the hub sends what the page shows: the start, on the venue's clock and the hub's
    called = httpx.get(hub.url + "/api/boardcall").json()
    assert (called["title"], called["starts"]) == (LONG_NAME, "2024-05-04T14:00:00")
    assert called["starts_at"] == to_seconds(LONG_START)
    assert called["message"]["text"] == MESSAGE

    names = {s["player"] for s in seats}
    errors: list[str] = []
    for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        call = browser.new_page(bypass_csp=True, viewport=size)
        call.on("pageerror", lambda e: errors.append(str(e)))
        call.clock.install(time=datetime.now().timestamp())
        call.goto(hub.url + "/boardcall")
        expect(call.locator("#call-title")).to_have_text(f"{LONG_NAME} · board call")
        # the page's clock stands still until the test runs it: the hub's time as sent
        expect(call.locator("#call-start")).to_have_text("Starts at 14:00 · in 6:00")
        expect(call.locator("#hall-message")).to_have_text(MESSAGE)
        expect(call.locator(".call-table").first).to_be_visible()
        pages = call.locator("#call-page").inner_text()
        count = int(pages.rsplit(" ", 1)[1]) if pages else 1
        seen: list[int] = []
        per: list[int] = []  # tables a page
        for turn in range(count):
            if turn:
                call.clock.run_for(12_000)  # one page turn
                expect(call.locator("#call-page")).to_have_text(f"Page {turn + 1} of {count}")
            got = call.evaluate(CALL_BOXES)
            call.screenshot(path=os.path.join(
                SHOTS, f"boardcall-{tables}-{size['width']}-page{turn + 1}.png"))
            assert got["cut"] == [], (size, got["cut"])  # no name cut short
            assert got["banner"]["top"] == 0 and got["banner"]["width"] == size["width"]
            assert got["head"]["top"] >= got["banner"]["bottom"] - 1  # the message on top
            assert got["start"]["right"] <= size["width"], got["start"]
            for card in got["cards"]:  # every card whole on the screen, under the heading
                assert card["top"] >= got["head"]["bottom"] - 1, (size, card)
                assert card["bottom"] <= size["height"] and card["right"] <= size["width"]
                assert card["left"] >= 0, (size, card)
            # read from the back of the hall: the names never much under 2.8 % of the
            # screen's height (20 px at 720)
            assert got["font"] >= 0.028 * size["height"] * 0.9, (size, got["font"])
            seen += [c["table"] for c in got["cards"]]
            per.append(len(got["cards"]))
            assert set(call.locator(".call-table .player").all_text_contents()) <= names
            if tables == 3:
                # three tables fill the screen: the cards span its width or the height
                # under the heading, their names larger than the old 20 px at 720
                left = min(c["left"] for c in got["cards"])
                right = max(c["right"] for c in got["cards"])
                bottom = max(c["bottom"] for c in got["cards"])
                room = size["height"] - got["head"]["bottom"]
                assert (right - left >= 0.9 * size["width"]
                        or bottom - got["head"]["bottom"] >= 0.85 * room), (size, got)
                assert got["font"] >= 0.033 * size["height"], (size, got["font"])
                assert count == 1  # on one page
        assert seen == list(range(1, tables + 1)), (size, seen)  # each table once, in order
        # the pages evened out: none holds more than one table more than another
        assert max(per) - min(per) <= 1, (size, per)
        if tables == 30:
            assert count > 1  # thirty tables do not fit a page at a readable size
        if size["width"] != 1920:
            call.close()  # the last goes on past the start

    # the message ends (10 min) after the round starts: "Started at", then no banner
    at(hub, LONG_START + timedelta(minutes=1))
    call.clock.run_for(5_000)  # a poll: the hub's time as it sent the (unchanged) reply
    expect(call.locator("#call-start")).to_have_text("Started at 14:00")
    expect(call.locator("#hall-message")).to_be_visible()
    at(hub, LONG_START + timedelta(minutes=5))
    call.clock.run_for(5_000)
    expect(call.locator("#hall-message")).to_be_hidden()
    expect(call.locator(".call-table").first).to_be_visible()
    assert errors == []
    call.close()

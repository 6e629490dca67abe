"""Issue 34: before a round with a long name, ``/hall`` repeated the whole name at headline
size and its countdown ended below a 720 px projector. In Debian's headless Chromium on a
real hub whose time the test holds: a round named in 80 characters, 3 and 30 tables, at
1280x720 and 1920x1080, before the start and while it runs with a hall message and tables
apart listed under the clock, each one tick of the page's clock after the change (the page
once put itself right only at its next poll). Measured with the elements' boxes: the
countdown whole (one line) inside the screen, the lines of words inside it and not over
the clock, the round's name shown once and still readable."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

import pytest

from dipclock.events import BUILTIN
from tests.chromium import SHOTS
from tests.server.live import at, held_hub
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

EVENT = BUILTIN["wdc2006"].name
NAME = "Second Individual Round of the Spring Open, the Saturday afternoon board, hall B"
START = datetime(2024, 5, 4, 14, 0)  # the venue's zone is UTC in the tests (tests/conftest)
MESSAGE = "Round 2 board call on the projector by the bar: find your table before 14:00"
SIZES = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})

#: the boxes of what the page shows, read in one go (the page redraws every 200 ms): the
#: countdown's text (a Range: the text itself with its font's whole height, not its block
#: of line-height 1) and how many lines it takes, the lines above and below it (and their
#: blocks, which do not overlap where the glyphs' full heights may), the message's banner
BOXES = """() => {
    const box = (id) => {
        const e = document.getElementById(id);
        if (e.hidden || !e.textContent) return null;
        const r = document.createRange();
        r.selectNodeContents(e);
        return { ...r.getBoundingClientRect().toJSON(), lines: r.getClientRects().length,
                 font: parseFloat(getComputedStyle(e).fontSize),
                 block: e.getBoundingClientRect().toJSON() };
    };
    return { clock: box("remaining"), stage: box("stage"), event: box("hall-event"),
             detail: box("clock-detail"), banner: box("hall-message"),
             apart: [...document.querySelectorAll("#hall-apart li")].map(
                 (li) => li.getBoundingClientRect().toJSON()),
             text: document.body.innerText };
}"""


def inside(box: dict, size: dict) -> bool:
    return (box["left"] >= 0 and box["top"] >= 0 and box["right"] <= size["width"]
            and box["bottom"] <= size["height"])


def measured(page, size: dict, shot: str) -> dict:  # noqa: ANN001
    """The page at ``size``, fitted, photographed and measured; what every screen must be:
    the countdown on one line inside the screen, below the banner and the lines over it;
    every line of words inside the screen."""
    page.set_viewport_size(size)
    page.clock.run_for(250)  # one tick of the page's clock: what it shows then, unwaited
    page.screenshot(path=os.path.join(SHOTS, shot))
    got = page.evaluate(BOXES)
    clock = got["clock"]
    assert clock is not None and clock["lines"] == 1, (shot, clock)
    assert inside(clock, size), (shot, clock)
    for name in ("banner", "event", "stage", "detail"):
        line = got[name]
        if line is not None:
            assert inside(line, size), (shot, name, line)
    for above in ("banner", "event", "stage"):  # laid out above the clock, not over it
        if got[above] is not None:
            assert got[above]["block"]["bottom"] <= clock["block"]["top"] + 1, (
                shot, above, got[above], clock)
    if got["detail"] is not None:
        assert got["detail"]["block"]["top"] >= clock["block"]["bottom"] - 1, (
            shot, got["detail"], clock)
    for li in got["apart"]:
        assert li["top"] >= clock["block"]["bottom"] and inside(li, size), (shot, li, clock)
    # the round's name once, at a size read across the hall (2 % of the screen's width)
    assert got["text"].count(NAME) == 1, (shot, got["text"])
    named = got["stage"] if NAME in page.inner_text("#stage") else got["event"]
    assert named["font"] >= 0.02 * size["width"] * (0.7 if named is got["event"] else 1), (
        shot, named)
    return got


@pytest.mark.parametrize("tables", [3, 30])
def test_the_hall_shows_the_whole_countdown_with_an_80_character_round_name(
        browser, tmp_path, tables):
    from playwright.sync_api import expect

    assert len(NAME) == 80  # the longest name a round may have (server.schemas.RoundSetup)
    with held_hub(tmp_path / "hub", START - timedelta(minutes=6)) as hub:
        td = hub.td()
        set_up(td, START, tables=tables)
        td.put("/api/td/round", json={"number": 1, "start": START.isoformat(),
                                      "title": NAME}).raise_for_status()
        page = browser.new_context(bypass_csp=True,  # its wait is eval'd text
                                   viewport=SIZES[0]).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # the page's clock run by the test: each measure is of the page one tick after a
        # change, not after it has had a second to put itself right
        page.clock.install(time=datetime.now().timestamp())
        page.goto(hub.url + "/hall")
        page.wait_for_function("() => last !== null", timeout=30_000)  # the hub's answer
        page.clock.run_for(250)  # a tick: the clock drawn
        # before the start: the clock's own line names the round, so the line over it
        # names the event alone
        expect(page.locator("#stage")).to_have_text(f"{NAME} starts at 14:00 · Spring 1901")
        expect(page.locator("#hall-event")).to_have_text(EVENT)
        for size in SIZES:
            measured(page, size, f"dipclock-hall-long-name-{tables}-{size['width']}.png")

        # ten minutes in, a long message up and (30 tables) most tables given time: the
        # line over the clock names the event and the round
        at(hub, START + timedelta(minutes=10))
        td.put("/api/td/message", json={"text": MESSAGE}).raise_for_status()
        for n in range(7, tables + 1):
            td.post("/api/td/adjustments", json={"seconds": 30 * (n % 4 + 1), "table": n}
                    ).raise_for_status()
        page.clock.run_for(1_000)  # a poll
        expect(page.locator("#hall-event")).to_have_text(
            f"{EVENT} · {NAME}")
        page.clock.run_for(250)  # a tick: the clock drawn, the message shown
        expect(page.locator("#stage")).to_have_text("Negotiating · Spring 1901")
        expect(page.locator("#hall-message")).to_have_text(MESSAGE)
        expect(page.locator("#hall-apart li")).to_have_count(max(0, tables - 6))
        for size in SIZES:
            measured(page, size, f"dipclock-hall-long-name-running-{tables}-{size['width']}.png")
        assert errors == []
        page.context.close()

"""Issue 38, names in any script on the projector: ``/boardcall`` in Debian's Chromium with
a Thai, a Greek and a Chinese player's name, each drawn by a font that has its letters (the
fonts Chromium itself reports for the name, through the DevTools protocol), none by a box.
The Noto fonts come from Debian (``scripts/ensure-test-tools.sh``); the pages' font stack
names them (``server/static/style.css``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.chromium import SHOTS
from tests.server.live import ThreadHub, at, held_hub
from tests.server.test_browser_boardcall import LONG_START
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

#: (power, name, a font family Chromium must draw it with)
NAMES = (("E", "Γιώργος Παππάς", "Noto Sans"), ("F", "王伟", "Noto Sans CJK"),
         ("I", "สมชาย ใจดี", "Noto Sans Thai"))


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", LONG_START - timedelta(minutes=30)) as h:
        yield h


def platform_fonts(page: object, selector: str) -> list[dict]:
    """The fonts Chromium drew each element's text with, and how many glyphs each."""
    cdp = page.context.new_cdp_session(page)  # type: ignore[attr-defined]
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})
    return [cdp.send("CSS.getPlatformFontsForNode", {"nodeId": n})["fonts"]
            for n in nodes["nodeIds"]]


def test_names_in_thai_greek_and_chinese_show_on_the_board_call(browser, hub) -> None:
    from playwright.sync_api import expect

    td = hub.td()
    at(hub, LONG_START - timedelta(minutes=6))
    set_up(td, LONG_START, tables=1)
    td.put("/api/td/round", json={"number": 1, "start": LONG_START.isoformat(),
                                  "title": "Round 1"}).raise_for_status()
    named = dict((p, n) for p, n, _ in NAMES)
    seats = [{"round": 1, "table": 1, "power": p, "player": named.get(p, f"Player {p}")}
             for p in "AEFGIRT"]
    td.put("/api/td/seating", json={"seats": seats}).raise_for_status()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
    page.goto(hub.url + "/boardcall")
    players = page.locator(".call-table .player")
    expect(players.first).to_be_visible()
    shown = players.all_text_contents()
    page.screenshot(path=os.path.join(SHOTS, "boardcall-names-scripts.png"))
    # the stack names Noto after the platform's own fonts, for a projector whose
    # sans-serif is not Noto
    stack = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    assert "Noto Sans Thai" in stack and "Noto Sans CJK" in stack, stack
    fonts = dict(zip(shown, platform_fonts(page, ".call-table .player"), strict=True))
    for _, name, family in NAMES:
        used = fonts[name]
        assert used, f"{name!r}: Chromium reports no font"
        families = [f["familyName"] for f in used]
        assert any(f.startswith(family) for f in families), (name, used)
        # every letter drawn by a font with it: the glyphs add up to the name's letters
        letters = sum(1 for c in name if not c.isspace())
        assert sum(f["glyphCount"] for f in used if f["familyName"].startswith("Noto")) >= (
            letters - 2), (name, used)  # Thai's vowels shaped onto their consonants

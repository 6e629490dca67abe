"""The projector's pages read replies the hub built once for everyone (``server.pagecache``),
in Debian's headless Chromium against a real uvicorn whose clock the test holds: the hall
clock counts down from the hub's time when a reply was *sent* (``X-Hub-Time``), not when
it was built; the board call takes a new seating through the browser's own revalidation
(304s between changes)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from dipclock.sync import to_seconds
from server import pagecache
from server.routers import pages
from tests.server.live import at, held_hub
from tests.server.test_live import set_up
from tests.server.test_public_reads import seat

pytestmark = [pytest.mark.browser]

START = datetime(2024, 5, 4, 9, 30)  # wdc2006: Spring 1901's deadline 17 min later


def test_the_projector_pages_draw_replies_built_earlier_and_their_304s(
        browser, tmp_path, monkeypatch):
    from playwright.sync_api import expect

    monkeypatch.setattr(pages, "HALL_STEP", 3600.0)  # the hour's hall reply: built once
    revalidated: list[bool] = []
    real = pagecache.matches
    monkeypatch.setattr(pagecache, "matches",
                        lambda sent, etag: revalidated.append(real(sent, etag)) or real(sent, etag))
    with held_hub(tmp_path / "hub", START) as hub:
        td = hub.td()
        set_up(td, START)
        seat(td, 1)
        page = browser.new_page()
        page.goto(hub.url + "/hall")
        expect(page.locator("#remaining")).to_have_text("17:00")
        at(hub, START + timedelta(minutes=5))
        # the reply built at START, sent 5 min later: the page counts from when it was sent
        # (a second more may pass on the page's own clock between two polls)
        expect(page.locator("#remaining")).to_have_text(re.compile(r"^(12:00|11:59)$"))
        # the page's last reply: the one built at START
        assert page.evaluate("() => last.data.hub_time") == to_seconds(START)
        assert any(revalidated)  # the browser asked with the ETag and was told "unchanged"

        board = browser.new_page()
        board.goto(hub.url + "/boardcall")
        player = board.locator(".call-table .player").first
        expect(player).to_have_text("R1 T1 A")
        expect(board.locator(".call-table")).to_have_count(2)
        seat(td, 2)  # a new seating: a new reply, which the next poll draws
        expect(player).to_have_text("R2 T1 A")
        td.close()

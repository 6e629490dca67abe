"""The TD's "Show the vote code" on the dashboard's Votes card (issue 37: a proposal "is
started from the table (a TD-chosen way that does not disturb the clock: a key, a long press
on a spare button, or the TD's dashboard)"), in Debian's headless Chromium against a real
uvicorn hub whose time the test holds: the table picked, asked, and that table's snapshot
carries ``vote_code_until`` (the clock shows the vote page's QR code for 2 minutes)."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest

from tests.server.live import at, clocks_of
from tests.server.test_browser_rounds import WAIT, Dashboard
from tests.server.test_browser_votes import hub, negotiating, set_up  # noqa: F401

pytestmark = [pytest.mark.browser]


def test_the_td_shows_the_vote_code_on_the_table_picked(browser, hub):  # noqa: F811
    from playwright.sync_api import expect

    td = set_up(hub)
    moment = negotiating(1906, "spring")
    at(hub, moment)
    dash = Dashboard(browser, hub)
    page = dash.page
    page.set_viewport_size({"width": 360, "height": 780})
    expect(page.locator("#vs-table option")).to_have_count(2, timeout=WAIT)
    page.select_option("#vs-table", "2")
    assert dash.click("#btn-vote-code") == (
        "Show the vote code on table 2's clock for 2 minutes? Its players scan it to propose "
        "a game end; the clock runs on.")

    def until(table: int) -> str | None:
        r = httpx.get(f"{hub.url}/api/tables/{table}/snapshot",
                      headers=clocks_of(td)[table], verify=hub.verify)
        r.raise_for_status()
        return r.json()["vote_code_until"]

    expect(page.locator("#toast")).to_contain_text("Done: Show the vote code on table 2",
                                                   timeout=WAIT)
    shown = until(2)
    assert shown is not None and shown.startswith(
        (moment + timedelta(minutes=2)).isoformat()[:16])
    assert until(1) is None
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert dash.errors == []
    td.close()

"""A hall with no time server: the hub's clock is not synchronised, all day. In a real
headless Chromium against a real uvicorn whose time-sync probe says "no": while the hub
agrees with the TD's phone there is nothing to do, and the Time card says so quietly
instead of a red alarm that stays all day. (One that disagrees is still red:
``test_browser_hall``.)"""

from __future__ import annotations

import pytest

from server.clock import wall_seconds
from tests.chromium import signed_in
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub

pytestmark = [pytest.mark.browser]

QUIET = ("Hub clock not synchronised: no time server has set it. It agrees with this "
         "phone's clock: nothing to do.")


def test_a_hub_not_synchronised_that_agrees_with_the_phone_is_a_quiet_note(browser, tmp_path):
    from playwright.sync_api import expect

    hub = ThreadHub(tmp_path / "hub", synced=lambda: False, wall=wall_seconds)
    with hub:
        page, _ = signed_in(browser, hub.url, PASSWORD)
        standing = page.locator("#time-standing")
        expect(standing).to_have_text(QUIET)
        expect(standing).to_be_visible()
        expect(page.locator("#time-warning")).to_be_hidden()
        assert "muted" in (standing.get_attribute("class") or "")
        page.context.close()


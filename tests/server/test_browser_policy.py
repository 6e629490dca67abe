"""Every page works under the hub's Content-Security-Policy (``server.headers``), and no
other site may frame one: each page in a real headless Chromium against a real hub, with
every console line kept, and an attacker's page that tries to frame the dashboard."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dipclock.sync import to_moment
from server.headers import HEADERS
from tests.chromium import EXPECT_MS, phone, signed_in
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]


def test_every_page_runs_under_the_policy_and_none_can_be_framed(browser, tmp_path):
    from playwright.sync_api import expect

    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        now = to_moment(td.get("/api/time").json()["t1"]).replace(microsecond=0)
        set_up(td, now - timedelta(minutes=3), tables=2)
        page, _ = signed_in(browser, hub.url, PASSWORD, csp=True)
        refused: list[str] = []
        context = page.context
        context.on("console", lambda m: refused.append(m.text)
                   if "Content Security Policy" in m.text else None)
        for path in ("/dashboard", "/hall", "/standings", "/sheet/1/1"):
            answer = page.goto(hub.url + path)
            assert answer is not None and answer.status == 200
            for name, value in HEADERS.items():
                assert answer.headers[name.lower()] == value, (path, name)
            page.wait_for_load_state("networkidle", timeout=EXPECT_MS)
            if path == "/dashboard":  # its scripts ran: signed in, the app drawn
                expect(page.locator("#app")).to_be_visible()
                expect(page.locator("#clocks-summary")).to_have_text("· 0 paired")
            if path == "/hall":  # its script ran: the clock counts
                expect(page.locator("#remaining")).not_to_have_text("--:--")
        assert refused == [], refused

        # another site's page framing the dashboard: the browser refuses to draw it
        framer = phone(browser, csp=True).new_page()
        blocked: list[str] = []
        framer.on("console", lambda m: blocked.append(m.text))
        framer.set_content(f'<iframe id="f" src="{hub.url}/dashboard"></iframe>')
        framer.wait_for_timeout(0)
        frame = framer.frame_locator("#f")
        expect(frame.locator("#signin")).to_have_count(0, timeout=EXPECT_MS)
        assert any("frame-ancestors" in line for line in blocked), blocked
        framer.context.close()
        context.close()
        td.close()

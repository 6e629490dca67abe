"""Debian's headless Chromium, driven by Playwright, for the dashboard tests.

Never skipped: the dashboard is what the TD relies on. `make test` installs chromium
(scripts/ensure-test-tools.sh); Playwright's own browser download is not used.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = os.environ.get("DIPCLOCK_CHROMIUM") or shutil.which("chromium") or "chromium"
# The flags that keep Chromium off the network and quiet on a machine with no outside access;
# and a hub's self-signed certificate taken, as the TD takes it once on the phone after
# checking its fingerprint (the fingerprint shown is tested against the hub's own).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync",
        "--ignore-certificate-errors"]


#: Where the browser tests leave their screenshots to look at (docs/screenshots for the
#: README): a folder of this run's own, so two runs side by side never write one file.
SHOTS = os.environ.get("DIPCLOCK_SCREENSHOTS") or tempfile.mkdtemp(prefix="dipclock-shots-")
#: How long an ``expect`` waits for the page (ms): Playwright's own 5 s, as its actions'
#: 30 s, so a page that answers in a second on a quiet machine is not failed on a loaded one
EXPECT_MS = 30_000


def element_shot(locator: Any, path: str) -> None:
    """A screenshot of one element that the page may draw anew meanwhile (a dashboard row,
    replaced at each refresh): Playwright then says it is "not attached to the DOM" and
    does not look again, so it is asked again, for up to EXPECT_MS."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + EXPECT_MS / 1000
    while True:
        try:
            locator.screenshot(path=path)
            return
        except Error as exc:
            if "not attached" not in str(exc) or time.monotonic() > deadline:
                raise


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright import sync_api

    assert shutil.which(CHROMIUM), "Debian's chromium is needed: sh scripts/ensure-test-tools.sh"
    sync_api.expect.set_options(timeout=EXPECT_MS)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def phone(browser: Any, csp: bool = False, locale: str | None = None) -> Any:
    """A new browser context the size of a phone (390x844, touch). ``csp``: the hub's
    Content-Security-Policy enforced; left out otherwise, as Playwright evaluates a
    ``wait_for_function`` predicate given as text with eval, which the policy forbids the
    page (``tests/server/test_browser_policy.py`` loads every page under it). ``locale``:
    the phone's language ("fr-FR"; its browser's Accept-Language too)."""
    return browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                               is_mobile=True, has_touch=True, bypass_csp=not csp,
                               **({"locale": locale} if locale else {}))


def acted(page: Any, selector: str) -> None:
    """Click one of the TD's actions and wait until the toast says it is done. The dashboard
    takes one action at a time: a second tap while the first is still sending is answered
    "Still sending the last change…" and not done, which a loaded machine makes likely."""
    from playwright.sync_api import expect

    # emptied first: the last action's toast, hidden but still reading "Done: ...", must
    # not pass for this one
    page.evaluate("(t => { t.hidden = true; t.textContent = ''; })($('toast'))")
    page.click(selector)
    expect(page.locator("#toast")).to_contain_text("Done")
    # "Done" shows before the page's refresh after it, and a tap during that refresh is
    # still "Still sending": the action ends when the dashboard takes taps again
    page.wait_for_function("() => !acting", timeout=EXPECT_MS)
    page.evaluate("document.getElementById('toast').hidden = true")


def signed_in(browser: Any, url: str, password: str, csp: bool = False
              ) -> tuple[Any, list[str]]:
    """The dashboard on a phone, signed in. Every confirmation is accepted and its question
    kept in the list returned beside the page. ``csp``: as ``phone``."""
    page = phone(browser, csp).new_page()
    asked: list[str] = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.goto(url + "/dashboard")
    page.fill("#password", password)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    return page, asked


class TdPhone:
    """The TD's dashboard on a phone, signed in: every question asked is kept and answered
    yes, a prompt gets ``self.answer``, and a script error on the page is kept (a test
    asserts there is none)."""

    def __init__(self, browser: Any, url: str, password: str,
                 locale: str | None = None) -> None:
        self.page = phone(browser, locale=locale).new_page()
        self.asked: list[str] = []
        self.errors: list[str] = []
        self.answer = ""
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url + "/dashboard")
        self.page.fill("#password", password)
        self.page.click("#signin button[type=submit]")
        self.page.wait_for_selector("#app:not([hidden])")

    def _dialog(self, d: Any) -> None:
        self.asked.append(d.message)
        if d.type == "prompt":
            d.accept(self.answer)
        else:
            d.accept()

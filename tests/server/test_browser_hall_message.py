"""The TD's hall message end to end in Debian's headless Chromium: typed and sent on the
dashboard (a phone), shown in the banner of ``/hall`` (a projector) with its chime where the
page's sound is on, gone when the TD clears it or when its minutes run out by the hub's
clock. A real uvicorn whose time the test holds (``held_hub``): each step jumps to the
instant it needs, and every wait has a limit and says what for (Playwright's ``expect``)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from dipclock.hallmessage import MAX_LENGTH
from tests.chromium import EXPECT_MS, SHOTS, TdPhone, acted
from tests.server.conftest import PASSWORD
from tests.server.live import at, held_hub
from tests.server.test_live import set_up

pytestmark = [pytest.mark.browser]

START = datetime(2024, 5, 4, 9, 0)
NOW = START + timedelta(minutes=5)  # the venue's zone is UTC in the tests (tests/conftest)
CALL = "Round 2 board call on the projector"


def projector(browser, url: str):  # noqa: ANN201
    """``/hall`` on a 1280x720 projector, with every script error kept."""
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url + "/hall")
    return page


def test_the_td_sends_a_message_the_hall_shows_it_and_clearing_takes_it_down(browser, tmp_path):
    from playwright.sync_api import expect

    with held_hub(tmp_path / "hub", NOW) as hub:
        set_up(hub.td(), START, tables=2)
        hall = projector(browser, hub.url)
        banner = hall.locator("#hall-message")
        expect(hall.locator("#remaining")).not_to_have_text("--:--")  # polled, drawn
        expect(banner).to_be_hidden()
        sound = hall.locator("#hall-sound")
        expect(sound).to_have_text("Sound off")  # off until a tap: a browser plays nothing
        sound.click()
        expect(sound).to_have_text("Sound on")
        expect(sound).to_have_attribute("aria-pressed", "true")

        td = TdPhone(browser, hub.url, PASSWORD)
        page = td.page
        card = page.locator("#message-now")
        expect(card).to_be_hidden()
        expect(page.locator("#btn-message-clear")).to_be_disabled()
        page.fill("#message-text", f"  {CALL} ")
        page.fill("#message-minutes", "30")
        acted(page, "#btn-message-send")
        assert td.asked[-1] == f'Show "{CALL}" on every table and the hall clock, for 30 min?'
        expect(card).to_have_text(f"{CALL} since 09:05 · until 09:35")
        expect(page.locator("#message-text")).to_have_value("")  # ready for the next one

        expect(banner).to_have_text(CALL)
        expect(banner).to_be_visible()
        box = banner.bounding_box()
        assert box is not None and box["y"] == 0 and box["width"] == 1280, box  # at the top
        clock = hall.locator("#remaining").bounding_box()
        assert clock is not None and clock["y"] >= box["height"], "the banner hides the clock"
        assert clock["y"] + clock["height"] <= 720, "the clock is pushed off the screen"
        expect(hall.locator("body")).to_have_attribute("data-chimes", "1")  # its chime

        # a new message replaces it, and chimes again; the dashboard says what it replaces
        page.fill("#message-text", "Lunch in the bar until 14:00")
        acted(page, "#btn-message-send")
        assert td.asked[-1] == ('Show "Lunch in the bar until 14:00" on every table and the '
                                f'hall clock, until you clear it? It replaces "{CALL}".')
        expect(banner).to_have_text("Lunch in the bar until 14:00")
        expect(hall.locator("body")).to_have_attribute("data-chimes", "2")
        expect(card).to_have_text("Lunch in the bar until 14:00 since 09:05 · "
                                  "until you clear it")

        acted(page, "#btn-message-clear")
        assert td.asked[-1] == ('Clear "Lunch in the bar until 14:00" from every table and '
                                "the hall clock?")
        expect(banner).to_be_hidden()
        expect(card).to_be_hidden()
        expect(page.locator("#btn-message-clear")).to_be_disabled()
        box = hall.locator("#remaining").bounding_box()
        assert box is not None and box["y"] > 0  # the page back as it was
        assert hall.evaluate("document.body.style.paddingTop") == ""
        expect(hall.locator("body")).to_have_attribute("data-chimes", "2")  # none for going
        log = [line for line in td.asked if line.startswith(("Show", "Clear"))]
        assert len(log) == 3
        assert td.errors == [] and hall.errors == []  # type: ignore[attr-defined]
        hall.context.close()
        page.context.close()


def test_a_message_goes_from_the_hall_when_its_minutes_run_out(browser, tmp_path):
    from playwright.sync_api import expect

    with held_hub(tmp_path / "hub", NOW) as hub:
        api = hub.td()
        set_up(api, START, tables=2)
        api.put("/api/td/message", json={"text": "Lunch in the bar", "minutes": 1}
                ).raise_for_status()
        hall = projector(browser, hub.url)  # opened with the message up: no chime for it
        banner = hall.locator("#hall-message")
        expect(banner).to_have_text("Lunch in the bar")
        hall.locator("#hall-sound").click()
        at(hub, NOW + timedelta(minutes=1))  # the hub's clock reaches its end
        expect(banner).to_be_hidden()
        assert hall.evaluate("document.body.dataset.chimes") is None
        # the page's own rule, as the tables' clocks decide it: hidden at ``ends`` itself
        assert hall.evaluate("[messageShown({ends: 100}, 99.99), messageShown({ends: 100}, 100),"
                             " messageShown({ends: null}, 1e12), messageShown(null, 1)]"
                             ) == [True, False, True, False]
        assert hall.errors == []  # type: ignore[attr-defined]
        hall.context.close()


def test_a_bad_message_is_said_on_the_dashboard_and_nothing_is_sent(browser, tmp_path):
    from playwright.sync_api import expect

    with held_hub(tmp_path / "hub", NOW) as hub:
        set_up(hub.td(), START, tables=2)
        td = TdPhone(browser, hub.url, PASSWORD)
        page = td.page
        page.fill("#message-text", "Lunch")
        page.fill("#message-minutes", "721")
        page.click("#btn-message-send")
        expect(page.locator("#toast")).to_have_text(
            "minutes: a hall message lasts 1 to 720 minutes (12 h), not 721")
        page.wait_for_function("() => !acting", timeout=EXPECT_MS)
        expect(page.locator("#message-now")).to_be_hidden()
        assert hub.td().get("/api/hall").json()["message"] is None
        assert td.errors == []
        page.context.close()


#: The longest messages the core allows (``MAX_LENGTH``): words, words of the widest
#: capitals, and one unbroken line (an address, a script without spaces).
LONGEST = {
    "words": ("Round 3 board call on the projector at 14:00 sharp. Lunch is in the bar until "
              "then: hand in all your score sheets first."),
    "capitals": " ".join(["W" * 11] * 10) + "W",
    "unbroken": "M" * MAX_LENGTH,
}


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800), (800, 480)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_longest_message_never_pushes_the_countdown_off_the_screen(browser, tmp_path, size):
    """Issue 33: a 120-character message took the banner to 278 px of a 1280x720 projector
    and pushed the countdown's bottom off it. The banner wraps, then shrinks to a quarter
    of the screen at most; the clock below it stays whole, and the page never scrolls."""
    from playwright.sync_api import expect

    width, height = size
    with held_hub(tmp_path / "hub", NOW) as hub:
        api = hub.td()
        set_up(api, START, tables=2)
        page = browser.new_context(bypass_csp=True,  # its wait is eval'd text (chromium.phone)
                                   viewport={"width": width, "height": height}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(hub.url + "/hall")
        banner, clock = page.locator("#hall-message"), page.locator("#remaining")
        expect(clock).to_have_text("12:00")  # Spring 1901's deadline 09:17, at 09:05
        for name, text in LONGEST.items():
            assert len(text) == MAX_LENGTH, name
            api.put("/api/td/message", json={"text": text}).raise_for_status()
            expect(banner).to_have_text(text)  # every word of it, none cut
            # the page fits the banner as it shows it, in the same task: no wait for it
            page.screenshot(path=f"{SHOTS}/dipclock-hall-message-{name}-{width}x{height}.png")
            shown, big = banner.bounding_box(), clock.bounding_box()
            assert shown is not None and big is not None
            assert big["y"] + big["height"] <= height, (name, "pushed off the screen", big)
            assert 0 <= big["x"] and big["x"] + big["width"] <= width, (name, big)
            assert big["y"] >= shown["y"] + shown["height"], (name, "the banner hides it", big)
            assert big["height"] >= height / 4, (name, "the countdown stays large", big)
            assert shown["y"] == 0 and shown["height"] <= height / 4 + 1, (name, shown)
            assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), name
            # the banner's words are read from the back of the hall: 1.4vw at the least
            px = float(banner.evaluate("b => parseFloat(getComputedStyle(b).fontSize)"))
            assert px >= width * 0.014 - 0.5, (name, px)
        api.delete("/api/td/message").raise_for_status()
        expect(banner).to_be_hidden()
        expect(clock).to_have_css("font-size", f"{width * 0.24:g}px")  # as it was
        assert errors == []
        page.context.close()

"""The dashboard's cards in the phone's language (issue 38): a TD whose phone's browser says
German (then Italian) opens the Roster, Seating, Results and Late orders cards of an event
in English, with a roster imported, round 1 registered and seated and a result in: what the
cards' scripts draw (the lists, the summaries, the options) and what the hub composes for
them (the powers, the seating's plan, a mark's summary) read no English word. Debian's
headless Chromium against a real uvicorn hub whose time the test holds."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.powers import LETTERS
from dipclock.roster import COLUMNS
from tests.chromium import TdPhone
from tests.server.conftest import PASSWORD, START
from tests.server.live import at, held_hub
from tests.server.pagelanguage import english_left
from tests.server.test_browser_rounds import MY_OPEN, WAIT

pytestmark = [pytest.mark.browser]

#: fourteen players whose names are no English word (a name is data, not the page's words)
NAMES = ["Ada Adler", "Bruno Bassi", "Carla Conti", "Dirk Dekker", "Elke Engel", "Fabio Fini",
         "Greta Graf", "Hugo Huber", "Ines Irmer", "Jan Jansen", "Kai Kruse", "Lia Lenz",
         "Marco Moro", "Nina Nowak"]
ROSTER = ",".join(COLUMNS) + "\n" + "".join(
    f"{n.split()[0]},{n.split()[1]},,,,,,,yes,,\n" for n in NAMES)
SEATS = "round,table,power,player\n" + "".join(
    f"1,{t},{p},{NAMES[(t - 1) * 7 + i]}\n" for t in (1, 2) for i, p in enumerate(LETTERS))
CENTRES = dict(zip(LETTERS, (5, 4, 6, 1, 6, 6, 6), strict=True))

#: each language: the browser's locale, and a word of the cards' own that shows it is spoken
SPOKEN = {"de": ("de-DE", "Tisch 1"), "it": ("it-IT", "Tavolo 1")}


def ok(r: httpx.Response) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def set_up(hub: Any) -> None:
    """The event in English (my-open), its roster, round 1 with every pre-registered player
    here, seated on two tables, table 1's sheet confirmed by the TD."""
    td = hub.td()
    ok(td.put("/api/td/event", json={"toml": MY_OPEN.read_text(encoding="utf-8")}))
    ok(td.post("/api/td/roster/import", content=ROSTER.encode(),
               headers={"Content-Type": "text/csv"}))
    ok(td.put("/api/td/round", json={"number": 1, "start": START.isoformat()}))
    ok(td.put("/api/td/tables", json={"count": 2}))
    ok(td.post("/api/td/register/1/preregistered"))
    ok(td.put("/api/td/seating", json={"csv": SEATS}))
    at(hub, START + timedelta(hours=5))
    sheet = ok(td.put("/api/sheets/1/1", json={"centres": CENTRES, "year": 1907},
                      headers={"If-Match": '"0"'}))
    ok(td.post("/api/td/sheets/1/1/final", json={"final": True, "incomplete": True},
               headers={"If-Match": str(sheet["version"])}))


def left(page: Any, selector: str, lang: str) -> list[str]:
    return english_left(page.locator(selector).inner_text(), lang, ignore=tuple(NAMES))


@pytest.mark.parametrize("lang", sorted(SPOKEN))
def test_the_cards_speak_the_phone_s_language(browser, tmp_path: Path, lang: str) -> None:
    from playwright.sync_api import expect

    locale, table_one = SPOKEN[lang]
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as hub:
        set_up(hub)
        phone = TdPhone(browser, hub.url, PASSWORD, locale)
        page = phone.page
        page.wait_for_function("() => last !== null", timeout=WAIT)
        assert page.evaluate("document.documentElement.lang") == lang

        # the Roster card: the register's people and what it counts (round 2: the one after
        # the latest seated)
        page.click("#roster-desk > summary")
        expect(page.locator("#roster-list li")).to_have_count(len(NAMES), timeout=WAIT)
        expect(page.locator("#reg-summary")).not_to_be_empty(timeout=WAIT)
        # Set up's seating, table by table with the powers' names (the hub's, in German)
        if page.locator("#setup[open]").count() == 0:
            page.click("#setup > summary")
        expect(page.locator("#seating-view .seat-table").first).to_contain_text(
            table_one, timeout=WAIT)
        # the Seating card: round 2 guessed, its players from round 1, the hub's plan line
        page.click("#seat-desk > summary")
        expect(page.locator("#seat-players-count")).not_to_be_empty(timeout=WAIT)
        # the Results card: table 1 confirmed, table 2 waiting; the standings after it
        expect(page.locator("#sheets li")).to_have_count(2, timeout=WAIT)
        expect(page.locator("#standings li").first).to_contain_text(NAMES[2], timeout=WAIT)
        expect(page.locator("#penalties li")).to_have_count(1, timeout=WAIT)

        # first what these cards' scripts draw, and the hub's words they show
        drawn = {s: left(page, s, lang) for s in (
            "#roster-summary", "#reg-summary", "#roster-list", "#seating-view",
            "#seating-count", "#seat-players-count", "#sheets", "#standings-after",
            "#standings", "#best-countries", "#penalties")}
        assert drawn == {s: [] for s in drawn}
        # then each card whole, its fixed words (dashboard.html) too
        cards = {s: left(page, s, lang) for s in (
            "#roster-card", "#seat-card", "#results-card", "#review")}
        assert cards == {s: [] for s in cards}

        # the page's switch to English: each card draws itself again, the hub's words too
        page.select_option("#lang-switch", "en")
        expect(page.locator("#roster-summary")).to_have_text(f"· {len(NAMES)} people",
                                                             timeout=WAIT)
        expect(page.locator("#reg-summary")).to_have_text("Round 2: 0 here, 14 not here yet.",
                                                          timeout=WAIT)
        expect(page.locator("#seating-view .seat-table").first).to_contain_text(
            "Austria", timeout=WAIT)
        expect(page.locator("#seat-players-count")).to_contain_text("14 players: 2 tables",
                                                                    timeout=WAIT)
        expect(page.locator("#standings-after")).to_have_text(
            "after round 1 · waiting for tables 2", timeout=WAIT)
        expect(page.locator("#penalties")).to_have_text(
            "No late or missing orders in round 1.", timeout=WAIT)
        assert phone.errors == []

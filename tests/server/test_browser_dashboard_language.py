"""The TD's dashboard in the phone's language (issue 38): a phone whose browser says French,
German, Italian or Dutch reads no English word on it, at every stage of a round (none set
up; negotiating; a meal break; a break at a coming deadline; the round called and its games
over), every card open, on a 360 px phone and a laptop, and nothing is cut off; the
pseudo-language (every string 40 % longer) cuts nothing off either; and the header's switch
turns the page to another language at once, kept after a reload.

Debian's headless Chromium against a real hub whose time the test holds; the event keeps
its English (its hall's language): each phone's dashboard follows the phone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import LANGUAGES, PSEUDO
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub, at, clocks_of, held_hub
from tests.server.pagelanguage import cut_off, english_left
from tests.server.test_browser_hall_language import set_up
from tests.server.test_browser_rounds import WAIT

pytestmark = [pytest.mark.browser]

LOCALES = {"fr": "fr-FR", "de": "de-DE", "it": "it-IT", "nl": "nl-NL"}
SIZES = ({"width": 360, "height": 780}, {"width": 1280, "height": 720})
#: Not the page's words: the test's players and event, the built-in events' names (the
#: Set up card's choice), each language's own name on the switch ("English"), and the
#: roster file's column names, which the hub reads in English only
#: (``dipclock.roster.csvfile.HEADERS``) and the Roster card shows as they are typed.
DATA = ("Player", "My Open", *(e.name for e in BUILTIN.values()), *LANGUAGES.values(),
        "simulated",  # the clocks' names (benchmarks.hub pairs "simulated-2-...")
        "given,family,homonym,note,wdd,wdr,nationality,club,preregistered,email,location")

#: What a person reads beside the page's text: the words in its fields and their labels.
SAID = """() => {
  const out = [document.body.innerText];
  for (const e of document.querySelectorAll("[placeholder], [aria-label], [title]")) {
    if (!e.getClientRects().length) continue;
    for (const a of ["placeholder", "aria-label", "title"]) {
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
    }
  }
  for (const e of document.querySelectorAll("input:not([type]), input[type=text]")) {
    if (e.getClientRects().length && e.value) out.push(e.value);
  }
  return out.join("\\n");
}"""


def signing_in(browser: Any, hub: ThreadHub, locale: str, chosen: str | None = None) -> Any:
    """A phone whose browser speaks ``locale`` (``chosen``: the language its switch kept),
    on the dashboard's sign-in card; every question it asks is answered yes."""
    context = browser.new_context(locale=locale, viewport=SIZES[0], bypass_csp=True)
    if chosen:
        context.add_init_script(f"localStorage.setItem('dipclock-lang', '{chosen}')")
    page = context.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{hub.url}/dashboard")
    page.wait_for_selector("#signin:not([hidden])")
    return page


def dashboard(browser: Any, hub: ThreadHub, locale: str, chosen: str | None = None) -> Any:
    """As ``signing_in``, signed in, the hub's state drawn."""
    page = signing_in(browser, hub, locale, chosen)
    page.fill("#password", PASSWORD)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    page.wait_for_function("() => last !== null", timeout=WAIT)
    return page


def drawn(page: Any) -> None:
    """The page drawn anew from the hub's state now, every card and fold open."""
    page.evaluate("refresh()")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def english_and_cut(page: Any, lang: str, stage: str) -> list[str]:
    """What is wrong on ``page`` now, at each size: English left, anything cut off."""
    wrong = []
    for size in SIZES:
        page.set_viewport_size(size)
        at_size = f"{stage}, {size['width']} px"
        if lang != PSEUDO:
            text = page.evaluate(SAID)
            left = english_left(text, lang, DATA)
            shown = [line for line in text.splitlines()
                     if set(english_left(line, lang, DATA)) & set(left)]
            wrong += [f"{at_size}: English {left} in {shown[:3]}"] if left else []
        wrong += [f"{at_size}: {c}" for c in cut_off(page)]
    return wrong


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=30)) as h:
        yield h


def test_each_phone_reads_the_dashboard_in_its_language_at_every_stage(browser, hub) -> None:
    td = hub.td()
    langs = [*LOCALES, PSEUDO]
    wrong: list[str] = []
    pages = {}
    for lang in langs:
        page = signing_in(browser, hub, LOCALES.get(lang, "fr-FR"),
                          PSEUDO if lang == PSEUDO else None)
        wrong.extend(f"{lang}: {w}" for w in english_and_cut(page, lang, "signing in"))
        page.fill("#password", PASSWORD)
        page.click("#signin button[type=submit]")
        page.wait_for_selector("#app:not([hidden])")
        page.wait_for_function("() => last !== null", timeout=WAIT)
        pages[lang] = page
    assert pages["de"].evaluate("document.documentElement.lang") == "de"
    assert pages[PSEUDO].locator("#btn-pause").inner_text().startswith("[")

    def check(stage: str) -> None:
        for lang, page in pages.items():
            drawn(page)
            wrong.extend(f"{lang}: {w}" for w in english_and_cut(page, lang, stage))

    check("no event, no round")
    set_up(td, None)  # the event's file in English: each phone's own language shows
    at(hub, START + timedelta(minutes=5))
    # a table's own time, drawn on its tile and in the Clock card
    td.post("/api/td/adjustments", json={"seconds": 60, "table": 1}).raise_for_status()
    # what the tables' kiosks say of themselves, on their tiles: two claiming table 1, one
    # on table 2 whose box is unplugged, short of power, its clock not verified
    for table, address, kiosk in (
            (1, "127.0.0.11", {"buttons": ["gpio"], "pin_factory": "lgpio"}),
            (1, "127.0.0.12", {"buttons": ["keyboard"], "clock": "system",
                               "power": "throttled since boot"}),
            (2, "127.0.0.22", {"buttons": ["serial"], "box": "disconnected",
                               "power": "under-voltage now", "clock": "unverified"})):
        about = {"id": f"card-{address[-2:]}", "version": "0.2.0", "uptime": 4 * 3600.0,
                 "buttons": [], "box": None, "power": "ok", "clock": "hub"} | kiosk
        with httpx.Client(transport=httpx.HTTPTransport(local_address=address)) as c:
            c.post(f"{hub.url}/api/tables/{table}/status", headers=clocks_of(td)[table],
                   json={"offset": 0.003, "rtt": 0.018, "kiosk": about}).raise_for_status()
    check("negotiating")
    # the French phone's TD pauses every clock, for the meal its own field names
    fr = pages["fr"]
    fr.set_viewport_size(SIZES[0])
    fr.fill("#pause-until", (START + timedelta(minutes=50)).strftime("%H:%M"))
    fr.click("#btn-pause")
    fr.wait_for_function("() => last && last.data.pauses.length > 0", timeout=WAIT)
    check("a meal break")
    fr.click("#btn-resume")
    fr.wait_for_function("() => last && last.data.pauses.every((p) => p.state === 'over')",
                         timeout=WAIT)
    # a break at a coming deadline, scheduled from the German phone
    de = pages["de"]
    de.set_viewport_size(SIZES[0])
    drawn(de)  # its fold open
    de.click("#btn-break")
    de.wait_for_function("() => last && last.data.pauses.some((p) => p.state === 'due')",
                         timeout=WAIT)
    check("a break at a coming deadline")
    call = td.get("/api/td/call/preview").json()
    td.post("/api/td/call", json={"at": call["at"]}).raise_for_status()
    at(hub, START + timedelta(hours=6))
    check("the round called, its games over")
    assert not wrong, "\n".join(wrong)
    td.close()


def test_the_switch_turns_the_page_german_at_once_and_keeps_it(browser, hub) -> None:
    from playwright.sync_api import expect

    page = dashboard(browser, hub, "fr-FR")
    expect(page.locator("#btn-pause")).to_have_text("Tout mettre en pause")
    assert page.locator("#lang-switch").input_value() == "fr"
    page.select_option("#lang-switch", "de")
    expect(page.locator("#btn-pause")).to_have_text("Alle jetzt anhalten")
    expect(page.locator("#tables-summary")).to_have_text("noch keine")  # drawn by the script
    assert page.evaluate("document.documentElement.lang") == "de"
    page.reload()
    page.wait_for_function("() => last !== null", timeout=WAIT)
    expect(page.locator("#btn-pause")).to_have_text("Alle jetzt anhalten")
    expect(page.locator("#pause-reason")).to_have_value("Essenspause")
    assert page.locator("#lang-switch").input_value() == "de"

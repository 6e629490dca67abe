"""The players' pages in each phone's own language (issue 38): a phone whose browser says
French, German, Italian or Dutch opens its table's vote page and result sheet from the
sheet link (the clock's QR code) and reads no English word on them at any stage (no vote,
a proposal waiting for its button, a ballot open; the sheet empty, each ending chosen,
filled, confirmed by a power, confirmed by the TD), at a phone's two common widths, with
nothing cut off; the pseudo-language (every string 40 % longer) cuts nothing off either.
The hub's own words (the powers, what counts, the endings, the vote's line) come in the
phone's language (``server.language.PhoneWords``). Debian's headless Chromium against a
real uvicorn hub whose time the test holds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.i18n import LANGUAGES
from dipclock.powers import LETTERS
from tests.server.conftest import PASSWORD, START
from tests.server.live import ThreadHub, clocks_of, held_hub
from tests.server.pagelanguage import cut_off, english_left
from tests.server.test_browser_rounds import WAIT
from tests.server.test_browser_votes import CHART, LAST_YEAR, link, negotiating, press

pytestmark = [pytest.mark.browser]

LANGS = ("fr", "de", "it", "nl")
#: what a page shows that is no word of its language: the test's own data (players' names)
#: and the language switch, each language in its own words
NAMES = (*(f"Mira{p}" for p in LETTERS), *LANGUAGES.values())
SEATS = "".join(f"1,1,{p},Mira{p}\n" for p in LETTERS)
SIZES = ({"width": 360, "height": 780}, {"width": 390, "height": 844})


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def set_up(hub: ThreadHub) -> httpx.Client:
    td = hub.td()
    for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                       ("/api/td/round", {"number": 1, "start": START.isoformat(),
                                          "last_year": LAST_YEAR}),
                       ("/api/td/tables", {"tables": [1]}),
                       ("/api/td/seating", {"csv": SEATS})):
        td.put(path, json=body).raise_for_status()
    return td


def a_phone(browser: Any, lang: str) -> Any:
    """A phone whose browser speaks ``lang`` (``xx``: chosen on the page's switch before,
    as this browser keeps it)."""
    context = browser.new_context(
        locale="en-US" if lang == "xx" else {"fr": "fr-FR", "de": "de-DE", "it": "it-IT",
                                             "nl": "nl-NL"}[lang],
        viewport=SIZES[0], device_scale_factor=2, is_mobile=True, has_touch=True,
        bypass_csp=True)
    if lang == "xx":
        context.add_init_script("localStorage.setItem('dipclock-lang', 'xx')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def opened(page: Any, url: str, lang: str, ready: str) -> None:
    """``url`` opened, drawn in ``lang`` once ``ready`` (a selector) has text."""
    from playwright.sync_api import expect

    if page.url == url:
        page.reload()  # the same address, its #key too: a goto would not load it again
    else:
        page.goto(url)
    expect(page.locator("html")).to_have_attribute("lang", lang, timeout=WAIT)
    expect(page.locator(ready)).not_to_be_empty(timeout=WAIT)


def reads_right(page: Any, lang: str, stage: str, data: tuple[str, ...] = NAMES) -> None:
    """Nothing cut off at either width; no English word (the pseudo-language aside, whose
    words are English on purpose) but ``data``'s."""
    for size in SIZES:
        page.set_viewport_size(size)
        # a screen reader's own words (.sr-only) are drawn in no room, by design
        cut = [c for c in cut_off(page) if ".sr-only" not in c]
        assert cut == [], (lang, stage, size)
    if lang != "xx":
        text = page.evaluate("""() => document.body.innerText + "\\n" +
            [...document.querySelectorAll("[aria-label], [placeholder]")]
              .filter((e) => e.getClientRects().length)
              .map((e) => (e.getAttribute("aria-label") || "") + " " +
                          (e.getAttribute("placeholder") || "")).join("\\n")""")
        assert english_left(text, lang, data) == [], (lang, stage, text)
    assert page.errors == [], (lang, stage)


def confirm_on_the_clock(hub: ThreadHub, td: httpx.Client, power: str) -> None:
    """``power``'s player presses its button on the table's clock, which shows the sheet."""
    clock = clocks_of(td)[1]
    shown = httpx.get(f"{hub.url}/api/tables/1/snapshot", headers=clock,
                      verify=hub.verify).json()["result"]
    r = httpx.post(f"{hub.url}/api/tables/1/confirmations", headers=clock, verify=hub.verify,
                   json={"confirmations": [{"id": f"1-1-{power}", "round": 1, "power": power,
                                            "version": shown["version"]}]})
    assert r.status_code == 200 and len(r.json()["taken"]) == 1, r.text


def test_a_phone_reads_its_vote_page_and_sheet_in_its_own_language(browser, hub):
    from playwright.sync_api import expect

    td = set_up(hub)
    when = negotiating(1906, "spring")
    from tests.server.live import at
    at(hub, when)
    url, key = link(hub, td, 1)
    sheet = url.replace("/vote/", "/sheet/")
    phones = {lang: a_phone(browser, lang) for lang in (*LANGS, "xx")}

    # the vote page: no vote under way, the proposal's form open
    for lang, page in phones.items():
        opened(page, url, lang, "#vote-period")
        page.click("#propose-box > summary")
        expect(page.locator("#btn-propose")).to_be_enabled(timeout=WAIT)
        reads_right(page, lang, "no vote")
    # a French phone proposes a draw of all survivors: it waits for Austria's button. Half
    # way through, its player tries the switch: the page speaks Italian at once, and what
    # was chosen and typed stays
    fr = phones["fr"]
    fr.select_option("#proposer", "A")
    for p, n in CHART.items():
        fr.locator(f"#chart input[data-power={p}]").fill(str(n))
    fr.select_option("#lang-switch", "it")
    expect(fr.locator("#vote-title")).to_have_text("Tavolo 1 · voto di fine partita",
                                                   timeout=WAIT)
    expect(fr.locator("#proposer option:checked")).to_have_text("Austria-Ungheria (MiraA)")
    expect(fr.locator("#chart input[data-power=G]")).to_have_value("4")
    expect(fr.locator("#chart-total")).to_have_text("34 su 34")
    reads_right(fr, "it", "switched to Italian")
    fr.select_option("#lang-switch", "fr")
    expect(fr.locator("#vote-title")).to_have_text("Table 1 · vote de fin de partie",
                                                   timeout=WAIT)
    fr.click("#btn-propose")
    expect(fr.locator("#press-words")).to_contain_text("Autriche", timeout=WAIT)
    reads_right(fr, "fr", "proposal waiting for its button")
    vote = td.get("/api/td/votes", params={"round": 1}).json()[0]["vote"]
    press(hub, td, 1, vote["id"], "A", when)
    # the ballot open: each phone picks England, then sees the choices
    for lang, page in phones.items():
        expect(page.locator("#ballot")).to_be_visible(timeout=WAIT)
        reads_right(page, lang, "ballot open")
        page.click("#power-choices button[data-power=E]")
        expect(page.locator("#step-choice")).to_be_visible()
        reads_right(page, lang, "a power's choices")
        page.click("#btn-choice-back")

    # the sheet, empty: each ending it offers chosen in turn. The event's names for itself,
    # its round and its scoring system are its file's (data, as the players' names)
    v = td.get("/api/sheets/1/1").json()
    data = (*NAMES, v["event"], v["round_title"], v["system"])
    for lang, page in phones.items():
        opened(page, sheet, lang, "#sheet-counts")
        reads_right(page, lang, "sheet empty", data)
        for i in range(page.locator("input[name=ending]").count()):
            page.locator("input[name=ending]").nth(i).check()
            reads_right(page, lang, f"ending {i}", data)
    # filled on the French phone; a switch to Dutch half way keeps what was typed
    fr.locator("#centres tr[data-power=A] .centres-in").fill("5")
    fr.select_option("#lang-switch", "nl")
    expect(fr.locator("#sheet-title")).to_contain_text("Tafel 1", timeout=WAIT)
    expect(fr.locator("#centres tr[data-power=A] .centres-in")).to_have_value("5")
    expect(fr.locator("#total")).to_have_text("5 van 34")
    reads_right(fr, "nl", "switched to Dutch", data)
    fr.select_option("#lang-switch", "fr")
    expect(fr.locator("#sheet-title")).to_contain_text("Table 1", timeout=WAIT)
    for p, n in CHART.items():
        fr.locator(f"#centres tr[data-power={p}] .centres-in").fill(str(n))
    fr.locator("input[name=ending][value=draw]").check()
    fr.click("#btn-save")
    expect(fr.locator("#checks")).to_be_visible(timeout=WAIT)
    for stage in ("filled", "a line confirmed", "confirmed by the TD"):
        if stage == "a line confirmed":
            confirm_on_the_clock(hub, td, "A")
        elif stage == "confirmed by the TD":
            version = td.get("/api/sheets/1/1").json()["version"]
            td.post("/api/td/sheets/1/1/final", json={"final": True, "incomplete": True},
                    headers={"If-Match": str(version)}).raise_for_status()
        for lang, page in phones.items():
            opened(page, sheet, lang, "#sheet-status")
            reads_right(page, lang, stage, data)
    # the standings, once the sheet counts: the TD's phone, signed in, in its language
    for lang in ("fr", "de", "xx"):
        page = phones[lang]
        page.goto(f"{hub.url}/dashboard")
        page.fill("#password", PASSWORD)
        page.click("#signin button[type=submit]")
        page.wait_for_selector("#app:not([hidden])")
        opened(page, f"{hub.url}/standings", lang, "#standings-rows")
        reads_right(page, lang, "standings", data)
    for page in phones.values():
        page.context.close()
    td.close()

"""The projector's pages in the event's language (issue 38): with an event whose file says
``language = "fr"`` (then ``"de"``), ``/hall`` and ``/boardcall`` speak it: their own words
from the hub's pages catalogue (``GET /api/words/{lang}``), the powers and the clock's words
from the hub. Debian's headless Chromium against a real uvicorn hub whose time the test
holds."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from dipclock.powers import LETTERS
from tests.server.conftest import START
from tests.server.live import at, held_hub
from tests.server.test_browser_rounds import MY_OPEN, WAIT

pytestmark = [pytest.mark.browser]

SEATS = "".join(f"1,{t},{p},Player {p}{t}\n" for t in (1, 2) for p in LETTERS)


def set_up(td: httpx.Client, lang: str | None) -> None:
    """An event (in ``lang``, or its file's English), round 1 on two tables, seated."""
    event = MY_OPEN.read_text(encoding="utf-8")
    if lang is not None:
        event = event.replace("\n[", f'\nlanguage = "{lang}"\n\n[', 1)
    for method, path, body in (
            ("PUT", "/api/td/event", {"toml": event}),
            ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
            ("PUT", "/api/td/tables", {"tables": [1, 2]}),
            ("PUT", "/api/td/seating", {"csv": SEATS})):
        td.request(method, path, json=body).raise_for_status()


def test_the_pages_words_come_in_a_language_from_the_hub(tmp_path: Path) -> None:
    with held_hub(tmp_path / "hub", START) as hub:
        said = httpx.get(f"{hub.url}/api/words/fr", verify=hub.verify)
        assert said.status_code == 200
        body = said.json()
        assert body["lang"] == "fr" and body["zero_is_one"] is True
        assert body["words"]["Table {table} held: {reason}"] == "Table {table} arrêtée : {reason}"
        assert httpx.get(f"{hub.url}/api/words/de-CH", verify=hub.verify).json()[
            "words"]["Sound off"] == "Ton aus"
        assert httpx.get(f"{hub.url}/api/words/en", verify=hub.verify).json()["words"] == {}
        wrong = httpx.get(f"{hub.url}/api/words/es", verify=hub.verify)
        assert wrong.status_code == 404
        assert wrong.json()["detail"] == "language 'es': one of en, fr, de, it, nl"


@pytest.mark.parametrize(("lang", "held", "sound", "table", "germany"), [
    ("fr", "Table 2 arrêtée : arbitrage", "Son coupé", "Table 1", "Allemagne"),
    ("de", "Tisch 2 angehalten: arbitrage", "Ton aus", "Tisch 1", "Deutschland"),
])
def test_the_hall_and_the_board_call_speak_the_event_s_language(
        browser, tmp_path: Path, lang: str, held: str, sound: str, table: str,
        germany: str) -> None:
    from playwright.sync_api import expect

    with held_hub(tmp_path / "hub", START - timedelta(minutes=30)) as hub:
        td = hub.td()
        set_up(td, lang)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{hub.url}/boardcall")
        call = page.locator("#call-tables section[data-table='1']")
        expect(call.locator("h2")).to_have_text(table, timeout=WAIT)
        expect(call).to_contain_text(germany)
        expect(page.locator("#call-title")).to_contain_text(
            {"fr": "appel des tables", "de": "Tischaufruf"}[lang])
        at(hub, START + timedelta(minutes=5))
        td.post("/api/td/pauses", json={"table": 2, "reason": "arbitrage"}).raise_for_status()
        page.goto(f"{hub.url}/hall")
        expect(page.locator("#hall-apart li[data-table='2']")).to_have_text(
            held, timeout=WAIT)
        expect(page.locator("#hall-sound")).to_have_text(sound)
        assert page.evaluate("document.documentElement.lang") == lang
        page.close()
        td.close()

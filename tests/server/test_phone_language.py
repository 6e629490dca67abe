"""A phone's page speaks the phone's language (issue 38): the hub reads it from the
request's ``Accept-Language`` (``server.language``), which a page sends as its switch or its
browser chose; a browser asking for none dipclock speaks gets the event's language, then
English. The hall's pages follow the event instead."""

from __future__ import annotations

import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import LANGUAGES, PSEUDO, Words
from server.language import preferred, words_for
from tests.server.conftest import START
from tests.server.test_browser_rounds import MY_OPEN


@pytest.mark.parametrize(("header", "lang"), [
    ("fr", "fr"),
    ("de-CH, fr;q=0.9, en;q=0.8", "de"),
    ("es-ES, it;q=0.5, fr;q=0.4", "it"),  # Spanish has no catalogue: the next one
    ("en-US,en;q=0.9", "en"),
    ("nl;q=0.2, fr;q=0.7", "fr"),  # by weight, not by order
    ("fr;q=0, de", "de"),  # q=0: not acceptable
    ("fr;q=high, nl", "nl"),  # a weight that is no number: that entry is skipped
    ("es, pt-BR", None),
    ("*", None),
    ("", None),
    (None, None),
    ("de_DE.UTF-8", "de"),
])
def test_the_language_a_browser_ranks_highest_that_dipclock_speaks(header, lang):
    assert preferred(header) == lang


def test_a_header_of_any_length_is_read_only_so_far():
    assert preferred("es, " * 10_000 + "fr") is None  # past 500 bytes: not read


def test_a_phone_asking_for_no_language_of_ours_gets_the_event_s_with_its_terms():
    event = BUILTIN["wdc2019"].model_copy(update={
        "language": "de", "terms": (("England", "Großbritannien"),)})
    assert words_for("es", event).lang == "de"
    assert words_for("es", event).power("E") == "Großbritannien"
    assert words_for("de-AT", event).power("E") == "Großbritannien"  # the event's language
    assert words_for("fr", event).power("E") == "Angleterre"  # its own, not the event's term
    assert words_for("es", None) == Words("en")


def test_the_browser_s_words_with_the_languages_a_switch_offers(hub):
    said = hub.client.get("/api/words", headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert said.status_code == 200 and said.headers["cache-control"] == "no-store"
    body = said.json()
    assert body["lang"] == "it" and body["languages"] == LANGUAGES
    assert body["words"]["No round set up"] == "Nessun turno preparato"
    # a browser asking for Spanish: no event yet, English
    assert hub.client.get("/api/words", headers={"Accept-Language": "es"}).json()["lang"] == "en"
    # the event says French: a Spanish phone reads French
    csrf = hub.sign_in()
    event = MY_OPEN.read_text(encoding="utf-8").replace("\n[", '\nlanguage = "fr"\n\n[', 1)
    assert hub.client.put("/api/td/event", json={"toml": event}, headers=csrf).status_code == 200
    assert hub.client.get("/api/words", headers={"Accept-Language": "es"}).json()["lang"] == "fr"
    assert hub.client.get("/api/words/nl").json()["languages"] == LANGUAGES


def test_the_pseudo_language_says_every_page_string_longer(hub):
    body = hub.client.get(f"/api/words/{PSEUDO}").json()
    english = hub.client.get("/api/words/fr").json()["words"]
    assert body["lang"] == PSEUDO and set(body["words"]) == set(english)
    for key, said in body["words"].items():
        assert said.startswith("[") and len(said) >= 1.4 * len(key), (key, said)


def test_the_dashboard_s_clock_card_is_in_the_phone_s_language(hub, td):
    hub.at(START)
    state = {lang: hub.client.get("/api/td/state", headers={"Accept-Language": lang}).json()
             for lang in ("en", "fr", "de")}
    assert state["en"]["hall"]["phase"] == "Spring 1901"
    assert state["fr"]["hall"]["phase"] == "Printemps 1901"
    assert state["de"]["hall"]["phase"] == "Frühjahr 1901"
    assert state["fr"]["hall"]["label"] != state["en"]["hall"]["label"]

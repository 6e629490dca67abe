"""The hub's refusals in the reader's language (issue 38): a refusal is made as a ``said``
sentence before it is known which phone reads it, and answered in the request's
``Accept-Language`` (a page sends its language so), English without one; a power named in it
is named as the reader's language names it. The TD's actions, the credentials checked
before a body is read (``server.gate``), the sign-in and the pairing of the clocks alike."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dipclock.i18n import Said, Words, said
from dipclock.sentences import phase_of, plural
from dipclock.sentences import power as power_name
from scripts.catalogues import LANGUAGES, extracted, read, translated
from server.pairing import WAITING_SECONDS
from tests.server.conftest import START

MINUTES = WAITING_SECONDS // 60
#: (what is asked, its status, what it answers in English, French and German)
REFUSALS = {
    "a pause when every table is paused already": (
        ("POST", "/api/td/pauses", {}), 409,
        "all tables already paused: resume first",
        "toutes les tables sont déjà en pause : reprenez d'abord",
        "alle Tische sind bereits angehalten: zuerst fortsetzen"),
    "time given or taken that rounds to 0 s": (
        ("POST", "/api/td/adjustments", {"seconds": 0.4}), 422,
        "seconds: give or take at least 1 s",
        "seconds : ajoutez ou retirez au moins 1 s",
        "seconds: mindestens 1 s geben oder abziehen"),
    "a seating that gives a seat twice (the power in the reader's words)": (
        ("PUT", "/api/td/seating", {"csv": "1,1,E,Al\n1,1,England,Bo\n"}), 422,
        "seating: round 1 table 1 England is given twice",
        "placement : ronde 1, table 1, Angleterre : place donnée deux fois",
        "Sitzordnung: Runde 1, Tisch 1, England ist doppelt angegeben"),
    "a code no clock shows": (
        ("POST", "/api/td/clocks", {"code": "AAA-AAA", "table": 3}), 404,
        f"no clock is waiting with the code 'AAA-AAA': check the code on the clock's screen "
        f"(a code lasts {MINUTES} minutes, then the clock shows a new one)",
        f"aucune horloge n'attend avec le code 'AAA-AAA' : vérifiez le code sur l'écran de "
        f"l'horloge (un code dure {MINUTES} minutes, puis l'horloge en affiche un nouveau)",
        f"keine Uhr wartet mit dem Code 'AAA-AAA': prüfen Sie den Code auf dem Bildschirm der "
        f"Uhr (ein Code gilt {MINUTES} Minuten, dann zeigt die Uhr einen neuen)"),
    "undoing the tables' time when the hub does not keep it": (
        ("POST", "/api/clock", {"source": "machine"}), 409,
        "the hub's time is not the time its tables kept: nothing to undo",
        "l'heure du hub n'est pas celle que ses tables ont gardée : rien à annuler",
        "die Zeit des Hubs ist nicht die von seinen Tischen gehaltene: nichts zurückzunehmen"),
}


def ask(hub, csrf, request, lang: str | None):
    method, path, body = request
    headers = {**csrf, **({"Accept-Language": lang} if lang else {})}
    return hub.client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize("case", list(REFUSALS))
def test_a_td_s_action_is_refused_in_the_language_the_phone_asks_for(hub, td, case):
    request, status, english, french, german = REFUSALS[case]
    hub.at(START + timedelta(minutes=5))
    assert ask(hub, td, ("POST", "/api/td/pauses", {}), None).status_code == 200
    for lang, says in ((None, english), ("fr-FR,fr;q=0.9,en;q=0.8", french), ("de", german),
                       ("es", english), ("en-GB", english)):
        r = ask(hub, td, request, lang)
        assert (r.status_code, r.json()["detail"]) == (status, says), (case, lang)


def test_signing_in_wrong_is_said_in_the_browser_s_language(hub):
    for lang, says in ((None, "wrong password"), ("fr", "mot de passe erroné"),
                       ("de-CH, fr;q=0.5", "falsches Passwort")):
        r = hub.client.post("/api/login", json={"password": "not it"},
                            headers={"Accept-Language": lang} if lang else {})
        assert (r.status_code, r.json()["detail"]) == (401, says)


def test_a_write_refused_before_its_body_is_read_is_said_in_the_request_s_language(hub):
    """``server.gate`` answers before the app does: in the same language as the app."""
    for lang, says in ((None, "sign in as the TD first"),
                       ("fr", "connectez-vous d'abord en tant qu'arbitre"),
                       ("de", "melden Sie sich zuerst als Turnierleitung an")):
        r = hub.client.post("/api/td/pauses", json={},
                            headers={"Accept-Language": lang} if lang else {})
        assert (r.status_code, r.json()["detail"]) == (401, says)
    r = hub.client.put("/api/sheets/1/1", json={}, headers={"Accept-Language": "it"})
    assert (r.status_code, r.json()["detail"]) == (
        401, "apri questo foglio dal codice QR del tavolo, o accedi come arbitro")


def test_a_table_s_clock_is_refused_in_english_when_it_asks_for_no_language(hub, td):
    r = hub.client.get("/api/tables/2/snapshot", headers=hub.kiosk_headers(1))
    assert (r.status_code, r.json()["detail"]) == (
        403, "this clock is paired for table 1, not table 2")


def test_a_power_a_phase_and_a_count_in_a_refusal_are_the_reader_s():
    """A power or a phase named in a refusal is said as the reader's words say it (an
    event's renamed term too); a count takes the reader's plural."""
    line = said("the {phase} deadline has passed", phase=phase_of("F1901"))
    assert str(line) == "the Fall 1901 deadline has passed"
    assert line.in_(Words("fr")) == "l'échéance Automne 1901 est passée"
    named = Said("{power}, {phase}", {"power": power_name("E"), "phase": phase_of("S1902")})
    assert str(named) == "England, Spring 1902"
    assert named.in_(Words("it")) == "Inghilterra, Primavera 1902"
    assert named.in_(Words("de", {"England": "Großbritannien"})) == (
        "Großbritannien, Frühjahr 1902")
    assert [str(plural("{n} person of {team}", "{n} people of {team}", n, team="Rome"))
            for n in (1, 2)] == ["1 person of Rome", "2 people of Rome"]


#: the files whose refusals are said in the reader's language
FILES = ("server/actions.py", "server/auth.py", "server/gate.py", "server/hubtime.py",
         "server/pairing.py", "server/seatingdesk.py", "server/roundsetup.py",
         "server/backroom.py", "server/routers/clock.py", "server/routers/clocks.py",
         "server/routers/messages.py", "server/routers/roster.py",
         "server/routers/seating.py", "server/routers/kiosk.py", "server/routers/td.py",
         "server/routers/session.py")


@pytest.fixture(scope="module")
def refusals() -> list[object]:
    return [m.id for m in extracted("dipclock")
            if m.id and any(path in FILES for path, _ in m.locations)]


def test_the_refusals_are_found_for_the_catalogue(refusals):
    assert len(refusals) > 70  # a refusal written as an f-string again would drop out
    assert "all tables already paused: resume first" in refusals


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_has_its_translation(refusals, lang):
    po = read(lang)
    missing = [m for m in refusals if m not in po or not translated(po[m])]
    assert not missing, f"{lang}: {len(missing)} refusals untranslated: {missing[:3]}"

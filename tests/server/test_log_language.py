"""The hub's log in the reader's language (issue 38): each line keeps its English text as
the event's record and, beside it, the sentence it was made from (``server.logline``), so
the TD's French phone reads the log, the last round change and a stale screen's refusal in
French; a line stored before sentences were kept (or damaged) shows its English."""

from __future__ import annotations

from datetime import timedelta

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.sentences import phase, phase_of, plural, power, powers
from dipclock.sentences import power as power_name
from server.logline import kept, restored, shown
from tests.server.conftest import START

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
DE = {"Accept-Language": "de"}
ROUND_TWO = {"number": 2, "start": (START + timedelta(hours=5)).isoformat()}


def _state(hub, headers: dict[str, str] | None = None) -> dict:
    r = hub.client.get("/api/td/state", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


def _lines(state: dict) -> dict[str, str]:
    """The newest log line of each action."""
    out: dict[str, str] = {}
    for line in state["audit"]:  # newest first
        out.setdefault(line["action"], line["summary"])
    return out


def _store(hub):
    return hub.client.app.state.hub.store


def _act(hub, td) -> None:
    hub.at(START + timedelta(minutes=5))
    for path, body in (("/api/td/pauses", {"deadline": "F1901", "minutes": 10}),
                       ("/api/td/adjustments", {"seconds": 60, "table": 2})):
        r = hub.client.post(path, json=body, headers=td)
        assert r.status_code == 200, (path, r.text)


def test_the_log_speaks_the_phones_language_and_keeps_its_english(hub, td):
    _act(hub, td)
    english = _lines(_state(hub))
    assert english["pause"] == "pause all tables at the Fall 1901 deadline (09:32:00), for 10 min"
    assert english["adjust"] == "add 60 s, table 2"
    assert english["tables"] == "4 tables: 1-4"
    french = _lines(_state(hub, FR))
    assert french["pause"] == ("pause toutes les tables à l'échéance Automne 1901 (09:32:00), "
                               "pour 10 min")
    assert french["adjust"] == "ajout de 60 s, table 2"
    assert french["tables"] == "4 tables : 1-4"
    assert french["round"].startswith("la ronde 1 commence le 2024-05-04 09:00:00")
    german = _lines(_state(hub, DE))
    assert german["pause"] == "Pause alle Tische bei der Abgabe Herbst 1901 (09:32:00), für 10 Min."
    assert german["adjust"] == "60 s gegeben, Tisch 2"
    assert german["tables"] == "4 Tische: 1-4"
    # the record is the English text, whoever reads it
    rows = {a.action: a.summary for a in reversed(_store(hub).audit(10))}
    assert rows["pause"] == english["pause"] and rows["adjust"] == english["adjust"]


def test_the_last_round_change_and_its_undo_in_the_phones_language(hub, td):
    r = hub.client.put("/api/td/round", json=ROUND_TWO, headers=td)
    assert r.status_code == 200, r.text
    change = _state(hub)["round_change"]["summary"]
    assert change.startswith("round 2 starts 2024-05-04 14:00:00"), change
    french = _state(hub, FR)["round_change"]["summary"]
    assert french.startswith("la ronde 2 commence le 2024-05-04 14:00:00"), french
    r = hub.client.post("/api/td/round/undo", headers=td)
    assert r.status_code == 200, r.text
    assert _lines(_state(hub))["round"] == f"undo: {change}"
    assert _lines(_state(hub, FR))["round"] == f"annulé : {french}"
    assert _lines(_state(hub, DE))["round"].startswith("rückgängig: Runde 2 beginnt ")


def test_a_line_stored_without_its_sentence_shows_its_english(hub, td):
    """A line written before sentences were kept (version 17), or one damaged since."""
    _act(hub, td)
    with _store(hub).change(hub.client.app.state.hub.clock.moment(), "clock",
                            "hub time set from 09:05 to 09:06"):
        pass
    french = _lines(_state(hub, FR))
    assert french["clock"] == "hub time set from 09:05 to 09:06"
    assert french["adjust"] == "ajout de 60 s, table 2"
    damaged = _store(hub).audit(10)
    adjust = next(a for a in damaged if a.action == "adjust")
    assert adjust.said is not None
    assert shown(adjust.summary, "{not json", Words("fr")) == "add 60 s, table 2"
    assert shown(adjust.summary, '{"text": 3}', Words("fr")) == "add 60 s, table 2"
    assert shown(adjust.summary, None, Words("fr")) == "add 60 s, table 2"


def test_a_change_from_a_stale_screen_is_refused_in_the_phones_language(hub, td):
    hub.at(START + timedelta(minutes=30))
    seen = {"X-Dipclock-Base": str(_state(hub)["base"])}
    r = hub.client.put("/api/td/round", json=ROUND_TWO, headers=td)  # another phone
    assert r.status_code == 200, r.text
    r = hub.client.post("/api/td/adjustments", json={"seconds": 60}, headers=td | seen | FR)
    assert r.status_code == 409, r.text
    detail = r.json()["detail"]
    assert detail.startswith("Pas fait : ceci a changé entre-temps : ") and \
        "la ronde 2 commence le 2024-05-04 14:00:00" in detail, detail
    r = hub.client.post("/api/td/adjustments", json={"seconds": 60}, headers=td | seen)
    assert r.json()["detail"].startswith("Not done: this changed meanwhile: ")
    assert "round 2 starts 2024-05-04 14:00:00" in r.json()["detail"]


def test_the_kinds_of_sentence_are_kept_and_said_again():
    """A power, a phase, a list of powers and a count keep their kind in the store, so a
    French reader reads "Angleterre" and "Automne 1905", and the plural's form."""
    fr = Words("fr")
    for sentence in (
        said("{a} {b} {c} {d} {e}", a=power_name("E"), b=phase_of("F1905"), c=power("G"),
             d=phase(1903, "spring"), e=powers(["A", "T"])),
        plural("{n} seat cleared", "{n} seats cleared", 3),
        said("undo: {change}", change=said("table {table}", table=4)),
    ):
        stored = kept(sentence)
        assert stored is not None
        assert shown(str(sentence), stored, ENGLISH) == str(sentence)
        assert shown(str(sentence), stored, fr) == sentence.in_(fr)
        again = restored(str(sentence), stored)
        assert isinstance(again, Said) and again.in_(fr) == sentence.in_(fr)
    assert shown("x", kept(said("{a}", a=power_name("E"))), fr) == "Angleterre"
    assert kept("plain English") is None
    assert restored("plain English", None) == "plain English"


def test_a_hub_store_from_before_sentences_opens_with_its_lines_in_english(tmp_path):
    """Version 17's store (no ``said`` column) opens: its lines are kept, said in English."""
    from datetime import datetime

    from server.store import Store
    from server.store.migrations import MIGRATIONS

    path = tmp_path / "hub.sqlite3"
    store = Store(path)
    at = datetime(2024, 5, 4, 9, 5)
    with store._tx() as db:  # as version 17 left it, with a line of its own
        db.execute("ALTER TABLE audit DROP COLUMN said")
        db.execute("ALTER TABLE round_undo DROP COLUMN said")
        db.execute("INSERT INTO audit(at, action, summary, subject) "
                   "VALUES(?, 'adjust', 'add 60 s, table 2', 'clock')", (at.isoformat(),))
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    store.close()
    again = Store(path)
    old = again.audit(5)[0]
    assert (old.summary, old.said) == ("add 60 s, table 2", None)
    assert shown(old.summary, old.said, Words("fr")) == "add 60 s, table 2"
    with again.change(at, "adjust", said("add {seconds} s, {tables}", seconds="30",
                                         tables=said("all tables"))):
        pass
    new = again.audit(5)[0]
    assert new.summary == "add 30 s, all tables" and new.said is not None
    again.close()

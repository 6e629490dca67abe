"""The Roster and Seating cards in the TD's phone's language (issue 38): a roster import's
refused lines, notes, summary and refusal, a person's change, and a seating draft's refusal
and problems come back in the language the phone asks for (``Accept-Language``); the names
as written, the JSON's keys in English. Passes after the lead merges the catalogues."""

from __future__ import annotations

from tests.server.test_roster_api import send

DE = {"Accept-Language": "de-DE,de;q=0.9"}
FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
BAD = "given,family,email,Shoe size\nAnn,Lee,,38\nBo,Ek,nope,41\n"


def test_a_german_phones_import_of_a_bad_file_reads_its_refusal_and_summary_in_german(hub):
    csrf = hub.sign_in()
    r = send(hub, csrf | DE, BAD)
    assert r.status_code == 422, r.text
    got = r.json()
    assert got["stored"] is False and got["added"] == ["Ann Lee"]
    assert got["refused"] == [{"line": 3, "why": "email: 'nope' ist keine E-Mail-Adresse"}]
    assert got["notes"] == ["die Spalte 'Shoe size' führt die Spielerliste nicht: übergangen"]
    assert got["summary"] == "Import der Spielerliste: nichts gespeichert"
    assert got["detail"] == (
        "Spielerdatei: 1 Zeile abgelehnt, nichts gespeichert: Zeile 3: email: 'nope' ist "
        "keine E-Mail-Adresse. Berichtigen Sie die Datei, oder importieren Sie sie mit den "
        "guten Zeilen")
    # the same file from an English phone: the English the log and the scripts know
    english = send(hub, csrf, BAD).json()
    assert english["refused"] == [{"line": 3, "why": "email: 'nope' is not an email address"}]
    assert english["summary"] == "roster import: nothing stored"

    kept = send(hub, csrf | DE, BAD, keep_good="true")
    assert kept.status_code == 200, kept.text
    assert kept.json()["summary"] == ("Import der Spielerliste: 1 hinzugefügt, 0 geändert, "
                                      "1 Zeile abgelehnt")


def test_a_file_that_cannot_be_read_is_refused_in_the_phones_language(hub):
    csrf = hub.sign_in()
    r = send(hub, csrf | FR, "\n\n")
    assert r.status_code == 422
    assert r.json()["detail"].startswith("fichier des joueurs : le fichier est vide :")


def test_a_persons_change_and_its_refusal_in_french(hub):
    csrf = hub.sign_in()
    r = hub.client.post("/api/td/roster/people", headers=csrf | FR,
                        json={"given_name": "Ann", "family_name": "Lee"})
    assert r.status_code == 201, r.text
    assert r.json()["summary"] == "Ann Lee ajouté(e) à la liste des joueurs"
    bad = hub.client.post("/api/td/roster/people", headers=csrf | FR,
                          json={"given_name": "Bo", "family_name": "Ek", "nationality": "UK"})
    assert bad.status_code == 422
    assert bad.json()["detail"] == (
        "nationality : 'UK' n'est pas un code de pays (ISO 3166-1, deux lettres : FR, GB, "
        "US...) : United Kingdom s'écrit GB")


def test_a_seating_draft_refused_and_a_checks_problems_in_german(hub, td):
    r = hub.client.post("/api/td/seating/draft", headers=DE,
                        json={"round": 1, "players": [f"P{n}" for n in range(5)]})
    assert r.status_code == 422
    assert r.json()["detail"].endswith("players: 5 Spieler, ein Tisch braucht 7")
    seats = {p: f"P{n}" for n, p in enumerate("AEFGIR")}
    r = hub.client.post("/api/td/seating/check", headers=DE,
                        json={"round": 1, "tables": [{"table": 1, "seats": seats}]})
    assert r.status_code == 200, r.text
    assert r.json()["problems"] == ["Tisch 1: kein Spieler für Türkei"]


def test_the_seating_views_problems_in_german(hub, td):
    view = hub.client.get("/api/td/seating/view", headers=DE).json()
    assert {t["table"]: t["problems"] for t in view["tables"]} == {
        n: ["keine Spieler gesetzt"] for n in (1, 2, 3, 4)}

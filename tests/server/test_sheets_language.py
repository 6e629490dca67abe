"""A result sheet's flags, its refusals and the standings' share note on a phone in its own
language (issue 38): the hub says the core's sentences in the request's
``Accept-Language``; the keys and values a page compares stay English."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from dipclock.i18n import Words
from server.sheets import changed_since
from tests.server.test_replacements_api import record
from tests.server.test_results_desk import BOARD_2, enter, key_of, phone, put, seated

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
#: Italy at 18 centres in 1907, the sheet saying a draw: wdc2006 (the hub's event in these
#: tests) ends its games with Fall 1909, and no vote was recorded
WON = {"centres": dict(A=4, E=4, F=4, G=4, I=18, R=0, T=0), "year": 1907,
       "eliminated": {"R": 1904, "T": 1906}}


def test_a_german_td_reads_a_victory_the_sheet_called_a_draw_in_german(hub, td):
    seated(hub, td)
    r = put(phone(hub), 1, WON, key_of(hub, 1), version=0)
    assert r.status_code == 200, r.text
    assert r.json()["flags"] == [
        "no vote passed at this table: wdc2006 (rule 16) scores a game end not agreed by a "
        "vote zero for every player; record the vote on the Votes card if there was one",
        "Italy holds 18 centres at the end of 1907 (a victory needs 18): the game ended in its "
        "solo, not a draw"]
    view = hub.client.get("/api/sheets/1/1", headers=GERMAN).json()
    assert view["flags"] == [
        "an diesem Tisch wurde keine Abstimmung angenommen: wdc2006 (rule 16) wertet ein "
        "nicht per Abstimmung vereinbartes Partieende für jeden Spieler mit null; tragen Sie "
        "die Abstimmung auf der Karte „Abstimmungen“ ein, falls es eine gab",
        "Italien hält Ende 1907 18 Zentren (ein Sieg braucht 18): die Partie endete mit ihrem "
        "Solo (auf dem Bogen: ein Remis)"]
    assert view["scores"]["Italy"] > 0  # the keys stay English
    card = hub.client.get("/api/td/results?round=1", headers=GERMAN).json()
    [one] = [s for s in card["sheets"] if s["table"] == 1]
    assert one["flags"] == view["flags"]


def test_a_sheet_the_core_refuses_is_flagged_in_french(hub, td):
    seated(hub, td)
    short = {**WON, "centres": dict(A=17, E=5, F=4, G=4, I=4, R=0, T=0), "ending": "solo",
             "solo": "A"}
    assert put(phone(hub), 1, short, key_of(hub, 1), version=0).status_code == 200
    view = hub.client.get("/api/sheets/1/1", headers=FRENCH).json()
    assert view["blocked"] and view["flags"][0] == (
        "Autriche-Hongrie a 17 centres : un solo en 1907 en demande 18")


def test_a_french_td_reads_the_share_note_and_the_replaced_line_in_french(hub, td):
    seated(hub, td)
    enter(hub, td, 2, BOARD_2)
    assert record(hub, td, phase="F1903", player="Zoe Late", share=40).status_code == 200
    view = hub.client.get("/api/td/standings", headers=FRENCH).json()
    assert view["replaced"] == ["Allemagne à la ronde 1 table 2 : 60 % à G2, 40 % à Zoe Late, "
                                "comme l'arbitre l'a décidé"]
    sheet = hub.client.get("/api/sheets/1/2", headers=FRENCH).json()
    assert sheet["players"]["Germany"] == "G2, puis Zoe Late à partir de Automne 1903"


def test_a_replacement_refused_reads_in_german(hub, td):
    seated(hub, td)
    assert record(hub, td, phase="F1903", player="Zoe Late").status_code == 200
    r = hub.client.post("/api/td/replacements", json={"round": 1, "table": 2, "power": "G",
                                                      "phase": "F1903", "player": None},
                        headers={**td, **GERMAN})
    assert r.status_code == 409 and r.json()["detail"] == (
        "Deutschland in Runde 1 Tisch 2: Zoe Late spielt sie schon ab Herbst 1903; nehmen Sie "
        "das zuerst zurück")


def test_what_changed_since_a_phone_loaded_the_sheet_in_french():
    at = [datetime(2026, 5, 1, 10, m) for m in (1, 2, 3, 4)]
    changes = list(zip(at, ("a player's phone entered this sheet",
                            "the TD confirmed Italy's line", "Turkey's player confirmed their line",
                            "the TD marked this sheet final"), strict=True))
    paris = ZoneInfo("Europe/Paris")
    assert changed_since(changes, paris) == (
        "the TD confirmed Italy's line at 12:02, Turkey's player confirmed their line at 12:03 "
        "and the TD marked this sheet final at 12:04 (and 1 earlier change) since you loaded "
        "it: reload to see it, and make your change again if it is still needed")
    assert changed_since(changes, paris, words=Words("fr")) == (
        "l'arbitre a confirmé la ligne de Italie à 12:02, le joueur de Turquie a confirmé sa "
        "ligne à 12:03 et l'arbitre a validé cette feuille à 12:04 (et 1 changement "
        "antérieur) depuis que vous l'avez chargée : rechargez pour la voir, et refaites votre "
        "modification si elle est toujours nécessaire")
    assert changed_since([], UTC, unknown=2, words=Words("de")).startswith(
        "dieser Bogen hat sich geändert, seit Sie ihn geladen haben")

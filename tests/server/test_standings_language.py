"""The standings on a TD's phone in its language (issue 38): a French phone reads the
Results card's and ``/standings``' lines the hub composes (totals that mix scoring
systems, a volunteer's sit-out bonus, why the team table is empty) in French, and a CSV
file refused for mixing systems says why in the phone's language; the file itself, and a
phone that asks for no language, stay English.

Round 1 plays graduated20 (ManorCon) with a volunteer sitting out; round 2 an own event
(Sum of Squares, no team prize) whose ``sit_out_bonus`` is 5. The French and German
assertions pass once the catalogues have the new strings (after merge)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tests.server.conftest import START
from tests.server.test_results_desk import BOARD_1, BOARD_2, enter

MY_OPEN = (Path(__file__).resolve().parents[2] / "examples/events/my-open.toml").read_text(
    encoding="utf-8") + "sit_out_bonus = 5\n"
FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
DE = {"Accept-Language": "de-DE"}


def two_rounds(hub) -> dict[str, str]:
    """graduated20's round 1 with A3 sitting out, then the own event's round 2, every
    sheet confirmed; the teams set (the own event scores none)."""
    c = hub.client
    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=2)
    names = [f"{p}{t}" for t in (1, 2) for p in "AEFGIRT"] + ["A3"]
    ids = {}
    for name in names:
        r = c.post("/api/td/roster/people", headers=td,
                   json={"given_name": name[0], "family_name": name[1:]})
        assert r.status_code == 201, r.text
        ids[name] = r.json()["person"]["id"]
    roster = {p["id"]: p["name"] for p in c.get("/api/td/roster").json()["people"]}
    r = c.put(f"/api/td/register/1/people/{ids['A3']}", json={"status": "sitting_out"},
              headers=td)
    assert r.status_code == 200, r.text
    seats = "".join(f"1,{t},{p},{roster[ids[p + str(t)]]}\n" for t in (1, 2) for p in "AEFGIRT")
    c.put("/api/td/seating", json={"csv": seats}, headers=td).raise_for_status()
    teams = "team,player\n" + "".join(f"Reds,{roster[ids[p + '1']]}\n" for p in "AEFGIRT")
    assert c.put("/api/td/teams", json={"csv": teams}, headers=td).status_code == 200
    enter(hub, td, 1, BOARD_1)
    enter(hub, td, 2, BOARD_2)
    c.put("/api/td/event", json={"toml": MY_OPEN}, headers=td).raise_for_status()
    c.put("/api/td/round", json={"number": 2, "start": (
        START + timedelta(hours=7)).isoformat()}, headers=td).raise_for_status()
    a3 = roster[ids["A3"]]
    again = "".join(f"2,{t},{p},{a3 if p + str(t) == 'A1' else roster[ids[p + str(t)]]}\n"
                    for t in (1, 2) for p in "AEFGIRT")
    c.put("/api/td/seating", json={"csv": again}, headers=td).raise_for_status()
    enter(hub, td, 1, {**BOARD_1, "year": 1906}, round_no=2)
    enter(hub, td, 2, {**BOARD_2, "year": 1906}, round_no=2)
    return td


def test_a_french_phone_reads_the_standings_lines_in_french(hub):
    two_rounds(hub)
    c = hub.client
    english = c.get("/api/td/standings?round=2").json()
    assert english["problem"] == ""
    assert english["mixed"] == ("the totals add games scored under different systems: "
                                "ManorCon (c² + 4c + 16) (round 1); Sum of Squares (round 2)")
    assert english["bonuses"] == ["A 3: 5 points for sitting out round 1, as the event "
                                  "gives a volunteer"]
    assert english["team_problem"] == ("My Open 2026 has no team prize: the 1 team set "
                                       "(7 players) is kept, but not scored")

    french = c.get("/api/td/standings?round=2", headers=FR).json()
    # the numbers, names and keys are the same; the lines are said in French
    assert french["standings"] == english["standings"]
    assert french["mixed"] == (
        "les totaux additionnent des parties comptées selon des systèmes de score "
        "différents : ManorCon (c² + 4c + 16) (ronde 1) ; Sum of Squares (ronde 2)")
    assert french["bonuses"] == ["A 3 : 5 points pour n'avoir pas joué la ronde 1, comme le "
                                 "tournoi l'accorde à un volontaire"]
    assert french["team_problem"] == ("My Open 2026 n'a pas de prix par équipes : 1 équipe "
                                      "définie (7 joueurs) est conservée, mais pas classée")


def test_a_standings_file_refused_for_mixing_systems_says_why_in_the_phone_s_language(hub):
    two_rounds(hub)
    c = hub.client
    r = c.get("/api/standings.csv?round=2", headers=DE)
    assert r.status_code == 409
    assert r.json()["detail"] == (
        "standings.csv: die Summen addieren Partien, die nach verschiedenen "
        "Wertungssystemen gewertet wurden: ManorCon (c² + 4c + 16) (Runde 1); Sum of "
        "Squares (Runde 2); fordern Sie die Datei trotzdem mit ?mixed=1 an")
    # the file a TD asks for anyway is English whatever the phone speaks
    got = c.get("/api/standings.csv?round=2&mixed=1", headers=DE)
    assert got.status_code == 200
    assert got.text.splitlines()[0] == "rank,player,total,note"
    assert "The totals add games scored under different systems" in got.text

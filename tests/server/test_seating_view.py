"""What the hub sends the dashboard's seating and the result sheet so that their pages hold no
rule of their own (issue 34 items 7 and 8): a round's tables with the core's problems, one
player only when the name is the same (as the core compares), each team's players seated
nowhere, what a list of players makes by the event's two-board rule, and the endings a
sheet offers in its game's year."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.server.conftest import START

#: round 1: table 1 has no Turkey; Alice Smith sits at tables 1 and 2; "ann" is not "Ann"
SEATING = {
    (1, 1): "Ann,Alice Smith,Cat,Dan,Eve,Fay,",
    (1, 2): "Hal,Ida,Jon,Alice Smith,Lea,Max,ann",
    (2, 1): "Ann,Cat,Dan,Eve,Fay,Hal,Ida",
}


def seat_all(hub, csrf) -> None:
    lines = [f"{r},{t},{p},{n}" for (r, t), names in SEATING.items()
             for p, n in zip("AEFGIRT", names.split(","), strict=True) if n]
    csv = "round,table,power,player\n" + "\n".join(lines)
    r = hub.client.put("/api/td/seating", json={"csv": csv}, headers=csrf)
    assert r.status_code == 200, r.text


def test_the_view_flags_what_the_core_finds_and_the_card_would_refuse(hub, td):
    seat_all(hub, td)
    view = hub.client.get("/api/td/seating/view").json()
    assert view["rounds"] == [1, 2] and view["round"] == 1
    assert [p["letter"] for p in view["powers"]] == list("AEFGIRT")
    tables = {t["table"]: t for t in view["tables"]}
    assert sorted(tables) == [1, 2, 3, 4]  # the four set up, seated or not
    assert tables[1]["problems"] == ["no player for Turkey",
                                     "Alice Smith is seated at tables 1, 2"]
    assert tables[2]["problems"] == ["Alice Smith is seated at tables 1, 2"]
    assert tables[3] == {"table": 3, "seats": [], "problems": ["no players seated"]}
    assert view["players"] == 12  # Ann and ann are two players, Alice Smith one
    twice = {(t["table"], s["power"]) for t in view["tables"] for s in t["seats"] if s["twice"]}
    assert twice == {(1, "E"), (2, "G")}
    # the Seating card's check of the same tables says the same, line for line
    judged = hub.client.post("/api/td/seating/check", json={"round": 1, "tables": [
        {"table": t["table"], "seats": {s["power"]: s["player"] for s in t["seats"]
                                        if s["player"]}} for t in view["tables"]]}).json()
    shown = sorted(f"table {t['table']}: {p}" if not p.startswith("Alice") else p
                   for t in view["tables"] for p in t["problems"])
    assert sorted(set(shown)) == sorted(judged["problems"])

    other = hub.client.get("/api/td/seating/view", params={"round": 2}).json()
    assert other["round"] == 2 and [t["table"] for t in other["tables"]] == [1]
    assert other["tables"][0]["problems"] == [] and other["players"] == 7


def test_a_team_player_seated_nowhere_is_named_as_typed(hub, td):
    seat_all(hub, td)
    r = hub.client.put("/api/td/teams", headers=td, json={
        "csv": "team,player\nReds,Alice Smith\nReds,Nobody Here\nBlues,Ann\nBlues,alice smith\n"})
    assert r.status_code == 200, r.text
    view = hub.client.get("/api/td/seating/view").json()
    assert view["unseated"] == {"Reds": ["Nobody Here"], "Blues": ["alice smith"]}


def test_an_empty_hub_has_nothing_to_show(hub):
    hub.sign_in()
    view = hub.client.get("/api/td/seating/view").json()
    assert view["round"] is None and view["rounds"] == [] and view["tables"] == []


PLAYERS = [f"Player {n:02d}" for n in range(1, 24)]


@pytest.mark.parametrize(("event", "text", "two"), [
    ("wdc2006", "23 players: 3 tables, 2 sitting out", False),  # no two boards
    ("wdc2019", "23 players: 3 tables, 2 sitting out (or 5 on two boards)", True),
])
def test_what_the_players_make_follows_the_event(hub, event, text, two):
    csrf = hub.sign_in()
    hub.set_up(csrf, event=event)

    def plan(players: list[str]) -> dict:
        r = hub.client.post("/api/td/seating/plan", json={"players": players}, headers=csrf)
        assert r.status_code == 200, r.text
        return r.json()

    assert plan(PLAYERS) == {"text": text, "two_boards": two}
    assert plan(PLAYERS[:21])["text"] == "21 players: 3 tables"
    assert plan(PLAYERS[:7])["text"] == "7 players: 1 table"
    assert plan(PLAYERS[:5])["text"] == "players: 5 players, a table needs 7"
    assert plan([*PLAYERS[:8], "Player 01"])["text"] == "players: Player 01 is listed twice"
    assert plan([])["text"] == ""


def test_a_plan_of_bad_names_is_one_line(hub, td):
    r = hub.client.post("/api/td/seating/plan", json={"players": ["a\nb"]}, headers=td)
    assert r.status_code == 422 and "Traceback" not in r.text


def sheet_of(hub, csrf, event: str, last_year: int | None) -> dict:
    """Table 1's sheet of round 1, its clock ended with Fall ``last_year`` (None: no end
    known yet), as its page is sent it."""
    body: dict = {"number": 1, "start": START.isoformat()}
    if last_year:
        body["last_year"] = last_year
    for path, sent in (("/api/td/event", {"builtin": event}), ("/api/td/round", body),
                       ("/api/td/tables", {"count": 1})):
        r = hub.client.put(path, json=sent, headers=csrf)
        assert r.status_code == 200, r.text
    hub.at(START + timedelta(hours=6))
    r = hub.client.get("/api/sheets/1/1")
    assert r.status_code == 200, r.text
    return r.json()


def test_a_game_the_clock_ended_before_a_vote_could_offers_its_centre_count(hub):
    """wdc2006: "A vote can end a game from 1905"; a round ended with Fall 1901 offers the
    clock's end, its centres counting, and a solo: no draw by vote, no concession."""
    csrf = hub.sign_in()
    view = sheet_of(hub, csrf, "wdc2006", 1901)
    assert view["year"] == 1901 and view["endings"]["votes_from"] == 1905
    assert view["offered"] == [
        {"ending": "draw", "words": "The game ended on the clock: the Fall 1901 centres count"},
        {"ending": "solo", "words": "A solo by"}]
    assert view["ask_draw"] is False
    assert (view["total_centres"], view["eliminated_at"]) == (34, 0)
    assert (view["first_year"], view["latest_year"]) == (1901, 1901)
    # what the default sends is scored: the clock's end, not a vote
    sheet = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5},
             "year": 1901, "ending": view["offered"][0]["ending"]}
    r = hub.client.put("/api/sheets/1/1", json=sheet, headers={**csrf, "If-Match": "0"})
    assert r.status_code == 200, r.text
    assert r.json()["blocked"] is False and r.json()["scores"]


@pytest.mark.parametrize(("event", "last_year", "offered"), [
    ("wdc2006", 1909, ["draw", "solo"]),  # ended at or after 1905: a vote could
    ("wdc2018", None, ["draw", "solo"]),  # no end known: the players say
    ("graduated20", 1909, ["draw", "solo", "concession"]),
])
def test_a_game_a_vote_could_end_offers_the_event_s_endings(hub, event, last_year, offered):
    csrf = hub.sign_in()
    view = sheet_of(hub, csrf, event, last_year)
    assert [o["ending"] for o in view["offered"]] == offered
    assert view["offered"][0]["words"] == "A draw of all survivors"


def test_the_plan_counts_out_who_has_played_the_most_rounds(hub, td):
    """wdc2006 1: "A player who is in the first 4 rounds can not be in round 5": the seating
    sits them out first, so the plan for round 5 counts them among those sitting out."""
    hub.set_up(td, event="wdc2006")
    seats = [{"round": r, "table": 1, "power": p, "player": f"Player {i:02d}"}
             for r in range(1, 5) for i, p in enumerate("AEFGIRT", 1)]
    r = hub.client.put("/api/td/seating", json={"seats": seats}, headers=td)
    assert r.status_code == 200, r.text

    def plan(body: dict) -> str:
        r = hub.client.post("/api/td/seating/plan", json=body, headers=td)
        assert r.status_code == 200, r.text
        return r.json()["text"]

    fourteen = [f"Player {n:02d}" for n in range(1, 15)]
    assert plan({"players": fourteen}) == "14 players: 2 tables"
    assert plan({"players": fourteen, "round": 5}) == (
        "14 players: 1 table, 7 sitting out; Player 01, Player 02, Player 03 and 4 more "
        "have played the most rounds the event allows")
    assert plan({"players": fourteen, "round": 4}) == "14 players: 2 tables"

"""The Seating card's hub side (``server.seatingdesk``): a round drafted by the core from the
players present and the rounds the hub holds, judged again after a swap, called in one
write; a played round refused; bad input one line; and the board call's data."""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations

from tests.server.conftest import START
from tests.server.test_state import S1901, post, press

PLAYERS = [f"Player {n:02d}" for n in range(1, 51)]


def draft(hub, body: dict):
    return hub.client.post("/api/td/seating/draft", json=body)


def call(hub, csrf, body: dict):
    return hub.client.put("/api/td/seating/round", json=body, headers=csrf)


def check(hub, body: dict):
    return hub.client.post("/api/td/seating/check", json=body)


def seated(tables: list[dict]) -> list[str]:
    return [p for t in tables for p in t["seats"].values()]


def test_a_round_is_drafted_previewed_and_called_in_one_write(hub, td):
    r = draft(hub, {"round": 1, "players": PLAYERS, "seed": 4})
    assert r.status_code == 200, r.text
    got = r.json()
    assert [t["table"] for t in got["tables"]] == list(range(1, 8))
    assert all(sorted(t["seats"]) == list("AEFGIRT") for t in got["tables"])
    assert len(got["sitting_out"]) == 1
    assert sorted(seated(got["tables"]) + got["sitting_out"]) == PLAYERS
    assert got["quality"] == {"pairs_met_before": 0, "powers_repeated": 0, "apart_together": 0}
    assert got["problems"] == [] and got["played"] == "" and got["seed"] == 4
    assert hub.client.get("/api/td/seating").json() == []  # a draft is not stored
    assert draft(hub, {"round": 1, "players": PLAYERS, "seed": 4}).json() == got

    r = call(hub, td, {"round": 1, "tables": got["tables"]})
    assert r.status_code == 200, r.text
    assert r.json()["summary"] == ("seating: round 1 called, 7 tables; 0 pairs met before, "
                                   "0 powers repeated")
    stored = hub.client.get("/api/td/seating?round=1").json()
    assert {(s["table"], s["power"], s["player"]) for s in stored} == {
        (t["table"], p, n) for t in got["tables"] for p, n in t["seats"].items()}
    assert hub.client.get("/api/td/state").json()["audit"][0]["action"] == "seating"


def test_round_two_from_the_hubs_round_one_and_a_swap_judged_again(hub, td):
    players = PLAYERS[:49]
    first = draft(hub, {"round": 1, "players": players, "seed": 1}).json()
    assert call(hub, td, {"round": 1, "tables": first["tables"]}).status_code == 200
    second = draft(hub, {"round": 2, "players": players, "seed": 1}).json()
    assert second["quality"] == {"pairs_met_before": 0, "powers_repeated": 0,
                                 "apart_together": 0}
    # swap a player for one who sat with a player of that table in round 1
    table = second["tables"][0]
    mate = next(t for t in first["tables"] if table["seats"]["A"] in t["seats"].values())
    other = next(p for p in mate["seats"].values() if p not in table["seats"].values())
    where = next(t for t in second["tables"] if other in t["seats"].values())
    power = next(p for p, n in where["seats"].items() if n == other)
    tables = [dict(t, seats=dict(t["seats"])) for t in second["tables"]]
    tables[0]["seats"]["E"], next(t for t in tables if t["table"] == where["table"])[
        "seats"][power] = other, table["seats"]["E"]
    judged = check(hub, {"round": 2, "tables": tables}).json()
    met = {frozenset(p) for t in first["tables"] for p in combinations(t["seats"].values(), 2)}
    assert judged["quality"]["pairs_met_before"] == sum(
        frozenset(p) in met for t in tables for p in combinations(t["seats"].values(), 2)) >= 1
    assert judged["problems"] == []
    assert call(hub, td, {"round": 2, "tables": tables}).status_code == 200
    assert len(hub.client.get("/api/td/seating?round=2").json()) == 49


def test_a_played_round_is_not_seated_again(hub, td):
    first = draft(hub, {"round": 1, "players": PLAYERS[:28], "seed": 2}).json()
    assert call(hub, td, {"round": 1, "tables": first["tables"]}).status_code == 200
    post(hub, 1, press("e", "E", S1901 + timedelta(seconds=3)))
    hub.at(S1901 + timedelta(seconds=5))
    again = draft(hub, {"round": 1, "players": PLAYERS[:28], "seed": 3}).json()
    assert again["played"] == "1 button press"
    r = call(hub, td, {"round": 1, "tables": again["tables"]})
    assert r.status_code == 409
    assert r.json()["detail"].startswith("round 1 has been played (1 button press)")
    stored = hub.client.get("/api/td/seating?round=1").json()
    assert {(s["table"], s["power"], s["player"]) for s in stored} == {
        (t["table"], p, n) for t in first["tables"] for p, n in t["seats"].items()}


def test_a_sheet_stored_after_the_desk_looked_keeps_the_rounds_seats(hub, td, monkeypatch):
    """The race: the desk finds round 1 unplayed, then a table's result sheet is stored
    before the new seating is written. The write looks again in its own transaction (as
    setting up a round does) and refuses in the same words; the seats stay."""
    from benchmarks.results import CENTRES, entered
    from dipclock.powers import LETTERS
    from server import seatingdesk
    from server.sheets import Sheet, SheetIn

    first = draft(hub, {"round": 1, "players": PLAYERS[:28], "seed": 2}).json()
    assert call(hub, td, {"round": 1, "tables": first["tables"]}).status_code == 200
    again = draft(hub, {"round": 1, "players": PLAYERS[:28], "seed": 3}).json()
    assert again["played"] == ""
    state = hub.client.app.state.hub
    looked = seatingdesk.call

    def look_then_a_sheet(h, body):
        out = looked(h, body)  # the desk's look: nothing played yet
        sheet = Sheet(1, 1, SheetIn(centres=dict(zip(LETTERS, CENTRES, strict=True)),
                                    year=1909), {}, td=True, by_td=True, at=START.isoformat())
        state.store.edit_sheet(1, 1, 0, entered(sheet), state.clock.moment())
        return out

    monkeypatch.setattr(seatingdesk, "call", look_then_a_sheet)
    r = call(hub, td, {"round": 1, "tables": again["tables"]})
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == ("round 1 has been played (1 result sheet): its seating "
                                  "stays as it is; change single seats with the seating "
                                  "import")
    stored = hub.client.get("/api/td/seating?round=1").json()
    assert {(s["table"], s["power"], s["player"]) for s in stored} == {
        (t["table"], p, n) for t in first["tables"] for p, n in t["seats"].items()}


def test_called_tables_are_kept_and_the_rest_seated_again(hub, td):
    first = draft(hub, {"round": 1, "players": PLAYERS[:21], "seed": 2}).json()
    assert call(hub, td, {"round": 1, "tables": first["tables"]}).status_code == 200
    leaver = first["tables"][2]["seats"]["T"]
    present = [p for p in PLAYERS[:21] if p != leaver] + ["Late Comer"]
    again = draft(hub, {"round": 1, "players": present, "keep": [1], "seed": 5}).json()
    assert again["tables"][0] == first["tables"][0]
    assert sorted(seated(again["tables"])) == sorted(present)


def test_a_seating_with_a_problem_is_judged_and_not_called(hub, td):
    got = draft(hub, {"round": 1, "players": PLAYERS[:14], "seed": 1}).json()
    tables = [dict(t, seats=dict(t["seats"])) for t in got["tables"]]
    tables[1]["seats"]["A"] = tables[0]["seats"]["A"]
    judged = check(hub, {"round": 1, "tables": tables,
                         "apart": [[tables[0]["seats"]["E"], tables[0]["seats"]["F"]]]}).json()
    name = tables[0]["seats"]["A"]
    assert judged["problems"] == [
        f"table 1: {tables[0]['seats']['E']} and {tables[0]['seats']['F']} are kept apart"
        if tables[0]["seats"]["E"] < tables[0]["seats"]["F"] else
        f"table 1: {tables[0]['seats']['F']} and {tables[0]['seats']['E']} are kept apart",
        f"{name} is seated at tables 1, 2"]
    assert judged["quality"]["apart_together"] == 1
    r = call(hub, td, {"round": 1, "tables": tables})
    assert r.status_code == 422
    assert r.json()["detail"] == f"seating: {name} is seated at tables 1, 2"
    assert hub.client.get("/api/td/seating").json() == []


def test_bad_input_is_one_line_and_never_a_server_error(hub, td):
    for body, says in (
        ({"round": 1, "players": PLAYERS[:6]}, "seating: players: 6 players, a table needs 7"),
        ({"round": 1, "players": [*PLAYERS[:7], "Player 01"]},
         "seating: players: Player 01 is listed twice"),
        ({"round": 1, "players": PLAYERS, "keep": [3]}, "keep: round 1 has no table 3 seated"),
        ({"round": 1, "players": PLAYERS[:47], "two_boards": ["Player 01"]},
         "two boards: "),
        ({"round": 0, "players": PLAYERS}, "round:"),
        ({"round": 1, "players": "Player 01"}, "players:"),
        ({"round": 1, "players": PLAYERS, "seed": -1}, "seed:"),
        ({"round": 1, "players": ["bell\x07", *PLAYERS[:7]]}, "players.0:"),
    ):
        r = draft(hub, body)
        assert r.status_code == 422 and r.json()["detail"].startswith(says), (body, r.text)
    tables = [{"table": 1, "seats": dict.fromkeys("AEFGIRT", "x")}] * 2
    r = check(hub, {"round": 1, "tables": tables})
    assert r.status_code == 422 and r.json()["detail"] == "seating: table 1 is given twice"
    r = check(hub, {"round": 1, "tables": [{"table": 1, "seats": {"Q": "x"}}]})
    assert r.status_code == 422


def test_the_seating_desk_needs_a_signed_in_td(hub, td):
    hub.client.post("/api/logout", json={}, headers=td)
    assert draft(hub, {"round": 1, "players": PLAYERS}).status_code == 401
    assert check(hub, {"round": 1, "tables": [{"table": 1, "seats": {}}]}).status_code == 401
    assert call(hub, {}, {"round": 1, "tables": [{"table": 1, "seats": {}}]}).status_code in (
        401, 403)


def test_the_board_call_shows_the_latest_seated_round_to_all(hub, td):
    assert hub.client.get("/api/boardcall").json()["round"] is None
    for rnd in (1, 2):
        got = draft(hub, {"round": rnd, "players": PLAYERS[:14], "seed": rnd}).json()
        assert call(hub, td, {"round": rnd, "tables": got["tables"]}).status_code == 200
    hub.client.post("/api/logout", json={}, headers=td)  # the hall, not the TD, reads it
    r = hub.client.get("/api/boardcall")
    assert r.status_code == 200
    body = r.json()
    assert body["round"] == 2 and body["title"] == "Round 2" and body["event"]
    assert [t["table"] for t in body["tables"]] == [1, 2]
    assert [s["power"] for s in body["tables"][0]["seats"]] == [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert {s["player"] for t in body["tables"] for s in t["seats"]} == set(PLAYERS[:14])
    # round 1 is set up under its event title; round 2 not yet: its number
    assert hub.client.get("/api/boardcall?round=1").json()["title"] == "First Individual Round"
    assert hub.client.get("/boardcall").status_code == 200
    assert START  # the round the fixture set up starts here


def test_the_top_boards_round_seats_the_standings_seven_together(hub, td):
    """wdc2006's top board (round 5) from three rounds of confirmed sheets (the results
    benchmark's hall, 21 players): its seven at table 1, the rest around them, and the TD
    told the event's rule for the powers; a withdrawn qualifier's seat goes to the next."""
    from benchmarks.results import fill
    from dipclock.standings import top_board_seeds
    from server.resultsdesk import game_scores

    store = hub.client.app.state.hub.store
    fill(store, 3, 3)
    players = [f"Player {n:03d}" for n in range(21)]
    got = draft(hub, {"round": 5, "players": players, "seed": 1}).json()
    seeds = top_board_seeds(game_scores(store, 4), store.event().standings)
    assert len(seeds) == 7 and got["top_board"] == seeds
    assert sorted(got["tables"][0]["seats"].values()) == sorted(seeds)
    assert got["notes"][0] == f"table 1 is the top board: {', '.join(seeds)}"
    assert "country-assignment rules" in got["notes"][1]
    assert sorted(seated(got["tables"])) == sorted(players)
    # the third qualifier withdraws: the next two are level, and nothing separates them:
    # the TD decides, the round is seated without a top board and says why
    gone = seeds[2]
    present = [p for p in players if p != gone]
    again = draft(hub, {"round": 5, "players": present, "seed": 1}).json()
    assert again["top_board"] == []
    assert sorted(seated(again["tables"]) + again["sitting_out"]) == sorted(present)
    assert again["notes"][0].startswith("seat 7 of the top board is tied between ")
    assert again["notes"][0].endswith(": the top board is not seated; the TD decides who "
                                      "takes the seat, and seats the top board by hand")
    # another round is not the top board's
    assert draft(hub, {"round": 4, "players": players}).json()["top_board"] == []


def test_a_held_seating_no_round_can_have_had_is_named_not_a_server_error(hub, td):
    # imported seat by seat, the hub holds what the TD typed: Ann twice at table 1
    r = hub.client.put("/api/td/seating", headers=td, json={"csv": "1,1,A,Ann\n1,1,E,Ann\n"})
    assert r.status_code == 200
    for path, body in (("/api/td/seating/draft", {"round": 2, "players": PLAYERS}),
                       ("/api/td/seating/check", {"round": 2, "tables": [
                           {"table": 1, "seats": dict.fromkeys("AEFGIRT", "x")}]})):
        r = hub.client.post(path, json=body)
        assert r.status_code == 422
        assert r.json()["detail"] == "seating: the hub's round 1, table 1: Ann is seated twice"

"""The results desk on a real hub: a board's sheet from its QR link, the players'
confirmations, the TD's, and the standings and CSV files that follow."""

from __future__ import annotations

import csv
import io

import pytest

from dipclock.events import BUILTIN
from dipclock.scoring import GameResult, score_game
from dipclock.scoring.result import parse_centres
from dipclock.standings import GameScore, standings
from tests.server.test_state import snap

SEATS = "".join(f"1,{t},{p},{p}{t}\n" for t in (1, 2) for p in "AEFGIRT")
BOARD_1 = {"centres": dict(A=5, E=4, F=6, G=0, I=7, R=6, T=6), "year": 1909,
           "eliminated": {"G": 1905}}
BOARD_2 = {"centres": dict(A=10, E=8, F=6, G=4, I=3, R=2, T=1), "year": 1909}


def seated(hub, td) -> None:
    r = hub.client.put("/api/td/seating", json={"csv": SEATS}, headers=td)
    assert r.status_code == 200, r.text


def key_of(hub, table: int, round_no: int = 1) -> dict[str, str]:
    """The key the table's kiosk shows in its QR code, from its snapshot."""
    link = snap(hub, table)["sheet"]
    path, _, key = link.partition("#")
    assert path == f"/sheet/{round_no}/{table}" and len(key) == 16
    return {"X-Sheet-Key": key}


def phone(hub):
    """A player's phone: the hub's app, no TD cookie."""
    from fastapi.testclient import TestClient

    client = TestClient(hub.client.app)
    return client


def put(client, table: int, board: dict, headers: dict, version: int | None = None,
        round_no: int = 1):
    """A sheet sent as the page sends it: against the version it last saw (``If-Match``);
    by default the version stored now."""
    if version is None:
        seen = client.get(f"/api/sheets/{round_no}/{table}", headers=headers)
        version = seen.json()["version"] if seen.status_code == 200 else 0
    return client.put(f"/api/sheets/{round_no}/{table}", json=board,
                      headers={**headers, "If-Match": f'"{version}"'})


def press_confirm(hub, table: int, *powers: str, version: int | None = None,
                  round_no: int = 1):
    """Players pressing their powers' buttons on the table's clock while it shows the
    sheet: what the clock's outbox sends (``POST /api/tables/N/confirmations``)."""
    shown = snap(hub, table)["result"]
    version = shown["version"] if version is None else version
    r = hub.client.post(f"/api/tables/{table}/confirmations", headers=hub.kiosk_headers(table),
                        json={"confirmations": [
                            {"id": f"c-{table}-{p}-{version}", "round": round_no, "power": p,
                             "version": version} for p in powers]})
    assert r.status_code == 200, r.text
    return r.json()


def final(hub, td, table: int, version: int | None = None, round_no: int = 1, **body):
    """The TD's Confirm (or Reopen) on the Results card, against the version it shows."""
    if version is None:
        version = hub.client.get(f"/api/sheets/{round_no}/{table}").json()["version"]
    return hub.client.post(f"/api/td/sheets/{round_no}/{table}/final", json=body,
                           headers={**td, "If-Match": str(version)})


def enter(hub, td, table: int, board: dict, round_no: int = 1) -> None:
    """A sheet entered from the table's QR code and confirmed by the TD."""
    r = put(phone(hub), table, board, key_of(hub, table, round_no), version=0,
            round_no=round_no)
    assert r.status_code == 200, r.text
    r = final(hub, td, table, round_no=round_no, incomplete=True)
    assert r.status_code == 200, r.text


def test_a_table_s_qr_link_opens_its_sheet_and_no_other(hub, td):
    seated(hub, td)
    p = phone(hub)
    r = p.get("/api/sheets/1/1", headers=key_of(hub, 1))
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["table"] == 1 and view["status"] == "empty" and view["sheet"] is None
    assert view["players"]["England"] == "E1" and view["system"].startswith("ManorCon")
    assert view["year"] == 1909 and view["counts"] == "Fall 1909 centres count"
    # what the page lays out, sent by the hub: the seven lines, the board's centres, the
    # lines to confirm and the event's endings in words
    assert [(p["letter"], p["name"]) for p in view["powers"]][::6] == [
        ("A", "Austria"), ("T", "Turkey")]
    assert view["total_centres"] == 34 and view["lines"] == len(view["players"])
    assert view["endings"]["text"] == (
        "A vote can end a game from 1905. Games end with Fall 1909.")
    assert p.get("/api/sheets/1/2", headers=key_of(hub, 1)).status_code == 403
    assert p.get("/api/sheets/1/1", headers={"X-Sheet-Key": "x" * 16}).status_code == 403
    assert p.get("/api/sheets/1/1", headers={"X-Sheet-Key": "é".encode()}).status_code == 403
    assert p.get("/api/sheets/1/1").status_code == 401
    assert p.get("/sheet/1/1").status_code == 200  # the page itself holds no secret


def test_players_enter_and_confirm_then_the_td_confirms_and_the_sheet_is_the_td_s(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    r = put(p, 1, BOARD_1, key, version=0)
    assert r.status_code == 200, r.text
    view = r.json()
    expected = score_game("manorcon", GameResult(parse_centres("A=5,E=4,F=6,G=0,I=7,R=6,T=6"),
                                                 1909, eliminated={"G": 1905}), 18)
    assert view["scores"] == {"Austria": round(expected["A"], 2), "England":
                              round(expected["E"], 2), "France": round(expected["F"], 2),
                              "Germany": 0.5, "Italy": round(expected["I"], 2),
                              "Russia": round(expected["R"], 2), "Turkey": round(expected["T"], 2)}
    assert view["flags"] == [] and view["status"] == "entered" and view["version"] == 1
    # the table's clock shows the sheet for its players to confirm with their buttons
    shown = snap(hub, 1)["result"]
    assert shown["version"] == 1 and shown["centres"]["I"] == 7 and shown["confirmed"] == []
    assert shown["scores"]["A"] == round(expected["A"], 2) and shown["final"] is False
    assert press_confirm(hub, 1, *"AEFGIRT") == {
        "taken": [f"c-1-{p}-1" for p in "AEFGIRT"], "refused": []}
    view = hub.client.get("/api/sheets/1/1").json()
    assert view["status"] == "confirmed" and len(view["confirmed"]) == 7
    assert set(view["confirmations"].values()) == {"button"} and view["missing"] == []
    assert view["version"] == 8  # each line confirmed raised it, as every change does
    assert snap(hub, 1)["result"]["version"] == 1  # not what the players confirm
    r = final(hub, td, 1, final=True)
    assert r.status_code == 200 and r.json()["status"] == "final"
    assert snap(hub, 1)["result"]["final"] is True
    r = put(p, 1, {**BOARD_1, "year": 1908}, key)
    assert r.status_code == 409 and "the TD has confirmed this sheet" in r.json()["detail"]
    audit = [a["summary"] for a in hub.client.get("/api/td/state").json()["audit"]]
    assert any("table 1 sheet confirmed by the TD" in a for a in audit)
    assert any("Italy's line confirmed with its button" in a for a in audit)


def test_a_phone_cannot_confirm_a_line_only_the_power_s_button_can(hub, td):
    """Any phone holding the table's link is anyone's: Austria's phone once confirmed
    Turkey's line. A line is its player's to confirm with their power's own button."""
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    put(p, 1, BOARD_1, key, version=0)
    r = p.post("/api/sheets/1/1/confirm", json={"power": "T"},
               headers={**key, "If-Match": "1"})
    assert r.status_code == 403 and "button" in r.json()["detail"]
    assert hub.client.get("/api/sheets/1/1").json()["confirmed"] == []
    # another table's clock cannot confirm this table's lines
    r = hub.client.post("/api/tables/1/confirmations", headers=hub.kiosk_headers(2), json={
        "confirmations": [{"id": "x1", "round": 1, "power": "T", "version": 1}]})
    assert r.status_code == 403


def test_the_td_s_card_names_the_missing_lines_and_an_incomplete_sheet_is_asked_for(hub, td):
    seated(hub, td)
    put(phone(hub), 1, BOARD_1, key_of(hub, 1), version=0)
    press_confirm(hub, 1, *"AEFGR")
    card = hub.client.get("/api/td/results").json()["sheets"][0]
    assert card["missing"] == ["Italy (I1)", "Turkey (T1)"] and card["status"] == "entered"
    r = final(hub, td, 1, final=True)
    assert r.status_code == 409
    assert r.json()["detail"].startswith("Italy (I1), Turkey (T1) have not confirmed")
    assert hub.client.get("/api/sheets/1/1").json()["status"] == "entered"
    r = final(hub, td, 1, final=True, incomplete=True)
    assert r.status_code == 200, r.text
    assert r.json()["td_without"] == ["Italy (I1)", "Turkey (T1)"]
    audit = [a["summary"] for a in hub.client.get("/api/td/state").json()["audit"]]
    assert "round 1 table 1 sheet confirmed by the TD without Italy, Turkey's confirmation" \
        in audit
    # the TD may also confirm one line for its player: recorded as the TD's
    r = final(hub, td, 1, final=False)
    r = hub.client.post("/api/sheets/1/1/confirm", json={"power": "I"},
                        headers={**td, "If-Match": str(r.json()["version"])})
    assert r.status_code == 200 and r.json()["confirmations"]["Italy"] == "td"


def test_a_change_clears_the_confirmations(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 2)
    put(p, 2, BOARD_2, key, version=0)
    press_confirm(hub, 2, "A")
    same = put(p, 2, BOARD_2, key).json()
    assert same["confirmed"] == ["Austria"] and same["version"] == 2  # sent again: no change
    changed = put(p, 2, {**BOARD_2, "year": 1908}, key).json()
    assert changed["confirmed"] == [] and changed["sheet"]["year"] == 1908
    assert changed["version"] == 3
    # a press made while the clock still showed version 1 confirms nothing
    assert press_confirm(hub, 2, "E", version=1)["refused"][0]["reason"].startswith(
        "a player's phone corrected this sheet at 08:50 since you loaded it")
    assert hub.client.get("/api/sheets/1/2").json()["confirmed"] == []


def test_two_phones_racing_on_a_sheet_never_lose_a_correction(hub, td):
    """One phone corrects the year while another still shows the old sheet: the stale
    phone's change, or a confirmation made from the old sheet, is refused; it is told the
    sheet changed, and the correction stands."""
    seated(hub, td)
    a, b, key = phone(hub), phone(hub), key_of(hub, 1)
    put(a, 1, BOARD_1, key, version=0)
    assert put(b, 1, {**BOARD_1, "year": 1908}, key, version=1).status_code == 200
    stale = put(a, 1, {**BOARD_1, "centres": {**BOARD_1["centres"], "A": 4}}, key, version=1)
    assert stale.status_code == 409 and "corrected this sheet" in stale.json()["detail"]
    late = press_confirm(hub, 1, "A", version=1)
    assert late["taken"] == [] and late["refused"][0]["id"] == "c-1-A-1"
    r = final(hub, td, 1, version=1, final=True, incomplete=True)
    assert r.status_code == 409 and "corrected this sheet" in r.json()["detail"]
    view = hub.client.get("/api/sheets/1/1").json()
    assert view["sheet"]["year"] == 1908 and view["sheet"]["centres"]["A"] == 5
    assert view["confirmed"] == [] and view["status"] == "entered" and view["version"] == 2
    # the same correction sent twice (a double tap from the old screen) is not an error
    assert put(b, 1, {**BOARD_1, "year": 1908}, key, version=1).status_code == 200
    # a change that names no version is refused: it would write over what it never saw
    r = a.put("/api/sheets/1/1", json=BOARD_1, headers=key)
    assert r.status_code == 428 and "If-Match" in r.json()["detail"]


def test_what_looks_wrong_is_flagged_and_cannot_be_confirmed(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    short = {**BOARD_1, "centres": {**BOARD_1["centres"], "A": 4}}
    view = put(p, 1, short, key, version=0).json()
    assert view["flags"] == ["centres add up to 33, not 34"] and view["scores"]
    # a total short of 34 is the TD's to judge (a neutral centre left): it can be confirmed
    assert press_confirm(hub, 1, "A")["taken"] == ["c-1-A-1"]
    solo = {**BOARD_1, "ending": "solo", "solo": "I"}
    view = put(p, 1, solo, key).json()
    assert view["flags"] == ["Italy has 7 centres: a solo in 1909 needs 18"]
    assert view["scores"] is None
    assert snap(hub, 1)["result"]["problem"] == "Italy has 7 centres: a solo in 1909 needs 18"
    refused = press_confirm(hub, 1, "I")["refused"]
    assert len(refused) == 1 and "needs 18" in refused[0]["reason"]
    r = final(hub, td, 1, final=True, incomplete=True)
    assert r.status_code == 409 and "needs 18" in r.json()["detail"]
    # wdc2006 rule 17: "All games will run to Winter 1909": the core refuses 1910 (blocked)
    late = put(p, 1, {**BOARD_1, "year": 1910}, key).json()
    assert late["flags"] == ["wdc2006's games end with Fall 1909: 1910 cannot count",
                             "the table's clock ended the game with Fall 1909: Fall 1910 "
                             "cannot count"] and late["blocked"] is True
    put(p, 1, solo, key)
    listed = hub.client.get("/api/td/results").json()["sheets"]
    assert [(s["table"], s["status"], s["flags"]) for s in listed][:2] == [
        (1, "entered", ["Italy has 7 centres: a solo in 1909 needs 18"]), (2, "empty", [])]


def test_a_malformed_sheet_is_one_line_and_nothing_is_stored(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    for body, says in (
        ({**BOARD_1, "centres": {**BOARD_1["centres"], "A": 99}}, "centres.A"),
        ({**BOARD_1, "colour": "red"}, "colour: unknown field"),
        ({**BOARD_1, "year": 19090}, "year"),
        ({**BOARD_1, "centres": {"X": 3}}, "centres.X"),
    ):
        r = put(p, 1, body, key, version=0)
        assert r.status_code == 422 and says in r.json()["detail"], (body, r.text)
        assert "\n" not in r.json()["detail"]
    assert hub.client.get("/api/sheets/1/1").json()["sheet"] is None


def test_confirmed_sheets_make_the_standings_and_the_csv_files(hub, td):
    seated(hub, td)
    for table, board in ((1, BOARD_1), (2, BOARD_2)):
        put(phone(hub), table, board, key_of(hub, table), version=0)
    # only the TD's confirmation makes a sheet count
    assert hub.client.get("/api/td/standings").json()["standings"] == []
    for table in (1, 2):
        r = final(hub, td, table, incomplete=True)
        assert r.status_code == 200, r.text
    view = hub.client.get("/api/td/standings").json()
    assert view["sheets_final"] == 2 and view["sheets_waiting"] == [3, 4]
    # the core's standings over the same games
    games = []
    for table, board in ((1, BOARD_1), (2, BOARD_2)):
        result = GameResult(board["centres"], board["year"],
                            eliminated=board.get("eliminated", {}))
        for power, score in score_game("manorcon", result, 18).items():
            games.append(GameScore(1, f"{power}{table}", score, str(table), power,
                                   board["centres"][power]))
    core = standings(games, BUILTIN["wdc2006"].standings)
    assert [(r["rank"], r["player"], r["total"]) for r in view["standings"]] == [
        (s.rank, s.player, round(s.total, 2)) for s in core]
    text = hub.client.get("/api/standings.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(int(r["rank"]), r["player"], float(r["total"])) for r in rows] == [
        (s.rank, s.player, round(s.total, 2)) for s in core]
    results = list(csv.DictReader(io.StringIO(hub.client.get("/api/results.csv").text)))
    austria = next(g for g in games if g.player == "A1")
    assert len(results) == 14 and results[0] == {
        "round": "1", "table": "1", "power": "Austria", "player": "A1", "centres": "5",
        "score": f"{austria.score:.2f}"}
    assert phone(hub).get("/api/td/standings").status_code == 401
    assert phone(hub).get("/api/results.csv").status_code == 401


def test_the_td_enters_a_sheet_with_the_session_and_its_csrf(hub, td):
    seated(hub, td)
    r = put(hub.client, 3, BOARD_2, {}, version=0)
    assert r.status_code == 403  # signed in, but no CSRF header: another site's page
    r = put(hub.client, 3, BOARD_2, td, version=0)
    assert r.status_code == 200 and r.json()["by_td"] is True


TOP_EVENT = """name = "Top board open"
[[phase_lengths]]
spring = 15
fall = 15
[penalty]
model = "nmr"
[scoring]
system = "carnage"
[standings]
top_board_round = 2
top_board_places = 1
tie_breaks = ["best_game"]
"""
#: carnage, by place: the board's order is the order of these centres
ROUND_1 = {1: "A=10,E=8,F=6,G=4,I=3,R=2,T=1", 2: "A=9,E=7,F=6,G=5,I=4,R=2,T=1"}


def seats_of(names: str) -> dict[str, str]:
    return dict(zip("AEFGIRT", names.split(), strict=True))


def test_the_top_board_is_seeded_decides_first_place_and_best_countries_follow(hub):
    from datetime import timedelta

    from tests.server.conftest import START

    td = hub.sign_in()
    for method, path, body in (
        ("PUT", "/api/td/event", {"toml": TOP_EVENT, "filename": "top.toml"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        assert hub.client.request(method, path, json=body, headers=td).status_code == 200
    names = {1: seats_of("Ann Ben Cat Dan Eve Fay Gus"), 2: seats_of("Hal Ida Jon Kim Lea Max Ned")}
    lines = [f"1,{t},{p},{n}" for t, seats in names.items() for p, n in seats.items()]
    assert hub.client.put("/api/td/seating", json={"csv": "\n".join(lines)},
                          headers=td).status_code == 200
    for table, centres in ROUND_1.items():
        body = {"centres": dict(pair.split("=") for pair in centres.split(",")), "year": 1905}
        enter(hub, td, table, body)
    view = hub.client.get("/api/td/standings?round=1").json()
    # by place on each board: Ann 7010, Hal 7009; Ben 6008, Ida 6007; Cat and Jon 5006,
    # level on total and best game (shared, by name); the seventh seat Kim's 4005 (Dan 4004)
    assert view["top_board"]["seeds"] == ["Ann", "Hal", "Ben", "Ida", "Cat", "Jon", "Kim"]
    assert view["top_board"]["table"] is None
    seeds = list(csv.DictReader(io.StringIO(hub.client.get("/api/top-board.csv?round=1").text)))
    assert [(r["seed"], r["player"]) for r in seeds] == [
        (str(n), p) for n, p in enumerate(view["top_board"]["seeds"], start=1)]
    countries = {c["power"]: [w["player"] for w in c["winners"]]
                 for c in view["best_countries"]}
    assert countries == {"Austria": ["Ann"], "England": ["Ben"], "France": ["Cat", "Jon"],
                         "Germany": ["Kim"], "Italy": ["Lea"], "Russia": ["Fay", "Max"],
                         "Turkey": ["Gus", "Ned"]}
    rows = list(csv.DictReader(io.StringIO(hub.client.get("/api/best-countries.csv?round=1")
                                           .text)))
    assert rows[0] == {"power": "Austria", "player": "Ann", "round": "1", "table": "1",
                       "centres": "10", "score": "7010.00"}

    # round 2: the seeds at table 1 (Gus fills the eighth seat's place at table 2)
    r = hub.client.put("/api/td/round", json={"number": 2, "start": (
        START + timedelta(hours=6)).isoformat()}, headers=td)
    assert r.status_code == 200, r.text
    top, rest = seats_of("Kim Jon Cat Ida Ben Hal Ann"), seats_of("Dan Eve Fay Gus Lea Max Ned")
    lines = [f"2,1,{p},{n}" for p, n in top.items()] + [f"2,2,{p},{n}" for p, n in rest.items()]
    hub.client.put("/api/td/seating", json={"csv": "\n".join(lines)}, headers=td)
    # Kim tops the top board with little; Dan tops table 2
    boards = {1: "A=12,E=5,F=5,G=4,I=4,R=2,T=2", 2: "A=15,E=6,F=5,G=3,I=2,R=2,T=1"}
    for table, centres in boards.items():
        body = {"centres": dict(pair.split("=") for pair in centres.split(",")), "year": 1905}
        put(phone(hub), table, body, key_of(hub, table, 2), version=0, round_no=2)
    final(hub, td, 2, round_no=2, incomplete=True).raise_for_status()
    waiting = hub.client.get("/api/td/standings?round=2").json()
    assert waiting["top_board"]["table"] == 1 and waiting["top_board"]["counts"] is False
    final(hub, td, 1, round_no=2, incomplete=True).raise_for_status()
    after = hub.client.get("/api/td/standings?round=2").json()
    assert after["top_board"]["counts"] is True
    # the top board's winner is first, though Dan's total (4004 + 7015) beats Kim's
    assert [(r["player"], r["total"]) for r in after["standings"]][:2] == [
        ("Kim", 4005 + 7012), ("Dan", 4004 + 7015)]


def test_teams_are_ranked_by_their_members_in_the_team_round(hub):
    td = hub.sign_in()
    hub.set_up(td, event="wdc2019", tables=2)  # wdc2019: the team round is round 2
    lines = "team,player\nReds,A1\nReds,E1\nBlues,A2\nBlues,E2\n"
    r = hub.client.put("/api/td/teams", json={"csv": lines}, headers=td)
    assert r.status_code == 200 and r.json()["summary"] == "teams: 2 teams, 4 players"
    assert hub.client.get("/api/td/teams").json() == {"Blues": ["A2", "E2"],
                                                      "Reds": ["A1", "E1"]}
    for bad, says in (("Reds,A1\nBlues,A1\n", "teams line 2: A1 is already in Reds"),
                      ("Reds\n", "teams line 1: give team,player"),
                      ("Reds,\x07\n", "teams line 1: a name is one line")):
        r = hub.client.put("/api/td/teams", json={"csv": bad}, headers=td)
        assert r.status_code == 422 and says in r.json()["detail"], r.text
    seated(hub, td)
    for table, board in ((1, BOARD_1), (2, BOARD_2)):  # wdc2019's games end in 1907
        enter(hub, td, table, {**board, "year": 1907})
    view = hub.client.get("/api/td/standings").json()
    assert view["teams"] == [] and "team round (round 2)" in view["team_problem"]
    # the same boards again as round 2, the team round
    from datetime import timedelta

    from tests.server.conftest import START

    hub.client.put("/api/td/round", json={"number": 2, "start": (
        START + timedelta(hours=6)).isoformat()}, headers=td).raise_for_status()
    again = "".join(f"2,{t},{p},{p}{t}\n" for t in (1, 2) for p in "AEFGIRT")
    hub.client.put("/api/td/seating", json={"csv": again}, headers=td).raise_for_status()
    for table, board in ((1, BOARD_1), (2, BOARD_2)):
        enter(hub, td, table, {**board, "year": 1907}, round_no=2)
    scores = {s["table"]: s["scores"] for s in
              hub.client.get("/api/td/results?round=2").json()["sheets"]}
    reds = scores[1]["Austria"] + scores[1]["England"]
    blues = scores[2]["Austria"] + scores[2]["England"]
    view = hub.client.get("/api/td/standings?round=2").json()
    assert view["team_problem"] == ""
    assert [(t["team"], t["total"]) for t in view["teams"]] == sorted(
        [("Reds", round(reds, 2)), ("Blues", round(blues, 2))], key=lambda t: -t[1])
    rows = list(csv.DictReader(io.StringIO(hub.client.get("/api/teams.csv?round=2").text)))
    assert [r["team"] for r in rows] == [t["team"] for t in view["teams"]]
    assert hub.client.put("/api/td/teams", json={"csv": ""}, headers=td).json()["summary"] \
        == "teams: cleared"


def test_a_board_won_though_its_sheet_says_draw_is_scored_and_awarded_as_a_solo(hub):
    # graduated20: Austria's 18 centres are a solo whatever the sheet says (19.4: 75; the
    # losers 0.1 x 8). Rule 19.9: England's loser there (6 centres) wins no best country,
    # as E2 achieved a draw with England (5 centres on a board without a solo)
    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=2)
    seated(hub, td)
    boards = {1: {"centres": dict(A=18, E=6, F=4, G=3, I=2, R=1, T=0), "year": 1908,
                  "eliminated": {"T": 1907}},
              2: {"centres": dict(A=8, E=5, F=5, G=5, I=4, R=4, T=3), "year": 1909}}
    for table, body in boards.items():
        enter(hub, td, table, body)
    view = hub.client.get("/api/td/results?round=1").json()["sheets"][0]
    assert view["scores"]["Austria"] == 75 and view["scores"]["England"] == 0.8
    assert "Austria holds 18 centres at the end of 1908 (a victory needs 18): the game " \
           "ended in its solo, not a draw" in view["flags"]
    countries = {c["power"]: [w["player"] for w in c["winners"]]
                 for c in hub.client.get("/api/td/standings?round=1").json()["best_countries"]}
    assert countries["England"] == ["E2"] and countries["Austria"] == ["A1"]


def test_a_concession_is_entered_where_the_event_has_them_and_refused_elsewhere(hub):
    """graduated20 rule 16 names "draw or concession votes": a sheet says "Conceded to
    France" and scores as the solo conceded; wdc2006's text has none: refused, one line."""
    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=2)
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    view = p.get("/api/sheets/1/1", headers=key).json()
    assert view["endings"] == {"draws": "all_survivors", "concession": True,
                               "leader_growth": False, "votes_from": 1905, "last_year": 1909,
                               "text": "A vote can end a game from 1905. Games end with Fall "
                                       "1909."}
    conceded = {"centres": dict(A=4, E=4, F=14, G=3, I=3, R=3, T=3), "year": 1907,
                "ending": "concession", "conceded_to": "F"}
    view = put(p, 1, conceded, key, version=0).json()
    assert view["blocked"] is False and view["ending"] == "Conceded to France"
    assert view["scores"]["France"] == 75 and view["scores"]["Austria"] == 0.7
    # rule 16: "Game-ends which have not been agreed using the above procedure will be
    # treated as abandoned games": no vote passed on the hub, so the TD is told (the vote
    # may have been run by hand), and the sheet still scores as entered
    assert ("no vote passed at this table: graduated20 (rule 16) scores a game end not "
            "agreed by a vote zero for every player; record the vote on the Votes card if "
            "there was one") in view["flags"]
    assert snap(hub, 1)["result"]["ending"] == "Conceded to France"
    refused = put(p, 1, {**conceded, "conceded_to": None}, key)
    assert refused.status_code == 200  # stored as typed, and flagged: it cannot be scored
    assert refused.json()["flags"][0] == "a concession needs the power it was conceded to"


def test_no_concession_at_an_event_whose_text_has_none(hub, td):
    seated(hub, td)  # wdc2006
    p, key = phone(hub), key_of(hub, 1)
    assert p.get("/api/sheets/1/1", headers=key).json()["endings"]["concession"] is False
    view = put(p, 1, {"centres": dict(A=4, E=4, F=14, G=3, I=3, R=3, T=3), "year": 1907,
                      "ending": "concession", "conceded_to": "F"}, key, version=0).json()
    assert view["blocked"] is True
    assert view["flags"][0] == "wdc2006 has no concessions: a game ends in a solo or a draw"


def test_standings_that_add_different_systems_say_so_and_their_files_are_asked_for(hub):
    """Round 1 under graduated20 (ManorCon), round 2 under wdc2019 (Super Pastis): the
    totals add what no rule text adds. Every view says so; a file is refused with one line
    unless the TD asks for it anyway."""
    from datetime import timedelta

    from tests.server.conftest import START

    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=2)
    seated(hub, td)
    enter(hub, td, 1, BOARD_1)
    hub.client.put("/api/td/event", json={"builtin": "wdc2019"}, headers=td).raise_for_status()
    hub.client.put("/api/td/round", json={"number": 2, "start": (
        START + timedelta(hours=7)).isoformat()}, headers=td).raise_for_status()
    again = "".join(f"2,{t},{p},{p}{t}\n" for t in (1, 2) for p in "AEFGIRT")
    hub.client.put("/api/td/seating", json={"csv": again}, headers=td).raise_for_status()
    enter(hub, td, 1, {**BOARD_1, "year": 1907}, round_no=2)
    one = hub.client.get("/api/td/standings?round=1").json()
    assert one["mixed"] == ""
    view = hub.client.get("/api/td/standings?round=2").json()
    assert view["mixed"] == ("the totals add games scored under different systems: "
                             "ManorCon (c² + 4c + 16) (round 1); Super Pastis (round 2)")
    for name in ("standings", "best-countries", "top-board"):
        r = hub.client.get(f"/api/{name}.csv?round=2")
        assert r.status_code == 409 and r.json()["detail"] == (
            f"{name}.csv: {view['mixed']}; ask for it anyway with ?mixed=1")
        assert hub.client.get(f"/api/{name}.csv?round=2&mixed=1").status_code == 200
    assert hub.client.get("/api/standings.csv?round=1").status_code == 200


#: Names a spreadsheet would run as formulas (CSV injection), seated at table 1's first
#: four seats (carnage by place: 7010, 6008, 5006, 4004).
FORMULAS = ['=HYPERLINK("http://evil.example/","click")', "+1", "-1", "@SUM(1)"]
GUARDED_EVENT = TOP_EVENT.replace('tie_breaks = ["best_game"]',
                                  'tie_breaks = ["best_game"]\nteam_round = 1')


def test_every_csv_file_quotes_a_name_a_spreadsheet_would_run(hub):
    """The results, standings, best-country, top-board and teams files quote such a name as
    the penalties file does (``server.csvcells``): a leading apostrophe, the rest as typed;
    scores and ranks stay numbers."""
    from datetime import timedelta

    from tests.server.conftest import START
    from tests.server.test_state import post, press

    td = hub.sign_in()
    for method, path, body in (
        ("PUT", "/api/td/event", {"toml": GUARDED_EVENT, "filename": "guarded.toml"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        assert hub.client.request(method, path, json=body, headers=td).status_code == 200
    names = {1: [*FORMULAS, "Cat", "Dan", "Eve"], 2: ["Hal", "Ida", "Jon", "Kim", "Lea",
                                                      "Max", "Ned"]}
    seats = [{"round": 1, "table": t, "power": p, "player": n}
             for t, row in names.items() for p, n in zip("AEFGIRT", row, strict=True)]
    r = hub.client.put("/api/td/seating", json={"seats": seats}, headers=td)
    assert r.status_code == 200, r.text
    teams = "team,player\n" + "".join(f'"{t}","{n.replace(chr(34), chr(34) * 2)}"\n'
                                      for t, n in (("=Reds", FORMULAS[0]), ("=Reds", "+1"),
                                                   ("Blues", "Hal"), ("Blues", "Ida")))
    assert hub.client.put("/api/td/teams", json={"csv": teams}, headers=td).status_code == 200
    for table, centres in ROUND_1.items():
        body = {"centres": dict(pair.split("=") for pair in centres.split(",")), "year": 1905}
        enter(hub, td, table, body)
    post(hub, 1, press("late", "A", START + timedelta(minutes=15, seconds=20)))  # "nmr"
    hub.at(START + timedelta(minutes=30))

    def rows(path: str) -> list[dict[str, str]]:
        r = hub.client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv"), path
        return list(csv.DictReader(io.StringIO(r.text)))

    quoted = {"'" + n for n in FORMULAS}
    files = {
        "/api/results.csv": ("player", quoted),
        "/api/standings.csv?round=1": ("player", quoted),
        # Germany's best is Kim's 4005 at table 2, and the seventh seed too
        "/api/best-countries.csv?round=1": ("player", quoted - {"'@SUM(1)"}),
        "/api/top-board.csv?round=1": ("player", quoted - {"'@SUM(1)"}),
        "/api/teams.csv?round=1": ("team", {"'=Reds"}),
        # Austria late, the other powers of table 1 never pressed: every name there
        "/api/penalties.csv": ("player", quoted),
    }
    for path, (column, expected) in files.items():
        got = rows(path)
        assert {r[column] for r in got if r[column].startswith("'")} == expected, (path, got)
        for r in got:
            for value in r.values():
                assert not value.startswith(("=", "+", "@")), (path, r)
                assert not value.startswith("-") or value[1:2].isdigit(), (path, r)
    # numbers are not text: the scores are still numbers a spreadsheet adds up
    assert all(float(r["total"]) > 0 for r in rows("/api/standings.csv?round=1"))


def test_a_tables_link_ends_with_its_round_and_the_log_names_the_phone(hub, td):
    """A photo of a table's QR code changes its sheet only while its round lasts; every
    change by a phone is logged with that phone's own id and address."""
    from datetime import timedelta

    from dipclock.sync import to_seconds
    from tests.server.conftest import START

    seated(hub, td)
    p, key = phone(hub), key_of(hub, 2)
    r = put(p, 2, BOARD_2, key | {"X-Dipclock-Device": "a1b2c3d4e5f6a7b8"}, version=0)
    assert r.status_code == 200, r.text
    assert hub.client.get("/api/td/state").json()["audit"][0]["summary"].startswith(
        "round 1 table 2 sheet by players (phone a1b2c3 at testclient): ")
    odd = put(p, 2, BOARD_1, key | {"X-Dipclock-Device": "<script>"})
    assert odd.status_code == 200, odd.text  # an odd id is no name, and no refusal
    assert "sheet by players (a phone at testclient)" in (
        hub.client.get("/api/td/state").json()["audit"][0]["summary"])
    later = START + timedelta(hours=5)
    r = hub.client.put("/api/td/round", json={"number": 2, "start": later.isoformat()},
                       headers=td)
    assert r.status_code == 200, r.text
    assert put(p, 2, BOARD_2, key).status_code == 200  # round 2 not begun: round 1's link
    hub.clock.t = to_seconds(later) + 60  # round 2 under way
    over = put(p, 2, BOARD_1, key)
    assert over.status_code == 403
    assert over.json()["detail"] == ("round 1 is over: this link no longer changes its sheet; "
                                     "ask the TD")
    assert p.get("/api/sheets/1/2", headers=key).status_code == 200  # it still shows it
    assert put(hub.client, 2, BOARD_1, td).status_code == 200  # the TD still can


def test_a_top_board_the_standings_cannot_seed_is_a_problem_on_the_page_not_a_500(
        hub, monkeypatch):
    """A replaced game's share once reached the top board's seeding without its board and
    the standings' tie-break refused it: the whole standings page was a 500."""
    from dipclock.standings import StandingsError
    from server import resultsdesk
    from tests.server.conftest import START

    td = hub.sign_in()
    for method, path, body in (
        ("PUT", "/api/td/event", {"toml": TOP_EVENT, "filename": "top.toml"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        assert hub.client.request(method, path, json=body, headers=td).status_code == 200

    def refused(*_: object) -> list[str]:
        raise StandingsError("tie_breaks: 'head_to_head' needs each game's board")

    monkeypatch.setattr(resultsdesk, "top_board_seeds", refused)
    r = hub.client.get("/api/td/standings?round=1", headers=td)
    assert r.status_code == 200, r.text
    assert r.json()["problem"] == "tie_breaks: 'head_to_head' needs each game's board"


def test_a_volunteer_who_sat_out_gets_the_event_s_bonus_in_the_standings(hub):
    """wdc2019 II.1b3: "A bonus may be given to the player who ask to sit out": the
    event's ``sit_out_bonus`` is added to the total of a volunteer the seating sat out,
    and the standings say why (here round 1's volunteer, A3, plays round 2)."""
    from datetime import timedelta
    from pathlib import Path

    from tests.server.conftest import START

    td = hub.sign_in()
    hub.set_up(td, tables=2)
    event = (Path(__file__).resolve().parents[2] / "examples/events/my-open.toml").read_text(
        encoding="utf-8") + "sit_out_bonus = 5\n"
    hub.client.put("/api/td/event", json={"toml": event}, headers=td).raise_for_status()
    names = [f"{p}{t}" for t in (1, 2) for p in "AEFGIRT"] + ["A3"]
    ids = {}
    for name in names:
        r = hub.client.post("/api/td/roster/people", headers=td,
                            json={"given_name": name[0], "family_name": name[1:]})
        assert r.status_code == 201, r.text
        ids[name] = r.json()["person"]["id"]
    roster = {p["id"]: p["name"] for p in hub.client.get("/api/td/roster").json()["people"]}
    a3 = roster[ids["A3"]]
    r = hub.client.put(f"/api/td/register/1/people/{ids['A3']}", json={"status": "sitting_out"},
                       headers=td)
    assert r.status_code == 200, r.text
    seats = "".join(f"1,{t},{p},{roster[ids[p + str(t)]]}\n" for t in (1, 2) for p in "AEFGIRT")
    hub.client.put("/api/td/seating", json={"csv": seats}, headers=td).raise_for_status()
    enter(hub, td, 1, {**BOARD_1, "year": 1908})
    enter(hub, td, 2, {**BOARD_2, "year": 1908})
    hub.client.put("/api/td/round", json={"number": 2, "start": (
        START + timedelta(hours=7)).isoformat()}, headers=td).raise_for_status()
    again = "".join(f"2,{t},{p},{a3 if p + str(t) == 'A1' else roster[ids[p + str(t)]]}\n"
                    for t in (1, 2) for p in "AEFGIRT")
    hub.client.put("/api/td/seating", json={"csv": again}, headers=td).raise_for_status()
    enter(hub, td, 1, {**BOARD_1, "year": 1906}, round_no=2)
    enter(hub, td, 2, {**BOARD_2, "year": 1906}, round_no=2)
    view = hub.client.get("/api/td/standings?round=2").json()
    assert view["problem"] == ""
    assert view["bonuses"] == [f"{a3}: 5 points for sitting out round 1, as the event gives "
                               "a volunteer"]
    totals = {s["player"]: s["total"] for s in view["standings"]}
    one_game = {s["player"]: s["total"] for s in
                hub.client.get("/api/td/standings?round=1").json()["standings"]}
    assert totals[a3] == pytest.approx(one_game[roster[ids["A1"]]] + 5)

"""The results desk on a real hub: a board's sheet from its QR link, the players'
confirmations, the TD's, and the standings and CSV files that follow."""

from __future__ import annotations

import csv
import io

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


def test_a_table_s_qr_link_opens_its_sheet_and_no_other(hub, td):
    seated(hub, td)
    p = phone(hub)
    r = p.get("/api/sheets/1/1", headers=key_of(hub, 1))
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["table"] == 1 and view["status"] == "empty" and view["sheet"] is None
    assert view["players"]["England"] == "E1" and view["system"].startswith("ManorCon")
    assert view["year"] == 1909 and view["counts"] == "Fall 1909 centres count"
    assert p.get("/api/sheets/1/2", headers=key_of(hub, 1)).status_code == 403
    assert p.get("/api/sheets/1/1", headers={"X-Sheet-Key": "x" * 16}).status_code == 403
    assert p.get("/api/sheets/1/1", headers={"X-Sheet-Key": "é".encode()}).status_code == 403
    assert p.get("/api/sheets/1/1").status_code == 401
    assert p.get("/sheet/1/1").status_code == 200  # the page itself holds no secret


def test_players_enter_and_confirm_then_the_td_confirms_and_the_sheet_is_the_td_s(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    r = p.put("/api/sheets/1/1", json=BOARD_1, headers=key)
    assert r.status_code == 200, r.text
    view = r.json()
    expected = score_game("manorcon", GameResult(parse_centres("A=5,E=4,F=6,G=0,I=7,R=6,T=6"),
                                                 1909, eliminated={"G": 1905}), 18)
    assert view["scores"] == {"Austria": round(expected["A"], 2), "England":
                              round(expected["E"], 2), "France": round(expected["F"], 2),
                              "Germany": 0.5, "Italy": round(expected["I"], 2),
                              "Russia": round(expected["R"], 2), "Turkey": round(expected["T"], 2)}
    assert view["flags"] == [] and view["status"] == "entered"
    for letter in "AEFGIRT":
        r = p.post("/api/sheets/1/1/confirm", json={"power": letter}, headers=key)
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "confirmed" and len(r.json()["confirmed"]) == 7
    r = hub.client.post("/api/td/sheets/1/1/final", json={"final": True}, headers=td)
    assert r.status_code == 200 and r.json()["status"] == "final"
    r = p.put("/api/sheets/1/1", json={**BOARD_1, "year": 1908}, headers=key)
    assert r.status_code == 409 and "the TD has confirmed this sheet" in r.json()["detail"]
    audit = [a["summary"] for a in hub.client.get("/api/td/state").json()["audit"]]
    assert any("table 1 sheet confirmed by the TD" in a for a in audit)


def test_a_change_clears_the_confirmations(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 2)
    p.put("/api/sheets/1/2", json=BOARD_2, headers=key)
    p.post("/api/sheets/1/2/confirm", json={"power": "A"}, headers=key)
    same = p.put("/api/sheets/1/2", json=BOARD_2, headers=key).json()
    assert same["confirmed"] == ["Austria"]  # sent again: nothing changed
    changed = p.put("/api/sheets/1/2", json={**BOARD_2, "year": 1908}, headers=key).json()
    assert changed["confirmed"] == [] and changed["sheet"]["year"] == 1908


def test_what_looks_wrong_is_flagged_and_cannot_be_confirmed(hub, td):
    seated(hub, td)
    p, key = phone(hub), key_of(hub, 1)
    short = {**BOARD_1, "centres": {**BOARD_1["centres"], "A": 4}}
    view = p.put("/api/sheets/1/1", json=short, headers=key).json()
    assert view["flags"] == ["centres add up to 33, not 34"] and view["scores"]
    # a total short of 34 is the TD's to judge (a neutral centre left): it can be confirmed
    assert p.post("/api/sheets/1/1/confirm", json={"power": "A"}, headers=key).status_code == 200
    solo = {**BOARD_1, "ending": "solo", "solo": "I"}
    view = p.put("/api/sheets/1/1", json=solo, headers=key).json()
    assert view["flags"] == ["Italy has 7 centres: a solo in 1909 needs 18"]
    assert view["scores"] is None
    r = p.post("/api/sheets/1/1/confirm", json={"power": "I"}, headers=key)
    assert r.status_code == 409 and "needs 18" in r.json()["detail"]
    r = hub.client.post("/api/td/sheets/1/1/final", json={"final": True}, headers=td)
    assert r.status_code == 409 and "needs 18" in r.json()["detail"]
    late = p.put("/api/sheets/1/1", json={**BOARD_1, "year": 1910}, headers=key).json()
    assert late["flags"] == ["the table's clock ended the game with Fall 1909: Fall 1910 "
                             "cannot count"] and late["blocked"] is False
    p.put("/api/sheets/1/1", json=solo, headers=key)
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
        r = p.put("/api/sheets/1/1", json=body, headers=key)
        assert r.status_code == 422 and says in r.json()["detail"], (body, r.text)
        assert "\n" not in r.json()["detail"]
    assert hub.client.get("/api/sheets/1/1").json()["sheet"] is None


def test_confirmed_sheets_make_the_standings_and_the_csv_files(hub, td):
    seated(hub, td)
    for table, board in ((1, BOARD_1), (2, BOARD_2)):
        key = key_of(hub, table)
        phone(hub).put(f"/api/sheets/1/{table}", json=board, headers=key)
    # only the TD's confirmation makes a sheet count
    assert hub.client.get("/api/td/standings").json()["standings"] == []
    for table in (1, 2):
        r = hub.client.post(f"/api/td/sheets/1/{table}/final", json={}, headers=td)
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
    r = hub.client.put("/api/sheets/1/3", json=BOARD_2)
    assert r.status_code == 403  # signed in, but no CSRF header: another site's page
    r = hub.client.put("/api/sheets/1/3", json=BOARD_2, headers=td)
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
        phone(hub).put(f"/api/sheets/1/{table}", json=body, headers=key_of(hub, table))
        hub.client.post(f"/api/td/sheets/1/{table}/final", json={}, headers=td)
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
        phone(hub).put(f"/api/sheets/2/{table}", json=body, headers=key_of(hub, table, 2))
    hub.client.post("/api/td/sheets/2/2/final", json={}, headers=td)
    waiting = hub.client.get("/api/td/standings?round=2").json()
    assert waiting["top_board"]["table"] == 1 and waiting["top_board"]["counts"] is False
    hub.client.post("/api/td/sheets/2/1/final", json={}, headers=td)
    final = hub.client.get("/api/td/standings?round=2").json()
    assert final["top_board"]["counts"] is True
    # the top board's winner is first, though Dan's total (4004 + 7015) beats Kim's
    assert [(r["player"], r["total"]) for r in final["standings"]][:2] == [
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
    for table, board in ((1, BOARD_1), (2, BOARD_2)):
        phone(hub).put(f"/api/sheets/1/{table}", json=board, headers=key_of(hub, table))
        hub.client.post(f"/api/td/sheets/1/{table}/final", json={}, headers=td)
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
        r = phone(hub).put(f"/api/sheets/2/{table}", json={**board, "year": 1907},
                           headers=key_of(hub, table, 2))
        assert r.status_code == 200, r.text
        hub.client.post(f"/api/td/sheets/2/{table}/final", json={}, headers=td)
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
        phone(hub).put(f"/api/sheets/1/{table}", json=body, headers=key_of(hub, table))
        assert hub.client.post(f"/api/td/sheets/1/{table}/final", json={},
                               headers=td).status_code == 200
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

"""The TD's day on a real hub (issue 34, items 1 and 5): graduated20's teams set for 21
players survive an event change "from round 2 on", and a file of standings that mix
scoring systems says so in every row.

Round 1 plays graduated20 (ManorCon; its team round is round 2, teams of seven); the TD
then uploads an own event (my-open: Sum of Squares, no team prize) or picks wdc2019
(Super Pastis, team round 2) for round 2 on.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from pathlib import Path

from tests.server.conftest import START
from tests.server.test_results_desk import enter

MY_OPEN = (Path(__file__).resolve().parents[2] / "examples/events/my-open.toml").read_text(
    encoding="utf-8")
PLAYERS = [f"P{n:02d}" for n in range(1, 22)]
TEAMS = {"Hanse": PLAYERS[:7], "Danube": PLAYERS[7:14], "Baltic": PLAYERS[14:]}
BOARDS = ({"centres": dict(A=5, E=4, F=6, G=0, I=7, R=6, T=6), "eliminated": {"G": 1905}},
          {"centres": dict(A=10, E=8, F=6, G=4, I=3, R=2, T=1)},
          {"centres": dict(A=6, E=5, F=5, G=5, I=5, R=4, T=4)})
ROUND_2 = START + timedelta(hours=7)  # graduated20's Friday round ends at 15:00
NO_PRIZE = ("My Open 2026 has no team prize: the 3 teams set (21 players) are kept, but "
            "not scored")


def seat_and_score(hub, td, round_no: int, year: int) -> None:
    """The 21 players at three tables (a new order each round), every sheet confirmed."""
    order = PLAYERS[round_no * 5:] + PLAYERS[:round_no * 5]
    lines = [f"{round_no},{t},{p},{order[(t - 1) * 7 + i]}"
             for t in (1, 2, 3) for i, p in enumerate("AEFGIRT")]
    r = hub.client.put("/api/td/seating", json={"csv": "\n".join(lines)}, headers=td)
    assert r.status_code == 200, r.text
    for table, board in enumerate(BOARDS, start=1):
        enter(hub, td, table, {**board, "year": year}, round_no=round_no)


def graduated20_round_one(hub) -> dict[str, str]:
    """graduated20 on three tables, the teams set, round 1 played and scored; the hub in
    the afternoon, before round 2 is set up."""
    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=3)
    teams = "team,player\n" + "".join(f"{t},{p}\n" for t, ps in TEAMS.items() for p in ps)
    r = hub.client.put("/api/td/teams", json={"csv": teams}, headers=td)
    assert r.status_code == 200 and r.json()["summary"] == "teams: 3 teams, 21 players"
    seat_and_score(hub, td, 1, 1909)
    hub.at(START + timedelta(hours=5))
    return td


def round_two(hub, td, year: int) -> None:
    r = hub.client.put("/api/td/round", json={"number": 2, "start": ROUND_2.isoformat()},
                       headers=td)
    assert r.status_code == 200, r.text
    seat_and_score(hub, td, 2, year)


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_an_own_event_with_no_team_prize_keeps_the_teams_and_says_so(hub):
    td = graduated20_round_one(hub)
    c = hub.client
    choice = {"toml": MY_OPEN, "filename": "my-open.toml"}
    # asked first: the question says what becomes of the teams
    preview = c.post("/api/td/event/preview", json=choice, headers=td)
    assert preview.status_code == 200, preview.text
    assert preview.json() == {"event": "my-open", "name": "My Open 2026", "from_round": 2,
                              "teams": NO_PRIZE}
    bad = c.post("/api/td/event/preview", json={"toml": "name = 3", "filename": "x.toml"},
                 headers=td)
    assert bad.status_code == 422 and bad.json()["detail"].startswith("x.toml: ")
    r = c.put("/api/td/event", json=choice, headers=td)
    assert r.status_code == 200, r.text
    assert (r.json()["from_round"], r.json()["teams"]) == (2, NO_PRIZE)
    assert c.get("/api/td/teams").json() == {t: sorted(ps) for t, ps in TEAMS.items()}
    # until round 2 plays it, the dashboard says it of the event coming
    assert c.get("/api/td/state").json()["teams_note"] == NO_PRIZE

    round_two(hub, td, 1906)  # my-open round 2: games end with Fall 1906
    view = c.get("/api/td/standings?round=2").json()
    # not hidden: the team table says why it is empty, and its file is refused with it
    assert view["teams"] == [] and view["team_problem"] == NO_PRIZE
    r = c.get("/api/teams.csv?round=2")
    assert r.status_code == 409 and r.json()["detail"] == f"teams.csv: {NO_PRIZE}"
    assert c.get("/api/td/state").json()["teams_note"] == ""  # the Results card says it now
    assert c.get("/api/td/teams").json() == {t: sorted(ps) for t, ps in TEAMS.items()}

    # the standings mix ManorCon and Sum of Squares: asked for on purpose, each row says so
    assert view["mixed"].startswith("the totals add games scored under different systems")
    for name in ("standings", "best-countries", "top-board"):
        assert c.get(f"/api/{name}.csv?round=2").status_code == 409
    got = rows(c.get("/api/standings.csv?round=2&mixed=1").text)
    assert len(got) == 21 and list(got[0]) == ["rank", "player", "total", "note"]
    said = view["mixed"][0].upper() + view["mixed"][1:]
    assert {r["note"] for r in got} == {said}
    assert [(int(r["rank"]), r["player"], float(r["total"])) for r in got] == [
        (s["rank"], s["player"], s["total"]) for s in view["standings"]]
    countries = rows(c.get("/api/best-countries.csv?round=2&mixed=1").text)
    assert countries and {r["note"] for r in countries} == {said}
    # round 1 alone is one system: its file is as it always was, with no note column
    one = c.get("/api/standings.csv?round=1")
    assert one.status_code == 200 and one.text.splitlines()[0] == "rank,player,total"


def test_an_event_with_a_team_round_scores_the_teams_set_before_it(hub):
    """wdc2019 from round 2 on: the teams set under graduated20 stay and are ranked by
    round 2, wdc2019's team round. The standings mix two systems; the team table adds
    round 2's games alone (one system), so its file is not refused and carries no note."""
    td = graduated20_round_one(hub)
    c = hub.client
    r = c.put("/api/td/event", json={"builtin": "wdc2019"}, headers=td)
    assert r.status_code == 200, r.text
    assert r.json()["teams"] == ("the 3 teams set (21 players) stay: WDC 2019's team round "
                                 "is round 2")
    assert c.get("/api/td/state").json()["teams_note"] == ""  # nothing to warn of
    round_two(hub, td, 1907)  # wdc2019: games end with Fall 1907
    view = c.get("/api/td/standings?round=2").json()
    assert view["mixed"] and view["teams_mixed"] == "" and view["team_problem"] == ""
    assert sorted(t["team"] for t in view["teams"]) == sorted(TEAMS)
    r = c.get("/api/teams.csv?round=2")
    assert r.status_code == 200, r.text
    assert [(x["team"], float(x["total"])) for x in rows(r.text)] == [
        (t["team"], t["total"]) for t in view["teams"]]
    assert r.text.splitlines()[0] == "rank,team,total"


def test_choosing_an_event_with_no_teams_set_says_nothing_of_teams(hub):
    td = hub.sign_in()
    preview = hub.client.post("/api/td/event/preview", json={"builtin": "wdc2006"}, headers=td)
    assert preview.json() == {"event": "wdc2006", "name": preview.json()["name"],
                              "from_round": 1, "teams": ""}
    r = hub.client.put("/api/td/event", json={"builtin": "wdc2006"}, headers=td)
    assert r.status_code == 200 and r.json()["teams"] == ""
    assert hub.client.get("/api/td/state").json()["teams_note"] == ""


def test_a_team_table_whose_own_games_mixed_systems_is_refused_as_the_standings_are(
        hub, monkeypatch):
    """One event per round makes a team round's games one system; were they not (a view
    made so here), teams.csv would be treated as standings.csv is: refused without
    ?mixed=1, and with it each row says so."""
    from server.resultsdesk import StandingsView, TeamRow
    from server.routers import results

    td = hub.sign_in()
    hub.set_up(td, event="wdc2019")
    mixed = "the totals add games scored under different systems: A (round 2); B (round 2)"
    view = StandingsView(event="x", round=2, sheets_final=1, sheets_waiting=[], standings=[],
                         problem="", teams=[TeamRow(rank=1, team="Reds", total=1.0,
                                                    shared=False)], teams_mixed=mixed)
    monkeypatch.setattr(results, "standings_view", lambda store, round_no, words=None: view)
    r = hub.client.get("/api/teams.csv?round=2")
    assert r.status_code == 409 and r.json()["detail"] == (
        f"teams.csv: {mixed}; ask for it anyway with ?mixed=1")
    got = rows(hub.client.get("/api/teams.csv?round=2&mixed=1").text)
    assert got == [{"rank": "1", "team": "Reds", "total": "1.00",
                    "note": mixed[0].upper() + mixed[1:]}]

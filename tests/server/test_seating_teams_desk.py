"""The Seating card and the hub's teams (issue 36): team-mates kept apart in the rounds the
event's text says (wdc2019 II.4b: round 2), a seating that puts two together named as a
problem; graduated20's team round seated from the teams' powers; a teams line with a bad
power refused by its number."""

from __future__ import annotations

from dipclock.powers import LETTERS, POWERS

TEAMS = {f"Team {t}": [f"Player {t}{m}" for m in "abcd"] for t in range(1, 8)}


def put_teams(hub, csrf, lines: str):
    return hub.client.put("/api/td/teams", json={"csv": lines}, headers=csrf)


def draft(hub, body: dict):
    return hub.client.post("/api/td/seating/draft", json=body)


def team_count(tables: list[dict]) -> list[int]:
    team_of = {m: t for t, ms in TEAMS.items() for m in ms}
    return [len({team_of[p] for p in t["seats"].values()}) for t in tables]


def test_wdc2019_s_team_round_keeps_team_mates_apart(hub):
    td = hub.sign_in()
    hub.set_up(td, event="wdc2019", tables=4)
    r = put_teams(hub, td, "".join(f"{t},{m}\n" for t, ms in TEAMS.items() for m in ms))
    assert r.status_code == 200, r.text
    players = [m for ms in TEAMS.values() for m in ms]
    for seed in range(3):
        got = draft(hub, {"round": 2, "players": players, "seed": seed}).json()
        assert team_count(got["tables"]) == [7, 7, 7, 7]
        assert got["notes"] == ["team-mates kept apart this round, as the event's rules say "
                                "(42 pairs)"]
        assert got["problems"] == []
    # round 1 keeps no team apart; two team-mates moved together in round 2 is a problem
    assert draft(hub, {"round": 1, "players": players, "seed": 1}).json()["notes"] == []
    tables = [{"table": n, "seats": dict(zip(LETTERS, players[(n - 1) * 7:n * 7],
                                                 strict=True))} for n in range(1, 5)]
    judged = hub.client.post("/api/td/seating/check", json={"round": 2, "tables": tables})
    assert "table 1: Player 1a and Player 1b are kept apart" in judged.json()["problems"]
    judged = hub.client.post("/api/td/seating/check", json={"round": 1, "tables": tables})
    assert judged.json()["problems"] == []


def test_graduated20_s_team_round_is_seated_from_the_teams_powers(hub):
    td = hub.sign_in()
    hub.set_up(td, event="graduated20", tables=7)
    teams = {f"T{t}": {p: f"T{t} {POWERS[p]}" for p in LETTERS} for t in range(1, 8)}
    lines = "team,player,power\n" + "".join(
        f"{t},{n},{POWERS[p]}\n" for t, seats in teams.items() for p, n in seats.items())
    r = put_teams(hub, td, lines)
    assert r.status_code == 200, r.text
    players = [n for seats in teams.values() for n in seats.values()]
    r = draft(hub, {"round": 2, "players": players, "seed": 2})
    assert r.status_code == 200, r.text
    got = r.json()
    assert len(got["tables"]) == 7 and got["problems"] == []
    for t in got["tables"]:
        assert {p: n.split(" ")[1] for p, n in t["seats"].items()} == POWERS
        assert len({n.split(" ")[0] for n in t["seats"].values()}) == 7
    # a team short of a power: refused with why
    r = put_teams(hub, td, "".join(f"T1,X{p},{POWERS[p]}\n" for p in LETTERS[:6]))
    assert r.status_code == 200
    r = draft(hub, {"round": 2, "players": players, "seed": 2})
    assert r.status_code == 422 and "1 team: the team round needs at least 7" in r.text


def test_a_teams_line_with_a_bad_power_is_refused_by_its_number(hub):
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    for lines, says in (("T1,A,Austria\nT1,B,Austria\n", "teams line 2: team T1 has Austria "
                                                         "already (A)"),
                        ("T1,A,Austria\nT1,B\n", "teams line 2: give a power on every line"),
                        ("T1,A,Prussia\n", "teams line 1: 'Prussia' is not a power")):
        r = put_teams(hub, td, lines)
        assert r.status_code == 422 and says in r.json()["detail"], r.text

"""The draw's rules that know who is who (issue 36): team-mates apart (wdc2006's Saturday
round, wdc2019's round 2, wdc2003's two rounds without a team-mate), each event's sit-out
order (wdc2006, wdc2018, wdc2003, wdc2019) and graduated20's team round of seven, seated
from its teams."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from dipclock.events import BUILTIN
from dipclock.launcher.cli import main
from dipclock.powers import LETTERS, POWERS
from dipclock.roster import person
from dipclock.roster.register import Status, for_seating, signed_up_late
from dipclock.seating import Past, Seat, SeatingError, Table, pair, read_past, seat_round
from dipclock.seating.teams import check_teams, seat_team_round, team_apart
from dipclock.standings import StandingsError, StandingsRules
from dipclock.standings.rules import rules_from


def rules_of(event: str) -> StandingsRules:
    rules = BUILTIN[event].standings
    assert rules is not None
    return rules


def names(n: int, first: int = 0) -> list[str]:
    return [f"P{i:02d}" for i in range(first, first + n)]


def teams_of(players: list[str], size: int) -> dict[str, list[str]]:
    return {f"T{i // size}": players[i:i + size] for i in range(0, len(players), size)}


def together(seating, teams: dict[str, list[str]]) -> int:
    team_of = {m: t for t, ms in teams.items() for m in ms}
    return sum(team_of[a] == team_of[b] for t in seating.tables
               for a in t.seats.values() for b in t.seats.values() if a < b)


# --- team-mates apart --------------------------------------------------------------------

def test_wdc2006_keeps_team_mates_apart_in_the_saturday_round_only():
    players = names(21)
    teams = teams_of(players, 3)
    rules = rules_of("wdc2006")
    apart = team_apart(teams, rules, 3, Past())
    assert apart == {pair(a, b) for ms in teams.values() for a in ms for b in ms if a < b}
    assert team_apart(teams, rules, 2, Past()) == set()
    for seed in range(5):
        s = seat_round(players, Past(), 3, random.Random(seed), apart=apart, rules=rules)
        assert together(s, teams) == 0 and s.apart_together == 0


def test_wdc2019_keeps_team_mates_apart_in_round_2():
    teams = teams_of(names(28), 4)
    rules = rules_of("wdc2019")
    assert len(team_apart(teams, rules, 2, Past())) == 7 * 6
    assert team_apart(teams, rules, 1, Past()) == team_apart(teams, rules, 3, Past()) == set()


def test_wdc2003_keeps_team_mates_apart_until_each_played_two_rounds_without_one():
    rules = rules_of("wdc2003")
    teams = {"X": ["A", "B", "C"]}
    others = names(11)
    # round 1: A and B faced each other; C played clean. Round 2: all three clean.
    seats = [Seat(1, 1, p, w) for p, w in zip(LETTERS, ["A", "B", *others[:5]], strict=True)]
    seats += [Seat(1, 2, p, w) for p, w in zip(LETTERS, ["C", *others[5:11]], strict=True)]
    past1 = read_past(seats)
    assert team_apart(teams, rules, 2, past1) == {("A", "B"), ("A", "C"), ("B", "C")}
    seats += [Seat(2, n + 1, "A", w) for n, w in enumerate(["A", "B", "C"])]
    past2 = read_past(seats)
    # C has two clean rounds, A and B one: every pair still has one who needs a round
    assert team_apart(teams, rules, 3, past2) == {("A", "B"), ("A", "C"), ("B", "C")}
    seats += [Seat(3, n + 1, "A", w) for n, w in enumerate(["A", "B"])]
    assert team_apart(teams, rules, 4, read_past(seats)) == set()
    assert team_apart(teams, rules_of("wdc2018"), 2, past1) == set()


def test_teams_apart_settings_are_checked():
    assert rules_from({"teams_apart_rounds": [3]}).teams_apart_rounds == (3,)
    with pytest.raises(StandingsError, match="teams_apart_games"):
        rules_from({"teams_apart_games": 0})


# --- the sit-out order -------------------------------------------------------------------

HALL = [
    (1, person("Ann", "Early", nationality="GB", location="London", preregistered=True)),
    (2, person("Bernd", "Berliner", nationality="DE", location="Berlin")),
    (3, person("Carl", "German", nationality="DE", location="Munich")),
    (4, person("Dora", "Late", nationality="FR", location="Paris")),
    (5, person("Eve", "Volunteer", nationality="DE", location="berlin")),
    (6, person("Fred", "Armada", club="ARMADA", location="Denver")),
    (7, person("Chris", "Martin", club="PTKS", location="Baltimore")),
    (8, person("Gil", "Member", club="ptks", location="Baltimore")),
]


def marked(volunteers: tuple[int, ...] = ()) -> dict[tuple[int, int], Status]:
    return {(1, i): ("sitting_out" if i in volunteers else "present") for i, _ in HALL}


def test_wdc2006_drops_volunteers_then_late_then_berlin_then_germany():
    got = for_seating(HALL, marked((5,)), 1, rules=rules_of("wdc2006"), late=[4])
    assert got.groups == ("asked to sit out", "signed up late", "from Berlin",
                          "from Germany")
    # Eve is a volunteer from Berlin: in the first group only
    assert got.sit_out_first == (("Eve Volunteer",), ("Dora Late",), ("Bernd Berliner",),
                                 ("Carl German",))


def test_wdc2018_drops_the_board_then_the_club_then_locals():
    rules = rules_of("wdc2018").model_copy(update={"locality": "Baltimore"})
    got = for_seating(HALL, marked(), 1, rules=rules)
    assert got.groups == ("PTKS board members", "PTKS members")
    assert got.sit_out_first == (("Chris Martin",), ("Gil Member",))


def test_wdc2003_sits_out_armada_members_first():
    got = for_seating(HALL, marked(), 1, rules=rules_of("wdc2003"))
    assert got.sit_out_first == (("Fred Armada",),) and got.groups == ("ARMADA members",)


def test_wdc2019_s_order_is_its_setting_and_graduated20_s_volunteers_only():
    got = for_seating(HALL, marked((3,)), 1, rules=rules_of("wdc2019"))
    assert got.groups == ("asked to sit out", "not pre-registered")
    assert "Ann Early" not in got.sit_out_first[1]
    assert for_seating(HALL, marked((3,)), 1, rules=rules_of("graduated20")).groups == (
        "asked to sit out",)


def test_the_sit_out_order_and_the_country_are_checked():
    with pytest.raises(StandingsError, match="sit_out_order: 'late' is listed twice"):
        rules_from({"sit_out_order": ["late", "late"]})
    with pytest.raises(StandingsError, match="sit_out_order"):
        rules_from({"sit_out_order": ["tall"]})
    with pytest.raises(StandingsError, match="country: 'D1': a country is a two-letter"):
        rules_from({"country": "D1"})
    assert rules_from({"country": "de"}).country == "DE"


# --- graduated20's team round ------------------------------------------------------------

def powered(count: int) -> dict[str, dict[str, str]]:
    return {f"T{t}": {p: f"T{t}{p}" for p in LETTERS} for t in range(count)}


def test_graduated20_s_team_round_seats_one_of_each_power_from_seven_teams():
    rules = rules_of("graduated20")
    for count in (7, 8, 10):
        teams = powered(count)
        players = [n for t in teams.values() for n in t.values()] + ["Spare"]
        s = seat_round(players, Past(), 2, random.Random(count), rules=rules, teams=teams)
        assert len(s.tables) == count and s.sitting_out == ("Spare",)
        for t in s.tables:
            assert [t.seats[p][-1] for p in LETTERS] == list(LETTERS)  # each at its power
            assert len({t.seats[p][:-1] for p in LETTERS}) == 7  # seven teams
        seated = Counter(n for t in s.tables for n in t.seats.values())
        assert set(seated.values()) == {1} and len(seated) == 7 * count


def test_the_team_round_avoids_pairs_met_before_where_it_can():
    teams = powered(8)
    players = [n for t in teams.values() for n in t.values()]
    # round 1: seven of them at one table (T0's Austria, T1's England ...): nearly every
    # single draw seats two of them together again (197 of 200 seeds); the best of the
    # draws tried does not
    met = [f"T{i}{p}" for i, p in enumerate(LETTERS)]
    past = read_past([Seat(1, 1, p, who) for p, who in zip(LETTERS, met, strict=True)])
    for seed in range(5):
        s = seat_team_round(teams, players, past, random.Random(seed))
        assert all(len(set(met) & set(t.values())) <= 1 for t in s)


def test_the_team_round_is_refused_with_why():
    players = [n for t in powered(7).values() for n in t.values()]
    with pytest.raises(SeatingError, match="6 teams: the team round needs at least 7"):
        check_teams(powered(6), players)
    short = powered(7)
    short["T3"] = {p: n for p, n in short["T3"].items() if p != "T"}
    with pytest.raises(SeatingError, match="team T3 has no player for Turkey"):
        check_teams(short, players)
    with pytest.raises(SeatingError, match=r"T5G \(Germany of team T5\) is not among"):
        check_teams(powered(7), [p for p in players if p != "T5G"])
    twice = powered(7)
    twice["T6"] = dict(twice["T6"], A="T0A")
    with pytest.raises(SeatingError, match="T0A is in two teams: T0 and T6"):
        check_teams(twice, players)
    with pytest.raises(SeatingError, match="round 2 is the team round: .*give the teams"):
        seat_round(players, Past(), 2, random.Random(1), rules=rules_of("graduated20"))
    kept = Table(1, {p: f"T0{p}" for p in LETTERS})
    with pytest.raises(SeatingError, match="seated whole from the teams, with no table kept"):
        seat_round(players, Past(), 2, random.Random(1), rules=rules_of("graduated20"),
                   teams=powered(7), fixed=[kept])


# --- dipclock seat --teams ---------------------------------------------------------------

def run_seat(tmp_path, capsys, event: str, round_no: int, players: list[str],
             teams: str) -> tuple[int, str, str]:
    (tmp_path / "players.csv").write_text("player\n" + "\n".join(players) + "\n",
                                          encoding="utf-8")
    (tmp_path / "teams.csv").write_text(teams, encoding="utf-8")
    code = main(["seat", event, "--players", str(tmp_path / "players.csv"), "--round",
                 str(round_no), "--teams", str(tmp_path / "teams.csv"), "--seed", "3",
                 "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def test_dipclock_seat_keeps_team_mates_apart_in_wdc2006_s_round_3(tmp_path, capsys):
    players = names(21)
    teams = teams_of(players, 3)
    lines = "team,player\n" + "".join(f"{t},{m}\n" for t, ms in teams.items() for m in ms)
    code, out, err = run_seat(tmp_path, capsys, "wdc2006", 3, players, lines)
    assert code == 0, err
    assert "21 team-mate pair(s) kept apart" in err
    team_of = {m: t for t, ms in teams.items() for m in ms}
    for table in json.loads(out)["tables"]:
        assert len({team_of[p] for p in table["seats"].values()}) == 7


def test_dipclock_seat_seats_graduated20_s_team_round_from_the_teams(tmp_path, capsys):
    teams = powered(7)
    players = [n for t in teams.values() for n in t.values()]
    lines = "".join(f"{t},{n},{POWERS[p]}\n" for t, ms in teams.items() for p, n in ms.items())
    code, out, err = run_seat(tmp_path, capsys, "graduated20", 2, players, lines)
    assert code == 0, err
    tables = json.loads(out)["tables"]
    assert len(tables) == 7
    for table in tables:
        assert {p: n[-1] for p, n in table["seats"].items()} == {
            POWERS[p]: p for p in LETTERS}


@pytest.mark.parametrize(("lines", "says"), [
    ("T1,P00\nT2,P00\n", "line 2: P00 is already in team T1 (line 1)"),
    ("T1,P00,Austria\nT1,P01,Austria\n", "line 2: team T1 has Austria already (P00)"),
    ("T1,P00,Austria\nT1,P01\n", "line 2: give a power on every line or none"),
    ("T1,P00,Prussia\n", "line 1: 'Prussia' is not a power"),
    ("T1\n", "line 1: give team,player or team,player,power"),
])
def test_dipclock_seat_refuses_a_bad_teams_line_by_its_number(tmp_path, capsys, lines, says):
    code, out, err = run_seat(tmp_path, capsys, "wdc2006", 3, names(21), lines)
    assert code == 2 and out == ""
    assert says in err and "Traceback" not in err


def test_a_sign_up_is_late_after_the_deadline_since_the_last_absence():
    from datetime import datetime

    def at(minute: int) -> datetime:
        return datetime(2006, 8, 5, 9, minute)

    lines: list[tuple[int, datetime, Status]] = [
        (1, at(0), "present"), (2, at(10), "present"), (1, at(40), "present"),
        (3, at(35), "sitting_out"), (2, at(31), "absent"), (2, at(45), "present"),
        (4, at(5), "present"), (4, at(50), "withdrawn")]
    assert signed_up_late(lines, at(30)) == [3, 2]
    assert rules_of("wdc2006").signup_deadline_minutes == 30

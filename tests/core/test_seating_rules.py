"""The draw follows each event's text (issue 36): wdc2003's areas of powers, wdc2018's three
of four preliminary rounds and no power twice, wdc2006's fifth round and adjacent powers,
graduated20's team round."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dipclock.events import BUILTIN
from dipclock.launcher.cli import main
from dipclock.powers import LETTERS
from dipclock.seating import Past, Seat, SeatingError, pair, read_past, seat_round
from dipclock.seating.powers import PowerRules, give_powers
from dipclock.seating.seat import areas_repeated
from dipclock.standings import StandingsError, StandingsRules
from dipclock.standings.rules import rules_from


def rules_of(event: str) -> StandingsRules:
    rules = BUILTIN[event].standings
    assert rules is not None
    return rules


WDC2003, WDC2006, WDC2018 = rules_of("wdc2003"), rules_of("wdc2006"), rules_of("wdc2018")
GRADUATED20 = rules_of("graduated20")
AREA = {"A": "AI", "I": "AI", "E": "EF", "F": "EF", "R": "RT", "T": "RT", "G": "G"}


def names(n: int, first: int = 0) -> list[str]:
    return [f"P{i:02d}" for i in range(first, first + n)]


def seats_of(seating) -> list[Seat]:
    return [Seat(seating.round, t.number, power, p)
            for t in seating.tables for power, p in t.seats.items()]


def one_table(players: list[str], rnd: int = 1, table: int = 1) -> list[Seat]:
    """A table of a round, the players in ``LETTERS`` order."""
    return [Seat(rnd, table, power, p) for power, p in zip(LETTERS, players, strict=True)]


# --- wdc2003: a different power and area each round --------------------------------------

def test_wdc2003_gives_each_player_a_power_of_an_area_they_had_not_had():
    """Seven who played A..T at one table meet again: each gets a power of another area
    (there is a way: A->E, E->A, F->G, G->T, I->R, R->I, T->F), whatever the draw."""
    players = names(7)
    past = read_past(one_table(players))
    for seed in range(20):
        s = seat_round(players, past, 2, random.Random(seed), rules=WDC2003)
        assert s.powers_repeated == 0
        assert all(AREA[now] != AREA[LETTERS[players.index(p)]]
                   for now, p in s.tables[0].seats.items()), seed
        assert areas_repeated(s.tables, past, WDC2003) == 0


def areas_over_four_rounds(seed: int) -> tuple[int, list[Seat]]:
    players = names(49)
    rng = random.Random(seed)
    history: list[Seat] = []
    total = 0
    for r in range(1, 5):
        past = read_past(history)
        s = seat_round(players, past, r, rng, rules=WDC2003)
        assert s.powers_repeated == 0 and s.pairs_met_before == 0
        total += areas_repeated(s.tables, past, WDC2003)
        history += seats_of(s)
    return total, history


@pytest.mark.parametrize("seed", [1, 3, 5, 6])
def test_wdc2003s_areas_over_four_rounds_of_49_repeat_only_what_germany_forces(seed):
    """49 players, 4 rounds: Germany's 28 seats leave 21 players who never play it and must
    repeat an area; the draw repeats no more than that (choosing each round alone, seeds
    3, 5 and 6 gave 22, 22 and 23: a round's least left the last round a table with a
    repeat more; the powers alone: 23 and more; without the areas: about 40)."""
    total, history = areas_over_four_rounds(seed)
    before: dict[str, set[str]] = {}
    counted = 0
    for r in range(1, 5):
        now = [(s.player, AREA[s.power]) for s in history if s.round == r]
        counted += sum(area in before.get(p, set()) for p, area in now)
        for p, area in now:
            before.setdefault(p, set()).add(area)
    assert counted == total
    assert total == 21
    areas: Counter[tuple[str, str]] = Counter()
    for seat in history:
        areas[seat.player, AREA[seat.power]] += 1
    assert max(areas.values()) <= 2  # nobody in one area three times


def test_areas_are_an_event_setting_read_from_names_or_letters():
    rules = rules_from({"power_areas": [["Austria", "i"], ["E", "France"]]})
    assert rules.power_areas == (("A", "I"), ("E", "F"))
    assert PowerRules.of(rules).area["G"] == frozenset("G")  # a power in no area: its own
    assert PowerRules.of(StandingsRules()).area == {}
    with pytest.raises(StandingsError, match="power_areas: .*Austria is in an area twice"):
        rules_from({"power_areas": [["A", "I"], ["A"]]})
    with pytest.raises(StandingsError, match="power_areas: .*'Prussia' is not a power"):
        rules_from({"power_areas": [["Prussia"]]})


# --- wdc2018: three of the four preliminary rounds; no power twice -----------------------

def wdc2018_seats() -> list[Seat]:
    """P00-P06 played preliminary rounds 1-3; P07-P13 round 1 only."""
    return (one_table(names(7)) + one_table(names(7, 7), 1, 2) + one_table(names(7), 2)
            + one_table(names(7), 3))


def wdc2018_past() -> tuple[list[str], Past]:
    """21 players present, ``wdc2018_seats`` before."""
    return names(21), read_past(wdc2018_seats())


def test_wdc2018_sits_out_first_those_who_played_three_preliminary_rounds():
    players, past = wdc2018_past()
    s = seat_round(players, past, 4, random.Random(1), rules=WDC2018)
    assert s.played_enough == tuple(names(7)) and s.sitting_out == tuple(names(7))
    seated = {p for t in s.tables for p in t.seats.values()}
    assert seated == set(names(14, 7)) and len(s.tables) == 2
    # round 5 is the final round, not a preliminary one: they play
    s = seat_round(players, past, 5, random.Random(1), rules=WDC2018)
    assert s.played_enough == () and len(s.tables) == 3


def test_wdc2018_refuses_a_round_left_without_a_table_by_the_rule():
    players, past = wdc2018_past()
    with pytest.raises(SeatingError, match=r"7 of the 10 players have played 4 rounds or 3 "
                                           r"of the 4 preliminary rounds.*3 left"):
        seat_round(names(10), past, 4, random.Random(1), rules=WDC2018)


def test_a_player_at_the_limit_is_not_a_second_board_either():
    players, past = wdc2018_past()
    with pytest.raises(SeatingError, match="need 6 on two boards.*0 of the players"):
        seat_round(players[:15], past, 4, random.Random(1), rules=WDC2018,
                   two_boards=["P00", "P01"])


def powers_or_pairs_past() -> tuple[list[str], Past]:
    """Seven who all played Austria, seven who all played England; each met each of the
    others' seven: seating each seven together meets nobody again but repeats a power at
    both tables."""
    group_a, group_b = names(7), names(7, 7)
    past = Past()
    for a in group_a:
        past.played[a] = Counter({"A": 1})
        for b in group_b:
            past.met[pair(a, b)] += 1
    for b in group_b:
        past.played[b] = Counter({"E": 1})
    past.seated[1] = set(group_a + group_b)
    return group_a + group_b, past


def test_wdc2018_avoids_a_repeated_power_before_a_pair_meeting_again():
    players, past = powers_or_pairs_past()
    s = seat_round(players, past, 2, random.Random(1), rules=WDC2018)
    assert s.powers_repeated == 0 and s.pairs_met_before > 0
    # the other events: pairs first
    s = seat_round(players, past, 2, random.Random(1), rules=WDC2003)
    assert (s.powers_repeated, s.pairs_met_before) == (2, 0)


def test_wdc2018_powers_first_keeps_kept_apart_pairs_apart():
    players, past = powers_or_pairs_past()
    apart = {pair(a, b) for a in names(7) for b in names(7, 7)}
    s = seat_round(players, past, 2, random.Random(1), rules=WDC2018, apart=apart)
    assert s.apart_together == 0 and s.powers_repeated == 2


# --- wdc2006: four rounds at most; adjacent powers not both times ------------------------

def test_wdc2006_whoever_played_rounds_1_to_4_sits_out_round_5():
    first, late = names(7), names(7, 7)
    seats = [s for r in range(1, 5) for s in one_table(first, r)] + one_table(late, 4, 2)
    past = read_past(seats)
    s = seat_round(first + late + names(7, 14), past, 5, random.Random(2), rules=WDC2006)
    assert s.played_enough == tuple(first)
    assert not {p for t in s.tables for p in t.seats.values()} & set(first)
    with pytest.raises(SeatingError, match="7 of the 13 players have played 4 rounds, the "
                                           "most the event allows"):
        seat_round(first + late[:6], past, 5, random.Random(2), rules=WDC2006)


def adjacent(a: str, b: str) -> bool:
    return (a, b) in WDC2006.adjacent_powers or (b, a) in WDC2006.adjacent_powers


def test_wdc2006_two_who_meet_again_after_adjacent_powers_are_not_adjacent_again():
    """Seven who met at one table meet again: each pair who sat at adjacent powers is not
    at adjacent powers now (and no power is repeated), whatever the draw."""
    players = names(7)
    past = read_past(one_table(players))
    was = dict(zip(players, LETTERS, strict=True))
    for seed in range(20):
        s = seat_round(players, past, 2, random.Random(seed), rules=WDC2006)
        now = {p: power for power, p in s.tables[0].seats.items()}
        both = [(a, b) for a in players for b in players if a < b
                and adjacent(was[a], was[b]) and adjacent(now[a], now[b])]
        assert both == [] and s.powers_repeated == 0, seed


def test_adjacent_powers_again_outrank_a_repeated_power():
    """P00 and P01 met at Austria and Germany (adjacent); P00 has played all but Italy, P01
    all but Austria (adjacent): the text lists "not adjacent powers both times" before "not
    play a power which they have already played", so one of them repeats a power."""
    seats = [Seat(1, 1, "A", "P00"), Seat(1, 1, "G", "P01")]
    seats += [Seat(r, 2, power, "P00") for r, power in enumerate("EFGRT", start=2)]
    seats += [Seat(r, 3, power, "P01") for r, power in enumerate("EFIRT", start=2)]
    past = read_past(seats)
    rules = PowerRules.of(WDC2006)
    for seed in range(5):
        got = give_powers(names(7), past, random.Random(seed), rules=rules)
        assert not adjacent(*(p for p, who in got.items() if who in ("P00", "P01")))
        assert sum(past.times_played(who, p) > 0 for p, who in got.items()) == 1
        plain = give_powers(names(7), past, random.Random(seed))
        assert (plain["I"], plain["A"]) == ("P00", "P01")


def test_adjacent_powers_are_pairs_of_two_powers():
    with pytest.raises(StandingsError, match="adjacent_powers: .*Austria is not adjacent to "
                                             "itself"):
        rules_from({"adjacent_powers": [["A", "Austria"]]})


# --- graduated20: the team round is seated from the teams --------------------------------

def test_graduated20s_team_round_is_not_drawn():
    with pytest.raises(SeatingError, match="round 2 is the team round: it is seated from "
                                           "the teams"):
        seat_round(names(14), Past(), 2, random.Random(1), rules=GRADUATED20)
    assert len(seat_round(names(14), Past(), 1, random.Random(1), rules=GRADUATED20).tables) == 2
    with pytest.raises(StandingsError, match="team_round_from_teams: .*team_size = 7"):
        rules_from({"team_round": 2, "team_size": 3, "team_round_from_teams": True})


def test_dipclock_seat_says_the_team_round_is_seated_from_the_teams(capsys, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("player\n" + "\n".join(names(14)) + "\n", encoding="utf-8")
    code = main(["seat", "graduated20", "--players", str(path), "--round", "2"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1].endswith(
        "round 2 is the team round: it is seated from the teams, each team's seven at the "
        "powers the team gave; give the teams, each member with their power "
        "(team,player,power lines)")


def test_dipclock_seat_names_who_sits_out_by_the_rule(capsys, tmp_path):
    players = names(21)
    path = tmp_path / "players.csv"
    path.write_text("player\n" + "\n".join(players) + "\n", encoding="utf-8")
    history = tmp_path / "seating.csv"
    rows = ["round,table,power,player"]
    rows += [f"{s.round},{s.table},{s.power},{s.player}" for s in wdc2018_seats()]
    history.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = main(["seat", "wdc2018", "--players", str(path), "--history", str(history),
                 "--round", "4", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Sitting out: P00, P01, P02, P03, P04, P05, P06" in out
    assert ("sitting out, having played the most rounds wdc2018 allows: P00, P01, P02, "
            "P03, P04, P05, P06") in err


def test_the_hubs_draft_seats_by_the_events_rules():
    """The seating desk's back-room job passes the event's rules to the seating: who played
    three preliminary rounds sits out, and the TD is told why."""
    from server.seatingjob import DraftJob, draft  # the hub's half, core-only imports

    job = DraftJob(round=4, players=tuple(names(21)), earlier=tuple(wdc2018_seats()), seed=1,
                   apart=frozenset(), kept=(), two_boards=(), rules=WDC2018, scores=())
    drafted = draft(job)
    assert drafted.seating.played_enough == tuple(names(7))
    assert tuple(map(str, drafted.notes)) == (
        "sitting out, having played the most rounds the event allows: P00, P01, P02, P03, "
        "P04, P05, P06",)

"""Seating a round (``dipclock.seating``): the rules that must never break, as properties
over random halls; the affine plane's eight clean rounds; sit-outs, two boards, kept-apart
pairs, called tables kept; and the powers."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.powers import LETTERS
from dipclock.seating import Past, Seat, SeatingError, Table, pair, plane, read_past, seat_round
from dipclock.seating.powers import cheapest_assignment, give_powers


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def seats_of(seating) -> list[Seat]:
    return [Seat(seating.round, t.number, power, p) for t in seating.tables
            for power, p in t.seats.items()]


def play(players, rounds, seed=1, **kw) -> tuple[list, list[Seat]]:
    """Seat ``rounds`` rounds one after another, as a TD would through the day."""
    rng, history, out = random.Random(seed), [], []
    for r in range(1, rounds + 1):
        s = seat_round(players, read_past(history), r, rng, **kw)
        out.append(s)
        history += seats_of(s)
    return out, history


def check_round(s, players, apart=frozenset(), doubles=()) -> None:
    """The rules of every round: seven different players a table, each power once; each
    player once (twice for those on two boards); the sitting out seat nowhere."""
    seen = Counter()
    for t in s.tables:
        assert sorted(t.seats) == sorted(LETTERS)
        assert len(set(t.seats.values())) == 7
        seen.update(t.seats.values())
        assert not any(pair(a, b) in apart for a in t.seats.values() for b in t.seats.values()
                       if a < b)
    assert set(seen) | set(s.sitting_out) == set(players)
    assert not set(seen) & set(s.sitting_out)
    assert all(n == (2 if p in doubles else 1) for p, n in seen.items())
    assert [t.number for t in s.tables] == sorted({t.number for t in s.tables})


@settings(max_examples=8, deadline=None)
@given(n=st.integers(21, 25), rounds=st.integers(1, 2), seed=st.integers(0, 2**16),
       apart=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24)), max_size=3))
def test_never_a_player_twice_a_power_twice_or_a_kept_apart_pair_together(n, rounds, seed,
                                                                        apart):
    # three tables or more: three pairs kept apart can always be
    players = names(n)
    kept = {pair(players[a], players[b]) for a, b in apart if a < n and b < n and a != b}
    seatings, _ = play(players, rounds, seed, apart=kept)
    for s in seatings:
        check_round(s, players, kept)
        assert len(s.sitting_out) == n % 7 and s.apart_together == 0


def test_forty_nine_players_meet_nobody_twice_in_eight_rounds_and_repeat_no_power_in_five():
    players = names(49)
    seatings, history = play(players, 8, seed=7)
    for s in seatings:
        check_round(s, players)
    assert [s.pairs_met_before for s in seatings] == [0] * 8
    assert [s.powers_repeated for s in seatings[:5]] == [0] * 5
    met = read_past(history).met
    assert len(met) == 49 * 48 // 2 and set(met.values()) == {1}  # every pair exactly once


def test_the_plane_is_found_in_rounds_seated_elsewhere_in_another_order():
    # the same classes, tables and players shuffled: still a plane, the rest still clean
    players = names(49)
    rng = random.Random(3)
    points = plane.new_plane(players, rng)
    rounds = []
    for slope in (4, None, 2, 0, 6):
        tables = plane.tables_of(points, slope)
        rng.shuffle(tables)
        rounds.append([rng.sample(t, 7) for t in tables])
    found = plane.coordinates(players, rounds, rng)
    assert found is not None
    coords, used = found
    assert len(set(used)) == 5
    for slope in (s for s in plane.CLASSES if s not in used):
        for table in plane.tables_of(coords, slope):
            for r in rounds:
                assert all(len(set(table) & set(t)) <= 1 for t in r)


def test_rounds_that_are_not_a_plane_are_seated_by_the_search():
    # round 3 swaps two players of round 1's plane class: no longer a class of any plane
    players = names(49)
    rng = random.Random(5)
    points = plane.new_plane(players, rng)
    rounds = [plane.tables_of(points, s) for s in (None, 0, 1)]
    a, b = rounds[2][0][0], rounds[2][1][0]
    rounds[2][0][0], rounds[2][1][0] = b, a
    assert plane.coordinates(players, rounds, rng) is None
    history = [Seat(r + 1, t + 1, LETTERS[i], p) for r, tables in enumerate(rounds)
               for t, table in enumerate(tables) for i, p in enumerate(table)]
    s = seat_round(players, read_past(history), 4, rng)
    check_round(s, players)


def test_nobody_sits_out_twice_before_everyone_has_sat_out_once():
    players = names(17)  # three sit out each round: everyone once in 5⅔ rounds
    seatings, _ = play(players, 12, seed=2)
    count = Counter()
    for s in seatings:
        assert len(s.sitting_out) == 3
        count.update(s.sitting_out)
        low = min(count[p] for p in players)
        assert max(count.values()) - low <= 1


def test_a_late_arrival_has_sat_out_already():
    players = names(50)
    seatings, history = play(players[:49], 1)
    s = seat_round(players, read_past(history), 2, random.Random(1))
    assert s.sitting_out != ("P49",)  # the late arrival missed round 1: someone else now


def test_players_on_two_boards_fill_the_last_table_instead_of_sitting_out():
    players = names(47)
    s = seat_round(players, Past(), 1, random.Random(1), two_boards=["P05", "P09", "P01"])
    check_round(s, players, doubles={"P05", "P09"})
    assert s.sitting_out == () and s.two_boards == ("P05", "P09") and len(s.tables) == 7
    with pytest.raises(SeatingError, match="need 2 on two boards.*1 of the players"):
        seat_round(players, Past(), 1, random.Random(1), two_boards=["P05"])


def test_called_tables_are_kept_and_the_rest_seated_again():
    players = names(49)
    seatings, history = play(players, 2, seed=4)
    called = [t for t in seatings[1].tables if t.number in (2, 5)]
    gone = next(p for p in players if p not in called[0].seats.values()
                and p not in called[1].seats.values())
    present = [p for p in players if p != gone] + ["Late"]
    before = read_past([s for s in history if s.round == 1])
    again = seat_round(present, before, 2, random.Random(9), fixed=called)
    check_round(again, present)
    assert [t for t in again.tables if t.number in (2, 5)] == called
    assert again.pairs_met_before == 0
    with pytest.raises(SeatingError, match=f"{called[0].seats['A']} is at a called table"):
        seat_round([p for p in players if p != called[0].seats["A"]], before, 2,
                   random.Random(9), fixed=called)


def test_a_kept_apart_pair_is_never_seated_together_by_the_plane_either():
    players = names(49)
    seatings, history = play(players, 3, seed=11)
    past = read_past(history)
    # the pair the plane's next classes would seat together, whichever comes first
    s4 = seat_round(players, past, 4, random.Random(11))
    a, b = sorted(s4.tables[0].seats.values())[:2]
    again = seat_round(players, past, 4, random.Random(11), apart={pair(a, b)})
    check_round(again, players, {pair(a, b)})
    assert again.pairs_met_before == 0


def test_the_counts_of_a_seating_weigh_each_earlier_meeting():
    table = dict(zip(LETTERS, names(7), strict=True))
    history = [Seat(r, 1, p, n) for r in (1, 2) for p, n in table.items()]
    s = seat_round(names(7), read_past(history), 3, random.Random(1))
    assert s.pairs_met_before == 21 * 2
    # each player has had one power, twice: with 7 powers a table can avoid them all
    assert s.powers_repeated == 0


def test_powers_avoid_those_played_and_then_the_latest():
    past = read_past([Seat(1, 1, "A", "ann"), Seat(2, 1, "E", "ann"), Seat(3, 1, "A", "ann")])
    for seed in range(20):
        got = give_powers(["ann", *names(6)], past, random.Random(seed))
        assert got["A"] != "ann" and got["E"] != "ann"
    # seven players who each had six powers: each gets the one left
    history = [Seat(r, 1, LETTERS[(i + r) % 7], p) for r in range(6)
               for i, p in enumerate(names(7))]
    got = give_powers(names(7), read_past(history), random.Random(1))
    assert all(read_past(history).times_played(p, power) == 0 for power, p in got.items())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=25, max_size=25))
def test_the_cheapest_assignment_is_the_cheapest_permutation(cells):
    costs = [cells[5 * i:5 * i + 5] for i in range(5)]
    total, of_row = cheapest_assignment(costs)
    assert sorted(of_row) == list(range(5))
    assert total == sum(costs[i][of_row[i]] for i in range(5))
    assert total == min(sum(costs[i][p[i]] for i in range(5))
                        for p in itertools.permutations(range(5)))


@pytest.mark.parametrize(("seats", "words"), [
    ([Seat(1, 1, "A", "x"), Seat(1, 1, "A", "y")], "Austria is seated twice"),
    ([Seat(1, 1, "A", "x"), Seat(1, 1, "E", "x")], "x is seated twice"),
    ([Seat(1, 1, "Q", "x")], "'Q' is not a power"),
])
def test_a_history_that_cannot_be_is_one_line(seats, words):
    with pytest.raises(SeatingError, match=words):
        read_past(seats)


def test_a_player_on_two_tables_of_a_round_is_history_that_can_be():
    past = read_past([Seat(1, 1, "A", "x"), Seat(1, 2, "A", "x")])
    assert past.times_played("x", "A") == 2 and past.sat_out("x") == 0


@pytest.mark.parametrize(("players", "words"), [
    (names(6), "6 players, a table needs 7"),
    ([*names(7), "P03"], "P03 is listed twice"),
])
def test_too_few_players_or_a_name_twice_is_refused(players, words):
    with pytest.raises(SeatingError, match=words):
        seat_round(players, Past(), 1, random.Random(1))


def test_the_same_seed_seats_the_same():
    a = seat_round(names(23), Past(), 1, random.Random(42))
    b = seat_round(names(23), Past(), 1, random.Random(42))
    assert a == b and a.tables != seat_round(names(23), Past(), 1, random.Random(43)).tables


def test_a_table_is_a_value():
    assert Table(1, {"A": "x"}) == Table(1, {"A": "x"})


def test_the_top_board_sits_together_and_is_told_the_events_order_of_choice():
    from dipclock.seating.topboard import choosing, top_board

    seeds = names(7)
    table = top_board(seeds, Past(), random.Random(1), number=4)
    assert table.number == 4 and sorted(table.seats.values()) == seeds
    assert sorted(table.seats) == sorted(LETTERS)
    placing = choosing("placed_then_chosen", seeds)
    assert "P06, then P05, then P04, then P03, then P02, then P01, then P00 place" in placing
    assert "chooses" in choosing("chosen", seeds) and choosing("assigned", seeds) == ""
    with pytest.raises(SeatingError, match="seven different players, not 6"):
        top_board(seeds[:6], Past(), random.Random(1))

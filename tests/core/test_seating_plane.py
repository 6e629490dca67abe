"""The seating's designs and its scale (issue 36): 56 and 63 players seated by affine planes
of order 8 and 9 less a line or two; a newcomer and a hand swap followed by the design; a
small hall's repeats spread over many pairs; a hall past the cap refused in one line."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from dipclock.seating import Past, Seat, SeatingError, plane, read_past, search, seat_round
from dipclock.seating.seatfile import MOST_PLAYERS


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def seats_of(seating) -> list[Seat]:
    return [Seat(seating.round, t.number, power, p) for t in seating.tables
            for power, p in t.seats.items()]


def play(players, rounds, seed=1, history=(), first=1) -> tuple[list, list[Seat]]:
    """Seat rounds ``first``.. one after another, as a TD would through the day."""
    rng, history, out = random.Random(seed), list(history), []
    for r in range(first, first + rounds):
        s = seat_round(players, read_past(history), r, rng)
        out.append(s)
        history += seats_of(s)
    return out, history


@pytest.mark.parametrize("order", [7, 8, 9])
def test_the_arithmetic_of_7_8_and_9_elements_is_a_field(order):
    f = plane.field_of(order)
    els = range(order)
    for a, b in itertools.product(els, els):
        assert f.add[a][b] == f.add[b][a] and f.mul[a][b] == f.mul[b][a]
        assert f.add[f.sub[a][b]][b] == a
        assert b == 0 or f.mul[f.div[a][b]][b] == a
        for c in els:
            assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
            assert f.mul[f.mul[a][b]][c] == f.mul[a][f.mul[b][c]]
    assert sorted(f.mul[a][b] for a in els[1:] for b in els[1:] if f.mul[a][b] == 1) == [1] * (
        order - 1)  # each element but 0 has one inverse: no zero divisors


@pytest.mark.parametrize(("players", "rounds"), [(56, 8), (63, 9)])
def test_56_and_63_players_meet_nobody_twice_in_8_and_9_rounds(players, rounds):
    """The affine plane of order 8 less one vertical line, of order 9 less two: every line
    of the other classes keeps seven points. Before, the search seated them clean to round
    3 or 4 only."""
    seatings, history = play(names(players), rounds, seed=3)
    assert [s.pairs_met_before for s in seatings] == [0] * rounds
    assert all(len(t.seats) == 7 for s in seatings for t in s.tables)
    met = read_past(history).met
    assert len(met) == rounds * (players // 7) * 21 and set(met.values()) == {1}


@pytest.mark.parametrize("players", [56, 63])
def test_the_cut_plane_is_found_in_rounds_seated_elsewhere_in_another_order(players):
    rng = random.Random(5)
    found = plane.follow(names(players), [], rng)
    assert found is not None
    rounds = []
    for slope in rng.sample(found.options(), 4):
        tables = found.tables(slope)
        rng.shuffle(tables)
        rounds.append([rng.sample(t, 7) for t in tables])
    again = plane.follow(names(players), rounds, rng)
    assert again is not None and len(again.used) == 4 and not again.mended
    for slope in again.options():
        for table in again.tables(slope):
            assert len(table) == 7
            assert all(len(set(table) & set(t)) <= 1 for r in rounds for t in r)


@pytest.mark.parametrize("players", [49, 63])
def test_a_newcomer_replacing_a_withdrawal_takes_the_empty_point(players):
    """After round 3 a player withdraws and a newcomer takes the place: every later round
    of the design is still clean (before, the search seated them: 4 to 22 pairs again)."""
    hall = names(players)
    _, history = play(hall, 3, seed=2)
    now = [p for p in hall if p != "P07"] + ["Newcomer"]
    found = plane.follow(now, [read_past(history).tables[r] for r in (1, 2, 3)],
                         random.Random(1))
    assert found is not None and found.used and "Newcomer" in found.points
    later, _ = play(now, {49: 5, 63: 6}[players], seed=2, history=history, first=4)
    assert [s.pairs_met_before for s in later] == [0] * len(later)


def _swapped(history: list[Seat], r: int, a: str, b: str) -> list[Seat]:
    def other(p: str) -> str:
        return b if p == a else a if p == b else p
    return [Seat(s.round, s.table, s.power, other(s.player) if s.round == r else s.player)
            for s in history]


@pytest.mark.parametrize(("players", "swapped_in"), [(49, 2), (49, 4), (56, 3), (63, 3)])
def test_one_hand_swap_is_read_as_the_class_it_was_meant_to_be(players, swapped_in):
    """The TD swaps two players of round ``swapped_in`` by hand: the design is followed to
    its end, meeting again only pairs the swap made (a pair or two a round), where the
    search, seating each round alone, soon meets dozens again."""
    hall = names(players)
    _, history = play(hall, 4 if players == 49 else 3, seed=1)
    table_of = {s.player: s.table for s in history if s.round == swapped_in}
    a = next(p for p in hall if table_of[p] == 1)
    b = next(p for p in hall if table_of[p] == 2)
    history = _swapped(history, swapped_in, a, b)
    past = read_past(history)
    found = plane.follow(hall, [past.tables[r] for r in sorted(past.tables)], random.Random(1))
    assert found is not None
    assert found.mended in {f"round {swapped_in}'s {x} and {y} read as swapped by hand"
                            for x, y in ((a, b), (b, a))}
    first = max(past.tables) + 1
    design_rounds = players // 7 + (1 if players == 49 else 0)
    later, _ = play(hall, design_rounds - first + 1, seed=1, history=history, first=first)
    met = [s.pairs_met_before for s in later]
    assert max(met) <= 2 and sum(met) <= 12, met


def test_a_small_hall_spreads_its_repeats_over_many_pairs():
    """14 players over 5 rounds: with the rounds' count alone two players sat together in
    all 5 rounds (seed 2 here). The most any pair can be kept to is 4: a player is a word
    of 5 bits (its table each round), two meet in the bits they share, so at most 3
    meetings means words at distance 2 or more; 14 such words of 5 bits are 14 of the 16
    words of one parity (two words with the same first 4 bits are 1 apart, and the 4-cube
    less two corners is 2-coloured one way only), and taking 2 of one parity's 16 away
    never leaves each round 7 at a table (the two would cover the 5 rounds once: an odd
    and an even word)."""
    for seed in range(1, 5):
        _, history = play(names(14), 5, seed=seed)
        assert max(read_past(history).met.values()) == 4, seed


def test_the_search_weighs_a_pair_by_the_square_of_its_meetings():
    past = Past()
    past.met.update({("a", "b"): 3, ("a", "c"): 1})
    m = search.costs(["a", "b", "c", "d"], past, {("c", "d")})
    assert m[0] == {1: 9, 2: 1} and m[2] == {0: 1, 3: search.APART} and m[1] == {0: 9}


def test_the_search_keeps_only_the_pairs_who_met():
    """A hall of thousands: the costs are its meetings (6 a player a round), not n²."""
    hall = [f"P{i:04d}" for i in range(MOST_PLAYERS)]
    s = seat_round(hall, Past(), 1, random.Random(1))
    past = read_past(seats_of(s))
    m = search.costs(hall, past, frozenset())
    assert sum(map(len, m)) == 6 * len(hall)


def test_a_hall_past_the_cap_is_refused_in_one_line():
    hall = [f"P{i:05d}" for i in range(MOST_PLAYERS + 7)]
    with pytest.raises(SeatingError) as err:
        seat_round(hall, Past(), 1, random.Random(1))
    assert str(err.value) == (f"{MOST_PLAYERS + 7:,} players to seat: the seating seats at "
                              f"most {MOST_PLAYERS:,} (999 tables) in a round")
    assert Counter(len(t.seats) for t in seat_round(hall[:MOST_PLAYERS], Past(), 1,
                                                    random.Random(1)).tables) == {7: 999}

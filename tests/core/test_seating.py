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
from dipclock.seating.seatfile import read_seats
from dipclock.seating.topboard import TopBoard, top_board_round
from dipclock.standings import GameScore, StandingsRules


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


def test_after_a_withdrawal_the_table_seated_again_takes_its_second_board_from_a_kept_one():
    """The audit's bug: with the other tables kept and two boards allowed, a player of the
    one table seated again was put at it twice (Austria and Germany), exit 0."""
    players = names(49)
    _, history = play(players, 1, seed=4)
    before = read_past(history)
    called = seat_round(players, before, 2, random.Random(4))
    three = next(t for t in called.tables if t.number == 3)
    gone = three.seats["A"]
    kept = [t for t in called.tables if t.number != 3]
    stays, elsewhere = three.seats["G"], kept[0].seats["E"]
    present = [p for p in players if p != gone]
    again = seat_round(present, before, 2, random.Random(9), fixed=kept,
                       two_boards=[stays, elsewhere])  # the TD's order: table 3's first
    check_round(again, present, doubles={elsewhere})
    assert again.two_boards == (elsewhere,)
    assert set(next(t for t in again.tables if t.number == 3).seats.values()) == (
        set(three.seats.values()) - {gone} | {elsewhere})
    with pytest.raises(SeatingError, match="1 on two boards.*0 of the players are willing "
                                           r"\(one table is seated again"):
        seat_round(present, before, 2, random.Random(9), fixed=kept, two_boards=[stays])


def test_a_player_on_two_boards_gets_another_power_on_the_second():
    """P05 has played every power but Turkey: both boards would give it Turkey, and the
    second Turkey is a repeat like any other."""
    history = [Seat(r, 1, LETTERS[i], p) for r in range(1, 7) for i, p in enumerate(
        [f"Q{r}{j}" for j in range(6)][:r - 1] + ["P05"] + [f"Q{r}{j}" for j in range(6)][
            r - 1:])]
    past = read_past(history)
    assert {power for power in LETTERS if past.times_played("P05", power)} == set(LETTERS[:6])
    players = names(47)
    for seed in range(5):
        s = seat_round(players, past, 7, random.Random(seed), two_boards=["P05", "P09"])
        check_round(s, players, doubles={"P05", "P09"})
        mine = [power for t in s.tables for power, p in t.seats.items() if p == "P05"]
        assert len(mine) == 2 and len(set(mine)) == 2 and "T" in mine
        assert s.powers_repeated == 1  # P05's other power: it played them all before


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
    placing = str(choosing("placed_then_chosen", seeds))
    assert "P06, then P05, then P04, then P03, then P02, then P01, then P00 place" in placing
    assert "chooses" in str(choosing("chosen", seeds)) and choosing("assigned", seeds) is None
    with pytest.raises(SeatingError, match="7 different players, not 6"):
        top_board(seeds[:6], Past(), random.Random(1))


def test_seven_is_written_once_in_the_seating_as_the_powers_count():
    """``SEATS`` (``len(LETTERS)``) is every table's size; no module of the seating writes
    a 7 of its own, but the affine plane's order, a property of its arithmetic."""
    import ast
    from pathlib import Path

    from dipclock.seating import SEATS

    assert SEATS == len(LETTERS) == 7
    folder = Path(seat_round.__code__.co_filename).parent
    sevens = [f"{path.name}:{node.lineno}" for path in sorted(folder.glob("*.py"))
              if path.name != "plane.py"
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Constant) and type(node.value) is int and node.value == 7]
    assert sevens == []


# --- the top-board step both the hub and `dipclock seat` take ------------------------------

TOP = StandingsRules(top_board_round=2)


def scored(*players_and_scores: tuple[str, float]) -> list[GameScore]:
    return [GameScore(1, p, s) for p, s in players_and_scores]


def test_the_top_board_round_seats_the_standings_seven_the_absent_passed_over():
    scores = scored(*((p, 100 - i) for i, p in enumerate(names(9))))
    got = top_board_round(2, names(9)[1:], scores, TOP, Past(), random.Random(1), {1})
    assert got.seeds == tuple(names(9)[1:8])  # P00 absent: P07 takes the seat
    assert [t.number for t in got.tables] == [2]  # table 1 is called already
    assert sorted(got.tables[0].seats.values()) == names(9)[1:8]
    assert tuple(map(str, got.notes)) == (f"table 2 is the top board: {', '.join(names(9)[1:8])}",)
    assert top_board_round(1, names(9), scores, TOP, Past(), random.Random(1)) == TopBoard()
    assert top_board_round(2, names(9), scores, None, Past(), random.Random(1)) == TopBoard()


def test_a_tie_for_the_last_top_board_seat_seats_no_top_board_and_names_the_level():
    """wdc2006 19.8 seats "the top 7 of the ranking"; its tie-breaks end in "position is
    shared": with the seventh seat shared, no rule says who sits there, so nobody is picked
    and the TD is told who is level."""
    players = names(9)
    scores = scored(*((p, 100 - i) for i, p in enumerate(players[:7])), (players[7], 94))
    got = top_board_round(2, players, scores, TOP, Past(), random.Random(1))
    assert got.tables == () and got.seeds == ()
    assert tuple(map(str, got.notes)) == (
        "seat 7 of the top board is tied between P06, P07: no tie-break separates them: the "
        "top board is not seated; the TD decides who takes the seat, and seats the top board "
        "by hand",)
    # the one who is level withdraws: nothing is tied any more
    again = top_board_round(2, players[:7], scores, TOP, Past(), random.Random(1))
    assert again.seeds == tuple(players[:7])


def test_a_top_board_round_before_any_score_seats_no_top_board_and_says_so():
    got = top_board_round(2, names(9), [], TOP, Past(), random.Random(1))
    assert got.tables == () and tuple(map(str, got.notes)) == (
        "round 2 is the top board's: no game before it has a score yet, so the top board is "
        "not seated",)


# --- the seating file both the hub and `dipclock seat --history` read ----------------------

def test_a_seating_file_is_read_with_a_header_blank_lines_names_and_a_bom():
    text = "\ufeffRound,Table,Power,Player\n\n 1 , 2 ,england, Ann Smith \n1,2,T,Bo\n"
    assert read_seats(text) == [Seat(1, 2, "E", "Ann Smith"), Seat(1, 2, "T", "Bo")]
    assert read_seats("1,2,E,\n", clearing=True) == [Seat(1, 2, "E", "")]
    assert read_seats("1,1,A,Zoë\u00a0Li\n") == [Seat(1, 1, "A", "Zoë\u00a0Li")]


@pytest.mark.parametrize(("text", "words"), [
    ("1,1,England\n", "line 1: give round,table,power,player (4 values, not 3)"),
    ("round,table,power,player\n1,x,E,Al\n",
     "line 2: table: 'x' is not a table number (a whole number from 1 to 999)"),
    ("100,1,E,Al\n", "line 1: round: '100' is not a round number (a whole number from 1 to 99)"),
    ("1,²,E,Al\n", "line 1: table: '²' is not a table number"),
    ("1," + "9" * 5000 + ",E,Al\n",
     "line 1: table: '999999999999999999999999…' is not a table number"),
    ("1,1," + "Prussia" * 9 + ",Al\n", "line 1: power: 'PrussiaPrussiaPrussiaPru…' is not"),
    ("1,1,Spain,Al\n", "line 1: power: 'Spain' is not a power (one of A E F G I R T)"),
    ("1,1,E,\n", "line 1: player: a player's name is empty"),
    ("1,1,E,bell\x07\n", "line 1: player: a name is one line of at most 80 characters"),
    ("1,1,E," + "x" * 81 + "\n", "line 1: player: a name is one line of at most 80"),
    ("1,1,E,Al\n1,1,F,\x00\n", "line 2: "),
])
def test_a_bad_seating_line_is_one_line_naming_it(text, words):
    with pytest.raises(SeatingError) as err:
        read_seats(text)
    assert str(err.value).startswith(words)


def test_the_past_of_a_name_in_another_form_is_the_present_players_past():
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "José")
    assert decomposed != "José"
    table = dict(zip(LETTERS, [decomposed, "ANNA", *names(5)], strict=True))
    seats = [Seat(1, 1, power, p) for power, p in table.items()]
    past = read_past(seats, ["José", "Anna", *names(5)])
    assert past.times_met("José", "Anna") == 1 and past.times_played("José", "A") == 1
    assert past.sat_out("José") == 0 and past.sat_out("Anna") == 0
    alone = read_past(seats)  # nobody present to name them: the kept form (NFC)
    assert alone.times_played("José", "A") == 1 and alone.times_met("ANNA", "P00") == 1
    with pytest.raises(SeatingError, match="José and JOSÉ are one name"):
        seat_round(["José", "JOSÉ", *names(12)], Past(), 1, random.Random(1))

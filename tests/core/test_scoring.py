"""Every scoring system against its rule text's worked examples and hand-made boards.

Expected figures are worked by hand in the comments beside them (or printed in the rule
text), never computed by the code under test.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.powers import LETTERS
from dipclock.scoring import SYSTEMS, GameResult, ResultError, score_game
from dipclock.scoring.armada import game_year_points
from dipclock.scoring.result import parse_centres


def board(text: str, year: int = 1907, **kw) -> GameResult:
    return GameResult(parse_centres(text), year, **kw)


def rounded(scores: dict[str, float]) -> dict[str, float]:
    return {p: round(v, 2) for p, v in scores.items()}


# --- Sum of Squares (wdc2018): the rule text's three examples --------------------------


def test_sum_of_squares_example_a_of_the_rule_text():
    game = board("A=12,E=0,F=3,G=6,I=9,R=0,T=4", eliminated={"E": 1905, "R": 1906})
    assert rounded(score_game("sum-of-squares", game, 18)) == {
        "A": 50.35, "E": 0.0, "F": 3.15, "G": 12.59, "I": 28.32, "R": 0.0, "T": 5.59}


def test_sum_of_squares_example_b_of_the_rule_text():
    game = board("A=12,E=4,F=4,G=4,I=4,R=3,T=3")
    assert rounded(score_game("sum-of-squares", game, 18)) == {
        "A": 63.72, "E": 7.08, "F": 7.08, "G": 7.08, "I": 7.08, "R": 3.98, "T": 3.98}


def test_sum_of_squares_example_c_a_solo_takes_100():
    game = board("A=18,E=3,F=4,G=0,I=0,R=9,T=0", solo="A",
                 eliminated={"G": 1904, "I": 1905, "T": 1906})
    assert score_game("sum-of-squares", game, 18) == {
        "A": 100.0, "E": 0.0, "F": 0.0, "G": 0.0, "I": 0.0, "R": 0.0, "T": 0.0}


# --- ManorCon, c² + 4c + 16 (wdc2006, graduated20) ----------------------------------------


def test_manorcon_all_seven_surviving():
    # p: 10 -> 156, 8 -> 112, 6 -> 76, 4 -> 48, 3 -> 37, 2 -> 28, 1 -> 21; sum 478
    game = board("A=10,E=8,F=6,G=4,I=3,R=2,T=1", year=1909)
    assert rounded(score_game("manorcon", game, 18)) == {
        "A": 32.64, "E": 23.43, "F": 15.90, "G": 10.04, "I": 7.74, "R": 5.86, "T": 4.39}


def test_manorcon_sums_over_all_seven_and_scores_the_eliminated_by_year():
    # p: 12 -> 208, 11 -> 181, 11 -> 181, 0 -> 16 (x4); sum 634 (rule 19.5: all seven)
    game = board("A=12,E=11,F=11,G=0,I=0,R=0,T=0", year=1909,
                 eliminated={"G": 1903, "I": 1905, "R": 1908, "T": 1909})
    assert rounded(score_game("manorcon", game, 18)) == {
        "A": 32.81, "E": 28.55, "F": 28.55, "G": 0.3, "I": 0.5, "R": 0.8, "T": 0.9}


def test_manorcon_losers_to_a_solo_score_as_if_eliminated_that_year():
    game = board("A=0,E=18,F=5,G=4,I=3,R=2,T=2", year=1908, solo="E", eliminated={"A": 1904})
    assert rounded(score_game("manorcon", game, 18)) == {
        "A": 0.4, "E": 75.0, "F": 0.8, "G": 0.8, "I": 0.8, "R": 0.8, "T": 0.8}


# --- ARMADA (wdc2003) --------------------------------------------------------------------


def test_armada_game_year_points_are_the_rule_texts_table():
    table = [1.00, 2.01, 3.03, 4.06, 5.10, 6.15, 7.21, 8.28, 9.36, 10.45, 11.55, 12.66,
             13.78, 14.91]
    assert [round(game_year_points(1900 + n), 2) for n in range(1, 15)] == table


@pytest.mark.parametrize(("size", "points"), [(2, 80), (3, 56), (4, 40), (5, 32), (6, 24),
                                              (7, 16)])
def test_armada_every_draw_size_less_the_final_years_points(size, points):
    survivors = LETTERS[:size]
    centres = {p: (34 // size if p in survivors else 0) for p in LETTERS}
    game = GameResult(centres, 1906, draw=frozenset(survivors),
                      eliminated={p: 1905 for p in LETTERS if p not in survivors})
    scores = score_game("armada", game, 17)
    for p in LETTERS:  # 1906: 6.15 off a draw; an elimination in 1905 adds 5.10
        assert round(scores[p], 2) == (round(points - 6.15, 2) if p in survivors else 5.10)


def test_armada_victor_and_the_two_way_draw_leaves_the_others_losing():
    won = board("A=14,E=5,F=5,G=4,I=3,R=3,T=0", year=1909, solo="A", eliminated={"T": 1907})
    assert rounded(score_game("armada", won, 14)) == {  # 104 - 9.36; losers 9.36, T 7.21
        "A": 94.64, "E": 9.36, "F": 9.36, "G": 9.36, "I": 9.36, "R": 9.36, "T": 7.21}
    drawn = board("A=12,E=12,F=4,G=3,I=3,R=0,T=0", year=1910, draw=frozenset("AE"),
                  eliminated={"R": 1908, "T": 1909})
    assert rounded(score_game("armada", drawn, 12)) == {  # 80 - 10.45
        "A": 69.55, "E": 69.55, "F": 10.45, "G": 10.45, "I": 10.45, "R": 8.28, "T": 9.36}


def test_armada_victory_thresholds_fall_with_the_year():
    wdc2003 = BUILTIN["wdc2003"]
    game = board("A=10,E=5,F=5,G=5,I=5,R=4,T=0", year=1911, solo="A", eliminated={"T": 1910})
    assert round(score_game("armada", game, wdc2003.solo_centres(1911))["A"], 2) == 92.45
    early = board("A=10,E=5,F=5,G=5,I=5,R=4,T=0", year=1906, solo="A", eliminated={"T": 1905})
    with pytest.raises(ResultError, match="Austria has 10 centres: a solo in 1906 needs 17"):
        score_game("armada", early, wdc2003.solo_centres(1906))


# --- Super Pastis (wdc2019) --------------------------------------------------------------


def test_super_pastis_a_single_top():
    # survivors 10 + 2c; I one behind: +12, G two behind: +6; the top: 51 - 8 (second's
    # centres); E eliminated in 1905: 4 years before it
    game = board("A=9,E=0,F=4,G=7,I=8,R=3,T=3", eliminated={"E": 1905})
    assert score_game("super-pastis", game, 18) == {
        "A": 10 + 18 + 43, "E": 4, "F": 18, "G": 10 + 14 + 6, "I": 10 + 16 + 12, "R": 16,
        "T": 16}


def test_super_pastis_a_shared_top_divides_the_bonuses():
    # x = 2 sharing 9: 48/2 each; 8 (one behind) 12/2; 6 (three behind) 3/2
    game = board("A=9,E=9,F=8,G=6,I=2,R=0,T=0", eliminated={"R": 1904, "T": 1906})
    assert score_game("super-pastis", game, 18) == {
        "A": 10 + 18 + 24, "E": 10 + 18 + 24, "F": 10 + 16 + 6, "G": 10 + 12 + 1.5,
        "I": 14, "R": 3, "T": 5}


def test_super_pastis_a_three_way_top():
    game = board("A=10,E=10,F=10,G=2,I=2,R=0,T=0", eliminated={"R": 1905, "T": 1905})
    scores = score_game("super-pastis", game, 18)
    assert scores["A"] == scores["E"] == scores["F"] == 10 + 20 + 16
    assert scores["G"] == 14 and scores["R"] == 4


def test_super_pastis_a_solo_is_the_double_pastis():
    # "The other players score 1 point per year played": the survivors 1901-1907, 7; R
    # played 1901-1904, its elimination year too, 4; T, out in 1907, played all seven
    game = board("A=18,E=4,F=4,G=4,I=4,R=0,T=0", solo="A", eliminated={"R": 1904, "T": 1907})
    assert score_game("super-pastis", game, 18) == {
        "A": 102, "E": 7, "F": 7, "G": 7, "I": 7, "R": 4, "T": 7}


# --- C-Diplo and Carnage -----------------------------------------------------------------


def test_c_diplo_top_second_third_and_shared_places():
    # A tops: 38 + 17 + 1; a 17-17 board: (38 + 14) / 2 + 17 + 1 = 44 each, third 7
    top = board("A=17,E=5,F=4,G=3,I=3,R=1,T=1")
    assert score_game("c-diplo", top, 18) == {
        "A": 56, "E": 20, "F": 12, "G": 4, "I": 4, "R": 2, "T": 2}
    shared = board("A=17,E=17,F=0,G=0,I=0,R=0,T=0",
                   eliminated={"F": 1905, "G": 1906, "I": 1906, "R": 1907, "T": 1907})
    scores = score_game("c-diplo", shared, 18)
    assert scores["A"] == scores["E"] == 44 and scores["F"] == 1
    assert sum(scores.values()) == 93  # 34 + 7 + 38 + 14: no third survivor, no 7


def test_carnage_the_published_examples():
    ranked = board("A=0,E=3,F=6,G=4,I=0,R=14,T=7", eliminated={"A": 1904, "I": 1906})
    assert score_game("carnage", ranked, 18) == {
        "R": 7014, "T": 6007, "F": 5006, "G": 4004, "E": 3003, "I": 2000, "A": 1000}
    shared = board("A=1,E=8,F=7,G=0,I=4,R=8,T=6", eliminated={"G": 1906})
    assert score_game("carnage", shared, 18) == {
        "E": 6508, "R": 6508, "F": 5007, "T": 4006, "I": 3004, "A": 2001, "G": 1000}
    solo = board("A=0,E=3,F=6,G=4,I=0,R=18,T=3", solo="R", eliminated={"A": 1904, "I": 1906})
    assert score_game("carnage", solo, 18)["R"] == 28034


# --- properties --------------------------------------------------------------------------


@st.composite
def boards(draw):
    """A game without a solo: up to 34 centres on seven powers, the powerless eliminated."""
    y = draw(st.integers(1903, 1912))
    total = draw(st.integers(7, 34))
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=6, max_size=6)))
    centres = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    if max(centres) >= 18:
        centres = [min(c, 17) for c in centres]
    got = dict(zip(LETTERS, centres, strict=True))
    if sum(c > 0 for c in centres) < 2:  # a lone survivor has won: not a draw
        got["A"], got["E"] = max(got["A"], 1), max(got["E"], 1)
    eliminated = {p: draw(st.integers(1901, y)) for p, c in got.items() if c == 0}
    return GameResult(got, y, eliminated=eliminated)


@settings(max_examples=300)
@given(boards())
def test_a_sum_of_squares_draw_adds_to_100(game):
    assert sum(score_game("sum-of-squares", game, 18).values()) == pytest.approx(100)


@settings(max_examples=300)
@given(boards())
def test_a_manorcon_board_adds_to_100_less_the_eliminated_shares(game):
    scores = score_game("manorcon", game, 18)
    survivors = sum(scores[p] for p in game.survivors)
    if not game.eliminated:
        assert survivors == pytest.approx(100)
    else:  # each eliminated power's p of 16 is in the sum but not shared out
        p = {q: c * c + 4 * c + 16 for q, c in game.centres.items()}
        lost = 100 * 16 * len(game.eliminated) / sum(p.values())
        assert survivors == pytest.approx(100 - lost)


@settings(max_examples=300)
@given(boards())
def test_c_diplo_and_carnage_share_out_the_whole_game(game):
    # 1 to each of seven, 1 per centre, 38 + 14 + 7 to the places: 100 on a full board
    c_diplo = sum(score_game("c-diplo", game, 18).values())
    if len(game.survivors) >= 3:
        assert c_diplo == pytest.approx(7 + sum(game.centres.values()) + 59)
    assert sum(score_game("carnage", game, 18).values()) == pytest.approx(
        28000 + sum(game.centres.values()))


@settings(max_examples=300)
@given(boards(), st.sampled_from(sorted(SYSTEMS)))
def test_more_centres_never_scores_less_on_the_same_board(game, system):
    scores = score_game(system, game, 18)
    for p in LETTERS:
        for q in LETTERS:
            if game.centres[p] > game.centres[q]:
                if system == "armada" and q in game.eliminated and len(game.survivors) < 7:
                    # the text pays late eliminations more than big late draws; only
                    # within the years the Regatta's games last does it not
                    if game.year > 1910:
                        continue
                assert scores[p] >= scores[q], (system, p, q, scores)


# --- bad sheets --------------------------------------------------------------------------


@pytest.mark.parametrize(("kw", "message"), [
    ({"centres": "A=5,E=4,F=6,G=0,I=7,R=6,T=7"}, "add up to 35"),
    ({"centres": "A=35,E=0,F=0,G=0,I=0,R=0,T=0"}, "Austria has 35 centres"),
    ({"centres": "A=5,E=4,F=6,G=0,I=7,R=6"}, "Turkey missing"),
    ({"eliminated": {}}, "Germany has no centres: give the year"),
    ({"eliminated": {"G": 1905, "A": 1906}}, "Austria holds 5 centres"),
    ({"eliminated": {"G": 1908}}, "a year from 1901 to the game's last, 1907"),
    ({"draw": frozenset("AG")}, "Germany was eliminated"),
    ({"draw": frozenset("A")}, "at least two"),
    ({"solo": "I", "draw": frozenset("AI")}, "one way: a solo and a draw are given"),
    ({"conceded_to": "I", "draw": frozenset("AI")}, "a draw and a concession are given"),
    ({"conceded_to": "G"}, "Germany has no centres: it cannot have been conceded to"),
    ({"conceded_to": "X"}, "'X' is not a power"),
    ({"centres": "A=0,E=0,F=0,G=0,I=0,R=0,T=0", "eliminated": dict.fromkeys(LETTERS, 1905)},
     "no power holds a centre"),
    ({"centres": "A=7,E=0,F=0,G=0,I=0,R=0,T=0", "eliminated": dict.fromkeys("EFGIRT", 1905)},
     "only Austria survives"),
])
def test_a_sheet_that_cannot_be_scored_says_what_to_correct(kw, message):
    args = {"centres": "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "eliminated": {"G": 1905}, **kw}
    with pytest.raises(ResultError, match=message):
        board(args.pop("centres"), **args)


def test_a_soloist_needs_the_threshold_and_the_most_centres():
    game = board("A=17,E=17,F=0,G=0,I=0,R=0,T=0", solo="A",
                 eliminated={p: 1905 for p in "FGIRT"})
    with pytest.raises(ResultError, match="needs 18"):
        score_game("sum-of-squares", game, 18)
    with pytest.raises(ResultError, match="the most centres"):
        score_game("sum-of-squares", game, 16)


def test_a_draw_leaving_a_survivor_out_is_refused_where_draws_include_all_survivors():
    game = board("A=12,E=12,F=4,G=3,I=3,R=0,T=0", year=1910, draw=frozenset("AE"),
                 eliminated={"R": 1908, "T": 1909})
    for system in ("manorcon", "sum-of-squares", "super-pastis", "c-diplo", "carnage"):
        with pytest.raises(ResultError, match="France, Germany, Italy survived"):
            score_game(system, game, 18)


def test_every_builtin_event_names_a_system_and_its_readings():
    assert {e.id: e.scoring.system for e in BUILTIN.values() if e.scoring} == {
        "wdc2003": "armada", "wdc2006": "manorcon", "wdc2018": "sum-of-squares",
        "wdc2019": "super-pastis", "graduated20": "manorcon"}
    assert all(e.scoring and e.scoring.notes for e in BUILTIN.values())


def test_the_last_power_standing_has_won_whatever_it_holds():
    game = board("A=7,E=0,F=0,G=0,I=0,R=0,T=0", solo="A", eliminated=dict.fromkeys("EFGIRT", 1905))
    assert score_game("sum-of-squares", game, 18)["A"] == 100


@pytest.mark.parametrize(("system", "winner", "others"), [
    # the soloist's whole score, and what a surviving loser gets in 1908 (Germany, out in
    # 1904, gets its own year's under the systems that count years: Super Pastis's "1 point
    # per year played", 4; ManorCon's 0.4)
    ("manorcon", 75, 0.8), ("armada", 104 - 8.28, 8.28), ("sum-of-squares", 100, 0),
    ("super-pastis", 102, 8), ("c-diplo", 100, 0), ("carnage", 28034, 0),
])
def test_every_system_s_solo(system, winner, others):
    game = board("A=0,E=20,F=5,G=0,I=4,R=3,T=2", year=1908, solo="E",
                 eliminated={"A": 1903, "G": 1904})
    scores = score_game(system, game, 18)
    assert round(scores["E"], 2) == round(winner, 2)
    assert [round(scores[p], 2) for p in "FIRT"] == [others] * 4
    assert all(scores[p] <= scores[q] for p in "AG" for q in "FIRT")


# --- a board already won, a concession ---------------------------------------------------


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_board_with_a_power_at_the_threshold_is_its_solo_whatever_it_says(system):
    # wdc2018: "The game will end in a solo victory if a single power controls 18 or more
    # supply centers at the end of a Fall turn": a sheet calling it a draw (all survivors
    # or some) is scored as the solo it was
    solo = board("A=0,E=18,F=5,G=0,I=4,R=4,T=3", year=1908, solo="E",
                 eliminated={"A": 1903, "G": 1904})
    for said in ({}, {"draw": frozenset("EF")}, {"conceded_to": "F"}):
        game = board("A=0,E=18,F=5,G=0,I=4,R=4,T=3", year=1908,
                     eliminated={"A": 1903, "G": 1904}, **said)
        assert score_game(system, game, 18) == score_game(system, solo, 18), said


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_concession_scores_as_the_victory_it_concedes(system):
    # wdc2003: "A game will end in a victory if all players ... vote unanimously to concede
    # the game to a specific single power"; graduated20's 19.3 "any solo beats any draw"
    conceded = board("A=0,E=9,F=8,G=0,I=7,R=5,T=5", year=1908, conceded_to="F",
                     eliminated={"A": 1903, "G": 1904})
    scores = score_game(system, conceded, 18)
    assert scores["F"] == max(scores.values()) and scores["F"] > scores["E"]
    assert scores["E"] == scores["I"] == scores["R"] == scores["T"]


def test_a_leader_that_did_not_grow_has_not_won():
    # wdc2003: a victory needs a largest power that "has increased its supply center count
    # in the just-completed game-year"; the sheet says it did not: a draw of all survivors
    stalled = board("A=0,E=9,F=8,G=0,I=7,R=5,T=5", year=1913, leader_grew=False,
                    eliminated={"A": 1903, "G": 1904})
    scores = score_game("armada", stalled, 6)
    assert round(scores["E"], 2) == round(32 - 13.78, 2)  # a five-way draw in 1913
    with pytest.raises(ResultError, match="England did not grow in 1913"):
        score_game("armada", board("A=0,E=9,F=8,G=0,I=7,R=5,T=5", year=1913, solo="E",
                                   leader_grew=False, eliminated={"A": 1903, "G": 1904}), 6)

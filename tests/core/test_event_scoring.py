"""A sheet under its event's own text: the endings each rule text allows, its last year, its
concessions, and a victory whatever the sheet says. Expected figures are worked by hand."""

from __future__ import annotations

import pytest

from dipclock.events import BUILTIN, EventError
from dipclock.eventscoring import Endings, check_rounds, endings, last_year, score_result
from dipclock.scoring import GameResult, ResultError
from dipclock.scoring.result import parse_centres


def board(text: str, year: int, **kw) -> GameResult:
    return GameResult(parse_centres(text), year, **kw)


def scored(event: str, game: GameResult, **kw) -> dict[str, float]:
    return {p: round(v, 2) for p, v in score_result(BUILTIN[event], game, **kw).scores.items()}


# --- a victory is a victory --------------------------------------------------------------


def test_wdc2018_eighteen_centres_are_a_solo_though_the_sheet_says_draw():
    # "The game will end in a solo victory if a single power controls 18 or more supply
    # centers at the end of a Fall turn": 100 to the soloist, 0 to the rest
    game = board("A=18,E=4,F=4,G=4,I=4,R=0,T=0", 1907, eliminated={"R": 1904, "T": 1906})
    out = score_result(BUILTIN["wdc2018"], game)
    assert out.scores == {"A": 100, "E": 0, "F": 0, "G": 0, "I": 0, "R": 0, "T": 0}
    assert out.result.solo == "A"
    assert [str(n) for n in out.notes] == [
        "Austria holds 18 centres at the end of 1907 (a victory needs 18): the game ended in "
        "its solo, not a draw"]


def test_wdc2003_a_single_largest_power_at_the_years_threshold_has_won():
    # "A game will end in a victory ... if": the single largest, grown this year, holding the
    # year's number (1909: 14). 104 - 9.36 to it; the losers 9.36, Turkey out in 1907 7.21
    game = board("A=14,E=5,F=5,G=4,I=3,R=3,T=0", 1909, eliminated={"T": 1907})
    assert scored("wdc2003", game) == {
        "A": 94.64, "E": 9.36, "F": 9.36, "G": 9.36, "I": 9.36, "R": 9.36, "T": 7.21}


def test_wdc2003_no_victory_for_a_shared_top_or_a_leader_that_did_not_grow():
    # criterion 1, "a single power owning more supply centers than any other power": a 14-14
    # board is a draw of all survivors (five-way in 1909: 32 - 9.36)
    level = board("A=14,E=14,F=2,G=2,I=2,R=0,T=0", 1909, eliminated={"R": 1906, "T": 1907})
    assert scored("wdc2003", level)["A"] == 22.64
    # criterion 2, "has increased its supply center count in the just-completed game-year":
    # the sheet says the leader did not; six-way draw in 1913: 24 - 13.78
    stalled = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1913, leader_grew=False,
                    eliminated={"T": 1910})
    assert scored("wdc2003", stalled)["A"] == 10.22
    assert scored("wdc2003", board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1913,
                                   eliminated={"T": 1910}))["A"] == round(104 - 13.78, 2)


def test_growth_is_asked_only_where_the_event_asks_it():
    game = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1907, leader_grew=False,
                 eliminated={"T": 1906})
    with pytest.raises(ResultError, match="wdc2018's victory does not ask whether the "
                                          "leader grew"):
        score_result(BUILTIN["wdc2018"], game)


def test_a_solo_below_the_threshold_stays_refused():
    game = board("A=17,E=5,F=4,G=4,I=4,R=0,T=0", 1907, solo="A",
                 eliminated={"R": 1904, "T": 1906})
    with pytest.raises(ResultError, match="Austria has 17 centres: a solo in 1907 needs 18"):
        score_result(BUILTIN["wdc2019"], game)


# --- concessions -------------------------------------------------------------------------


def test_wdc2003_a_concession_is_a_victory_and_the_others_concede_that_year():
    # "A game will end in a victory if all players who control at least one supply center
    # vote unanimously to concede the game to a specific single power"; "For each
    # elimination, loss, or concession to another player, the Game-Year points ... are
    # added ... according to the game-year in which the player's ... concession occurred"
    game = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1907, conceded_to="E", eliminated={"T": 1905})
    assert scored("wdc2003", game) == {  # 104 - 7.21; 7.21 to each other; T 5.10 (1905)
        "A": 7.21, "E": 96.79, "F": 7.21, "G": 7.21, "I": 7.21, "R": 7.21, "T": 5.1}


def test_graduated20_a_concession_is_scored_as_the_solo_it_concedes():
    # rule 16: "a concession to a named Great Power"; 19.4 "A solo scores 75 points"; 19.6
    # "Losers to a solo score as if eliminated in the year of the solo": 0.8 in 1908
    game = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1908, conceded_to="F", eliminated={"T": 1906})
    assert scored("graduated20", game, round_no=2) == {
        "A": 0.8, "E": 0.8, "F": 75.0, "G": 0.8, "I": 0.8, "R": 0.8, "T": 0.6}


@pytest.mark.parametrize("event", ["wdc2006", "wdc2018", "wdc2019"])
def test_events_without_concessions_refuse_one(event):
    # wdc2018: "Solos may not be conceded"; wdc2006's proposals "can only take the form of
    # a DIAS"; wdc2019 names only the end-of-game vote
    game = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1907, conceded_to="F", eliminated={"T": 1906})
    with pytest.raises(ResultError, match=f"^{event} has no concessions"):
        score_result(BUILTIN[event], game)


# --- draws -------------------------------------------------------------------------------


def test_wdc2003_only_the_draws_its_text_names():
    # "A two-way draw vote can be called for if ... both owned more supply centers than all
    # other powers" (level, at the year's threshold); otherwise "a draw shared equally
    # among all surviving players"
    two = board("A=12,E=12,F=4,G=3,I=3,R=0,T=0", 1910, draw=frozenset("AE"),
                eliminated={"R": 1908, "T": 1909})
    assert scored("wdc2003", two)["A"] == 69.55  # 80 - 10.45
    for draw, centres, year, needs in (
            ("AEF", "A=12,E=12,F=4,G=3,I=3,R=0,T=0", 1910, 12),  # three of five survivors
            ("AE", "A=11,E=11,F=6,G=3,I=3,R=0,T=0", 1910, 12),   # under 1910's 12
            ("AF", "A=11,E=11,F=11,G=1,I=0,R=0,T=0", 1911, 10)):  # not more than all others
        game = board(centres, year, draw=frozenset(draw),
                     eliminated={p: 1908 for p, c in parse_centres(centres).items() if not c})
        with pytest.raises(ResultError, match=f"wdc2003's draws include all survivors, or are "
                                              f"two leaders level at {needs}\\+ centres in "
                                              f"{year}: not "):
            score_result(BUILTIN["wdc2003"], game)


@pytest.mark.parametrize(("event", "first"), [("wdc2006", 1905), ("graduated20", 1905),
                                              ("wdc2019", 1903), ("wdc2018", 1903)])
def test_no_game_ends_by_vote_before_the_event_allows_votes(event, first):
    # wdc2006 and graduated20 rule 16: "any time after the 1905 centre chart has been
    # entered"; wdc2019 4g: "From the spring of 1904", the count "from the end of the
    # previous year"; wdc2018: "Starting in 1904, players may propose to end the game"
    early = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", first - 1, eliminated={"T": first - 1})
    with pytest.raises(ResultError, match=f"{event}'s games end by vote from {first}: a draw "
                                          f"in {first - 1}"):
        score_result(BUILTIN[event], early)
    on_time = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", first, eliminated={"T": first})
    assert score_result(BUILTIN[event], on_time).result.drawing == tuple("AEFGIR")
    solo = board("A=18,E=8,F=7,G=1,I=0,R=0,T=0", first - 1,
                 eliminated=dict.fromkeys("IRT", first - 1))
    assert score_result(BUILTIN[event], solo).result.solo == "A"  # a solo needs no vote
    # a round the TD called (or a last year) ended it at that Fall: by the clock, no vote
    called = score_result(BUILTIN[event], early, clock_year=first - 1)
    assert called.result.drawing == tuple("AEFGIR")
    with pytest.raises(ResultError, match="end by vote"):  # an earlier count is a vote's
        score_result(BUILTIN[event], early, clock_year=first)


# --- the last year -----------------------------------------------------------------------


@pytest.mark.parametrize(("event", "last"), [("wdc2006", 1909), ("wdc2019", 1907)])
def test_no_result_after_the_events_last_year(event, last):
    # wdc2006 rule 17: "All games will run to Winter 1909"; wdc2019: "Each game will length
    # 7 years"
    late = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", last + 1, eliminated={"T": 1906})
    with pytest.raises(ResultError, match=f"{event}'s games end with Fall {last}: "
                                          f"{last + 1} cannot count"):
        score_result(BUILTIN[event], late)
    score_result(BUILTIN[event], board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", last,
                                       eliminated={"T": 1906}))


def test_graduated20_the_last_year_is_the_rounds():
    # rule 17: "All games on Friday will run to Autumn 1909. All games on Saturday and
    # Sunday will run to Autumn 1911."
    graduated = BUILTIN["graduated20"]
    assert [last_year(graduated, n) for n in (1, 2, 3, None)] == [1909, 1911, 1911, 1911]
    assert last_year(graduated, 1, round_last_year=1910) == 1910  # as the TD set it up
    assert last_year(BUILTIN["wdc2003"]) is None and last_year(BUILTIN["wdc2006"], 5) == 1909
    game = board("A=9,E=8,F=7,G=5,I=3,R=2,T=0", 1910, eliminated={"T": 1906})
    with pytest.raises(ResultError, match="graduated20's games end with Fall 1909"):
        score_result(graduated, game, round_no=1)
    assert score_result(graduated, game, round_no=2).scores


def test_what_each_event_lets_a_sheet_offer():
    assert {e: endings(p) for e, p in BUILTIN.items()} == {
        "wdc2003": Endings(draws="two_leaders", concession=True, leader_growth=True,
                           votes_from=None, last_year=None),
        "wdc2006": Endings(draws="all_survivors", concession=False, leader_growth=False,
                           votes_from=1905, last_year=1909),
        "wdc2018": Endings(draws="all_survivors", concession=False, leader_growth=False,
                           votes_from=1903, last_year=None),
        "wdc2019": Endings(draws="all_survivors", concession=False, leader_growth=False,
                           votes_from=1903, last_year=1907),
        "graduated20": Endings(draws="all_survivors", concession=True, leader_growth=False,
                               votes_from=1905, last_year=1911),
    }
    assert endings(BUILTIN["graduated20"], 1).last_year == 1909


def test_a_round_the_event_does_not_have():
    check_rounds(BUILTIN["wdc2006"], [1, 5])
    with pytest.raises(EventError, match=r"wdc2006 has no round 6 \(rounds: 1, 2, 3, 4, 5\)"):
        check_rounds(BUILTIN["wdc2006"], [1, 6])


def test_an_event_file_names_its_endings():
    from dipclock.events import parse_event_toml

    text = ('name = "Open"\nvictory_needs_growth = true\n[[phase_lengths]]\nspring = 15\n'
            'fall = 15\n[penalty]\nmodel = "nmr"\n[scoring]\nsystem = "armada"\n'
            'concessions = true\nvotes_from = 1904\ndraws = "two_leaders"\n')
    assert endings(parse_event_toml(text, "open.toml")) == Endings(
        draws="two_leaders", concession=True, leader_growth=True, votes_from=1904,
        last_year=None)
    # a system that scores every draw as one of all survivors has no smaller draws
    with pytest.raises(EventError, match="open.toml: scoring: draws = 'any': Sum of Squares "
                                         "scores every draw as one of all survivors"):
        parse_event_toml(text.replace('"armada"', '"sum-of-squares"').replace(
            '"two_leaders"', '"any"'), "open.toml")


def test_the_endings_are_said_in_words_for_the_sheet_page() -> None:
    """The result sheet's page shows these words; it decides none of them."""
    assert endings(BUILTIN["wdc2006"], 1).text == (
        "A vote can end a game from 1905. Games end with Fall 1909.")
    assert endings(BUILTIN["wdc2003"], 1).text == (
        "A draw is of all survivors, or of two leaders level at the year's victory threshold.")

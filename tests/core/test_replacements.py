"""A player leaves mid-game: the replacement's checks, who plays a power at a phase, and the
score's shares by each event's rule (``dipclock.replacements``)."""

from __future__ import annotations

import random

import pytest

from dipclock.events import BUILTIN
from dipclock.replacements import (
    CIVIL_DISORDER,
    Replacement,
    ReplacementError,
    check,
    players_at,
    shares,
    split,
)
from dipclock.schedule import PhaseRef
from dipclock.seating import Past
from dipclock.seating.topboard import top_board_round
from dipclock.standings import GameScore, StandingsRules, standings

SEATED = {4: {"G": "Ann Start", "E": "Bea"}, 5: {"G": "Cy Other"}}


def rec(phase: str, player: str | None, share: float | None = None, power: str = "G",
        table: int = 4) -> Replacement:
    return Replacement(round=2, table=table, power=power, phase=PhaseRef.parse(phase),
                       player=player, share=share)


def test_a_good_replacement_passes() -> None:
    check(rec("F1903", "Zoe Late"), [], SEATED)
    check(rec("S1905", None), [rec("F1903", "Zoe Late")], SEATED)


@pytest.mark.parametrize(("new", "others", "kw", "words"), [
    (rec("F1903", "Zoe", power="A"), [], {}, "no one was seated as Austria"),
    (rec("S1901", "Zoe"), [], {}, "Spring 1901 is the game's start"),
    (rec("F1910", "Zoe"), [], {"last_year": 1909}, "the game ends in 1909"),
    (rec("F1903", "Zoe"), [rec("F1903", None)], {}, "civil disorder already plays it"),
    (rec("F1904", "Zoe"), [rec("F1903", "Zoe")], {}, "Zoe already plays it then"),
    (rec("F1903", "Cy Other"), [], {}, "plays at table 5 this round"),
    (rec("F1903", "Zoe"), [rec("S1903", "Zoe", table=5)], {},
     "Zoe already replaces a player at table 5"),
    (rec("F1903", "Zoe"), [], {"rule": "td"}, "give Zoe's share"),
    (rec("F1904", "Zoe", 60), [rec("F1903", "Yan", 50)], {}, "add up to 110 %"),
    (rec("F1903", "Zoe", 120), [], {}, "a share is 0 to 100 %"),
    (rec("F1903", "  "), [], {}, "no player named"),
])
def test_a_bad_replacement_is_refused_with_why(new: Replacement, others: list[Replacement],
                                               kw: dict[str, object], words: str) -> None:
    with pytest.raises(ReplacementError, match=words):
        check(new, others, SEATED, **kw)  # type: ignore[arg-type]


def test_two_boards_allowed_lets_a_player_at_another_table_replace() -> None:
    check(rec("F1903", "Cy Other"), [], SEATED, two_boards=True)


def test_a_player_at_the_same_table_may_replace() -> None:
    # wdc2019: "a player who played that game will be allowed to make the remplacement"
    check(rec("F1903", "Bea"), [], SEATED)


def test_wdc2018_a_player_of_the_game_may_not_take_another_position() -> None:
    """wdc2018: "A player eliminated from the game may not play another position in the
    same game as a replacement"; nor one who came in as a replacement there."""
    rules = BUILTIN["wdc2018"].standings
    assert rules is not None and rules.replacement_from_game is False
    with pytest.raises(ReplacementError, match="Bea played England in this game"):
        check(rec("F1903", "Bea"), [], SEATED, rule="td", from_game=False)
    with pytest.raises(ReplacementError, match="Zoe played England in this game"):
        check(rec("F1904", "Zoe", 50), [rec("S1903", "Zoe", power="E")], SEATED,
              from_game=False)
    check(rec("F1903", "Zoe", 50), [], SEATED, rule="td", from_game=False)
    wdc2019 = BUILTIN["wdc2019"].standings
    assert wdc2019 is not None and wdc2019.replacement_from_game is True


def test_who_plays_it_from_the_phase_on_only() -> None:
    records = [rec("F1903", "Zoe Late"), rec("S1905", None)]
    seated = SEATED[4]
    assert players_at(seated, records, None)["G"] == "Ann Start"
    assert players_at(seated, records, PhaseRef.parse("S1903"))["G"] == "Ann Start"
    assert players_at(seated, records, PhaseRef.parse("F1903"))["G"] == "Zoe Late"
    assert players_at(seated, records, PhaseRef.parse("F1904"))["G"] == "Zoe Late"
    assert players_at(seated, records, PhaseRef.parse("S1905")) == {
        "G": CIVIL_DISORDER, "E": "Bea"}


def test_each_rule_shares_the_score() -> None:
    zoe = [rec("F1903", "Zoe")]
    assert dict(shares("Ann", zoe, "original", 1907)[0]) == {"Ann": 1.0}
    assert dict(shares("Ann", zoe, "replacement", 1907)[0]) == {"Ann": 0.0, "Zoe": 1.0}
    # Ann: Spring 1901 to Spring 1903, five phases of fourteen to Fall 1907
    got = dict(shares("Ann", zoe, "split_by_years", 1907)[0])
    assert got == pytest.approx({"Ann": 5 / 14, "Zoe": 9 / 14})
    # the TD's share overrides the event's rule
    assert dict(shares("Ann", [rec("F1903", "Zoe", 40)], "original", 1907)[0]) == \
        pytest.approx({"Ann": 0.6, "Zoe": 0.4})
    # civil disorder scores for no one
    cd = dict(shares("Ann", [rec("F1903", None)], "split_by_years", 1907)[0])
    assert cd == pytest.approx({"Ann": 5 / 14})


def test_each_events_default_follows_its_text() -> None:
    got = {k: p.standings.replaced_score for k, p in BUILTIN.items() if p.standings}
    assert got == {"wdc2003": "replacement", "wdc2006": "original", "wdc2018": "td",
                   "wdc2019": "td", "graduated20": "original"}


def test_the_split_enters_the_standings_with_its_note() -> None:
    ann = GameScore(round=2, player="Ann", score=50.0, board="4", power="Germany", centres=5)
    games, note = split(ann, [rec("F1903", "Zoe", 40)], "original", 1907)
    assert str(note) == "Germany at round 2 table 4: 60 % to Ann, 40 % to Zoe, as the TD decided"
    keep = next(g for g in games if g.player == "Ann")
    assert (keep.board, keep.power, keep.centres, keep.score) == ("4", "Germany", 5, 30.0)
    zoe = next(g for g in games if g.player == "Zoe")
    assert (zoe.board, zoe.power, zoe.score) == (None, None, 20.0)
    table = {s.player: s.total for s in standings(games, StandingsRules())}
    assert table == {"Ann": 30.0, "Zoe": 20.0}


def test_a_share_passes_the_tie_breaks_that_need_boards_and_powers() -> None:
    """wdc2019 breaks ties head to head and by home centres, which need each game's board
    and power; a replacement's share has neither by design (a board seats one player a
    power), and the standings once refused the whole event for it."""
    ann = GameScore(round=2, player="Ann", score=50.0, board="4", power="Germany", centres=5)
    bob = GameScore(round=2, player="Bob", score=20.0, board="4", power="Italy", centres=2)
    games, _ = split(ann, [rec("F1903", "Zoe", 40)], "td", 1907)
    rules = BUILTIN["wdc2019"].standings
    assert set(rules.tie_breaks) >= {"head_to_head", "fewer_home_centres"}
    table = {s.player: s.total for s in standings([*games, bob], rules)}
    assert table == pytest.approx({"Ann": 30.0, "Zoe": 20.0, "Bob": 20.0})


TOP = StandingsRules(top_board_round=2)


def top_scores(*players_and_scores: tuple[str, float]) -> list[GameScore]:
    return [GameScore(1, p, s) for p, s in players_and_scores]


def test_a_top_board_player_withdraws_and_the_next_in_the_ranking_takes_the_seat() -> None:
    """wdc2006 19.8: "If a player steps back, the following player in the ranking may
    replace him"."""
    players = [f"P{i}" for i in range(9)]
    scores = top_scores(*((p, 100 - i) for i, p in enumerate(players)))
    got = top_board_round(2, players[1:], scores, TOP, Past(), random.Random(1))
    assert got.seeds == tuple(players[1:8])


def test_the_td_names_who_of_the_level_next_takes_the_seat() -> None:
    players = [f"P{i}" for i in range(9)]
    # P0 withdraws; P7 and P8 are level behind P1 ... P6
    scores = top_scores(*((p, 100 - i) for i, p in enumerate(players[:8])), ("P8", 93))
    present = players[1:]
    tied = top_board_round(2, present, scores, TOP, Past(), random.Random(1))
    assert tied.seeds == () and "tied between P7, P8" in str(tied.notes[0])
    got = top_board_round(2, present, scores, TOP, Past(), random.Random(1), chosen=["P8"])
    assert got.seeds == ("P1", "P2", "P3", "P4", "P5", "P6", "P8")
    # a name not among those level settles nothing, and the note says so
    wrong = top_board_round(2, present, scores, TOP, Past(), random.Random(1), chosen=["P1"])
    assert wrong.seeds == () and "the TD named P1: name 1 of those level" in str(wrong.notes[0])

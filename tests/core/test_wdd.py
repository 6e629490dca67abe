"""The WDD's two upload files, column by column (``dipclock.wdd``'s docstring and
``docs/wdd.md`` say where each rule comes from: Dipvis's export, the WDD's guide as it
quotes it).

One small event plays through the real standings: eight players, two rounds. Round 1,
board "3": a draw of all six survivors, Turkey eliminated in 1905, Italy and Russia level.
Round 2, board "1", the top board: France's solo; Anne Martin sat it out and Zoë Late, who
missed round 1, played it. Two John Smiths (HOMONYME 1 and 2), accents typed decomposed.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import cache

import pytest

from dipclock.scoring.result import GameResult
from dipclock.standings import GameScore, StandingsRules, best_countries, standings
from dipclock.standings.model import TeamStanding
from dipclock.wdd import (
    BOARDS,
    CLASSIFICATION,
    Board,
    Event,
    WddError,
    board_numbers,
    boards_csv,
    classification_csv,
    country_code,
    location_code,
    number,
    power_code,
    wdd_files,
)


@dataclass(frozen=True)
class P:
    given: str
    family: str
    homonym: int = 1
    nationality: str | None = None
    location: str | None = None


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


PEOPLE = {
    "Anne Martin": P("Anne", "Martin", nationality="FR", location="Lyon"),
    "José Núñez": P(nfd("José"), nfd("Núñez"), nationality="ES"),
    "John Smith": P("John", "Smith", nationality="gb"),
    "John Smith (2)": P("John", "Smith", homonym=2, nationality="US"),
    "Kai Müller": P("Kai", "Müller", nationality="DE", location="Berlin, Germany"),
    "Ola Nordmann": P("Ola", "Nordmann", nationality="NO", location="Leeds, UK"),
    "Björn Berg": P("Björn", "Berg", nationality="QA"),
    "Zoë Late": P("Zoë", "Late"),
}

ROUND1 = Board(
    round=1, board="3",
    result=GameResult(centres={"A": 8, "E": 7, "F": 6, "G": 5, "I": 4, "R": 4, "T": 0},
                      year=1907, eliminated={"T": 1905}),
    players={"A": "Anne Martin", "E": "José Núñez", "F": "John Smith",
             "G": "John Smith (2)", "I": "Kai Müller", "R": "Ola Nordmann",
             "T": "Björn Berg"},
    scores={"A": 30, "E": 25, "F": 20, "G": 12, "I": 8, "R": 8, "T": 0},
    counts={"T": {1901: 4, 1902: 3, 1903: 2, 1904: 1, 1905: 0, 1906: 0, 1907: 0},
            "Austria": {1901: 5, 1907: 8}},
)
ROUND2 = Board(
    round=2, board="1",
    result=GameResult(centres={"A": 3, "E": 4, "F": 18, "G": 5, "I": 2, "R": 2, "T": 0},
                      year=1908, solo="F", eliminated={"T": 1906}),
    players={"A": "José Núñez", "E": "John Smith", "F": "John Smith (2)", "G": "Kai Müller",
             "I": "Ola Nordmann", "R": "Björn Berg", "T": "Zoë Late"},
    scores={"A": 0, "E": 0, "F": 100, "G": 0, "I": 0, "R": 0, "T": 0},
)


def game_scores(*boards: Board) -> list[GameScore]:
    return [GameScore(b.round, player, b.scores[power], b.board, power,
                      b.result.centres[power])
            for b in boards for power, player in b.players.items()]


def make_event(*boards: Board, **changes) -> Event:
    boards = boards or (ROUND1, ROUND2)
    scores = game_scores(*boards)
    rules = StandingsRules()
    event = Event(people=PEOPLE, standings=standings(scores, rules), scores=scores,
                  boards=boards, best=best_countries(scores, rules), top_board=(2, "1"))
    return replace(event, **changes)


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def by_player(text: str) -> dict[str, dict[str, str]]:
    """Classification rows by the roster's name (FIRST NAME, NAME and HOMONYME)."""
    names = {(unicodedata.normalize("NFC", p.given), unicodedata.normalize("NFC", p.family),
              str(p.homonym)): name for name, p in PEOPLE.items()}
    return {names[key]: r for r in rows(text)
            if (key := (r["FIRST NAME"], r["NAME"], r["HOMONYME"])) in names}


def by_seat(text: str) -> dict[str, dict[str, str]]:
    """Boards rows by round and power code: "1 0AU"."""
    return {f"{r['ROUND']} {r['COUNTRY']}": r for r in rows(text)}


@cache
def classification_text() -> str:
    return classification_csv(make_event())


@cache
def boards_text() -> str:
    return boards_csv(make_event())


#: (file, column, the rule, {row: expected value}); the id of each case is its rule
COLUMNS = [
    (CLASSIFICATION, "FIRST NAME", "the given name, as the roster keeps it (NFC)",
     {"José Núñez": "José", "Anne Martin": "Anne"}),
    (CLASSIFICATION, "NAME", "the family name, as the roster keeps it (NFC)",
     {"José Núñez": "Núñez", "Kai Müller": "Müller"}),
    (CLASSIFICATION, "HOMONYME", "1 unless the WDD told two people of one name apart",
     {"John Smith": "1", "John Smith (2)": "2", "Anne Martin": "1"}),
    (CLASSIFICATION, "RANK", "the place in the final standings, shared by players level",
     {"John Smith (2)": "1", "Anne Martin": "2", "José Núñez": "3", "John Smith": "4",
      "Kai Müller": "5", "Ola Nordmann": "5", "Björn Berg": "7", "Zoë Late": "7"}),
    (CLASSIFICATION, "EXAEQUO", "how many players share that place (1 when alone)",
     {"John Smith (2)": "1", "Kai Müller": "2", "Ola Nordmann": "2", "Zoë Late": "2"}),
    (CLASSIFICATION, "LOCATION",
     "the WDD's code of the country the location names last, empty for a town alone",
     {"Kai Müller": "ALL", "Ola Nordmann": "ANG", "Anne Martin": "", "Zoë Late": ""}),
    (CLASSIFICATION, "NATIONALITY",
     "the WDD's code of the nationality, ZZZ without a WDD flag, empty when unknown",
     {"Anne Martin": "FRA", "John Smith": "ANG", "John Smith (2)": "USA",
      "Kai Müller": "ALL", "Ola Nordmann": "NGE", "Björn Berg": "ZZZ", "Zoë Late": ""}),
    (CLASSIFICATION, "SCORE", "the tournament total",
     {"John Smith (2)": "112", "Anne Martin": "30", "Zoë Late": "0"}),
    (CLASSIFICATION, "R1", "the score in round 1, empty when not played",
     {"Anne Martin": "30", "John Smith (2)": "12", "Zoë Late": ""}),
    (CLASSIFICATION, "R2", "the score in round 2, empty when not played",
     {"Anne Martin": "", "John Smith (2)": "100", "Zoë Late": "0"}),
    (CLASSIFICATION, "R8", "a round the event did not have is empty",
     {"Anne Martin": "", "John Smith (2)": ""}),
    (CLASSIFICATION, "RK_0AU", "1 for the best Austria, empty for everyone else",
     {"Anne Martin": "1", "José Núñez": ""}),
    (CLASSIFICATION, "PT_0AU", "the best Austria's score in that game",
     {"Anne Martin": "30", "José Núñez": ""}),
    (CLASSIFICATION, "CT_0AU", "the best Austria's final centres in that game",
     {"Anne Martin": "8"}),
    (CLASSIFICATION, "HEAT_0AU", "the round of the best Austria's game",
     {"Anne Martin": "1"}),
    (CLASSIFICATION, "BOARD_0AU", "the board number of the best Austria's game",
     {"Anne Martin": "3"}),
    (CLASSIFICATION, "RK_0FR", "a power's best may be in another round (France: round 2)",
     {"John Smith (2)": "1", "John Smith": ""}),
    (CLASSIFICATION, "HEAT_0FR", "the round of the best France's game",
     {"John Smith (2)": "2"}),
    (CLASSIFICATION, "RK_0TU", "best-country winners level on score are each ranked 1",
     {"Björn Berg": "1", "Zoë Late": "1", "Anne Martin": ""}),
    (CLASSIFICATION, "NAME_TOPBOARD", "the top board's name, A, for its players only",
     {"John Smith (2)": "A", "Zoë Late": "A", "Anne Martin": ""}),
    (CLASSIFICATION, "HEAT_TOPBOARD", "the top board's round", {"Zoë Late": "2"}),
    (CLASSIFICATION, "BOARD_TOPBOARD", "the top board's number in its round",
     {"Zoë Late": "1"}),
    (CLASSIFICATION, "RK_TOPBOARD", "the player's place on the top board by score",
     {"John Smith (2)": "1", "Zoë Late": "2", "Anne Martin": ""}),
    (CLASSIFICATION, "CT_TOPBOARD", "the player's final centres on the top board",
     {"John Smith (2)": "18", "Zoë Late": "0"}),
    (CLASSIFICATION, "COUNTRY_TOPBOARD", "the player's power on the top board",
     {"John Smith (2)": "0FR", "Zoë Late": "0TU"}),
    (BOARDS, "FIRST NAME", "the given name, as the roster keeps it (NFC)",
     {"1 0EN": "José", "1 0AU": "Anne"}),
    (BOARDS, "NAME", "the family name, as the roster keeps it (NFC)",
     {"1 0EN": "Núñez"}),
    (BOARDS, "HOMONYME", "1 unless the WDD told two people of one name apart",
     {"1 0FR": "1", "1 0GE": "2"}),
    (BOARDS, "ROUND", "the round", {"1 0AU": "1", "2 0AU": "2"}),
    (BOARDS, "BOARD", "the board's number within its round: its name when a number",
     {"1 0AU": "3", "2 0AU": "1"}),
    (BOARDS, "COUNTRY", "the power: 0 and its name's first two letters",
     {"1 0AU": "0AU", "1 0TU": "0TU"}),
    (BOARDS, "RANK", "the place on the board by score, shared by powers level",
     {"1 0AU": "1", "1 0EN": "2", "1 0IT": "5", "1 0RU": "5", "1 0TU": "7",
      "2 0FR": "1", "2 0AU": "2", "2 0TU": "2"}),
    (BOARDS, "EXAEQUO", "how many powers share that place on the board (1 when alone)",
     {"1 0AU": "1", "1 0IT": "2", "1 0RU": "2", "2 0FR": "1", "2 0AU": "6"}),
    (BOARDS, "SCORE", "the game's score", {"1 0AU": "30", "2 0FR": "100", "1 0TU": "0"}),
    (BOARDS, "NB_CENTRE", "the final centres", {"1 0AU": "8", "1 0TU": "0", "2 0FR": "18"}),
    (BOARDS, "YEAR_ELIMINATION",
     "the game year (1 for 1901) the power lost its last centre, empty for a survivor",
     {"1 0TU": "5", "2 0TU": "6", "1 0AU": "", "2 0FR": ""}),
    (BOARDS, "DRAW",
     "the draw's size for a power in it, 0 out of it; 1 for a solo's winner, 0 for the rest",
     {"1 0AU": "6", "1 0RU": "6", "1 0TU": "0", "2 0FR": "1", "2 0AU": "0", "2 0TU": "0"}),
    (BOARDS, "CT_01", "the centres at the end of 1901, empty where not known",
     {"1 0TU": "4", "1 0AU": "5", "1 0EN": "", "2 0FR": ""}),
    (BOARDS, "CT_05", "the centres at the end of 1905", {"1 0TU": "0", "1 0AU": ""}),
    (BOARDS, "CT_07", "the centres at the end of 1907, the last year",
     {"1 0TU": "0", "1 0AU": "8"}),
    (BOARDS, "CT_20", "the centres at the end of 1920: empty in a shorter game",
     {"1 0TU": ""}),
]


@pytest.mark.parametrize("file, column, rule, expected", COLUMNS,
                         ids=[f"{f} {c}: {r}" for f, c, r, _ in COLUMNS])
def test_each_column_follows_its_rule(file, column, rule, expected):
    table = by_player(classification_text()) if file == CLASSIFICATION else by_seat(boards_text())
    got = {row: table[row][column] for row in expected}
    assert got == expected, f"{file} {column}: {rule}"


def kind(column: str) -> str:
    """The column whose case stands for this one's: R3 for R1, CT_12 for CT_01, PT_0GE for
    PT_0AU."""
    if re.fullmatch(r"R\d", column):
        return "R1"
    if re.fullmatch(r"CT_\d\d", column):
        return "CT_01"
    if found := re.fullmatch(r"(RK|PT|CT|HEAT|BOARD)_0[A-Z]{2}", column):
        return f"{found[1]}_0AU"
    return column


def test_every_column_has_a_rule():
    """No column of either file is left without a case above."""
    named = {(f, c) for f, c, _, _ in COLUMNS}
    for file, text in ((CLASSIFICATION, classification_text()), (BOARDS, boards_text())):
        header = next(csv.reader(io.StringIO(text)))
        untested = [c for c in header if (file, kind(c)) not in named]
        assert untested == [], f"{file}: no rule tested for {untested}"


def test_the_headers_are_the_wdds_in_its_order():
    classification = next(csv.reader(io.StringIO(classification_text())))
    powers = ["0AU", "0EN", "0FR", "0GE", "0IT", "0RU", "0TU"]
    assert classification == [
        "FIRST NAME", "NAME", "HOMONYME", "RANK", "EXAEQUO", "LOCATION", "NATIONALITY",
        "SCORE", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8",
        *[f"{kind}_{p}" for p in powers for kind in ("RK", "PT", "CT", "HEAT", "BOARD")],
        "NAME_TOPBOARD", "HEAT_TOPBOARD", "BOARD_TOPBOARD", "RK_TOPBOARD", "CT_TOPBOARD",
        "COUNTRY_TOPBOARD"]
    boards = next(csv.reader(io.StringIO(boards_text())))
    assert boards == ["FIRST NAME", "NAME", "HOMONYME", "ROUND", "BOARD", "COUNTRY", "RANK",
                      "EXAEQUO", "SCORE", "NB_CENTRE", "YEAR_ELIMINATION", "DRAW",
                      *[f"CT_{n:02d}" for n in range(1, 21)]]


def test_without_a_top_board_its_columns_are_left_out():
    header = next(csv.reader(io.StringIO(classification_csv(make_event(top_board=None)))))
    assert not [c for c in header if c.endswith("TOPBOARD")]
    assert header[-1] == "BOARD_0TU"


def test_teams_add_their_three_columns():
    event = make_event(teams={"Anne Martin": "Lyon", "Kai Müller": "Berlin"},
                       team_standings=[TeamStanding(1, "Berlin", 20.5, False),
                                       TeamStanding(2, "Lyon", 18, False)])
    table = by_player(classification_csv(event))
    assert [table["Anne Martin"][c] for c in ("TEAM", "TEAM_SCORE", "TEAM_RANK")] == \
        ["Lyon", "18", "2"]
    assert table["Kai Müller"]["TEAM_SCORE"] == "20.5"
    assert table["Zoë Late"]["TEAM"] == ""


def test_rows_come_best_first_and_board_by_board():
    assert list(by_player(classification_text()))[:2] == ["John Smith (2)", "Anne Martin"]
    assert list(by_seat(boards_text()))[:8] == ["1 0AU", "1 0EN", "1 0FR", "1 0GE", "1 0IT",
                                              "1 0RU", "1 0TU", "2 0AU"]


def test_the_files_are_utf8_comma_separated_with_crlf_and_nfc_accents():
    files = wdd_files(make_event())
    assert set(files) == {"classification.csv", "boards.csv"}
    for data in files.values():
        assert not data.startswith(b"\xef\xbb\xbf"), "no byte-order mark"
        text = data.decode("utf-8")
        assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
        assert text.startswith("FIRST NAME,NAME,HOMONYME,")
        assert "Jos\u00e9,N\u00fa\u00f1ez," in text, "accents kept in one form (NFC)"
        assert nfd("José") not in text


def test_a_name_with_a_comma_is_quoted():
    people = dict(PEOPLE, **{"Anne Martin": P("Anne", "Martin, Jr.")})
    text = classification_csv(make_event(people=people))
    assert '"Martin, Jr."' in text
    assert {r["NAME"] for r in rows(text)} >= {"Martin, Jr."}


def test_homonyms_are_two_rows_told_apart_by_homonyme():
    smiths = [r for r in rows(boards_text()) if r["NAME"] == "Smith" and r["ROUND"] == "1"]
    assert [(r["FIRST NAME"], r["HOMONYME"], r["COUNTRY"]) for r in smiths] == [
        ("John", "1", "0FR"), ("John", "2", "0GE")]


def test_a_drawn_board_that_leaves_out_a_survivor():
    """A draw the board voted without every survivor: its size for those in it, 0 for the
    survivor left out."""
    result = replace(ROUND1.result, draw=frozenset("AEF"))
    table = by_seat(boards_csv(make_event(replace(ROUND1, result=result), top_board=None)))
    assert [table[f"1 {c}"]["DRAW"] for c in ("0AU", "0EN", "0FR", "0GE", "0TU")] == \
        ["3", "3", "3", "0", "0"]


def test_a_concession_counts_as_the_winners_solo():
    result = GameResult(centres={"A": 3, "E": 4, "F": 12, "G": 5, "I": 4, "R": 4, "T": 2},
                        year=1906, conceded_to="F")
    table = by_seat(boards_csv(make_event(replace(ROUND2, result=result), top_board=None)))
    assert table["2 0FR"]["DRAW"] == "1"
    assert table["2 0AU"]["DRAW"] == "0"


def test_ranks_the_event_gave_replace_the_scores_order():
    board = replace(ROUND1, ranks={"A": 1, "E": 2, "F": 3, "G": 4, "I": 5, "R": 6, "T": 7})
    table = by_seat(boards_csv(make_event(board, top_board=None)))
    assert (table["1 0IT"]["RANK"], table["1 0RU"]["RANK"]) == ("5", "6")
    assert table["1 0IT"]["EXAEQUO"] == "1"


def test_a_six_player_board_has_six_rows():
    """A power no one played (civil disorder from the start) has no row."""
    players = {p: n for p, n in ROUND1.players.items() if p != "T"}
    board = replace(ROUND1, players=players, counts={})
    seats = by_seat(boards_csv(make_event(board, top_board=None)))
    assert len(seats) == 6 and "1 0TU" not in seats


def test_a_player_of_two_boards_in_one_round_has_a_row_for_each():
    """wdc2019 2b4's two boards at once: one row per board; R1 is the round's one score by
    the event's rule (80 % of the best and 40 % of the other: 24 + 8)."""
    other = Board(round=1, board="4", result=ROUND2.result,
                  players={"A": "Anne Martin", **{p: f"X{p}" for p in "EFGIRT"}},
                  scores={"A": 20, **{p: 0 for p in "EFGIRT"}})
    people = dict(PEOPLE, **{f"X{p}": P("X", p) for p in "EFGIRT"})
    scores = game_scores(ROUND1, other)
    rules = StandingsRules(two_boards="as_one_game")
    event = Event(people=people, standings=standings(scores, rules), scores=scores,
                  boards=[ROUND1, other], two_boards="as_one_game")
    anne = [r for r in rows(boards_csv(event)) if r["FIRST NAME"] == "Anne"]
    assert [(r["BOARD"], r["SCORE"]) for r in anne] == [("3", "30"), ("4", "20")]
    assert by_player(classification_csv(event))["Anne Martin"]["R1"] == "32"


def test_the_roster_is_found_whatever_the_names_form_or_case():
    people = {nfd(k).upper(): v for k, v in PEOPLE.items()}
    assert by_player(classification_csv(make_event(people=people)))["Anne Martin"]["RANK"] \
        == "2"


def test_the_rosters_person_fits():
    person = pytest.importorskip("dipclock.roster.person")
    people = dict(PEOPLE)
    people["Kai Müller"] = person.Person(given="Kai", family="Müller", nationality="DE",
                                         location="Berlin, Germany")
    table = by_player(classification_csv(make_event(people=people)))
    assert (table["Kai Müller"]["NATIONALITY"], table["Kai Müller"]["LOCATION"]) == \
        ("ALL", "ALL")


@pytest.mark.parametrize("value, text", [(57, "57"), (12.5, "12.5"), (1e-5, "0.00001"),
                                         (-3.25, "-3.25"), (0.1 + 0.2, "0.3"), (-0.0, "0")])
def test_numbers_are_written_plainly(value, text):
    assert number(value) == text


def test_board_numbers_are_the_names_or_their_order():
    def board(round_, name):
        return replace(ROUND1, round=round_, board=name)

    assert board_numbers([board(1, "3"), board(1, "12"), board(2, "Top"), board(2, "B")]) \
        == {(1, "3"): 3, (1, "12"): 12, (2, "Top"): 1, (2, "B"): 2}


@pytest.mark.parametrize("iso, code", [("FR", "FRA"), ("de", "ALL"), ("ZA", "SA"),
                                       ("SA", "ZZZ"), ("", ""), (None, "")])
def test_country_codes_are_the_wdds(iso, code):
    assert country_code(iso) == code


@pytest.mark.parametrize("where, code", [("Paris, France", "FRA"), ("Leeds, UK", "ANG"),
                                         ("Oslo, NO", "NGE"), ("Springfield", ""),
                                         ("Doha, Qatar", ""), ("", "")])
def test_locations_name_a_country_last(where, code):
    assert location_code(where) == code


def test_power_codes():
    assert [power_code(p) for p in "AEFGIRT"] == ["0AU", "0EN", "0FR", "0GE", "0IT", "0RU",
                                                  "0TU"]
    assert power_code("Turkey") == "0TU"


@pytest.mark.parametrize("change, message", [
    (lambda e: replace(e, people={k: v for k, v in PEOPLE.items() if k != "Zoë Late"}),
     "'Zoë Late' has results but is not on the roster"),
    (lambda e: replace(e, people=dict(PEOPLE, **{"Zoë Late": P("Zoë", "Late", homonym=0)})),
     "'Zoë Late': homonym 0 is not a whole number from 1"),
    (lambda e: replace(e, people=dict(PEOPLE, **{"Zoë Late": P("Zoë", "Late",
                                                               nationality="France")})),
     "'Zoë Late': nationality 'France' is not a two-letter country code"),
    (lambda e: replace(e, top_board=(2, "9")),
     "the top board: round 2, board 9 is not among the boards"),
    (lambda e: replace(e, scores=[replace(s, round=9) if s.player == "Zoë Late" else s
                                  for s in e.scores]),
     "'Zoë Late' has a score in round 9: the WDD's classification file has 8 rounds"),
    (lambda e: replace(e, teams={"Anne Martin": "Lyon"}),
     "'Anne Martin' is in team 'Lyon', which the teams' table does not have"),
])
def test_bad_classification_data_is_one_clear_line(change, message):
    with pytest.raises(WddError, match="^" + message):
        classification_csv(change(make_event()))


@pytest.mark.parametrize("board, message", [
    (replace(ROUND1, counts={"T": {1921: 0}}),
     "round 1, board 3: Turkey's centres for 1921: a year from 1901 to the game's last, 1907"),
    (replace(ROUND1, result=replace(ROUND1.result, year=1922,
                                    eliminated={"T": 1905}), counts={"T": {1921: 0}}),
     "round 1, board 3: Turkey's centres for 1921: the WDD's file has the years 1901 to 1920"),
    (replace(ROUND1, counts={"A": {1907: 9}}),
     "round 1, board 3: Austria has 9 centres in 1907 by year but 8 on the result sheet"),
    (replace(ROUND1, counts={"A": {1903: 35}}),
     "round 1, board 3: Austria's centres for 1903 .35.: a whole number from 0 to 34"),
    (replace(ROUND1, scores={p: s for p, s in ROUND1.scores.items() if p != "E"}),
     "round 1, board 3: England has a player but no score"),
    (replace(ROUND1, players=dict(ROUND1.players, X="Zoë Late")),
     "round 1, board 3: 'X' is not a power"),
    (replace(ROUND1, players=dict(ROUND1.players, T="Anne Martin")),
     "round 1, board 3: 'Anne Martin' plays two powers"),
    (replace(ROUND1, ranks={"A": 1}),
     "round 1, board 3: England's place on the board .None. is not a whole number from 1 to 7"),
])
def test_bad_board_data_is_one_clear_line(board, message):
    event = make_event(top_board=None)
    with pytest.raises(WddError, match="^" + message):
        boards_csv(replace(event, boards=[board, ROUND2]))


def test_a_board_given_twice_is_refused():
    with pytest.raises(WddError, match="^round 1, board 3 is given twice"):
        board_numbers([ROUND1, ROUND1])

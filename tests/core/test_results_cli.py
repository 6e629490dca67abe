"""`dipclock score` as a TD types it: the documented JSON, and one line for a bad sheet."""

import json

import pytest

from dipclock.launcher.cli import main

BOARD = ["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "--year", "1907",
         "--eliminated", "G=1905"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_json_names_all_seven_powers_in_english(capsys):
    code, out, err = run(capsys, "score", "wdc2018", *BOARD, "--json")
    assert code == 0 and err == ""
    # squares 25, 16, 36, 0, 49, 36, 36: sum 198
    assert json.loads(out) == {"event": "wdc2018", "scores": {
        "Austria": 12.63, "England": 8.08, "France": 18.18, "Germany": 0.0, "Italy": 24.75,
        "Russia": 18.18, "Turkey": 18.18}}


def test_score_takes_names_as_well_as_letters_and_a_draw(capsys):
    code, out, _ = run(capsys, "score", "wdc2003", "--centres",
                       "Austria=5,England=4,France=6,Germany=0,Italy=7,Russia=6,Turkey=6",
                       "--year", "1907", "--eliminated", "germany=1905",
                       "--draw", "Austria, France, I", "--json")
    scores = json.loads(out)["scores"]
    # three-way draw: 56 - 7.21; survivors out of it lost in 1907: 7.21; G in 1905: 5.10
    assert code == 0 and scores == {
        "Austria": 48.79, "England": 7.21, "France": 48.79, "Germany": 5.1, "Italy": 48.79,
        "Russia": 7.21, "Turkey": 7.21}


def test_score_text_is_a_table_of_the_board(capsys):
    code, out, _ = run(capsys, "score", "wdc2006", *BOARD)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "wdc2006: ManorCon (c² + 4c + 16), 1907"
    assert lines[4].split() == ["Germany", "0", "0.50"]


def test_a_solo_scores_under_the_event(capsys):
    code, out, _ = run(capsys, "score", "wdc2019", "--centres", "A=18,E=4,F=4,G=4,I=4,R=0,T=0",
                       "--year", "1907", "--solo", "A", "--eliminated", "R=1904,T=1907",
                       "--json")
    assert code == 0 and json.loads(out)["scores"]["Austria"] == 102


@pytest.mark.parametrize(("argv", "message"), [
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=7", "--year", "1907", "--eliminated", "G=1905"],
     "the centres add up to 35"),
    ([*BOARD, "--solo", "R"], "Russia has 6 centres: a solo in 1907 needs 18"),
    ([*BOARD, "--draw", "A,G"], "Germany was eliminated: it cannot be in the draw"),
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,X=6", "--year", "1907"], "'X' is not a power"),
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=six", "--year", "1907"], "not a whole number"),
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "--year", "1907"],
     "Germany has no centres: give the year it was eliminated"),
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "--year", "19077", "--eliminated", "G=1905"],
     "year 19077"),
])
def test_a_bad_sheet_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, "score", "wdc2006", *argv, "--json")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_an_own_event_without_a_system_says_how_to_name_one(capsys, tmp_path):
    event = tmp_path / "open.toml"
    event.write_text('name = "Open"\n[[phase_lengths]]\nspring = 15\nfall = 15\n'
                     '[penalty]\nmodel = "nmr"\n')
    code, _, err = run(capsys, "score", str(event), *BOARD)
    assert code == 2 and "add [scoring] system = one of manorcon, armada" in err
    event.write_text(event.read_text() + '[scoring]\nsystem = "carnage"\n')
    code, out, _ = run(capsys, "score", str(event), *BOARD, "--json")
    # I tops (7000 + 7); F, R, T share 2nd-4th (5000 + 6); A 5th, E 6th, G 7th
    assert code == 0 and json.loads(out)["scores"] == {
        "Austria": 3005, "England": 2004, "France": 5006, "Germany": 1000, "Italy": 7007,
        "Russia": 5006, "Turkey": 5006}
    event.write_text(event.read_text().replace("carnage", "carnag"))
    code, _, err = run(capsys, "score", str(event), *BOARD)
    assert code == 2 and "scoring.system" in err


def scores_file(tmp_path, text):
    path = tmp_path / "scores.csv"
    path.write_text(text)
    return str(path)


def test_standings_json_best_first_by_the_events_weights(capsys, tmp_path):
    # graduated20: best two plus half the third. Ann 60 + 40 + 10/2 = 105;
    # Ben 70 + 30 = 100 (two games); Cat 50 + 50 + 0.5 x 50 = 125
    path = scores_file(tmp_path, "round,player,score\n1,Ann,60\n2,Ann,10\n3,Ann,40\n"
                                 "1,Ben,70\n3,Ben,30\n1,Cat,50\n2,Cat,50\n3,Cat,50\n")
    code, out, err = run(capsys, "standings", "graduated20", "--scores", path, "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"event": "graduated20", "standings": [
        {"rank": 1, "player": "Cat", "total": 125.0},
        {"rank": 2, "player": "Ann", "total": 105.0},
        {"rank": 3, "player": "Ben", "total": 100.0}]}


def test_standings_breaks_ties_by_the_events_list_and_says_what_it_cannot_use(capsys, tmp_path):
    # wdc2003 drops the lowest of four; Ann and Ben both 90: head to head needs boards (note),
    # the sum of all four rounds then puts Ben (100) ahead of Ann (95)
    path = scores_file(tmp_path, "round,player,score\n1,Ann,30\n2,Ann,30\n3,Ann,30\n4,Ann,5\n"
                                 "1,Ben,40\n2,Ben,40\n3,Ben,10\n4,Ben,10\n")
    code, out, err = run(capsys, "standings", "wdc2003", "--scores", path, "--json")
    assert code == 0
    assert [(r["player"], r["total"]) for r in json.loads(out)["standings"]] == [
        ("Ben", 90.0), ("Ann", 90.0)]
    assert "head_to_head needs a board column: left out" in err


def test_standings_top_board_decides_the_first_places(capsys, tmp_path):
    # wdc2006: the top board's first two lead whatever their totals; +10 % to its players
    path = scores_file(tmp_path, "round,player,score\n1,Ann,80\n1,Ben,20\n1,Cat,10\n"
                                 "2,Ben,30\n2,Cat,40\n")
    code, out, _ = run(capsys, "standings", "wdc2006", "--scores", path,
                       "--top-board", "Ben,Cat", "--json")
    rows = json.loads(out)["standings"]
    assert code == 0 and [r["player"] for r in rows] == ["Cat", "Ben", "Ann"]
    assert rows[0]["total"] == 55.0 and rows[1]["total"] == 55.0  # (10+40) and (20+30) x 1.1


@pytest.mark.parametrize(("text", "message"), [
    ("round,player,scor\n1,Ann,5\n", "the first line must be round,player,score"),
    ("round,player,score,table\n1,Ann,5,3\n", "unknown column 'table'"),
    ("round,player,score\n1,Ann,five\n", "line 2: round and centres are whole numbers"),
    ("round,player,score\n1,Ann,5,6\n", "line 2 has 4 fields"),
    ("round,player,score\n", "no scores after the header"),
    ("round,player,score\n1,Ann,5\n1,Ann,6\n", "'Ann' has two scores in round 1"),
    ("round,player,score,power\n1,Ann,5,Spain\n", "'Spain' is not a power"),
])
def test_a_malformed_scores_file_exits_2_with_one_line(capsys, tmp_path, text, message):
    code, out, err = run(capsys, "standings", "wdc2006", "--scores",
                         scores_file(tmp_path, text), "--json")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_a_missing_scores_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "standings", "wdc2006", "--scores", str(tmp_path / "no.csv"))
    assert code == 2 and "No such file" in err

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

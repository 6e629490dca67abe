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
    # wdc2003's two-way draw of two leaders level at 1910's 12: 80 - 10.45; the survivors
    # left out lost in 1910: 10.45; Germany out in 1908: 8.28, Turkey in 1909: 9.36
    code, out, _ = run(capsys, "score", "wdc2003", "--centres",
                       "Austria=12,England=12,France=4,Germany=0,Italy=3,Russia=3,Turkey=0",
                       "--year", "1910", "--eliminated", "germany=1908,T=1909",
                       "--draw", "Austria, E", "--json")
    scores = json.loads(out)["scores"]
    assert code == 0 and scores == {
        "Austria": 69.55, "England": 69.55, "France": 10.45, "Germany": 8.28, "Italy": 10.45,
        "Russia": 10.45, "Turkey": 9.36}


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
    # a power given twice: neither value kept silently, the same for centres and years
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6,Austria=4", "--year", "1907",
      "--eliminated", "G=1905"], "centres: Austria is given twice (5 and 4): give it once"),
    (["--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "--year", "1907", "--eliminated",
      "G=1905,Germany=1906"], "eliminated: Germany is given twice (1905 and 1906): give it once"),
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


TOP_SEVEN = ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def top_board_file(tmp_path, last_round=5):
    """wdc2006: Ann 80 in round 1; the seven of the top board 20, 10, 5, ... in round 1,
    then on the top board (round ``last_round``) Cat 40, Ben 30, the rest 1."""
    lines = ["round,player,score", "1,Ann,80"]
    lines += [f"1,{n},{s}" for n, s in zip(TOP_SEVEN, (20, 10, 5, 4, 3, 2, 1), strict=True)]
    lines += [f"{last_round},{n},{s}" for n, s in zip(TOP_SEVEN, (30, 40, 1, 1, 1, 1, 1),
                                                      strict=True)]
    return scores_file(tmp_path, "\n".join(lines) + "\n")


def test_standings_top_board_decides_the_first_places(capsys, tmp_path):
    # wdc2006 19.8: "The winner of the Top Board is the winner of the tournament ... The
    # second of the Top Board is second of the tournament"; +10 % to its seven
    code, out, _ = run(capsys, "standings", "wdc2006", "--scores", top_board_file(tmp_path),
                       "--top-board", ",".join(TOP_SEVEN), "--json")
    rows = json.loads(out)["standings"]
    assert code == 0 and [r["player"] for r in rows][:3] == ["Cat", "Ben", "Ann"]
    assert rows[0]["total"] == 55.0 and rows[1]["total"] == 55.0  # (10+40) and (20+30) x 1.1


def test_standings_top_board_is_the_events_round_and_seven_players(capsys, tmp_path):
    # wdc2006 plays its top board in round 5 ("the 5th round on Sunday includes a Top
    # Board"), of "The top 7": not the file's last round, not any number of players
    code, _, err = run(capsys, "standings", "wdc2006", "--scores",
                       top_board_file(tmp_path, last_round=4), "--top-board",
                       ",".join(TOP_SEVEN), "--json")
    assert code == 2 and "'Ben' is on the top board but has no score in round 5" in err
    code, _, err = run(capsys, "standings", "wdc2006", "--scores", top_board_file(tmp_path),
                       "--top-board", "Ben,Cat", "--json")
    assert code == 2 and "the top board has 2 players: a board seats 7" in err
    assert len(err.splitlines()) == 1
    code, _, err = run(capsys, "standings", "wdc2003", "--scores", top_board_file(tmp_path, 4),
                       "--top-board", ",".join(TOP_SEVEN))
    assert code == 2 and err == "dipclock: error: --top-board: wdc2003 has no top board\n"


@pytest.mark.parametrize(("text", "message"), [
    ("round,player,scor\n1,Ann,5\n", "the first line must be round,player,score"),
    ("round,player,score,table\n1,Ann,5,3\n", "unknown column 'table'"),
    ("round,player,score\n1,Ann,five\n", "line 2: round and centres are whole numbers"),
    ("round,player,score\n1,Ann,5,6\n", "line 2 has 4 fields"),
    ("round,player,score\n", "no scores after the header"),
    ("round,player,score\n1,Ann,5\n1,Ann,6\n", "'Ann' has two scores in round 1"),
    ("round,player,score,power\n1,Ann,5,Spain\n", "'Spain' is not a power"),
    ("round,player,score\n1,Ann,1e308\n1,Bo,1e308\n", "the score 1e+308 is out of range"),
    ("round,player,score\n1,Ann," + "9" * 200_000 + "\n", "not a scores file: field larger"),
    ("round,player,score,board,centres\n1,Ann,5,1,20\n1,Bo,5,1,15\n",
     "round 1, board 1: the centres add up to 35; a board has 34"),
    ("round,player,score,board\n" + "".join(f"1,P{n},5,1\n" for n in range(8)),
     "round 1, board 1 has 8 players: a board seats 7"),
    ("round,player,score,board,power\n1,Ann,5,1,A\n1,Bo,5,1,Austria\n",
     "round 1, board 1: Austria is played by both 'Ann' and 'Bo'"),
    ("round,player,score\n6,Ann,5\n", "wdc2006 has no round 6 (rounds: 1, 2, 3, 4, 5)"),
    ("round,player,score,board,board\n1,Ann,5,1,2\n", "the column 'board' is named twice"),
    ("round,player,score,system\n1,Ann,5,pastis\n", "'pastis' is not a scoring system"),
])
def test_a_malformed_scores_file_exits_2_with_one_line(capsys, tmp_path, text, message):
    code, out, err = run(capsys, "standings", "wdc2006", "--scores",
                         scores_file(tmp_path, text), "--json")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_a_missing_scores_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "standings", "wdc2006", "--scores", str(tmp_path / "no.csv"))
    assert code == 2 and "No such file" in err


def test_a_scores_file_never_echoes_a_huge_field(capsys, tmp_path):
    code, _, err = run(capsys, "standings", "wdc2006", "--scores",
                       scores_file(tmp_path, "round,player,score," + "x" * 5000 + "\n1,A,1\n"))
    assert code == 2 and len(err) < 300 and "unknown column 'xxx" in err


def test_standings_text_counts_one_game_as_a_game(capsys, tmp_path):
    path = scores_file(tmp_path, "round,player,score\n1,Ann,60\n2,Ann,10\n1,Ben,70\n")
    code, out, _ = run(capsys, "standings", "graduated20", "--scores", path)
    assert code == 0
    # level on 70 with no tie-break in graduated20's 19.7: a shared first place
    assert out.splitlines() == ["graduated20: standings from 2 rounds",
                                "   1= Ann      70.00  (2 games)",
                                "   1= Ben      70.00  (1 game)"]


def test_standings_say_when_rounds_were_scored_under_different_systems(capsys, tmp_path):
    path = scores_file(tmp_path, "round,player,score,system\n1,Ann,30,manorcon\n"
                                 "2,Ann,70,super-pastis\n1,Ben,20,manorcon\n")
    code, out, err = run(capsys, "standings", "graduated20", "--scores", path, "--json")
    assert code == 0 and json.loads(out)["standings"][0] == {
        "rank": 1, "player": "Ann", "total": 100.0}
    assert err == ("dipclock: note: the totals add games scored under different systems: "
                   "ManorCon (c² + 4c + 16) (round 1); Super Pastis (round 2)\n")


def test_standings_wdc2018_two_boards_and_a_fourth_preliminary_round(capsys, tmp_path):
    # "only the higher score will count"; "no more than three of the four preliminary rounds"
    path = scores_file(tmp_path, "round,player,score,board\n1,Ann,30,1\n1,Ann,50,2\n"
                                 "1,Ben,40,1\n")
    code, out, _ = run(capsys, "standings", "wdc2018", "--scores", path, "--json")
    assert code == 0 and json.loads(out)["standings"][0] == {
        "rank": 1, "player": "Ann", "total": 50.0}
    path = scores_file(tmp_path, "round,player,score\n1,Ann,1\n2,Ann,2\n3,Ann,3\n4,Ann,4\n")
    code, _, err = run(capsys, "standings", "wdc2018", "--scores", path, "--json")
    assert code == 2 and "'Ann' played 4 preliminary rounds (1, 2, 3, 4)" in err


# --- how a game ended ---------------------------------------------------------------------


def test_eighteen_centres_score_as_a_solo_with_a_note(capsys):
    # wdc2018: "The game will end in a solo victory if a single power controls 18 or more
    # supply centers at the end of a Fall turn", whatever the command says
    for said in ([], ["--draw", "A,E"]):
        code, out, err = run(capsys, "score", "wdc2018", "--centres",
                             "A=18,E=4,F=4,G=4,I=4,R=0,T=0", "--year", "1907",
                             "--eliminated", "R=1904,T=1906", *said, "--json")
        assert code == 0 and json.loads(out) == {"event": "wdc2018", "scores": {
            "Austria": 100.0, "England": 0.0, "France": 0.0, "Germany": 0.0, "Italy": 0.0,
            "Russia": 0.0, "Turkey": 0.0}}
        assert err == ("dipclock: note: Austria holds 18 centres at the end of 1907 (a victory "
                       "needs 18): the game ended in its solo, not a draw\n")


def test_conceded_to_scores_a_concession_where_the_event_has_them(capsys):
    # wdc2003: a concession is a victory, 104 - 7.21; "For each ... concession to another
    # player, the Game-Year points ... are added": 7.21, Turkey out in 1905 5.10
    board = ["--centres", "A=9,E=8,F=7,G=5,I=3,R=2,T=0", "--year", "1907",
             "--eliminated", "T=1905", "--conceded-to", "England", "--json"]
    code, out, err = run(capsys, "score", "wdc2003", *board)
    assert code == 0 and err == "" and json.loads(out)["scores"] == {
        "Austria": 7.21, "England": 96.79, "France": 7.21, "Germany": 7.21, "Italy": 7.21,
        "Russia": 7.21, "Turkey": 5.1}
    code, out, _ = run(capsys, "score", "graduated20", *board)  # 75; losers to a solo 0.7
    assert code == 0 and json.loads(out)["scores"]["England"] == 75
    assert json.loads(out)["scores"]["Austria"] == 0.7
    code, out, err = run(capsys, "score", "wdc2018", *board)  # "Solos may not be conceded"
    assert code == 2 and out == ""
    assert err == "dipclock: error: wdc2018 has no concessions: a game ends in a solo or a " \
                  "draw\n"


@pytest.mark.parametrize(("event", "argv", "message"), [
    ("wdc2006", ["--year", "1910"], "wdc2006's games end with Fall 1909: 1910 cannot count"),
    ("wdc2019", ["--year", "1908"], "wdc2019's games end with Fall 1907: 1908 cannot count"),
    ("graduated20", ["--year", "1910", "--round", "1"],
     "graduated20's games end with Fall 1909: 1910 cannot count"),
    ("graduated20", ["--year", "1910", "--round", "4"], "graduated20 has no round 4"),
    ("wdc2003", ["--year", "1910", "--draw", "A,E,F"], "wdc2003's draws include all "
     "survivors, or are two leaders level at 12+ centres in 1910: not Austria, England, "
     "France"),
    ("wdc2006", ["--year", "1904"], "wdc2006's games end by vote from 1905: a draw in 1904"),
    ("wdc2006", ["--year", "1907", "--leader-did-not-grow"],
     "wdc2006's victory does not ask whether the leader grew"),
])
def test_an_ending_the_events_text_does_not_allow_exits_2(capsys, event, argv, message):
    code, out, err = run(capsys, "score", event, "--centres", "A=9,E=8,F=7,G=5,I=3,R=2,T=0",
                         "--eliminated", "T=1904", *argv, "--json")
    assert code == 2 and out == ""
    assert err.startswith(f"dipclock: error: {message}") and len(err.splitlines()) == 1


def test_every_power_eliminated_exits_2(capsys):
    code, _, err = run(capsys, "score", "wdc2018", "--centres", "A=0,E=0,F=0,G=0,I=0,R=0,T=0",
                       "--year", "1907", "--eliminated", "A=1905,E=1905,F=1905,G=1905,"
                       "I=1905,R=1905,T=1905")
    assert code == 2 and err == ("dipclock: error: no power holds a centre: the last one "
                                 "standing has won (give its centres)\n")


def test_wdc2003_a_leader_that_did_not_grow_leaves_a_draw(capsys):
    # 1913 needs 6: Austria's 9 wins, unless it did not grow that year (a six-way draw:
    # 24 - 13.78 = 10.22)
    board = ["--centres", "A=9,E=8,F=7,G=5,I=3,R=2,T=0", "--year", "1913",
             "--eliminated", "T=1910", "--json"]
    code, out, _ = run(capsys, "score", "wdc2003", *board)
    assert code == 0 and json.loads(out)["scores"]["Austria"] == 90.22
    code, out, _ = run(capsys, "score", "wdc2003", *board, "--leader-did-not-grow")
    assert code == 0 and json.loads(out)["scores"]["Austria"] == 10.22

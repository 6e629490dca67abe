"""`dipclock seat` as a TD types it: the documented JSON, the files it reads, and one line
for bad input."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from dipclock.launcher.cli import main

POWER_NAMES = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def players_file(tmp_path: Path, names: list[str], name: str = "players.csv") -> Path:
    path = tmp_path / name
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["club", "player", "country"])
        w.writerows(["Club", n, "FR"] for n in names)
    return path


def history_file(tmp_path: Path, rounds: list[dict]) -> Path:
    path = tmp_path / "seating.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["round", "table", "power", "player"])
        for seating in rounds:
            for t in seating["tables"]:
                for power, player in t["seats"].items():
                    w.writerow([seating["round"], t["table"], power, player])
    return path


NAMES = [f"Player {i}" for i in range(1, 51)]


def seat(capsys, tmp_path, *extra, players=NAMES, rnd=1):
    code, out, err = run(capsys, "seat", "wdc2019", "--players",
                         players_file(tmp_path, players), "--round", rnd, "--json", *extra)
    assert code == 0, err
    return json.loads(out), err


def test_the_json_has_the_documented_shape(capsys, tmp_path):
    got, err = seat(capsys, tmp_path, "--seed", 5)
    assert list(got) == ["event", "round", "tables", "sitting_out", "quality"]
    assert got["event"] == "wdc2019" and got["round"] == 1
    assert [t["table"] for t in got["tables"]] == list(range(1, 8))
    assert all(list(t) == ["table", "seats"] and list(t["seats"]) == POWER_NAMES
               for t in got["tables"])
    seated = [p for t in got["tables"] for p in t["seats"].values()]
    assert len(got["sitting_out"]) == 1 and sorted(seated + got["sitting_out"]) == sorted(NAMES)
    assert got["quality"] == {"pairs_met_before": 0, "powers_repeated": 0}
    assert err == ""  # a seed given: nothing to say


def test_the_same_seed_seats_the_same_and_without_one_the_seed_is_said(capsys, tmp_path):
    a, _ = seat(capsys, tmp_path, "--seed", 8)
    b, _ = seat(capsys, tmp_path, "--seed", 8)
    c, note = seat(capsys, tmp_path)
    assert a == b
    seed = note.split()[3].rstrip(":")
    assert note.startswith("dipclock: note: seed ") and seat(
        capsys, tmp_path, "--seed", seed)[0] == c


def test_four_rounds_of_49_from_the_history_meet_nobody_twice_nor_repeat_a_power(
        capsys, tmp_path):
    rounds = []
    for rnd in range(1, 5):
        extra = ["--history", history_file(tmp_path, rounds)] if rounds else []
        got, _ = seat(capsys, tmp_path, "--seed", 3, *extra, players=NAMES[:49], rnd=rnd)
        rounds.append(got)
        assert got["quality"] == {"pairs_met_before": 0, "powers_repeated": 0}
    met = Counter(frozenset(p) for r in rounds for t in r["tables"]
                  for p in combinations(t["seats"].values(), 2))
    assert len(met) == 4 * 7 * 21 and set(met.values()) == {1}
    played = Counter((p, power) for r in rounds for t in r["tables"]
                     for power, p in t["seats"].items())
    assert set(played.values()) == {1}


def test_the_quality_counts_each_earlier_meeting_and_each_power_had(capsys, tmp_path):
    # nine players in round 1 at one table (two sat out): round 2's counts, recounted here
    first, _ = seat(capsys, tmp_path, "--seed", 1, players=NAMES[:9])
    history = history_file(tmp_path, [first])
    got, _ = seat(capsys, tmp_path, "--seed", 1, "--history", history, players=NAMES[:9],
                  rnd=2)
    before = {frozenset(p) for p in combinations(first["tables"][0]["seats"].values(), 2)}
    had = set(first["tables"][0]["seats"].items())
    seats = got["tables"][0]["seats"]
    assert got["quality"]["pairs_met_before"] == sum(
        frozenset(p) in before for p in combinations(seats.values(), 2))
    assert got["quality"]["powers_repeated"] == sum((pw, p) in had for pw, p in seats.items())
    # who sat out in round 1 plays in round 2
    assert set(first["sitting_out"]) <= set(seats.values())


def test_kept_apart_pairs_are_never_together(capsys, tmp_path):
    apart = tmp_path / "apart.csv"
    pairs = [(NAMES[0], NAMES[1]), (NAMES[0], NAMES[2]), (NAMES[3], NAMES[4])]
    apart.write_text("player,player\n" + "".join(f"{a},{b}\n" for a, b in pairs))
    for seed in range(3):
        got, _ = seat(capsys, tmp_path, "--seed", seed, "--apart", apart,
                      players=NAMES[:14])
        for t in got["tables"]:
            at = set(t["seats"].values())
            assert not any({a, b} <= at for a, b in pairs)


def test_called_tables_are_kept_and_the_rest_seated_again(capsys, tmp_path):
    first, _ = seat(capsys, tmp_path, "--seed", 2, players=NAMES[:49])
    history = history_file(tmp_path, [first])
    kept = first["tables"][0]
    leaver = first["tables"][3]["seats"]["Austria"]
    present = [n for n in NAMES[:49] if n != leaver] + ["Late Comer"]
    got, _ = seat(capsys, tmp_path, "--seed", 2, "--history", history, "--keep", "1",
                  players=present)
    assert got["tables"][0] == kept
    seated = [p for t in got["tables"] for p in t["seats"].values()]
    assert sorted(seated) == sorted(present) and "Late Comer" in seated


def test_players_on_two_boards_where_the_event_allows(capsys, tmp_path):
    got, _ = seat(capsys, tmp_path, "--seed", 1, "--two-boards", "Player 3, Player 7",
                  players=NAMES[:47])
    seated = Counter(p for t in got["tables"] for p in t["seats"].values())
    assert got["sitting_out"] == [] and len(got["tables"]) == 7
    assert seated["Player 3"] == seated["Player 7"] == 2


def test_the_text_lists_each_table_by_power(capsys, tmp_path):
    code, out, _ = run(capsys, "seat", "wdc2006", "--players",
                       players_file(tmp_path, NAMES[:15]), "--round", 1, "--seed", 1)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "wdc2006: round 1, 14 players at 2 tables"
    assert lines[1] == "Table 1" and lines[2].split()[0] == "Austria"
    assert lines[-2].startswith("Sitting out: Player ")
    assert lines[-1] == "Pairs met before: 0; powers repeated: 0"


def bad(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("make", "words"), [
    (lambda t: ["wdc2099", "--players", players_file(t, NAMES)], "wdc2099"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES[:6])], "6 players: a table "
     "needs 7"),
    (lambda t: ["wdc2019", "--players", players_file(t, [*NAMES[:9], "Player 2"])],
     "line 11: Player 2 is listed twice"),
    (lambda t: ["wdc2019", "--players", bad(t, "p.csv", "name\nA\n")],
     "must name a player column"),
    (lambda t: ["wdc2019", "--players", t / "missing.csv"], "No such file"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--history",
                bad(t, "h.csv", "1,1,Austria,Player 1\n1,1,A,Player 2\n")],
     "round 1, table 1: Austria is seated twice"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--history",
                bad(t, "h.csv", "1,1,Prussia,Player 1\n")], "'Prussia' is not a power"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--history",
                bad(t, "h.csv", "1,one,A,Player 1\n")],
     "h.csv: line 1: table: 'one' is not a table number (a whole number from 1 to 999)"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--apart",
                bad(t, "a.csv", "Player 1\n")], "line 1: give player,player"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--keep", "2",
                "--history", bad(t, "h.csv", "1,1,A,Player 1\n")],
     "--history has no table 2 in round 2"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--keep", "2-999999999"],
     "--keep: 2-999999999: table numbers run from 1 to 999"),
    (lambda t: ["wdc2006", "--players", players_file(t, NAMES), "--two-boards", "Player 1"],
     "wdc2006's rules do not let a player play two boards"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--two-boards", "Nobody"],
     "--two-boards: Nobody is not among the players"),
    (lambda t: ["wdc2019", "--players", players_file(t, NAMES), "--round", "9"], "round 9"),
])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, make, words):
    argv = ["seat", *make(tmp_path)]
    if "--round" not in argv:
        argv += ["--round", "2"]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("dipclock: error: ") and words in err, err


def test_the_command_runs_as_a_program(tmp_path):
    out = subprocess.run([sys.executable, "-m", "dipclock", "seat", "wdc2018", "--players",
                          str(players_file(tmp_path, NAMES[:21])), "--round", "1", "--seed",
                          "4", "--json"], capture_output=True, text=True, timeout=60,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["tables"]) == 3


def scores_file(tmp_path: Path, rounds: int, players: list[str]) -> Path:
    """Scores where the first listed player is best, then the next, in every round."""
    path = tmp_path / "scores.csv"
    rows = [f"{r},{p},{100 - i}" for r in range(1, rounds + 1) for i, p in enumerate(players)]
    path.write_text("round,player,score\n" + "\n".join(rows) + "\n")
    return path


def test_the_top_board_is_seated_by_the_standings_with_the_events_order_of_choice(
        capsys, tmp_path):
    # wdc2019: the top board is round 4, seeded by rounds 1 to 3; Player 3 withdrew, so
    # the eighth takes the seat (III.1: "the next player will take the place")
    ranked = NAMES[:28]
    scores = scores_file(tmp_path, 3, ranked)
    present = [p for p in ranked if p != "Player 3"]
    got, err = seat(capsys, tmp_path, "--seed", 1, "--scores", scores, players=present,
                    rnd=4)
    seeds = ["Player 1", "Player 2", "Player 4", "Player 5", "Player 6", "Player 7",
             "Player 8"]
    assert sorted(got["tables"][0]["seats"].values()) == sorted(seeds)
    assert f"table 1 is the top board: {', '.join(seeds)}" in err
    assert "First the order of choice: Player 8, then Player 7, then Player 6" in err
    others = [p for t in got["tables"][1:] for p in t["seats"].values()]
    assert sorted(others + got["sitting_out"]) == sorted(set(present) - set(seeds))


def test_a_top_board_whose_powers_are_given_says_nothing_of_choosing(capsys, tmp_path):
    ranked = NAMES[:14]
    code, out, err = run(capsys, "seat", "wdc2018", "--players",
                         players_file(tmp_path, ranked), "--round", 5, "--seed", 2,
                         "--scores", scores_file(tmp_path, 3, ranked), "--json")
    assert code == 0, err
    top = json.loads(out)["tables"][0]["seats"].values()
    assert sorted(top) == sorted(ranked[:7]) and "choose" not in err


def test_a_tie_for_the_last_top_board_seat_seats_the_round_without_it_as_the_hub_does(
        capsys, tmp_path):
    # wdc2019's top board (round 4): Player 7 and Player 8 scored alike in every round, so
    # nothing separates them for seat 7: the round is seated, without a top board, and the
    # TD told who is level (the hub's seating desk says the same: one step in the core)
    ranked = NAMES[:28]
    scores = tmp_path / "scores.csv"
    rows = [f"{r},{p},{100 - min(i, 6)}" for r in range(1, 4) for i, p in enumerate(ranked)
            if i < 8] + [f"{r},{p},{50 - i}" for r in range(1, 4)
                         for i, p in enumerate(ranked) if i >= 8]
    scores.write_text("round,player,score\n" + "\n".join(rows) + "\n")
    got, err = seat(capsys, tmp_path, "--seed", 1, "--scores", scores, players=ranked, rnd=4)
    assert ("seat 7 of the top board is tied between Player 7, Player 8: no tie-break "
            "separates them: the top board is not seated; the TD decides who takes the "
            "seat, and seats the top board by hand") in err
    assert "is the top board:" not in err
    assert sorted(p for t in got["tables"] for p in t["seats"].values()) == sorted(ranked)


def test_scores_for_a_round_with_no_top_board_are_refused(capsys, tmp_path):
    code, out, err = run(capsys, "seat", "wdc2019", "--players",
                         players_file(tmp_path, NAMES[:14]), "--round", 2, "--scores",
                         scores_file(tmp_path, 1, NAMES[:14]))
    assert code == 2 and out == ""
    assert err == ("dipclock: error: --scores: wdc2019 seats no top board in round 2 "
                   "(round 4 is its top-board round)\n")


def test_a_name_in_another_unicode_form_or_capitals_keeps_its_past(capsys, tmp_path):
    """Last round's file has "José" decomposed (e + a combining accent, as some
    spreadsheets write it) and "ANNA" in capitals: they are today's José and Anna, and
    their pasts count; the players' own list cannot hold one name twice so."""
    import unicodedata

    names = [f"Player {i}" for i in range(1, 48)] + ["José", "Anna"]
    first, _ = seat(capsys, tmp_path, "--seed", 3, players=names)
    then = {**first, "tables": [{**t, "seats": {
        p: unicodedata.normalize("NFD", n) if n == "José" else n.upper() if n == "Anna" else n
        for p, n in t["seats"].items()}} for t in first["tables"]]}
    history = history_file(tmp_path, [then])
    again, _ = seat(capsys, tmp_path, "--seed", 3, "--history", history, players=names,
                    rnd=2)
    seated = [n for t in again["tables"] for n in t["seats"].values()]
    assert "José" in seated and "Anna" in seated  # in the players' own spelling
    assert unicodedata.normalize("NFD", "José") not in seated and "ANNA" not in seated
    assert again["quality"]["pairs_met_before"] == 0  # as for 49 others: the plane's 2nd
    mine = {t["table"]: t["seats"] for t in first["tables"] if "José" in t["seats"].values()}
    met = {n for seats in mine.values() for n in seats.values()} - {"José"}
    now = next(set(t["seats"].values()) for t in again["tables"] if "José" in
               t["seats"].values())
    assert not met & now  # José's past read: nobody of round 1's table again
    twice = players_file(tmp_path, names + ["JOSÉ"], "twice.csv")
    code, _, err = run(capsys, "seat", "wdc2019", "--players", twice, "--round", 1)
    assert code == 2 and "JOSÉ and José (line 49) are one name" in err

"""`dipclock plan` refuses what a round cannot mean (exit 2, one line naming the option),
notes what is odd but valid, and survives a closed pipe or a full disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dipclock.launcher.cli import main

DAY = "2006-08-04T10:00"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--pause", "09:30=15"],
         "--pause 09:30=15: the game is over by then (a time before the start is the next day"),
        (["--pause", "20:00=15"],
         "--pause 20:00=15: the game is over by then (20:00; it ends at 14:48)"),
        (["--pause", "2006-08-04T09:30=45"],
         "--pause 2006-08-04T09:30=45: starts before the round (10:00)"),
        (["--pause", "12:00=30", "--pause", "12:10=20"],
         "--pause 12:10=20 overlaps --pause 12:00=30 (12:00 to 12:30)"),
        (["--pause", "S1903=60", "--pause", "11:50=20"], "overlaps --pause S1903=60"),
        (["--call", "09:00"], "--call 09:00: a time before the start is the next day, 23 h"),
        (["--call", "2006-08-11T12:00"], "--call 2006-08-11T12:00: 170 h after the start"),
        (["--pause", "=60"], "--pause '=60': '' is neither a deadline like S1903 nor a time"),
        (["--pause", "X1903=60"], "--pause 'X1903=60': 'X1903' is neither a deadline"),
    ],
)
def test_a_round_that_cannot_be_meant_is_refused_naming_the_option(
    capsys: pytest.CaptureFixture[str], extra: list[str], words: str
) -> None:
    code, out, err = run(capsys, "plan", "wdc2006", "--start", DAY, *extra)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("dipclock: error: ")
    assert words in err


def test_a_wdc2003_call_before_any_fall_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "plan", "wdc2003", "--start", DAY, "--call", "10:15")
    assert code == 2 and "--call 10:15: no Fall deadline of the round falls before it" in err


def test_a_call_after_the_last_year_plays_on_with_a_note(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "plan", "wdc2006", "--start", DAY, "--call", "16:00")
    assert code == 0
    assert err == "dipclock: note: the game ends after Fall 1909 (14:48), before the call\n"
    assert out.rstrip().endswith("Game ends after the Fall 1909 deadline. Fall 1909 centres count.")


def test_a_break_late_in_an_open_game_is_shown_not_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "plan", "wdc2003", "--start", DAY, "--pause", "F1910=60")
    assert code == 0 and err == ""
    assert "Fall 1911" in out and "-- break" in out


def test_an_event_whose_rounds_set_the_last_year_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "plan", "graduated20", "--start", DAY)
    assert "graduated20's last year is the round's (1909/1911)" in out
    assert "no fixed last year" not in out


def test_plan_json_lists_breaks_holds_the_call_and_the_scoring_fall(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "plan", "wdc2003", "--start", "2003-02-16T09:00", "--round", "4",
                       "--call", "13:00", "--pause", "S1903=60", "--json")
    data = json.loads(out)
    assert code == 0
    # the hour's break pushes Fall 1905 to 13:05, past the call: Fall 1904 (12:28) ends it
    assert data["call_ends"] == "last_fall" and data["scoring_phase"] == "F1904"
    assert data["phases"][-1]["year"] == 1904 and data["phases"][-1]["season"] == "fall"
    assert data["phases"][-1]["deadline"] == "2003-02-16T12:28:00+00:00"
    assert data["ends_at"] == data["phases"][-1]["deadline"]
    assert data["holds"] == []
    [brk] = data["breaks"]
    assert brk["at_deadline"] == "S1903" and brk["minutes"] == 60 and brk["table"] is None
    assert brk["starts"] is not None and brk["ends"] is not None


def test_a_published_call_time_applies_without_call(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    event = tmp_path / "club.toml"
    event.write_text(
        'name = "Club"\ncall_ends = "last_fall"\n[[phase_lengths]]\nspring = 15\nfall = 15\n'
        "[[rounds]]\nnumber = 1\nstart = 19:00:00\ncall = 22:00:00\n"
        '[penalty]\nmodel = "warning"\n'
    )
    code, out, _ = run(capsys, "plan", str(event), "--start", "2026-05-01T19:00", "--round", "1",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["call"] == "2026-05-01T22:00:00+00:00"
    # six 30-minute years: Fall 1906's deadline is the call itself, and counts
    assert data["scoring_phase"] == "F1906"
    assert data["phases"][-1]["deadline"].endswith("22:00:00+00:00")


def test_a_deeply_nested_event_file_is_one_line(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    event = tmp_path / "deep.toml"
    event.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    code, out, err = run(capsys, "plan", str(event), "--start", DAY)
    assert (code, out) == (2, "")
    assert err == (
        f"dipclock: error: {event}: not an event file: arrays or tables nested too deeply\n"
    )


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    argv = ["plan", "wdc2003", "--start", DAY, "--end-year", "2100", "--json"]
    proc = subprocess.Popen([sys.executable, "-m", "dipclock", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait() == 1
    assert "Traceback" not in err and err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "wb") as full:
        argv = ["plan", "wdc2006", "--start", DAY]
        done = subprocess.run([sys.executable, "-m", "dipclock", *argv],
                              stdout=full, stderr=subprocess.PIPE, check=False)
    err = done.stderr.decode()
    assert done.returncode == 2
    assert err == "dipclock: error: cannot write the output: No space left on device\n"

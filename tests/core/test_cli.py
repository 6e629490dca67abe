"""`dipclock events | plan | penalty`, as a TD types them."""

import json
import subprocess
import sys

import pytest

from dipclock.launcher.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_events_lists_the_five(capsys):
    code, out, _ = run(capsys, "events")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == ["wdc2003", "wdc2006", "wdc2018", "wdc2019", "graduated20"]


def test_plan_json_has_the_documented_shape(capsys):
    code, out, _ = run(capsys, "plan", "wdc2003", "--start", "2003-02-14T19:00", "--json",
                       "--end-year", "1902")
    data = json.loads(out)
    assert code == 0 and data["event"] == "wdc2003"
    assert data["phases"][0] == {
        "year": 1901, "season": "spring", "minutes": 20.0, "opens": "2003-02-14T19:00:00+00:00",
        "writing_from": None, "deadline": "2003-02-14T19:20:00+00:00",
    }
    assert [(p["year"], p["season"]) for p in data["phases"]] == [
        (1901, "spring"), (1901, "fall"), (1902, "spring"), (1902, "fall")]


def test_plan_wdc2019_sets_writing_from(capsys):
    _, out, _ = run(capsys, "plan", "wdc2019", "--start", "2019-09-06T10:00", "--json")
    phases = json.loads(out)["phases"]
    assert phases[0]["writing_from"] == "2019-09-06T10:17:00+00:00"
    assert phases[-1]["deadline"] == "2019-09-06T13:58:00+00:00" and phases[-1]["year"] == 1907


def test_plan_round_and_pause(capsys):
    _, out, _ = run(capsys, "plan", "graduated20", "--start", "2011-01-07T19:00", "--round", "1",
                    "--pause", "S1903=60", "--json")
    phases = json.loads(out)["phases"]
    assert phases[-1]["year"] == 1909
    # S1903 deadline 19:00 + 5 x 20 min = 20:40; F1903 then runs 21:40-22:00
    f1903 = phases[5]
    assert (f1903["opens"], f1903["deadline"]) == (
        "2011-01-07T21:40:00+00:00", "2011-01-07T22:00:00+00:00")


def test_plan_text_says_the_horizon_for_an_open_event(capsys):
    code, out, _ = run(capsys, "plan", "wdc2018", "--start", "2018-10-05T09:00")
    assert code == 0
    assert "no fixed last year: shown to Fall 1910" in out
    assert "Fall 1910" in out and "Spring 1911" not in out


def test_plan_with_a_call_runs_to_the_call_past_the_usual_horizon(capsys):
    _, out, _ = run(capsys, "plan", "wdc2018", "--start", "2018-10-07T09:00", "--call", "15:00",
                    "--json")
    data = json.loads(out)
    # 1901-06 204 min, then 32 min a year: F1910 at 14:32, S1911 at 14:49, F1911 15:04
    assert data["phases"][-1]["year"] == 1911 and data["phases"][-1]["season"] == "spring"
    assert data["phases"][-1]["deadline"] == "2018-10-07T14:49:00+00:00"


def test_plan_text_shows_every_break_where_it_falls(capsys):
    _, out, _ = run(capsys, "plan", "wdc2006", "--start", "2006-08-04T10:00",
                    "--pause", "S1901=10", "--pause", "11:00=30")
    lines = out.splitlines()
    s1901 = next(i for i, line in enumerate(lines) if line.startswith("Spring 1901"))
    assert lines[s1901 + 1].strip() == "-- break 10:17 to 10:27 --"
    f1902 = next(i for i, line in enumerate(lines) if line.startswith("Fall 1902"))
    assert lines[f1902].split()[-2:] == ["10:59", "11:44"]  # 15 min + the 30-min break
    assert lines[f1902 + 1].strip() == "-- break 11:00 to 11:30 --"


def test_plan_round_says_when_the_start_differs_from_the_published_one(capsys):
    _, out, _ = run(capsys, "plan", "wdc2006", "--round", "2", "--start", "2006-08-04T19:30")
    assert "Second Individual Round (Friday), published start 19:00" in out


def test_plan_call_time(capsys):
    _, out, _ = run(capsys, "plan", "wdc2018", "--start", "2018-10-07T09:00", "--call", "14:30",
                    "--json")
    data = json.loads(out)
    assert data["ends"] == "call" and data["phases"][-1]["deadline"] == "2018-10-07T14:17:00+00:00"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["plan", "wdc1999", "--start", "10:00"], "unknown event 'wdc1999'"),
        (["plan", "wdc2006", "--start", "tea time"], "'tea time' is not a time"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "S1912=30"], "no such deadline"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "F1903=-5"], "more than 0"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "F1903"], "PHASE=MINUTES"),
        (["plan", "wdc2006", "--start", "10:00", "--round", "8"], "no round 8"),
        (["plan", "wdc2006"], "--start"),
        (["penalty", "wdc2006", "--late", "soon"], "invalid float value"),
        (["penalty", "wdc2006", "--late", "3", "--offence", "0"], "at least 1"),
        (["bake"], "invalid choice"),
        (["plan", "wdc2003", "--start", "10:00", "--end-year", "3000"], "from 1901 to 2100"),
        (["plan", "wdc2003", "--start", "10:00", "--end-year", "1900"], "from 1901 to 2100"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "S1901=inf"], "at most 1440"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "S1901=nan"], "at most 1440"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "11:00=1e300"], "at most 1440"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "S1900=10"], "no such deadline"),
        (["plan", "wdc2006", "--start", "10:00", "--pause", "F1909=10"], "game ends at that"),
        (["plan", "wdc2006", "--start", "2006-08-04T10:00+02:00"], "without a time zone"),
        (["plan", "wdc2006", "--start", "9999-12-31T23:00"], "between 1970 and 2999"),
        (["plan", "wdc2006", "--start", "2006-08-04T10:00", "--call", "2006-08-04T09:00"],
         "--call 2006-08-04T09:00: at or before the start"),
        (["plan", "wdc2006", "--start", "2006-08-04T10:00", "--call", "2006-08-04T10:10"],
         "no deadline of the round falls before it"),
        (["penalty", "wdc2006", "--late", "nan"], "give a number of seconds"),
        (["penalty", "wdc2006", "--late", "inf"], "give a number of seconds"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("dipclock: error: ")
    assert words in err


def test_malformed_toml_event_exits_2_naming_file_and_key(capsys, tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('name = "x"\npenalty = { model = "warning" }\n[[phase_lengths]]\nspring = 10\n')
    code, _, err = run(capsys, "plan", str(f), "--start", "10:00")
    assert code == 2
    assert err.strip() == f"dipclock: error: {f}: phase_lengths.0.fall: required key is missing"


@pytest.mark.parametrize(
    "event, late, offence, kind, hold, units",
    [
        ("graduated20", "15.2", "1", "unit_nmr", False, 2),
        ("wdc2006", "12", "1", "yellow_card", False, 0),
        ("wdc2006", "12", "2", "red_card", True, 0),
        ("wdc2003", "29", "1", "grace", False, 0),
        ("wdc2018", "5", "2", "nmr", True, 0),
        ("wdc2019", "5", "1", "referee", False, 0),
        ("wdc2006", "0", "1", "none", False, 0),
    ],
)
def test_penalty_json(capsys, event, late, offence, kind, hold, units):
    _, out, _ = run(capsys, "penalty", event, "--late", late, "--offence", offence, "--json")
    data = json.loads(out)
    assert (data["kind"], data["all_units_hold"], data["units_deleted"]) == (kind, hold, units)
    assert data["label"]


def test_penalty_with_units_names_the_deleted_orders(capsys):
    _, out, _ = run(capsys, "penalty", "graduated20", "--late", "15.2", "--units", "Vie,Bud,Tri")
    assert out.strip() == "2-unit NMR: delete Bud, Tri"


def test_the_command_runs_as_a_program():
    out = subprocess.run([sys.executable, "-m", "dipclock", "penalty", "graduated20", "--late",
                          "91", "--json"], capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["kind"] == "nmr"


def test_the_front_door_s_own_commands_load_no_shell_library() -> None:
    """``dipclock`` lives in the core package (docs/architecture.md says why): its own
    commands run with the core's dependencies alone; the demo's httpx, the kiosk's pygame
    and the hub's web stack are imported by their subcommands only."""
    code = (
        "import contextlib, io, sys\n"
        "from dipclock.launcher.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['events']); main(['plan', 'wdc2006', '--start', '2006-08-04T10:00'])\n"
        "    main(['penalty', 'wdc2006', '--late', '20'])\n"
        "print(sorted({'httpx', 'fastapi', 'starlette', 'uvicorn', 'pygame', 'websockets',\n"
        "              'zeroconf', 'gpiozero', 'serial', 'sqlite3'} & sys.modules.keys()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == "[]", out

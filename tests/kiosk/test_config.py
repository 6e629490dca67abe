"""Settings: TOML file, options on top, one clear line for a bad file."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from dipclock.arguments import UsageError
from kiosk.cli import main
from kiosk.config import ConfigError, Settings, load_file
from kiosk.options import build_parser, settings_from, standalone_round

EXAMPLE = Path(__file__).resolve().parents[2] / "kiosk" / "kiosk.example.toml"


def test_the_example_file_is_valid() -> None:
    s = Settings.model_validate(load_file(EXAMPLE))
    # the file every cloned card shares names no table: each card's dipclock.txt does
    assert s.table is None and s.warning_minutes == 2 and s.buttons.keyboard


def test_options_override_the_file(tmp_path: Path) -> None:
    f = tmp_path / "k.toml"
    f.write_text('event = "wdc2006"\nstart = 10:00:00\ntable = 2\nsound = true\n'
                 '[buttons]\nserial = "loop://"\n[buttons.gpio]\nItaly = 26\n')
    args = build_parser().parse_args(["--config", str(f), "--table", "5", "--no-sound",
                                      "--gpio", "A=5"])
    s = settings_from(args)
    assert (s.event, s.start, s.table, s.sound) == ("wdc2006", "10:00:00", 5, False)
    assert s.buttons.gpio == {"A": 5} and s.buttons.serial == "loop://"
    s = settings_from(build_parser().parse_args(["--config", str(f)]))
    assert s.buttons.gpio == {"I": 26}


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("tabel = 3\n", "tabel: unknown key"),
        ("warning_minutes = 'soon'\n", "warning_minutes:"),
        ("[buttons]\nkeybaord = true\n", "buttons.keybaord: unknown key"),
        ("[buttons.gpio]\nX = 3\n", "buttons.gpio"),
        ("size = '12x'\n", "size:"),
        ("table = [\n", "not valid TOML"),
    ],
)
def test_a_bad_file_stops_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expect: str
) -> None:
    f = tmp_path / "kiosk.toml"
    f.write_text(text)
    assert main(["--config", str(f), "--headless", "--run-for", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert str(f) in err and expect in err


def test_standalone_needs_a_round(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--outbox", str(tmp_path / "o.sqlite"), "--headless", "--run-for", "0",
                 "--event", "wdc2019"]) == 2
    assert "wdc2019 runs on a central clock: give the round's start" in capsys.readouterr().err


def test_a_bare_start_resumes_last_nights_round_after_midnight() -> None:
    s = Settings(event="wdc2006", start="19:00", table=3)
    _, sched, record = standalone_round(s, date(2006, 8, 4))
    assert sched.start == datetime(2006, 8, 4, 19, 0)
    # the Pi reboots at 00:30: "19:00" would be tonight, but the round is last night's
    _, again, _ = standalone_round(s, date(2006, 8, 5), record, datetime(2006, 8, 5, 0, 30))
    assert again.start == datetime(2006, 8, 4, 19, 0)
    # a new day's round with the same settings is a new round
    _, later, _ = standalone_round(s, date(2006, 8, 5), record, datetime(2006, 8, 5, 18, 0))
    assert later.start == datetime(2006, 8, 5, 19, 0)


def test_round_options_are_reused_from_plan() -> None:
    s = Settings(event="graduated20", start="2006-08-04T19:00", round=1, call="01:00",
                 pauses=["S1903=60"])
    profile, sched, _ = standalone_round(s, date(2006, 8, 4))
    assert sched.last_year == 1909 and sched.title == "Friday round"
    assert sched.call == datetime(2006, 8, 5, 1, 0)
    assert sched.pauses[0].minutes == 60
    with pytest.raises(UsageError):
        standalone_round(Settings(event="wdc2006"), date(2006, 8, 4))


@pytest.mark.parametrize(
    ("given", "hub"),
    [("http://10.0.0.1:8000/", "http://10.0.0.1:8000"), ("10.0.0.1:8000", "https://10.0.0.1:8000"),
     ("AUTO", "auto")],
)
def test_a_hub_address_is_taken_as_a_td_types_it(given: str, hub: str) -> None:
    assert Settings(hub=given).hub == hub


def test_a_hub_that_is_no_address_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "kiosk.toml"
    f.write_text('hub = "http://10.0.0.1:8000 extra"\n')
    with pytest.raises(ConfigError, match="is not a hub address like https://10.0.0.1:8000"):
        load_file(f)


def test_the_pin_factory_is_one_of_gpiozeros(tmp_path: Path) -> None:
    f = tmp_path / "kiosk.toml"
    f.write_text('[buttons]\npin_factory = "lgpoi"\n')
    with pytest.raises(ConfigError, match="buttons.pin_factory: .*'lgpio'"):
        load_file(f)
    f.write_text('[buttons]\npin_factory = "lgpio"\nserial = "auto"\n')
    assert Settings.model_validate(load_file(f)).buttons.pin_factory == "lgpio"

"""Time zones: the core counts in UTC, a TD types and reads the venue's time, and a
daylight-saving change moves no deadline (spring and autumn, in Europe and the USA)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.arguments import UsageError, round_schedule
from dipclock.events import BUILTIN
from dipclock.schedule import Schedule
from dipclock.screen import build
from dipclock.timeline import timetable
from dipclock.venuetime import NoSuchTime, at_venue, resolve, to_utc, venue_naive, zone

WDC = BUILTIN["wdc2006"]  # Spring 17 min, Fall 15 min


def plan(tz: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """`dipclock plan` as a TD in ``tz`` runs it (the machine's zone, through TZ)."""
    return subprocess.run([sys.executable, "-m", "dipclock", "plan", *argv],
                          capture_output=True, text=True, check=False,
                          env={"TZ": tz, "PATH": "/usr/bin:/bin"})


# (zone, the night the clocks change, a start just before it, the first deadline after it)
CHANGES = [
    # spring forward, Europe: 02:00 CET -> 03:00 CEST; 01:00 + 64 min is 03:04
    ("Europe/Berlin", "2006-03-26T01:00", "1902", "03:04", "+02:00"),
    # fall back, Europe: 03:00 CEST -> 02:00 CET; 02:00 (the first) + 64 min is 02:04 CET
    ("Europe/Berlin", "2006-10-29T02:00", "1902", "02:04", "+01:00"),
    # spring forward, USA: 02:00 EST -> 03:00 EDT
    ("America/New_York", "2007-03-11T01:00", "1902", "03:04", "-04:00"),
    # fall back, USA: 02:00 EDT -> 01:00 EST; 01:00 (the first) + 64 min is 01:04 EST
    ("America/New_York", "2007-11-04T01:00", "1902", "01:04", "-05:00"),
]


@pytest.mark.parametrize(("tz", "start", "end", "last", "offset"), CHANGES)
def test_a_plan_across_a_clock_change_counts_real_minutes(
    tz: str, start: str, end: str, last: str, offset: str
) -> None:
    done = plan(tz, "wdc2006", "--start", start, "--end-year", end, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["timezone"] == tz
    deadlines = [datetime.fromisoformat(p["deadline"]) for p in data["phases"]]
    opened = datetime.fromisoformat(data["start"])
    # 64 real minutes, whatever the wall clock did in between
    assert deadlines[-1] - opened == timedelta(minutes=64)
    assert data["phases"][-1]["deadline"].endswith(f"T{last}:00{offset}")


def test_the_text_plan_prints_no_time_that_does_not_exist() -> None:
    done = plan("Europe/Berlin", "wdc2006", "--start", "2006-03-26T01:00", "--end-year", "1902")
    assert done.returncode == 0
    assert "03:04" in done.stdout and "02:04" not in done.stdout
    assert "(Europe/Berlin)" in done.stdout


@pytest.mark.parametrize(("tz", "start"), [("Europe/Berlin", "2006-03-26T02:30"),
                                           ("America/New_York", "2007-03-11T02:15")])
def test_a_start_the_clocks_skip_is_refused_naming_the_option(tz: str, start: str) -> None:
    done = plan(tz, "wdc2006", "--start", start)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"dipclock: error: --start {start}: ")
    assert "does not exist" in done.stderr and done.stderr.count("\n") == 1


def test_a_start_the_clocks_repeat_is_the_first_with_a_note() -> None:
    done = plan("Europe/Berlin", "wdc2006", "--start", "2006-10-29T02:30", "--end-year", "1901",
                "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["start"] == "2006-10-29T02:30:00+02:00"  # summer time
    assert "happens twice" in done.stderr and "the first" in done.stderr


def test_a_call_and_a_break_are_the_venue_s_time_too() -> None:
    berlin = WDC.model_copy(update={"timezone": "Europe/Berlin"})
    notes: list[str] = []
    s = round_schedule(berlin, datetime(2006, 3, 26, 1, 0), end_year=1903, call="04:00",
                       pauses=["03:10=5"], notes=notes)
    assert s.start == datetime(2006, 3, 26, 0, 0)  # 01:00 CET is 00:00 UTC
    assert s.call == datetime(2006, 3, 26, 2, 0)  # 04:00 CEST is 02:00 UTC
    assert s.pauses[0].at == datetime(2006, 3, 26, 1, 10)
    with pytest.raises(UsageError, match="--call 02:30: .* does not exist"):
        round_schedule(berlin, datetime(2006, 3, 26, 1, 0), call="02:30")


def test_the_kiosk_screen_shows_the_venue_s_deadline_across_the_change() -> None:
    ny = WDC.model_copy(update={"timezone": "America/New_York"})
    start = to_utc(datetime(2007, 3, 11, 1, 0), zone("America/New_York"))
    schedule = Schedule(start=start, last_year=1902)
    fall_1902 = timetable(ny, schedule).phases[-1]
    screen = build(ny, schedule, fall_1902.deadline - timedelta(minutes=5), table=1)
    assert screen.deadline == "Deadline 03:04" and screen.phase == "Fall 1902"


def test_the_stated_rules() -> None:
    berlin = zone("Europe/Berlin")
    with pytest.raises(NoSuchTime, match="give 03:30 or 01:30"):
        resolve(datetime(2006, 3, 26, 2, 30), berlin)
    moment, note = resolve(datetime(2006, 10, 29, 2, 30), berlin)
    assert moment == datetime(2006, 10, 29, 0, 30) and note is not None
    assert resolve(datetime(2006, 8, 4, 10, 0), berlin) == (datetime(2006, 8, 4, 8, 0), None)
    assert zone(None) is zone("UTC") or str(zone(None)) == "UTC"


ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"]


@settings(max_examples=100, deadline=None)
@given(tz=st.sampled_from(ZONES),
       start=st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2030, 12, 31)))
def test_every_deadline_is_a_real_instant_and_phases_keep_their_length(
    tz: str, start: datetime
) -> None:
    """Local text round-trips to the same UTC instant; real minutes equal phase lengths."""
    venue = zone(tz)
    utc_start = start.replace(second=0, microsecond=0)
    phases = timetable(WDC.model_copy(update={"timezone": tz}),
                       Schedule(start=utc_start, last_year=1903)).phases
    for p in phases:
        local = at_venue(p.deadline, venue)
        assert to_utc(local.replace(tzinfo=None), venue) == p.deadline or (
            # a wall time the clocks repeat names its first instant: the second is an hour on
            resolve(local.replace(tzinfo=None), venue)[1] is not None)
        assert venue_naive(p.deadline, venue) == local.replace(tzinfo=None)
        assert p.deadline - p.opens == timedelta(minutes=p.minutes)


def test_a_machine_without_zone_data_still_knows_the_venue_s_zone() -> None:
    """A Pi image or a container with no /usr/share/zoneinfo: the tzdata package serves."""
    done = subprocess.run(
        [sys.executable, "-m", "dipclock", "plan", "wdc2006", "--start", "2006-03-26T01:00",
         "--end-year", "1902"], capture_output=True, text=True, check=False,
        env={"TZ": "Europe/Berlin", "PATH": "/usr/bin:/bin", "PYTHONTZPATH": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert "(Europe/Berlin)" in done.stdout and "03:04" in done.stdout

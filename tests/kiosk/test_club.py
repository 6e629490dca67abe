"""A standalone kiosk at a club: a board-clock event starts when the kiosk does."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dipclock.arguments import UsageError
from dipclock.timeline import timetable
from kiosk.config import Settings
from kiosk.options import standalone_round
from tests.server.live import ROOT

CLUB = str(ROOT / "examples" / "events" / "club-night.toml")


def test_a_club_kiosk_needs_no_start_and_resumes_its_own_game_after_a_restart() -> None:
    s = Settings(event=CLUB)
    booted = datetime(2026, 5, 1, 19, 42, 10, 500000)
    profile, sched, record = standalone_round(s, date(2026, 5, 1), None, booted)
    assert not profile.central_clock and sched.start == datetime(2026, 5, 1, 19, 42, 10)
    assert timetable(profile, sched).phases[0].deadline == datetime(2026, 5, 1, 19, 57, 10)
    # the Pi loses power an hour in: the same game goes on, not a new one
    _, again, _ = standalone_round(s, date(2026, 5, 1), record, datetime(2026, 5, 1, 20, 45))
    assert again.start == sched.start


def test_a_central_clock_without_a_start_is_refused_naming_the_option() -> None:
    with pytest.raises(UsageError, match="--start: wdc2006 runs on a central clock"):
        standalone_round(Settings(event="wdc2006"), date(2026, 5, 1), None,
                         datetime(2026, 5, 1, 19, 0))


def test_a_standalone_round_is_checked_like_a_plan() -> None:
    s = Settings(event="wdc2006", start="2006-08-04T10:00", pauses=["20:00=15"])
    with pytest.raises(UsageError, match="--pause 20:00=15: the game is over by then"):
        standalone_round(s, date(2006, 8, 4))

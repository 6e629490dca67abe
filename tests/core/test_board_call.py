"""The board call on a table's screen (``dipclock.screen.board_call``): before the round
starts, the table's seven players by power; not once it runs, not on the hall's clock."""

from __future__ import annotations

from datetime import datetime, timedelta

from dipclock.events import BUILTIN
from dipclock.schedule import Schedule
from dipclock.screen import build

START = datetime(2026, 5, 2, 10, 0)
SEATED = {"A": "Ann", "E": "Bob", "F": "Cat", "G": "Dan", "I": "Eve", "R": "Fay", "T": "Gus"}
PROFILE = BUILTIN["wdc2019"]
SCHEDULE = Schedule(start=START, title="Round 2")


def test_before_the_start_a_seated_table_shows_its_players_by_power() -> None:
    s = build(PROFILE, SCHEDULE, START - timedelta(minutes=8), table=3, players=SEATED)
    assert s.look == "before_start" and s.table_name == "Table 3"
    assert s.board_call == (("Austria", "Ann"), ("England", "Bob"), ("France", "Cat"),
                            ("Germany", "Dan"), ("Italy", "Eve"), ("Russia", "Fay"),
                            ("Turkey", "Gus"))


def test_an_empty_seat_is_left_out_and_an_unseated_table_shows_none() -> None:
    moment = START - timedelta(minutes=8)
    partial = build(PROFILE, SCHEDULE, moment, table=3, players={"E": " Bob ", "A": ""})
    assert partial.board_call == (("England", "Bob"),)
    assert build(PROFILE, SCHEDULE, moment, table=3).board_call == ()


def test_no_board_call_once_the_round_runs_nor_on_the_halls_clock() -> None:
    assert build(PROFILE, SCHEDULE, START + timedelta(seconds=1), table=3,
                 players=SEATED).board_call == ()
    assert build(PROFILE, SCHEDULE, START - timedelta(minutes=8), table=None,
                 players=SEATED).board_call == ()

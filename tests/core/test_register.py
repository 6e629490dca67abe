"""Registration for a round (issue 36, ``dipclock.roster.register``): each person present,
absent, asking to sit out or withdrawn; a withdrawal holds in later rounds until the TD
brings them back; nobody is marked present after the board call; "all pre-registered
present" skips the withdrawn; and who sits out follows the event's order (wdc2019 II.1b3:
volunteers, then the non-pre-registered), through the seating's ``sit_out_first``."""

from __future__ import annotations

import random

import pytest

from dipclock.events import BUILTIN
from dipclock.roster import person
from dipclock.roster.register import (
    Marks,
    RegisterError,
    Status,
    bonuses,
    check_mark,
    for_seating,
    later_marks,
    preregistered_to_mark,
    status_of,
)
from dipclock.seating import read_past, seat_round
from dipclock.seating.seat import sitting_out

PEOPLE = [(i, person(f"Given{i}", f"Family{i}", preregistered=i % 2 == 1))
          for i in range(1, 11)]


def test_nobody_is_present_until_marked_and_a_mark_holds_for_its_round_only():
    marks: Marks = {(1, 3): "present"}
    assert status_of(marks, 1, 3) == "present"
    assert status_of(marks, 2, 3) == "absent"
    assert status_of(marks, 1, 4) == "absent"


def test_a_withdrawal_holds_in_later_rounds_until_the_td_brings_them_back():
    marks: dict[tuple[int, int], Status] = {(2, 5): "withdrawn"}
    assert status_of(marks, 1, 5) == "absent"
    assert [status_of(marks, r, 5) for r in (2, 3, 4)] == ["withdrawn"] * 3
    marks[(4, 5)] = "present"  # back in round 4
    assert [status_of(marks, r, 5) for r in (3, 4, 5)] == ["withdrawn", "present", "absent"]


def test_a_withdrawal_clears_the_marks_already_made_for_later_rounds():
    marks: Marks = {(1, 5): "present", (3, 5): "present", (4, 2): "present"}
    assert later_marks(marks, 2, 5) == [3]


def test_present_is_refused_after_the_board_call_with_what_to_do_instead():
    who = PEOPLE[0][1]
    check_mark(who, 2, "present", called=False)
    with pytest.raises(RegisterError, match="round 2's seating is called.*tables kept"):
        check_mark(who, 2, "present", called=True)
    check_mark(who, 2, "withdrawn", called=True)  # a player may still leave
    check_mark(who, 2, "absent", called=True)


def test_all_pre_registered_present_marks_the_unmarked_and_leaves_the_withdrawn():
    marks: Marks = {(1, 1): "withdrawn", (2, 3): "sitting_out"}
    assert preregistered_to_mark(PEOPLE, marks, 2) == [5, 7, 9]


def test_the_seating_gets_those_present_and_the_volunteers_sat_out_first():
    marks: dict[tuple[int, int], Status] = {(1, i): "present" for i in range(1, 9)}
    marks |= {(1, 2): "sitting_out", (1, 9): "withdrawn"}
    got = for_seating(PEOPLE, marks, 1)
    assert got.players == tuple(f"Given{i} Family{i}" for i in range(1, 9))
    assert got.sit_out_first == (("Given2 Family2",),)
    assert got.groups == ("asked to sit out",)


def test_wdc2019_sits_out_the_non_pre_registered_after_the_volunteers():
    rules = BUILTIN["wdc2019"].standings
    assert rules is not None and rules.sit_out_not_preregistered_first
    marks: dict[tuple[int, int], Status] = {(1, i): "present" for i in range(1, 11)}
    marks[(1, 3)] = "sitting_out"
    got = for_seating(PEOPLE, marks, 1, not_preregistered_first=True)
    assert got.sit_out_first == (
        ("Given3 Family3",), tuple(f"Given{i} Family{i}" for i in (2, 4, 6, 8, 10)))
    assert got.groups == ("asked to sit out", "not pre-registered")


def test_the_seating_sits_out_the_groups_first_in_their_order():
    players = [f"P{i:02d}" for i in range(10)]  # 10 players: 3 sit out
    past = read_past([], players)
    for seed in range(20):
        out = sitting_out(players, past, 3, random.Random(seed), [("P07",), ("P02", "P05")])
        assert sorted(out) == ["P02", "P05", "P07"]
        out = sitting_out(players, past, 2, random.Random(seed), [("P07",), ("P02", "P05")])
        assert "P07" in out and len(set(out) & {"P02", "P05"}) == 1


def test_seat_round_takes_the_register_s_order():
    players = [f"P{i:02d}" for i in range(16)]  # 16: two sit out
    for seed in range(10):
        s = seat_round(players, read_past([], players), 1, random.Random(seed),
                       sit_out_first=[("P15",), ("P03", "P09", "P11")])
        assert "P15" in s.sitting_out and len(set(s.sitting_out) & {"P03", "P09", "P11"}) == 1


def test_a_volunteer_who_sat_out_gets_the_event_s_bonus_and_nobody_else():
    assert bonuses(["A", "B"], ["A", "C"], 5) == {"A": 5}
    assert bonuses(["A"], ["A"], 0) == {}


def test_a_volunteer_the_seating_sat_out_gets_the_event_s_bonus_each_round():
    """wdc2019 II.1b3: "A bonus may be given to the player who ask to sit out": only to a
    volunteer the seating did sit out (one it seated after all played), every such round."""
    from dipclock.roster.register import event_bonuses

    people = {1: "Ann Lee", 2: "Bob Ray", 3: "Cy Day"}
    marks = {(1, 1): "sitting_out", (1, 2): "sitting_out", (2, 1): "sitting_out",
             (1, 3): "present"}
    seated = {1: {"Bob Ray", "Cy Day"}, 2: {"Cy Day"}}
    total, lines = event_bonuses(people, marks, seated, 5)
    assert total == {"Ann Lee": 10.0}
    assert list(map(str, lines)) == [
        "Ann Lee: 5 points for sitting out round 1, as the event gives a volunteer",
        "Ann Lee: 5 points for sitting out round 2, as the event gives a volunteer"]
    assert event_bonuses(people, marks, seated, 0) == ({}, [])

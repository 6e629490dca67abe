"""Calls by each event's rule: where a called game ends, and which Fall's centres count."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN, CallEnds, EventProfile, parse_event_toml
from dipclock.i18n import Words
from dipclock.schedule import Pause, PhaseRef, Schedule
from dipclock.screen import build
from dipclock.timeline import table_clock, timetable

START = datetime(2003, 2, 16, 9, 0)


def with_rule(event: str, rule: CallEnds) -> EventProfile:
    return BUILTIN[event].model_copy(update={"call_ends": rule})


def test_the_five_events_call_by_their_own_texts() -> None:
    # "only at the beginning of an adjustments phase"
    assert BUILTIN["wdc2003"].call_ends == "last_fall"
    assert BUILTIN["wdc2018"].call_ends == "at_call"  # "games will end immediately"
    for other in ("wdc2006", "wdc2019", "graduated20"):
        assert BUILTIN[other].call_ends == "last_deadline"


def test_wdc2003_called_at_13_00_ends_after_fall_1906_not_spring_1907() -> None:
    table = timetable(BUILTIN["wdc2003"], Schedule(start=START, call=datetime(2003, 2, 16, 13)))
    last = table.phases[-1]
    assert last.ref == PhaseRef(year=1906, season="fall")
    assert last.deadline == datetime(2003, 2, 16, 12, 38)
    assert table.ends == "call" and table.ends_at == last.deadline
    assert table.scoring_phase == last.ref


def test_the_same_call_under_the_last_deadline_rule_ends_at_spring_1907() -> None:
    table = timetable(with_rule("wdc2003", "last_deadline"),
                      Schedule(start=START, call=datetime(2003, 2, 16, 13)))
    assert table.phases[-1].ref == PhaseRef(year=1907, season="spring")
    assert table.phases[-1].deadline == datetime(2003, 2, 16, 12, 56)
    # the Spring does not change a centre: Fall 1906's count still scores
    assert table.scoring_phase == PhaseRef(year=1906, season="fall")


def test_wdc2018_ends_at_the_call_and_the_last_completed_fall_scores() -> None:
    call = datetime(2018, 10, 7, 14, 30)
    table = timetable(BUILTIN["wdc2018"], Schedule(start=datetime(2018, 10, 7, 9), call=call))
    assert table.ends_at == call
    assert table.phases[-1].deadline == datetime(2018, 10, 7, 14, 17)
    falls = [p for p in table.phases if p.season == "fall"]
    assert table.scoring_phase == falls[-1].ref
    assert table.phases[-1].deadline <= call


def test_a_game_to_its_last_year_scores_that_fall() -> None:
    table = timetable(BUILTIN["wdc2006"], Schedule(start=START))
    assert table.ends == "last_year"
    assert table.scoring_phase == PhaseRef(year=1909, season="fall")
    assert table.ends_at == table.phases[-1].deadline


def test_an_open_game_has_no_end_and_no_scoring_phase_yet() -> None:
    table = timetable(BUILTIN["wdc2003"], Schedule(start=START))
    assert table.ends == "horizon" and table.ends_at is None and table.scoring_phase is None


rules = st.sampled_from(["last_fall", "at_call", "last_deadline"])
events = st.sampled_from(sorted(BUILTIN))


@settings(max_examples=150, deadline=None)
@given(event=events, rule=rules, minutes=st.integers(1, 12 * 60),
       breaks=st.lists(st.tuples(st.integers(0, 600), st.integers(1, 90)), max_size=3))
def test_a_call_never_ends_a_game_after_the_call_nor_after_a_spring_under_a_fall_rule(
    event: str, rule: CallEnds, minutes: int, breaks: list[tuple[int, int]]
) -> None:
    call = START + timedelta(minutes=minutes)
    pauses = tuple(Pause(at=START + timedelta(minutes=at), minutes=m) for at, m in breaks)
    schedule = Schedule(start=START, call=call, pauses=pauses)
    table = table_clock(with_rule(event, rule), schedule).timetable()
    for phase in table.phases:
        assert phase.deadline <= call
    if table.ends_at is not None:
        assert table.ends_at <= call
    if rule == "last_fall" and table.phases and table.ends == "call":
        assert table.phases[-1].season == "fall"
    if table.scoring_phase is not None:
        assert table.scoring_phase.season == "fall"
        assert table.phase(table.scoring_phase) is not None


@settings(max_examples=80, deadline=None)
@given(event=events, minutes=st.integers(1, 12 * 60))
def test_every_rule_scores_the_same_fall_when_the_call_falls_after_one(
    event: str, minutes: int
) -> None:
    """The rules differ in where the game ends, never in which Fall's centres count."""
    schedule = Schedule(start=START, call=START + timedelta(minutes=minutes))
    scored = {table_clock(with_rule(event, r), schedule).timetable().scoring_phase
              for r in ("last_fall", "at_call", "last_deadline")}
    assert len(scored) == 1


def test_the_kiosk_says_where_a_called_game_ends_and_which_centres_count() -> None:
    profile, call = BUILTIN["wdc2003"], datetime(2003, 2, 16, 13)
    schedule = Schedule(start=START, call=call)
    before = build(profile, schedule, datetime(2003, 2, 16, 12, 30), table=1)
    assert "Called for 13:00: the game ends after Fall 1906" in before.notes
    after = build(profile, schedule, datetime(2003, 2, 16, 12, 40), table=1)
    assert after.look == "game_over" and after.big == "Game over"
    assert after.label == "Round called: the game ended after Fall 1906"
    assert after.notes == ("Fall 1906 centres count",)


def test_under_at_call_the_screen_counts_to_the_call_after_the_last_deadline() -> None:
    profile, call = BUILTIN["wdc2018"], datetime(2018, 10, 7, 14, 30)
    schedule = Schedule(start=datetime(2018, 10, 7, 9), call=call)
    playing = build(profile, schedule, datetime(2018, 10, 7, 13, 50), table=1)
    assert "Called for 14:30: the game ends then, Fall 1909 centres count" in playing.notes
    screen = build(profile, schedule, datetime(2018, 10, 7, 14, 20), table=1)
    assert screen.look == "game_over" and screen.count_to == call
    assert screen.label == "No more deadlines: the round ends at 14:30"
    over = build(profile, schedule, call, table=1)
    assert over.label == "Round called: the game ends here" and over.notes[0].endswith(
        "centres count")


def test_a_game_over_at_its_last_year_names_the_scoring_fall() -> None:
    screen = build(BUILTIN["wdc2006"], Schedule(start=START), START + timedelta(hours=9))
    assert screen.notes == ("Fall 1909 centres count",)


TOML = """
name = "Club"
call_ends = "{rule}"
[[phase_lengths]]
spring = 15
fall = 12
writing_minutes = 1
[[phase_lengths]]
from_year = 1905
spring = 12
fall = 10
writing_minutes = 0.5
[[rounds]]
number = 1
start = 10:00:00
call = 13:30:00
[penalty]
model = "nmr"
"""


def test_an_event_file_says_its_call_rule_call_time_and_writing_by_year() -> None:
    profile = parse_event_toml(TOML.format(rule="last_fall"), "club.toml")
    assert profile.call_ends == "last_fall"
    assert profile.rounds[0].call is not None and profile.rounds[0].call.hour == 13
    assert profile.writing_for(1904) == 1 and profile.writing_for(1905) == 0.5
    table = timetable(profile, Schedule(start=START, last_year=1906))
    by_year = {p.ref.year: (p.deadline - p.writing_from).total_seconds()
               for p in table.phases if p.writing_from}
    assert by_year[1904] == 60 and by_year[1905] == 30


@pytest.mark.parametrize("rule, message", [
    ("at_the_end", "call_ends: Input should be 'last_fall', 'at_call' or 'last_deadline'"),
])
def test_a_wrong_call_rule_is_named(rule: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_event_toml(TOML.format(rule=rule), "club.toml")


def test_a_writing_tier_as_long_as_a_phase_is_refused() -> None:
    text = TOML.format(rule="at_call").replace("writing_minutes = 0.5", "writing_minutes = 10")
    with pytest.raises(ValueError, match="writing_minutes must be shorter than every phase"):
        parse_event_toml(text, "club.toml")


def test_a_plain_nmr_event_holds_every_unit_from_the_first_late_second() -> None:
    from dipclock.penalties import penalty

    rules = parse_event_toml(TOML.format(rule="at_call"), "club.toml").penalty
    assert rules.model == "nmr"
    assert penalty(rules, 0).kind == "none"
    late = penalty(rules, 0.2)
    assert (late.kind, late.all_units_hold, late.label) == (
        "nmr", True, "Late: all units hold (NMR)")
    assert penalty(rules, 0.2, offence=3) == late
    assert late.no_orders().label == "No orders: all units hold (NMR)"


def test_where_a_called_game_ends_is_worded_once_for_every_screen_and_command() -> None:
    """dipclock.callwords: the kiosk's note, the call preview's line and the plan's and the
    event list's rule all say the same thing in the same words."""
    from dipclock.callwords import counts, game_ends, preview_line
    from dipclock.events import CALL_RULES
    from dipclock.schedule import PhaseRef

    fall, spring = PhaseRef.parse("F1906"), PhaseRef.parse("S1907")
    assert game_ends(spring, fall, "last_deadline") == "the game ends after Spring 1907"
    assert game_ends(fall, fall, "at_call") == "the game ends then, Fall 1906 centres count"
    assert game_ends(None, None, "last_fall") == "the game ends before its first deadline"
    assert counts(None) == "the starting centres count"
    assert preview_line(2, spring, fall, "last_deadline", "13:17:00", PhaseRef.parse(
        "F1907"), 51.4) == ("Table 2: the game ends after Spring 1907 (13:17:00); loses Fall "
                            "1907, 51 s short; Fall 1906 centres count")
    assert preview_line(None, spring, fall, "at_call") == (
        "Every table: the game ends then, Fall 1906 centres count")
    # a French TD's phone: every piece in French, the phases too
    french = preview_line(2, spring, fall, "last_deadline", "13:17:00",
                          PhaseRef.parse("F1907"), 51.4, Words("fr"))
    assert french.startswith("Table 2 : la partie") and "Automne 1907" in french, french
    assert BUILTIN["wdc2003"].summary().endswith(
        f"; {CALL_RULES['last_fall']}; penalties: leniency")

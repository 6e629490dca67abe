"""The TD's actions as plain functions: each refusal, each stored change, each audit line,
with the round and the moment as arguments (no app, no store, no clock)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from dipclock.events import BUILTIN, EventError
from dipclock.rounds import round_naming
from dipclock.schedule import Pause, PhaseRef, Schedule
from server import actions
from server.actions import Refused
from server.responses import LateSubmission, ProposedPenalty
from server.rounds import Current
from server.schemas import (
    AdjustRequest,
    CallRequest,
    EventChoice,
    PauseRequest,
    PenaltyDecision,
    ResumeRequest,
    RoundSetup,
    TablesSetup,
)
from server.store import RoundRow

WDC = BUILTIN["wdc2006"]  # Spring 1901 is 17 minutes: its deadline is 09:17
START = datetime(2024, 5, 4, 9, 0)
S1901 = START + timedelta(minutes=17)
TABLES = (1, 2, 3, 4)


def round_now(*pauses: Pause) -> Current:
    row = RoundRow(1, START, None, None, "First Individual Round", WDC)
    schedule = Schedule(start=START, pauses=pauses, title=row.title)
    return Current(WDC, row, schedule, list(enumerate(pauses, start=1)))


def refused(status: int, words: str, call: Any, *args: Any) -> None:
    with pytest.raises(Refused) as caught:
        call(*args)
    assert caught.value.status == status and words in caught.value.message, caught.value.message


# --- setup ------------------------------------------------------------------------------


def test_an_event_is_chosen_by_id_or_refused_naming_the_ones_there_are() -> None:
    done = actions.choose_event(EventChoice(builtin="wdc2006"))
    assert done.what is WDC and done.summary == f"event wdc2006: {WDC.name}"
    refused(422, "unknown event 'wdc1999' (one of wdc2003, wdc2006", actions.choose_event,
            EventChoice(builtin="wdc1999"))
    refused(422, "club.toml", actions.choose_event,
            EventChoice(toml="id = 3\n", filename="club.toml"))


def test_a_round_needs_the_event_and_a_call_after_its_start() -> None:
    refused(409, "choose the event first", actions.set_up_round,
            RoundSetup(number=1, start=START), None)
    refused(422, "call: must be after the start", actions.set_up_round,
            RoundSetup(number=1, start=START, call=START), WDC)


def test_the_event_s_round_list_names_the_round_and_sets_its_last_year() -> None:
    grad = BUILTIN["graduated20"]
    done = actions.set_up_round(RoundSetup(number=2, start=START), grad)
    assert (done.what.title, done.what.last_year, done.what.profile) == (
        "Saturday team round", 1911, grad)
    assert done.summary == "round 2 starts 2024-05-04 09:00:00, last year 1911"
    given = actions.set_up_round(
        RoundSetup(number=2, start=START, title="Team", last_year=1908,
                   call=START + timedelta(hours=4)), grad)
    assert (given.what.title, given.what.last_year) == ("Team", 1908)
    assert given.summary.endswith(", last year 1908, call 2024-05-04 13:00:00")
    unlisted = actions.set_up_round(RoundSetup(number=9, start=START), grad)
    assert (unlisted.what.title, unlisted.what.last_year) == ("Round 9", None)


def test_a_round_s_published_call_time_is_set_up_with_it_unless_the_td_gives_another() -> None:
    from datetime import time

    rounds = tuple(r.model_copy(update={"call": time(15, 30)} if r.number == 5 else {})
                   for r in BUILTIN["wdc2018"].rounds)
    event = BUILTIN["wdc2018"].model_copy(update={"rounds": rounds})
    done = actions.set_up_round(RoundSetup(number=5, start=START), event)
    assert done.what.call == datetime(2024, 5, 4, 15, 30)
    assert done.summary.endswith(", call 2024-05-04 15:30:00 (published)")
    mine = actions.set_up_round(
        RoundSetup(number=5, start=START, call=START + timedelta(hours=5)), event)
    assert mine.what.call == datetime(2024, 5, 4, 14, 0) and "published" not in mine.summary
    assert actions.set_up_round(RoundSetup(number=4, start=START), event).what.call is None


def test_round_naming_is_one_rule_for_the_hub_and_the_command_line() -> None:
    grad = BUILTIN["graduated20"]
    assert round_naming(grad, 1) == ("Friday round", 1909)
    assert round_naming(grad, 1, last_year=1905) == ("Friday round", 1905)
    assert round_naming(grad, None, last_year=1905) == ("", 1905)
    assert round_naming(grad, 7) == ("Round 7", None)
    with pytest.raises(EventError, match="no round 7"):
        round_naming(grad, 7, listed_only=True)


def test_tables_are_summed_up_as_a_td_reads_them() -> None:
    done = actions.set_up_tables(TablesSetup(tables=[7, 1, 2, 3, 5, 10, 11, 12]))
    assert done.what == [1, 2, 3, 5, 7, 10, 11, 12]
    assert done.summary == "8 tables: 1-3, 5, 7, 10-12"
    assert actions.set_up_tables(TablesSetup(count=1)).summary == "1 tables: 1"


# --- clock actions ----------------------------------------------------------------------


def test_no_clock_action_without_a_round() -> None:
    refused(409, "set up the event and the round first", actions.need_round, None)


def test_a_break_now_for_every_table_and_a_hold_on_one() -> None:
    now = START + timedelta(minutes=5)
    brk = actions.start_pause(PauseRequest(reason="Lunch", minutes=50), round_now(), now, TABLES)
    assert brk.what == Pause(at=now, minutes=50, reason="Lunch")
    assert brk.summary == "pause all tables now, for 50 min (Lunch)"
    until = START + timedelta(hours=1)
    hold = actions.start_pause(PauseRequest(table=3, until=until), round_now(), now, TABLES)
    assert hold.what.table == 3 and hold.summary == "hold table 3 now, restart 10:00"


def test_a_pause_is_refused_for_an_unknown_table_a_past_restart_or_a_running_one() -> None:
    now = START + timedelta(minutes=5)
    refused(404, "table 9 is not in this round", actions.start_pause,
            PauseRequest(table=9), round_now(), now, TABLES)
    refused(422, "until: the restart must be in the future", actions.start_pause,
            PauseRequest(until=now), round_now(), now, TABLES)
    running = round_now(Pause(at=START + timedelta(minutes=1), reason="Lunch"))
    refused(409, "all tables already paused: resume first", actions.start_pause,
            PauseRequest(), running, now, TABLES)
    # a hold on one table is not the hall's break: it may start while no break runs
    assert actions.start_pause(PauseRequest(table=2), round_now(
        Pause(at=START + timedelta(minutes=1), table=1)), now, TABLES).what.table == 2


def test_a_break_at_a_coming_deadline_but_not_a_passed_or_unknown_one() -> None:
    now = START + timedelta(minutes=5)
    done = actions.start_pause(PauseRequest(deadline="S1901", minutes=10), round_now(), now,
                               TABLES)
    assert done.what.at_deadline == PhaseRef.parse("S1901") and done.what.at is None
    assert done.summary == "pause all tables at the Spring 1901 deadline (09:17:00), for 10 min"
    refused(409, "the Spring 1901 deadline has passed", actions.start_pause,
            PauseRequest(deadline="S1901"), round_now(), S1901, TABLES)
    refused(422, "deadline: S1950 is not a deadline of this round", actions.start_pause,
            PauseRequest(deadline="S1950"), round_now(), now, TABLES)


def test_resume_ends_what_runs_now_and_only_that() -> None:
    now = START + timedelta(minutes=30)
    hall = Pause(at=START + timedelta(minutes=20), reason="Lunch")
    hold = Pause(at=START + timedelta(minutes=21), table=2)
    done = actions.resume(ResumeRequest(), round_now(hall, hold), now)
    assert done.what == {1: hall.model_copy(update={"ended": now})}
    assert done.summary == "resume all tables"
    held = actions.resume(ResumeRequest(table=2), round_now(hall, hold), now)
    assert list(held.what) == [2] and held.summary == "resume table 2"
    refused(409, "table 3: no pause is running", actions.resume,
            ResumeRequest(table=3), round_now(hall, hold), now)


def test_ending_a_break_to_come_cancels_it_and_an_ended_one_is_refused() -> None:
    now = START + timedelta(minutes=5)
    due = Pause(at_deadline=PhaseRef.parse("S1901"), minutes=10)
    done = actions.end_pause(1, round_now(due), now)
    assert done.what[1].ended == now and done.summary == "cancel break 1 (all tables)"
    held = actions.end_pause(1, round_now(Pause(at=START, table=4)), now)
    assert held.summary == "end hold 1 (table 4)"
    over = Pause(at=START, minutes=1)
    refused(409, "pause 1 is already over", actions.end_pause, 1, round_now(over), now)
    refused(404, "no pause 7 in this round", actions.end_pause, 7, round_now(), now)


def test_time_given_or_taken_away() -> None:
    now = START + timedelta(minutes=5)
    give = actions.adjust(AdjustRequest(seconds=90), round_now(), now, TABLES)
    assert (give.what.at, give.what.seconds, give.what.table) == (now, 90, None)
    assert give.summary == "add 90 s, all tables"
    take = actions.adjust(AdjustRequest(seconds=-30, table=2), round_now(), now, TABLES)
    assert take.summary == "take away 30 s, table 2"
    refused(404, "table 5 is not in this round", actions.adjust,
            AdjustRequest(seconds=30, table=5), round_now(), now, TABLES)


def test_the_round_is_called_now_or_at_a_time_after_its_start() -> None:
    now = START + timedelta(hours=3, minutes=2, seconds=7)
    done = actions.call_round(CallRequest(), round_now(), now)
    assert done.what == now and done.summary == "round 1 called at 12:02:07"
    refused(422, "at: the call must be after the round's start", actions.call_round,
            CallRequest(at=START), round_now(), now)


def test_clock_actions_take_effect_on_a_whole_second() -> None:
    """A pause from 09:05:00.7 to 09:10:00.4 would leave every later deadline at
    hh:mm:59.7 (issue 9: "23:21:07.344941"); each action lands on its whole second."""
    t1 = START + timedelta(minutes=5, microseconds=700_000)
    t2 = START + timedelta(minutes=10, microseconds=400_000)
    brk = actions.start_pause(PauseRequest(), round_now(), t1, TABLES).what
    assert brk.at == START + timedelta(minutes=5)
    ended = actions.resume(ResumeRequest(), round_now(brk), t2).what[1]
    assert ended.ended == START + timedelta(minutes=10)
    assert actions.end_pause(1, round_now(brk), t2).what[1].ended == START + timedelta(minutes=10)
    adj = actions.adjust(AdjustRequest(seconds=89.6, table=2), round_now(), t1, TABLES)
    assert (adj.what.at, adj.what.seconds) == (START + timedelta(minutes=5), 90)
    assert adj.summary == "add 90 s, table 2"
    refused(422, "at least 1 s", actions.adjust, AdjustRequest(seconds=0.3), round_now(), t1,
            TABLES)
    assert actions.call_round(CallRequest(), round_now(), t2).what == START + timedelta(minutes=10)


def test_a_call_is_undone_to_the_round_with_no_call_and_said_so() -> None:
    cur = round_now()
    refused(409, "round 1 has not been called", actions.undo_call, cur)
    called = Current(WDC, RoundRow(1, START, None, START + timedelta(minutes=32, seconds=39),
                                   "First Individual Round", WDC), cur.schedule, [])
    done = actions.undo_call(called)
    assert done.what == RoundRow(1, START, None, None, "First Individual Round", WDC)
    assert done.summary == "call of round 1 undone (was 09:32:39): games play on"


# --- penalties --------------------------------------------------------------------------


LATE = [LateSubmission(
    round=1, table=2, power="F", power_name="France", phase="S1901", kind="late",
    deadline="2024-05-04T09:17:00", pressed_at="2024-05-04T09:17:20", seconds_late=20.0,
    started_second=20, offence=1, decision=None, final=None, note="", decided_at=None,
    player="", proposed=ProposedPenalty(kind="warning", all_units_hold=False, units_deleted=0,
                                        label="Warning"))]


def test_a_decision_needs_a_late_submission_to_rule_on() -> None:
    body = PenaltyDecision(round=1, table=2, power="G", phase="S1901", decision="waive")
    refused(404, "no late submission by G at table 2 in S1901", actions.decide, body, LATE, START)


@pytest.mark.parametrize(("decision", "final", "note", "stored", "summary"), [
    ("confirm", "", "", "Warning", "penalty confirm: table 2 F S1901: Warning"),
    ("waive", "", "bad Wi-Fi", "Waived", "penalty waive: table 2 F S1901: Waived (bad Wi-Fi)"),
    ("change", "Hold", "", "Hold", "penalty change: table 2 F S1901: Hold"),
])
def test_a_decision_keeps_what_the_td_ruled(
    decision: str, final: str, note: str, stored: str, summary: str
) -> None:
    body = PenaltyDecision.model_validate({"round": 1, "table": 2, "power": "F",
                                           "phase": "S1901", "decision": decision,
                                           "final": final, "note": note})
    done = actions.decide(body, LATE, S1901)
    assert (done.what.final, done.what.decision, done.what.at) == (stored, decision, S1901)
    assert done.summary == summary


def test_an_event_is_for_the_next_round_once_the_current_one_is_under_way():
    g20 = BUILTIN["graduated20"]
    played = RoundRow(1, START, None, None, "Round 1", WDC)
    before = START - timedelta(seconds=1)
    assert actions.event_scope(g20, "event g", None, before).what == actions.EventScope(
        g20, 1, None)
    soon = actions.event_scope(g20, "event g", played, before)
    assert (soon.what.first_round, soon.what.current) == (1, 1)
    assert soon.summary == "event g, for round 1 (not started)"
    late = actions.event_scope(g20, "event g", played, START)
    assert (late.what.first_round, late.what.current) == (2, None)
    assert late.summary == f"event g, from round 2 on (round 1 keeps {WDC.name})"
    called = RoundRow(1, START, None, START + timedelta(hours=1), "Round 1", WDC)
    assert actions.event_scope(g20, "e", called, before).what.current is None
    # correcting a round played keeps its event; one not started takes today's
    body = RoundSetup(number=1, start=START)
    assert actions.set_up_round(body, g20, played, START).what.profile == WDC
    assert actions.set_up_round(body, g20, played, before).what.profile == g20

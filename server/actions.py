"""The TD's actions as plain functions: a checked request and the round as it stands in,
what to store and the line for the audit log out.

No FastAPI, no store, no clock: ``now`` and the current round are arguments, so every
refusal and every audit line is a unit test (tests/server/test_actions.py). The routes in
``server.routers.td`` read the store, call these, and write what they return. Deadlines,
break states and defaults come from the core (``dipclock.timeline``, ``dipclock.rounds``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from dipclock.errors import DipclockError
from dipclock.events import BUILTIN, EventError, EventProfile, parse_event_toml
from dipclock.rounds import round_naming
from dipclock.schedule import Adjustment, Pause, PhaseRef
from dipclock.timeline import break_state, timetable
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
from server.store import Decision, RoundRow

T = TypeVar("T")


class Refused(DipclockError):
    """The hub turns the TD's action down: the HTTP status and one line for the dashboard."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Action(Generic[T]):
    """What to store, and the audit log's line for it."""

    what: T
    summary: str


def who(table: int | None) -> str:
    return "all tables" if table is None else f"table {table}"


def need_round(cur: Current | None) -> Current:
    """The round every clock action acts on; none set up yet is a 409."""
    if cur is None:
        raise Refused(409, "set up the event and the round first")
    return cur


def need_table(tables: Collection[int], table: int | None) -> None:
    if table is not None and table not in tables:
        raise Refused(404, f"table {table} is not in this round")


# --- setup ------------------------------------------------------------------------------


def choose_event(body: EventChoice) -> Action[EventProfile]:
    """A built-in event by id, or the TD's TOML file; a bad one is a 422 naming the fault."""
    if body.builtin is not None:
        if body.builtin not in BUILTIN:
            known = ", ".join(BUILTIN)
            raise Refused(422, f"builtin: unknown event {body.builtin!r} (one of {known})")
        profile = BUILTIN[body.builtin]
    else:
        try:
            profile = parse_event_toml(body.toml or "", body.filename)
        except EventError as exc:
            raise Refused(422, str(exc)) from None
    return Action(profile, f"event {profile.id}: {profile.name}")


def set_up_round(body: RoundSetup, event: EventProfile | None) -> Action[RoundRow]:
    """The round under the event as it is now; the event's round list fills the title and
    last year the TD left out (``dipclock.rounds``)."""
    if event is None:
        raise Refused(409, "choose the event first")
    if body.call is not None and body.call <= body.start:
        raise Refused(422, "call: must be after the start")
    title, last_year = round_naming(event, body.number, body.title, body.last_year)
    summary = f"round {body.number} starts {body.start.isoformat(sep=' ')}"
    if last_year:
        summary += f", last year {last_year}"
    if body.call:
        summary += f", call {body.call.isoformat(sep=' ')}"
    return Action(RoundRow(body.number, body.start, last_year, body.call, title, event), summary)


def set_up_tables(body: TablesSetup) -> Action[list[int]]:
    numbers = body.numbers()
    return Action(numbers, f"{len(numbers)} tables: {table_ranges(numbers)}")


def table_ranges(numbers: Sequence[int]) -> str:
    """1-5, 8, 10-12: how a TD reads a list of tables."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


# --- clock actions ----------------------------------------------------------------------


def start_pause(
    body: PauseRequest, cur: Current, now: datetime, tables: Collection[int]
) -> Action[Pause]:
    """A break for every table (now, or at a coming deadline), or a hold on one table."""
    need_table(tables, body.table)
    if body.until is not None and body.until <= now:
        raise Refused(422, "until: the restart must be in the future")
    if body.deadline is None:
        for _i, p in cur.pauses:
            if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == (
                "running"
            ):
                raise Refused(409, f"{who(body.table)} already paused: resume first")
        new = Pause(at=now, until=body.until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        when = "now"
    else:
        ref = PhaseRef.parse(body.deadline)
        phase = timetable(cur.profile, cur.schedule, table=body.table).phase(ref)
        if phase is None:
            raise Refused(422, f"deadline: {ref.code} is not a deadline of this round")
        if phase.deadline <= now:
            raise Refused(409, f"the {ref.title} deadline has passed")
        new = Pause(at_deadline=ref, until=body.until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        when = f"at the {ref.title} deadline ({phase.deadline:%H:%M:%S})"
    summary = f"{'hold' if body.table else 'pause'} {who(body.table)} {when}"
    if body.until:
        summary += f", restart {body.until:%H:%M}"
    elif body.minutes:
        summary += f", for {body.minutes:g} min"
    if body.reason:
        summary += f" ({body.reason})"
    return Action(new, summary)


def resume(body: ResumeRequest, cur: Current, now: datetime) -> Action[dict[int, Pause]]:
    """End the running break (or table ``body.table``'s hold) now: the pauses, ended."""
    ending = {
        i: p.model_copy(update={"ended": now})
        for i, p in cur.pauses
        if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == "running"
    }
    if not ending:
        raise Refused(409, f"{who(body.table)}: no pause is running")
    return Action(ending, f"resume {who(body.table)}")


def end_pause(pause_id: int, cur: Current, now: datetime) -> Action[dict[int, Pause]]:
    """End one pause now; a break not started yet is thereby cancelled (zero length)."""
    found = dict(cur.pauses).get(pause_id)
    if found is None:
        raise Refused(404, f"no pause {pause_id} in this round")
    state = break_state(cur.profile, cur.schedule, found, now)
    if state == "over":
        raise Refused(409, f"pause {pause_id} is already over")
    verb = "cancel" if state == "due" else "end"
    summary = f"{verb} {'hold' if found.table else 'break'} {pause_id} ({who(found.table)})"
    return Action({pause_id: found.model_copy(update={"ended": now})}, summary)


def adjust(
    body: AdjustRequest, cur: Current, now: datetime, tables: Collection[int]
) -> Action[Adjustment]:
    """Give time (positive seconds) or take it away, for every table or one."""
    need_table(tables, body.table)
    verb = "add" if body.seconds > 0 else "take away"
    return Action(Adjustment(at=now, seconds=body.seconds, table=body.table),
                  f"{verb} {abs(body.seconds):g} s, {who(body.table)}")


def call_round(body: CallRequest, cur: Current, now: datetime) -> Action[datetime]:
    """Call the round (now, or at ``body.at``): games end at the last deadline before it."""
    at = body.at or now
    if at <= cur.round.start:
        raise Refused(422, "at: the call must be after the round's start")
    return Action(at, f"round {cur.round.number} called at {at:%H:%M:%S}")


# --- penalties --------------------------------------------------------------------------


def decide(
    body: PenaltyDecision, late: Sequence[Mapping[str, Any]], now: datetime
) -> Action[Decision]:
    """Confirm, waive or change the proposed penalty of one of ``late`` (the round's late
    submissions, ``server.review``); the proposal itself is kept beside the decision."""
    found = next(
        (r for r in late if (r["table"], r["power"], r["phase"]) == (body.table, body.power,
                                                                      body.phase)),
        None,
    )
    if found is None:
        raise Refused(
            404, f"no late submission by {body.power} at table {body.table} in {body.phase}"
        )
    final = {
        "confirm": str(found["proposed"]["label"]),
        "waive": "Waived",
        "change": body.final,
    }[body.decision]
    d = Decision(body.round, body.table, body.power, body.phase, body.decision, final,
                 body.note, now)
    summary = (
        f"penalty {body.decision}: table {body.table} {body.power} {body.phase}: {final}"
        + (f" ({body.note})" if body.note else "")
    )
    return Action(d, summary)

"""The TD's actions as plain functions: a checked request and the round as it stands in,
what to store and the line for the audit log out.

No FastAPI, no store, no clock: ``now`` and the current round are arguments, so every
refusal and every audit line is a unit test (tests/server/test_actions.py). The routes in
``server.routers.td`` read the store, call these, and write what they return. Deadlines,
break states and defaults come from the core (``dipclock.timeline``, ``dipclock.rounds``).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Generic, TypeVar

from dipclock.arguments import moment_in_round
from dipclock.events import BUILTIN, EventError, EventProfile, parse_event_toml
from dipclock.i18n import Said, said
from dipclock.names import name_key
from dipclock.powers import power_letter
from dipclock.rounds import published_call, round_naming
from dipclock.schedule import Adjustment, Pause, PhaseRef
from dipclock.seating import SeatingError
from dipclock.seating.seatfile import read_seats
from dipclock.sentences import phase as said_phase
from dipclock.sentences import plural, power
from dipclock.timeline import break_state, timetable
from dipclock.venuetime import NoSuchTime, resolve, venue_naive
from server.refusal import Refused
from server.responses import LateSubmission
from server.rounds import Current, venue
from server.schemas import (
    AdjustRequest,
    CallRequest,
    EventChoice,
    PauseRequest,
    PenaltyDecision,
    ResumeRequest,
    RoundSetup,
    SeatingIn,
    TablesSetup,
)
from server.store import Decision, RoundRow, Seat

T = TypeVar("T")


@dataclass(frozen=True)
class Action(Generic[T]):
    """What to store, and the audit log's line for it."""

    what: T
    #: the log's line as a sentence (``said``): the log keeps its English text and says it
    #: in its reader's language (``server.logline``); plain text is said in English alone
    said: str | Said

    @property
    def summary(self) -> str:
        """The log's line in English, as the log keeps it."""
        return str(self.said)


def who(table: int | None) -> Said:
    """The audit log's words for the tables an action is for (``str()``: English)."""
    return said("all tables") if table is None else said("table {table}", table=table)


def need_round(cur: Current | None) -> Current:
    """The round every clock action acts on; none set up yet is a 409."""
    if cur is None:
        raise Refused(409, said("set up the event and the round first"))
    return cur


def need_table(tables: Collection[int], table: int | None) -> None:
    if table is not None and table not in tables:
        raise Refused(404, said("table {table} is not in this round", table=table))


# --- setup ------------------------------------------------------------------------------


def choose_event(body: EventChoice) -> Action[EventProfile]:
    """A built-in event by id, or the TD's TOML file; a bad one is a 422 naming the fault."""
    if body.builtin is not None:
        if body.builtin not in BUILTIN:
            known = ", ".join(BUILTIN)
            raise Refused(422, said("builtin: unknown event {event} (one of {known})",
                                    event=repr(body.builtin), known=known))
        profile = BUILTIN[body.builtin]
    else:
        try:
            profile = parse_event_toml(body.toml or "", body.filename)
        except EventError as exc:
            raise Refused(422, exc) from None
    return Action(profile, said("event {event}: {name}", event=profile.id, name=profile.name))


@dataclass(frozen=True)
class EventScope:
    """The event the TD chose and the round it starts with; ``current`` is the round set up
    now when it takes the event too (it has not started), None when it keeps its own."""

    profile: EventProfile
    first_round: int
    current: int | None


def event_scope(
    profile: EventProfile, summary: str | Said, cur: RoundRow | None, now: datetime,
    record: bool = False,
) -> Action[EventScope]:
    """A round is a record: one under way, called or with anything played (``record``)
    keeps the event it was played under; the new event is for the next round, or for the
    current one if it has not started."""
    if cur is None:
        return Action(EventScope(profile, 1, None), summary)
    if not played(cur, now) and not record:
        return Action(EventScope(profile, cur.number, cur.number),
                      said("{change}, for round {round} (not started)", change=summary,
                           round=cur.number))
    kept = cur.profile.name if cur.profile else said("its event")
    return Action(EventScope(profile, cur.number + 1, None),
                  said("{change}, from round {next} on (round {round} keeps {event})",
                       change=summary, next=cur.number + 1, round=cur.number, event=kept))


def played(rnd: RoundRow, now: datetime) -> bool:
    """Under way or called: its start has come (by hub time), or a call is stored."""
    return rnd.start <= now or rnd.call is not None


def set_up_round(
    body: RoundSetup, event: EventProfile | None, stored: RoundRow | None = None,
    now: datetime | None = None, record: bool = False, chosen: EventProfile | None = None,
) -> Action[RoundRow]:
    """The round under the event as it is now; the event's round list fills the title and
    last year the TD left out (``dipclock.rounds``). Correcting a round already played
    (``stored``, started by ``now``, or a ``record``) keeps the event it was played under,
    unless the TD reopening it chose another for it (``chosen``)."""
    if chosen is not None:
        event = chosen
    elif stored is not None and stored.profile is not None and (
        record or (now is not None and played(stored, now))
    ):
        event = stored.profile
    if event is None:
        raise Refused(409, said("choose the event first"))
    if body.call is not None and body.call <= body.start:
        raise Refused(422, said("call: must be after the start"))
    title, last_year = round_naming(event, body.number, body.title, body.last_year)
    summary = said("round {round} starts {start}", round=body.number,
                   start=body.start.isoformat(sep=' '))
    if last_year:
        summary = said("{change}, last year {year}", change=summary, year=last_year)
    call, published = body.call, published_call(event, body.number)
    if call is None and published is not None:
        call = moment_in_round(published, body.start)  # the event's published call time
    if call:
        summary = (said("{change}, call {call}", change=summary, call=call.isoformat(sep=' '))
                   if body.call is not None else
                   said("{change}, call {call} (published)", change=summary,
                        call=call.isoformat(sep=' ')))
    # the TD typed the venue's time; the round is kept in UTC (dipclock.venuetime)
    tz = venue(event)
    start, note = _utc(body.start, tz, "start")
    summary = _noted(summary, note)
    utc_call = None
    if call:
        utc_call, note = _utc(call, tz, "call")
        summary = _noted(summary, note)
    return Action(RoundRow(body.number, start, last_year, utc_call, title, event), summary)


def _utc(local: datetime, tz: tzinfo, key: str) -> tuple[datetime, str | None]:
    """A time the TD typed on the venue's clock, in UTC; one the clocks skip is a 422 and
    one they repeat is the first, with the core's note (English) for the log line."""
    try:
        return resolve(local, tz)
    except NoSuchTime as exc:
        raise Refused(422, said("{key}: {error}", key=key, error=exc)) from None


def _noted(summary: Said, note: str | None) -> Said:
    return said("{change} ({note})", change=summary, note=note) if note else summary


def set_up_tables(body: TablesSetup) -> Action[list[int]]:
    numbers = body.numbers()
    # one English form ("1 tables: 1", as the log has always said); a language's own forms
    return Action(numbers, plural("{n} tables: {tables}", "{n} tables: {tables}",
                                  len(numbers), tables=table_ranges(numbers)))


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


def whole_second(moment: datetime) -> datetime:
    """TD clock actions take effect on a whole second: a pause started at 10:04:07.344941
    would otherwise shift every later deadline to read 10:21:07.344941 (screens, CSV)."""
    return moment.replace(microsecond=0)


def start_pause(
    body: PauseRequest, cur: Current, now: datetime, tables: Collection[int]
) -> Action[Pause]:
    """A break for every table (now, or at a coming deadline), or a hold on one table."""
    now = whole_second(now)
    need_table(tables, body.table)
    tz = venue(cur.profile)
    until = _utc(body.until, tz, "until")[0] if body.until is not None else None
    if until is not None and until <= now:
        raise Refused(422, said("until: the restart must be in the future"))
    if body.deadline is None:
        for _i, p in cur.pauses:
            if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == (
                "running"
            ):
                raise Refused(409, said("all tables already paused: resume first")
                              if body.table is None else
                              said("table {table} already paused: resume first",
                                   table=body.table))
        new = Pause(at=now, until=until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        summary = (said("hold {tables} now", tables=who(body.table)) if body.table
                   else said("pause {tables} now", tables=who(body.table)))
    else:
        ref = PhaseRef.parse(body.deadline)
        phase = timetable(cur.profile, cur.schedule, table=body.table).phase(ref)
        if phase is None:
            raise Refused(422, said("deadline: {code} is not a deadline of this round",
                                    code=ref.code))
        if phase.deadline <= now:
            raise Refused(409, said("the {phase} deadline has passed",
                                    phase=said_phase(ref.year, ref.season)))
        new = Pause(at_deadline=ref, until=until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        at = f"{venue_naive(phase.deadline, tz):%H:%M:%S}"
        summary = (said("hold {tables} at the {phase} deadline ({time})",
                        tables=who(body.table), phase=said_phase(ref.year, ref.season), time=at)
                   if body.table else
                   said("pause {tables} at the {phase} deadline ({time})",
                        tables=who(body.table), phase=said_phase(ref.year, ref.season), time=at))
    if body.until:
        summary = said("{change}, restart {time}", change=summary,
                       time=format(body.until, "%H:%M"))
    elif body.minutes:
        summary = said("{change}, for {minutes} min", change=summary,
                       minutes=format(body.minutes, "g"))
    if body.reason:
        summary = said("{change} ({reason})", change=summary, reason=body.reason)
    return Action(new, summary)


def resume(body: ResumeRequest, cur: Current, now: datetime) -> Action[dict[int, Pause]]:
    """End the running break (or table ``body.table``'s hold) now: the pauses, ended."""
    now = whole_second(now)
    ending = {
        i: p.model_copy(update={"ended": now})
        for i, p in cur.pauses
        if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == "running"
    }
    if not ending:
        raise Refused(409, said("all tables: no pause is running") if body.table is None
                      else said("table {table}: no pause is running", table=body.table))
    return Action(ending, said("resume {tables}", tables=who(body.table)))


def end_pause(pause_id: int, cur: Current, now: datetime) -> Action[dict[int, Pause]]:
    """End one pause now; a break not started yet is thereby cancelled (zero length)."""
    now = whole_second(now)
    found = dict(cur.pauses).get(pause_id)
    if found is None:
        raise Refused(404, said("no pause {pause} in this round", pause=pause_id))
    state = break_state(cur.profile, cur.schedule, found, now)
    if state == "over":
        raise Refused(409, said("pause {pause} is already over", pause=pause_id))
    tables = who(found.table)
    if state == "due":
        summary = (said("cancel hold {pause} ({tables})", pause=pause_id, tables=tables)
                   if found.table else
                   said("cancel break {pause} ({tables})", pause=pause_id, tables=tables))
    else:
        summary = (said("end hold {pause} ({tables})", pause=pause_id, tables=tables)
                   if found.table else
                   said("end break {pause} ({tables})", pause=pause_id, tables=tables))
    return Action({pause_id: found.model_copy(update={"ended": now})}, summary)


def adjust(
    body: AdjustRequest, cur: Current, now: datetime, tables: Collection[int]
) -> Action[Adjustment]:
    """Give time (positive seconds) or take it away, for every table or one, in whole
    seconds from a whole second, so every deadline stays on a whole second."""
    need_table(tables, body.table)
    seconds = float(round(body.seconds))
    if seconds == 0:
        raise Refused(422, said("seconds: give or take at least 1 s"))
    given, whom = f"{abs(seconds):g}", who(body.table)
    return Action(Adjustment(at=whole_second(now), seconds=seconds, table=body.table),
                  said("add {seconds} s, {tables}", seconds=given, tables=whom)
                  if seconds > 0 else
                  said("take away {seconds} s, {tables}", seconds=given, tables=whom))


def undo_adjustment(adjustment_id: int, made: Sequence[tuple[int, Adjustment]], cur: Current
                    ) -> Action[int]:
    """Take back time given or taken away (``made``: the round's adjustments by id), as a
    call is undone: a second tap, or a wrong table, costs nothing."""
    found = dict(made).get(adjustment_id)
    if found is None:
        raise Refused(404, said("no time given or taken with id {id} in round {round}",
                                id=adjustment_id, round=cur.round.number))
    at = f"{venue_naive(found.at, venue(cur.profile)):%H:%M:%S}"
    given, tables = f"{abs(found.seconds):g}", who(found.table)
    return Action(adjustment_id,
                  said("undo: {seconds} s given, {tables} (made {time})", seconds=given,
                       tables=tables, time=at)
                  if found.seconds > 0 else
                  said("undo: {seconds} s taken away, {tables} (made {time})",
                       seconds=given, tables=tables, time=at))


def call_round(body: CallRequest, cur: Current, now: datetime) -> Action[datetime]:
    """Call the round (now, or at ``body.at``): games end at the last deadline before it
    (``server.calling.preview`` shows where, table by table, before the TD confirms)."""
    tz = venue(cur.profile)
    at = whole_second(_utc(body.at, tz, "at")[0] if body.at is not None else now)
    if at <= cur.round.start:
        raise Refused(422, said("at: the call must be after the round's start"))
    return Action(at, said("round {round} called at {time}", round=cur.round.number,
                           time=format(venue_naive(at, tz), "%H:%M:%S")))


def undo_call(cur: Current) -> Action[RoundRow]:
    """Take the call back: the round as it was, with no call, so every game plays on."""
    if cur.round.call is None:
        raise Refused(409, said("round {round} has not been called", round=cur.round.number))
    was = f"{venue_naive(cur.round.call, venue(cur.profile)):%H:%M:%S}"
    return Action(replace(cur.round, call=None),
                  said("call of round {round} undone (was {time}): games play on",
                       round=cur.round.number, time=was))


# --- seating ----------------------------------------------------------------------------


def seat(body: SeatingIn) -> Action[list[Seat]]:
    """The TD's seating, from a list or a CSV file; a bad line is a 422 naming it."""
    seats = ([Seat(s.round, s.table, s.power, s.player) for s in body.seats]
             if body.seats is not None else seats_from_csv(body.csv or ""))
    if not seats:
        raise Refused(422, said("seating: no seats given (round,table,power,player, one a "
                                "line)"))
    given: set[tuple[int, int, str]] = set()
    for s in seats:  # one pass: 20,000 lines once took 42 s to find their one repeat
        key = (s.round, s.table, s.power)
        if key in given:
            raise Refused(422, said("seating: round {round} table {table} {power} is given "
                                    "twice", round=s.round, table=s.table,
                                    power=power(s.power)))
        given.add(key)
    rounds = sorted({s.round for s in seats})
    players = sum(1 for s in seats if s.player)
    summary = plural("seating: {players} players, round {rounds}",
                     "seating: {players} players, rounds {rounds}", len(rounds),
                     players=players, rounds=table_ranges(rounds))
    cleared = sum(1 for s in seats if not s.player)
    if cleared:  # one English form, as the log has always said it
        summary = plural("{change}, {n} seats cleared", "{change}, {n} seats cleared",
                         cleared, change=summary)
    return Action(seats, summary)


def csv_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """A teams CSV file's lines, numbered from 1 (a byte-order mark dropped). What the csv
    module cannot read (a field over its 131,072 characters, a NUL) is a 422 naming the
    line, not a server error (the csv module's own words in it stay English)."""
    rows = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    n = 0
    try:
        for n, row in enumerate(rows, start=1):
            yield n, row
    except csv.Error as exc:
        raise Refused(422, said("teams line {line}: not a CSV line ({error})", line=n + 1,
                                error=str(exc))) from None


def teams_from_csv(text: str, roster: Mapping[str, str] | None = None,
                   ) -> Action[list[tuple[str, str, str | None]]]:
    """``team,player`` lines, or ``team,player,power`` on every line (a team round seated
    from its teams, graduated20: each member's power, once in a team): each player in one
    team, names on one line of at most 80 characters; a bad line is a 422 naming it.

    ``roster``: the hub's people by ``name_key`` (their display names), when it has any:
    each player must be one of them, and is kept as the roster spells them (issue 36: a
    name is typed once per event, so "JOSÉ GARCÍA" in either Unicode form is José García,
    and a name the roster does not have is refused by its line, not kept as a stranger)."""
    members: list[tuple[str, str, str | None]] = []
    seen: dict[str, str] = {}
    widths: set[int] = set()
    for n, row in csv_lines(text):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if n == 1 and [c.casefold() for c in cells] in (["team", "player"],
                                                        ["team", "player", "power"]):
            continue
        if len(cells) not in (2, 3) or not all(cells):
            raise Refused(422, said("teams line {line}: give team,player or "
                                    "team,player,power", line=n))
        widths.add(len(cells))
        if len(widths) > 1:
            raise Refused(422, said("teams line {line}: give a power on every line or none",
                                    line=n))
        team, player = cells[:2]
        if any(len(c) > 80 or not c.isprintable() for c in cells):
            raise Refused(422, said("teams line {line}: a name is one line of at most 80 "
                                    "characters", line=n))
        if roster:
            player = _on_roster(player, roster, n)
        if player in seen:
            raise Refused(422, said("teams line {line}: {player} is already in {team}",
                                    line=n, player=player, team=seen[player]))
        power = _team_power(cells[2], team, members, n) if len(cells) == 3 else None
        seen[player] = team
        members.append((team, player, power))
    teams = {m[0] for m in members}
    summary = (said("teams: {teams} teams, {players} players", teams=len(teams),
                    players=len(members)) if members
               else said("teams: cleared"))
    return Action(members, summary)


def _on_roster(player: str, roster: Mapping[str, str], n: int) -> str:
    """``player`` as the roster spells them; one it does not have is a 422 naming line n,
    with the roster's name where only the accents differ ("jose garcia": José García is
    another spelling, not the same name, as everywhere on the hub)."""
    found = roster.get(name_key(player))
    if found is not None:
        return found
    bare = _unaccented(player)
    alike = [name for name in roster.values() if _unaccented(name) == bare]
    if len(alike) == 1:
        raise Refused(422, said("teams line {line}: {player} is not on the roster (the "
                                "roster has {name}: give the name as it has it)",
                                line=n, player=player, name=alike[0]))
    raise Refused(422, said("teams line {line}: {player} is not on the roster", line=n,
                            player=player))


def _unaccented(name: str) -> str:
    """``name_key`` without its accents: only to suggest the roster's spelling."""
    return "".join(c for c in unicodedata.normalize("NFD", name_key(name))
                   if not unicodedata.combining(c))


def _team_power(text: str, team: str, members: list[tuple[str, str, str | None]],
                n: int) -> str:
    """A team member's power letter; a power a team has already is a 422 naming line n."""
    try:
        letter = power_letter(text)
    except ValueError as exc:
        raise Refused(422, said("teams line {line}: {error}", line=n, error=exc)) from None
    had = next((p for t, p, pw in members if t == team and pw == letter), None)
    if had is not None:
        raise Refused(422, said("teams line {line}: team {team} has {power} already "
                                "({player})", line=n, team=team, power=power(letter),
                                player=had))
    return letter


def seats_from_csv(text: str) -> list[Seat]:
    """``round,table,power,player`` lines, read by the core's one reader of them (as
    ``dipclock seat --history`` reads them); an empty player clears a seat."""
    try:
        return read_seats(text, clearing=True)
    except SeatingError as exc:
        raise Refused(422, said("seating {error}", error=exc)) from None


# --- penalties --------------------------------------------------------------------------


def decide(
    body: PenaltyDecision, late: Sequence[LateSubmission], now: datetime
) -> Action[Decision]:
    """Confirm, waive or change the proposed penalty of one of ``late`` (the round's late
    submissions, ``server.review``); the proposal itself is kept beside the decision."""
    found = next(
        (r for r in late if (r.table, r.power, r.phase) == (body.table, body.power, body.phase)),
        None,
    )
    if found is None:
        raise Refused(404, said("no late submission by {power} at table {table} in {phase}",
                                power=body.power, table=body.table, phase=body.phase))
    final = {
        # the proposal's text: its label and, once units are entered, the orders to delete
        "confirm": found.proposed.text or found.proposed.label,
        "waive": "Waived",
        "change": body.final,
    }[body.decision]
    d = Decision(body.round, body.table, body.power, body.phase, body.decision, final,
                 body.note, now)
    # the power and the phase as their codes, the penalty as the review names it
    where = {"table": body.table, "power": body.power, "phase": body.phase, "penalty": final}
    summary = {"confirm": said("penalty confirm: table {table} {power} {phase}: {penalty}",
                               **where),
               "waive": said("penalty waive: table {table} {power} {phase}: {penalty}",
                             **where),
               "change": said("penalty change: table {table} {power} {phase}: {penalty}",
                              **where)}[body.decision]
    if body.note:
        summary = said("{change} ({note})", change=summary, note=body.note)
    return Action(d, summary)

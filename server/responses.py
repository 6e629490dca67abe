"""What the TD's routes answer, as models: the OpenAPI schema is the payload.

Every model forbids keys it does not name, so a key added to a payload without its model
is a failing test, not a dashboard field the schema never mentions. Moments are the
strings the dashboard has always had (``datetime.isoformat``, naive local time), so they
are ``str`` here, not re-formatted by pydantic.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from server.hallmessage import MessageJson
from server.schemas import KioskInfo
from server.views import ClockJson

Moment = str  # naive local ISO time, as ``server.views.iso`` writes it


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


@cache
def _adapter(shape: Any) -> TypeAdapter[Any]:
    return TypeAdapter(shape)


def render(shape: Any, data: object) -> Response:
    """``data`` (built as ``shape``, the route's ``response_model``, by its builder: a
    reply the hub cannot build fails there, a 500 in the log) encoded to JSON here, in the
    worker thread that built it. Returning the model would leave the encoding to FastAPI,
    on the event loop: for the dashboard's state with a full hall, tens of milliseconds
    every kiosk's time sync would wait behind."""
    adapter = _adapter(shape)
    body = adapter.dump_json(adapter.validate_python(data), by_alias=True, exclude_unset=True)
    return Response(body, media_type="application/json")


# --- session ----------------------------------------------------------------------------


class SignedIn(Out):
    csrf: str  # echo it in X-CSRF-Token with every change


class SessionInfo(Out):
    signed_in: bool
    csrf: str | None = None  # only when signed in (the key is absent otherwise)


# --- answers to the TD's changes ----------------------------------------------------------


class EventSet(Out):
    event: str
    from_round: int  # the first round that plays it (earlier rounds keep their own)
    seq: int
    #: what becomes of the teams set, in words ("" with none): they stay, and whether the
    #: event scores them (``server.resultsdesk.teams_note``)
    teams: str = ""


class EventPreview(Out):
    """``POST /api/td/event/preview``: what choosing the event would do, before the TD
    says yes (nothing is stored)."""

    event: str
    name: str
    from_round: int
    teams: str = ""  # as ``EventSet.teams``: the question says it


class RoundSet(Out):
    round: int
    seq: int


class TablesSet(Out):
    tables: list[int]
    seq: int


class PauseAdded(Out):
    id: int
    seq: int


class PausesEnded(Out):
    ended: list[int]
    seq: int


class Changed(Out):
    seq: int


class Called(Out):
    call: Moment | None
    seq: int


class Decided(Out):
    final: str
    seq: int


class SeatingSet(Out):
    seats: int
    summary: str
    seq: int


class TeamsSet(Out):
    summary: str
    seq: int


class SeatOut(Out):
    round: int
    table: int
    power: str
    player: str


class UnitsOut(Out):
    """A power's units in one phase, as the TD entered them (``PUT /api/td/units``)."""

    round: int
    table: int
    power: str
    phase: str
    units: list[str]


class UnitsSet(Out):
    units: list[str]
    summary: str
    seq: int


class ClockMoved(Out):
    """``POST /api/clock``: hub time before and after, and the clock's new epoch."""

    hub_time: float
    from_: Moment = Field(alias="from")
    to: Moment
    change: float
    standing: str
    epoch: int
    summary: str
    seq: int



# --- the penalties list -------------------------------------------------------------------


class ProposedPenalty(Out):
    """``dipclock.penalties.Penalty.as_json``: what the event's model proposes."""

    kind: str
    all_units_hold: bool
    units_deleted: int
    label: str
    deleted_orders: list[str] | None = None  # only for the models that delete orders
    #: the label and the orders it deletes, once the power's units are entered:
    #: "2-unit NMR: delete A Bud, A Vie" (``Penalty.text``); the label alone before
    text: str = ""


class LateSubmission(Out):
    """One late press or missed phase (``server.review``), with the TD's decision if any."""

    round: int
    table: int
    power: str
    power_name: str
    phase: str
    kind: Literal["late", "missed"]
    deadline: Moment | None
    pressed_at: Moment | None
    seconds_late: float | None
    started_second: int | None
    offence: int
    proposed: ProposedPenalty
    decision: str | None
    final: str | None
    note: str
    decided_at: Moment | None
    player: str  # who plays the power at that table in that round ("" if not seated)
    units: list[str] = []  # the power's units in that phase, if the TD entered them
    #: the proposal deletes some of the power's orders: the TD is asked for its units
    #: (``dipclock.penalties.Penalty.asks_units``)
    units_asked: bool = False
    #: a late press: the seconds the table's clock stood still (a break or hold) between
    #: the deadline and the press, which the lateness does not count
    #: (``dipclock.late.Submission.paused_seconds``); None for a missed phase
    paused_seconds: float | None = None
    #: the deadline before a break or hold moved it (None: none did)
    deadline_before_pauses: Moment | None = None


# --- the dashboard's state ----------------------------------------------------------------


class ClockStanding(Out):
    """``server.hubtime.status``: how far hub time can be trusted."""

    standing: str
    epoch: int
    system_synchronised: bool | None
    offer_system: bool
    system_change: float | None
    #: the hub started a moment ago and listens for the time its tables kept
    provisional: bool = False
    #: how far the hub moved its clock to the time its tables kept at its last start, and
    #: how many tables said so (None: it did not move)
    kept_change: float | None = None
    kept_tables: int | None = None
    #: what the tables' votes at the last start decided, with every table's vote (None:
    #: no table kept a time far from the hub's)
    kept_note: str | None = None
    #: the hub's time is the tables': the TD may put it back on the machine's own clock
    offer_machine: bool = False


class EventName(Out):
    id: str
    name: str


class EventRound(Out):
    number: int
    title: str
    day: str
    start: str | None  # "19:00"
    last_year: int | None


class EventInfo(Out):
    id: str
    name: str
    penalty_model: str
    rounds: list[EventRound]


class RoundInfo(Out):
    number: int
    title: str
    start: Moment | None
    last_year: int | None
    call: Moment | None
    event: EventName  # the event this round is played under (kept for good once started)
    started: bool  # under way or called: a new event is for the next round
    #: that event's call rule, in words ("A call ends games at once."): the Call card
    call_rule: str = ""


class ReviewRound(Out):
    """A round as stored: in the review's picker (with how many of its late orders await
    the TD) and in the Rounds list, where a record is reopened on purpose."""

    number: int
    title: str
    event: str
    undecided: int
    event_id: str = ""
    start: Moment | None = None
    last_year: int | None = None
    call: Moment | None = None
    #: what it holds that was played ("19 button presses, called"): "" for none, else it
    #: is a record and only a reopen changes it (``server.roundsetup``)
    record: str = ""


class NextRound(Out):
    """What the Set up form fills in: the next round's number (the current round's while
    it has not started and holds nothing played: the TD is correcting it) and, where the
    event publishes its day and time, its start."""

    number: int
    start: Moment | None
    correcting: bool


class RoundChange(Out):
    """The last change to the rounds, which ``POST /api/td/round/undo`` takes back."""

    round: int
    summary: str
    at: Moment | None


class AdjustmentInfo(Out):
    """Time given (or taken away) in the current round, with its id for its undo."""

    id: int
    seconds: float
    table: int | None
    at: Moment | None


class PauseInfo(Out):
    """A stored pause (``server.views.pause_json``), its id and its state now."""

    id: int
    state: str  # dipclock.timeline.break_state: due, running, over
    at: Moment | None
    at_deadline: str | None
    minutes: float | None
    until: Moment | None
    ended: Moment | None
    table: int | None
    reason: str


class Deadline(Out):
    phase: str
    deadline: Moment | None


class KioskReport(KioskInfo):
    """What the table's kiosk last said of itself, where from and how long ago."""

    address: str
    uptime: int  # counted on to now and rounded (``server.grid.kiosk_json``)
    reported_ago: float


class Claim(Out):
    id: str
    address: str


class TileView(Out):
    """The few fields of ``dipclock.phaseview.view`` a table's tile shows."""

    stage: str
    phase: str | None
    remaining: float
    deadline: Moment | None


class PowerTile(Out):
    power: str
    out: bool
    in_: bool = Field(alias="in")  # "in": handed in for the phase now
    late: int | None
    heading_for: str | None
    last_late: float | None



class OwnAdjustment(Out):
    """Extra time (or time taken away) for this table alone (``server.grid.own_changes``)."""

    seconds: float
    at: Moment | None


class OwnHold(Out):
    """A hold on this table alone, not yet over (``server.grid.own_changes``)."""

    id: int
    reason: str
    state: str
    at: Moment | None
    until: Moment | None
    minutes: float | None


class TableRow(Out):
    """One table on the TD's grid; ``view`` and ``powers`` once a round is set up."""

    table: int
    connected: bool
    sockets: int
    offset: float | None
    rtt: float | None
    seen_ago: float | None
    kiosk: KioskReport | None
    claims: list[Claim]
    view: TileView | None = None
    powers: list[PowerTile] | None = None
    clock: ClockJson | None = None  # the table's own screen (what its kiosk shows)
    holds: list[OwnHold] | None = None
    adjustments: list[OwnAdjustment] | None = None
    #: who is late now, one line per penalty: "A F G → Red card: all units hold"
    late_note: str | None = None
    #: a power at the most presses it may send, and the presses refused from the table's
    #: clock (``server.presslimit.grid_note``)
    press_note: str | None = None


class WaitingClock(Out):
    """A clock waiting to be paired, as the TD's list shows it."""

    code: str  # as the clock shows it: "K7P-A2Q"
    kiosk: str
    wished: int | None  # the table its card says
    address: str
    asked: Moment | None
    #: the clock sees another certificate than the hub serves: someone may be in between
    other_certificate: bool
    #: paired clocks elsewhere with the id this one says it has ("table 3 (10.0.0.5)"):
    #: pairing it revokes none of them (``server.pairing.Clocks.same_id``)
    same_id_as: list[str] = []


class PairedClockOut(Out):
    id: int
    table: int
    kiosk: str
    address: str
    paired: Moment | None


class ClocksOut(Out):
    """The clocks waiting for the TD, those paired, and the certificate to check once."""

    fingerprint: str | None  # None: plain HTTP
    waiting: list[WaitingClock]
    paired: list[PairedClockOut]


class PairAsked(Out):
    """``POST /api/pair``: the code the clock shows until the TD approves it."""

    code: str
    expires_in: float
    hub: str  # the hub's id: a paired clock looks only for this hub on the network


class PairStanding(Out):
    """``GET /api/pair``: still waiting (with the code), or paired for ``table``."""

    state: Literal["waiting", "paired"]
    code: str | None = None
    expires_in: float | None = None
    table: int | None = None
    hub: str


class Paired(Out):
    id: int
    table: int
    kiosk: str
    seq: int


class AuditLine(Out):
    at: Moment | None
    action: str
    summary: str


class DashboardState(Out):
    """``GET /api/td/state``: everything the dashboard shows, in one poll."""

    hub_time: float
    now: Moment | None
    #: the venue's IANA zone: every Moment here is its naive local time, and the page
    #: shows the hub's and the phone's clocks in it
    timezone: str
    clock: ClockStanding
    seq: int
    clocks: ClocksOut
    events: list[EventName]
    event: EventInfo | None
    round: RoundInfo | None
    hall: ClockJson | None
    pauses: list[PauseInfo]
    deadlines: list[Deadline]
    tables: list[TableRow]
    penalties: list[LateSubmission]  # of round ``review_round``
    review_round: int | None
    undecided: int  # late orders not yet decided, in every round
    rounds: list[ReviewRound]
    audit: list[AuditLine]
    #: the newest log line this state was read after: every change the dashboard makes
    #: from it sends it back (``X-Dipclock-Base``, ``server.stale``)
    base: int = 0
    next_round: NextRound | None = None
    round_change: RoundChange | None = None
    adjustments: list[AdjustmentInfo] = []
    #: the TD's hall message shown now on every table and the hall page (None: none)
    message: MessageJson | None = None
    #: the teams set, which the event chosen for the coming rounds has no prize for: kept,
    #: not scored under it ("" otherwise; ``server.dashboard.coming_teams``)
    teams_note: str = ""

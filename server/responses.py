"""What the hub's HTTP API answers, as models, all in this one file (the kiosk's protocol
is the core's, ``dipclock.snapshot``; request bodies stay with their routes): the OpenAPI
schema is the payload, and each reply is built from typed values, never from a dict
unpacked into its model (``tests/server/test_typed_replies.py``). One file of
declarations, section by section, so a TD's script finds every reply's shape in one place.

Every ``Out`` model forbids keys it does not name, so a key added to a payload without its
model is a failing test, not a dashboard field the schema never mentions (the pages'
models, plain ``BaseModel``s, keep the schema they always had). Moments are the strings
the dashboard has always had (``datetime.isoformat``, naive local time), so they are
``str`` here, not re-formatted by pydantic.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from dipclock import screen
from dipclock.snapshot import TableVote
from server.schemas import KioskInfo
from server.sheets import SheetIn, Status

Moment = str  # naive local ISO time, as ``server.views.iso`` writes it


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- the clocks and the hall message, as every page draws them ----------------------------
# (plain ``BaseModel``s, as they always were: their schema allows keys they do not name)


class ClockJson(BaseModel):
    """The hall clock as the page draws it: ``dipclock.screen.build`` for no table.

    The page decides nothing: it shows ``label`` and ``big``, and while ``ticking`` redraws
    the big number as ``seconds_left`` minus the time since it asked, rounded up like the
    kiosk (0.3 s left shows 0:01).
    """

    now: str  # the hub's moment this was computed for
    look: screen.Look
    stage: str  # dipclock.timeline's stage (the grid tiles' word for it)
    heading: str
    phase: str
    deadline: str
    label: str
    big: str
    notes: tuple[str, ...]
    count_to: str | None  # the moment the big number counts down to
    seconds_left: float | None  # count_to - now, in seconds
    ticking: bool


class MessageJson(BaseModel):
    """The message shown now, as the dashboard and the hall page read it."""

    model_config = ConfigDict(extra="forbid")

    text: str
    since: str  # when the TD set it: the venue's naive local time (and the page's chime key)
    until: str | None  # when it goes by itself, venue time; None: until the TD clears it
    #: ``until`` as hub time (POSIX seconds, like ``hub_time``): a page that ticks the
    #: hub's time between polls hides the banner then
    ends: float | None


class MessageSet(BaseModel):
    """The answer to setting or clearing: the message shown now (None: none) and ``seq``."""

    model_config = ConfigDict(extra="forbid")

    message: MessageJson | None
    seq: int


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
    #: ``text`` in each language dipclock speaks (``Penalty.told``), as judged: a phone
    #: reads it in its own (``LateSubmission.proposed_said``)
    said: dict[str, str] = {}


class JudgedItem(Out):
    """One late press or missed phase of a table, as judged (``server.review.judge_table``)
    and kept (``Store.keep_judged``: dumped with only the keys it was built with), before
    the TD's decision is added: ``LateSubmission`` is built from it. A missed phase leaves
    ``units_asked`` and ``paused_seconds`` unset, so its reply has no such keys."""

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
    units: list[str] = []
    units_asked: bool = False
    paused_seconds: float | None = None
    deadline_before_pauses: Moment | None = None


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
    #: the proposal's text and the phase ("Printemps 1901") in the phone's language
    proposed_said: str = ""
    phase_said: str = ""


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
    at_deadline_said: str | None = None  # that phase in the phone's words (``Deadline``)
    minutes: float | None
    until: Moment | None
    ended: Moment | None
    table: int | None
    reason: str


class Deadline(Out):
    phase: str
    deadline: Moment | None
    #: the phase as the phone's language (or the event's renamed terms) says it: a page
    #: shows this, never a name of its own for the code
    phase_said: str = ""


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


# --- the hall page (``GET /api/hall``) ----------------------------------------------------


class ApartJson(BaseModel):
    """A table whose clock is not the hall's (``dipclock.screen.Apart``): the page lists it
    under the hall's clock, in its own words, deciding nothing."""

    table: int
    stage: str  # the table's stage (dipclock.phaseview): "held", "adjudicating", ...
    held: bool  # stopped by the TD now
    reason: str  # the hold's reason, "" if none
    restart: str  # when a held table restarts ("10:30"), "" if not said
    extra: float | None  # seconds more (+) or fewer (-) than the hall, to the same deadline
    phase: str  # the table's own phase when not the hall's, else ""
    deadline: str  # the table's deadline line ("Deadline 10:21:30"), "" if none


class PauseJson(BaseModel):
    """A pause (``dipclock.schedule.Pause``) on the venue's clock (``server.views``)."""

    at: Moment | None
    at_deadline: str | None  # the phase code whose deadline it starts at
    minutes: float | None
    until: Moment | None
    ended: Moment | None
    table: int | None
    reason: str


class ViewJson(BaseModel):
    """The fields of ``dipclock.phaseview.view`` a screen needs (``server.views.view_json``),
    times on the venue's clock: the hall's raw view, for scripts that read it."""

    now: Moment | None
    stage: str
    phase: str | None
    phase_title: str | None
    remaining: float
    deadline: Moment | None
    writing_from: Moment | None
    writing_seconds: float
    previous: str | None
    previous_deadline: Moment | None
    next_phase: str | None
    next_minutes: float | None
    victory_centres: int | None
    final_year: bool
    pause: PauseJson | None
    restart_at: Moment | None
    game_over_reason: str | None


class HallJson(BaseModel):
    """What the hall page polls: the hub's time and every table's clock, with the tables
    whose clock differs from it."""

    hub_time: float  # the hub's clock (POSIX seconds: the page ticks from it)
    seq: int
    timezone: str = "UTC"  # the venue's zone: the times in ``view`` are its local time
    event: str | None = None
    round: str | None = None
    clock: ClockJson | None = None  # None: no round set up yet
    view: ViewJson | None = None  # the core's raw view, for scripts that read it
    apart: list[ApartJson] = []  # the tables not on the hall's clock, by table number
    message: MessageJson | None = None  # the TD's hall message shown now (server.hallmessage)
    #: the event's language (``EventProfile.language``): the page's own words follow it
    #: (``GET /api/words/{lang}``); the hub's words above come in it already
    lang: str = "en"


# --- the board call (``GET /api/boardcall``) ----------------------------------------------


class CalledSeat(BaseModel):
    power: str  # the power's name in the event's language (its renamed term, if any)
    player: str


class CalledTable(BaseModel):
    table: int
    seats: list[CalledSeat]  # in the powers' order, an empty seat left out


class BoardCall(BaseModel):
    """A round's tables as seated: the latest round the hub has a seating for, unless
    asked for another."""

    seq: int
    #: the hub's time when the reply was built (POSIX seconds): the page ticks from it
    hub_time: float = 0.0
    event: str | None = None
    round: int | None = None  # None: nothing seated yet
    title: str = ""
    #: when the round's clocks start, venue time and hub time (None: the round is not set
    #: up); the page says "Starts at" before it and "Started at" after
    starts: str | None = None
    starts_at: float | None = None
    tables: list[CalledTable] = []
    message: MessageJson | None = None  # the TD's hall message, as on /hall
    lang: str = "en"  # the event's language, as on /hall


# --- the seating desk (``server.seatingdesk``) --------------------------------------------


class Quality(BaseModel):
    pairs_met_before: int
    powers_repeated: int
    apart_together: int


class TableOut(BaseModel):
    table: int
    seats: dict[str, str]  # power letter -> player


class Judged(BaseModel):
    """A seating's figures and what stops it being called (``problems``: empty to call)."""

    round: int
    tables: list[TableOut]
    quality: Quality
    problems: list[str]
    #: tables of this round the hub holds, with a result or presses: called already
    played: str


class Draft(Judged):
    seed: int
    sitting_out: list[str]
    two_boards: list[str]
    #: in the event's top-board round, its seven by the standings, best first
    top_board: list[str] = []
    #: what the TD should know: how the top board's powers are chosen, a tie for its seat
    notes: list[str] = []


# --- the call's preview (``server.calling``) ----------------------------------------------


class PhaseEnd(Out):
    """A movement phase and its deadline on one table's clock."""

    phase: str  # "F1901"
    title: str  # "Fall 1901"
    deadline: str | None


class TableEnding(Out):
    """Where one table's game ends if the round is called at ``at``."""

    table: int | None  # None: every table (no tables set up yet)
    last: PhaseEnd | None  # the last phase that counts (None: not even the first one)
    cut: PhaseEnd | None  # the phase the call cuts off, when its deadline is near
    seconds_short: float | None  # how far the call falls before the cut phase's deadline
    warning: str  # "" or one line naming the loss
    #: the Fall whose centres count ("F1906"; None: no Fall completed), by the event's
    #: call rule (``dipclock.timeline.counted_phases``)
    scoring: str | None = None
    #: the table's line as the TD reads it (``dipclock.callwords.preview_line``)
    text: str = ""


class CallPreview(Out):
    """``GET /api/td/call/preview``: the call's effect on every table, before it is made."""

    at: str
    round: int
    tables: list[TableEnding]
    warnings: int


# --- a round's preview (``server.roundsetup``) --------------------------------------------


class RoundPreview(Out):
    """``POST /api/td/round/preview``: what setting up (or reopening) a round would do."""

    round: int
    new: bool  # no round of this number is set up yet
    unchanged: bool  # the round is set up exactly so already
    record: str  # "" or what the round holds that was played ("19 button presses, called")
    #: the round is a record: only a reopen changes it, and ``moves`` says what would move
    needs_reopen: bool
    #: what every table would show at once: "Saturday team round starts at 19:00 · Spring
    #: 1901 · 8:53:00 · First deadline 19:20" (the round of ``tables_round``)
    tables_show: str
    #: the round every table plays once it is done: this one, or (a round set up already
    #: that the tables do not play, as a reopened earlier round) the one they play now,
    #: which they stay on (``server.store.takes_the_tables``)
    tables_round: int
    #: what the TD must answer before it is done (a round under way, a start in the past)
    questions: list[str]
    #: a record reopened: what would move, one line each (deadlines, late rows, rulings,
    #: scores); empty when nothing played would move
    moves: list[str]
    event: str  # the event the round would be played under


# --- the results desk: sheets and standings (``server.resultsdesk``) ----------------------


class SheetEndings(Out):
    """How the event's games can end (``dipclock.eventscoring.endings``): the sheet page
    offers only these."""

    draws: str  # "all_survivors", "two_leaders" (wdc2003) or "any"
    concession: bool  # a game may be conceded to one power
    leader_growth: bool  # a victory needs the leader to have grown: the page asks
    votes_from: int | None  # the first year a vote may end a game
    last_year: int | None  # the last Fall that can count
    text: str = ""  # the above in words, under the form (``Endings.text``)


class EndingChoice(Out):
    """One way the sheet's game can have ended, as its page offers it (the first is the
    default): ``ending`` is what the sheet then holds (``SheetIn.ending``)."""

    ending: Literal["draw", "solo", "concession"]
    words: str  # "A draw of all survivors", "The game ended on the clock: ..."


class PowerLine(Out):
    """A power's line of the sheet, in table order."""

    letter: str  # "A"
    name: str  # "Austria": the key of the sheet's ``players``, ``scores``, ``confirmed``
    said: str = ""  # the name shown, in the phone's language ("Autriche-Hongrie")


class SheetVote(Out):
    """A passed game-end vote's result, for an empty sheet to start from
    (``dipclock.votes.ballot.Outcome.sheet``): the players complete the centres."""

    headline: str  # "Draw agreed, Fall 1905: the 1904 centre chart counts"
    ending: Literal["draw", "concession"]
    draw: list[str] | None = None  # the powers in the draw, letters
    conceded_to: str | None = None  # the power conceded to, a letter
    year: int  # the year whose centre chart counts


class SheetView(Out):
    """One board's sheet as its page and the dashboard show it."""

    round: int
    round_title: str
    table: int
    event: str
    system: str | None  # "Sum of Squares"; None: the event names no system
    notes: list[str]  # the event's readings of its rule text
    #: the year whose Fall centres count, where the table's clock knows its end (the last
    #: year, or the TD's call); None: the game may still end early, the players say
    year: int | None
    counts: str  # "Fall 1906 centres count"
    draws_by_size: bool  # ARMADA: the page asks who is in the draw
    endings: SheetEndings | None  # None: the event names no scoring system
    powers: list[PowerLine]  # the sheet's seven lines, in table order
    total_centres: int  # every supply centre on the board: the lines add up to it
    #: the endings this game can have had in its year, by the event's rules; the first is
    #: the default (a game the clock ended before a vote could: its centres count)
    offered: list[EndingChoice]
    ask_draw: bool  # the page asks which powers are in the draw (draws scored by size)
    #: a line with this many centres is a power eliminated: the page asks its year
    eliminated_at: int
    first_year: int  # the years a sheet may name, for the page's year fields
    latest_year: int
    #: the lines to be confirmed: the powers seated, or all seven when nobody is
    lines: int
    players: dict[str, str]  # power name -> player, as seated
    sheet: SheetIn | None
    ending: str  # how the game ended, in words ("Conceded to France"); "" before a sheet
    #: what a change is made against (``If-Match``): raised by each change of what the
    #: sheet says, not by confirmations; 0 before any sheet
    version: int
    confirmed: list[str]  # power names
    #: how each confirmed line was confirmed: "button" (its player, on the table's
    #: clock), "td" (the TD for its player), "phone" (on the page, before 0.3)
    confirmations: dict[str, str]
    #: the lines still to confirm, "Italy (Bob Smith)": the TD's card names them
    missing: list[str]
    #: the lines the TD confirmed the sheet without (recorded as the TD's)
    td_without: list[str]
    status: Status
    by_td: bool
    flags: list[str]  # what the TD should look at, the blocking problem first
    #: the core cannot score it (``flags[0]`` says why): it cannot be confirmed
    blocked: bool
    scores: dict[str, float] | None  # power name -> score, when the sheet scores
    #: a passed vote ended the game and the sheet is still empty: the page starts from it
    vote: SheetVote | None = None


class RoundSheets(Out):
    """``GET /api/td/results``: every board's sheet of one round."""

    round: int
    #: the newest log line these sheets were read after: the TD's confirmations from this
    #: card send it (``server.stale``)
    base: int
    sheets: list[SheetView]


class StandingRow(Out):
    rank: int
    player: str
    total: float
    games: int
    shared: bool


class TopBoard(Out):
    """The top board: its seeds from the rounds before it, and its table once seated."""

    round: int  # the round it plays
    seeds: list[str]  # the qualifiers, best first
    problem: str  # "" or why it cannot be seeded yet (a tie on the last seat: the TD's)
    table: int | None  # the table of ``round`` seating most of the seeds
    players: list[str]  # who sits there
    counts: bool  # its sheet is confirmed: its result decides the first places


class Result(Out):
    """One player's game, as an award names it."""

    player: str
    round: int
    table: str
    centres: int | None
    score: float


class CountryBest(Out):
    power: str
    winners: list[Result]  # several when level


class TeamRow(Out):
    rank: int
    team: str
    total: float
    shared: bool


class StandingsView(Out):
    """``GET /api/td/standings``: after round ``round``, from the sheets the TD confirmed."""

    event: str
    round: int
    sheets_final: int
    sheets_waiting: list[int]  # this round's tables whose sheet the TD has not confirmed
    standings: list[StandingRow]
    problem: str  # "" or why the standings cannot be made
    #: "" or what every page and file showing these standings says: their totals add
    #: rounds scored under different systems (a new event chosen for a later round)
    mixed: str = ""
    top_board: TopBoard | None = None  # None: the event has none, or it is not near yet
    best_countries: list[CountryBest] = []
    #: the team table, once the event's team round has confirmed sheets and teams are set
    teams: list[TeamRow] = []
    #: "" or why the team table is empty though teams are set (its round not played yet;
    #: an event with no team prize: the teams are kept, not scored)
    team_problem: str = ""
    #: ``mixed`` for the team table alone: its totals add the team round's games only
    #: (one round, so one system: "" unless that round's games mixed systems)
    teams_mixed: str = ""
    #: one line per replaced power: how its game's score was shared ("Germany at round 2
    #: table 4: 60 % to Ann, 40 % to Zoe, as the TD decided")
    replaced: list[str] = []
    #: one line per bonus in the totals: a volunteer the seating sat out, where the event
    #: gives one ("Ann Lee: 5 points for sitting out round 1, as the event gives a
    #: volunteer", wdc2019 II.1b3)
    bonuses: list[str] = []


# --- the seating as the TD checks it (``server.seatingview``) -----------------------------


class SeatLine(Out):
    """One seat of a table, in table order: its power and its player ("" for nobody)."""

    power: str  # "A"
    name: str  # "Austria"
    player: str
    #: the player is seated more often than the event allows (the page marks the seat)
    twice: bool


class TableView(Out):
    table: int
    seats: list[SeatLine]  # empty: nobody seated at this table yet
    problems: list[str]  # what to fix at this table, in the core's words


class SeatingView(Out):
    """``GET /api/td/seating/view``: one round's seating, with the rounds the TD can pick."""

    powers: list[PowerLine]  # the seven, in table order (the Seating card's draft too)
    rounds: list[int]  # the rounds seated, and the current one
    round: int | None  # the round shown; None: nothing seated, no round set up
    tables: list[TableView]  # the current round's: every table set up, seated or not
    players: int  # the players seated in the round (a name seated twice counts once)
    #: each team's players seated in no round (the team table would never count them)
    unseated: dict[str, list[str]]


class Plan(Out):
    """``POST /api/td/seating/plan``: what the players make ("23 players: 3 tables, 2
    sitting out"), and whether the event lets a player play two boards."""

    text: str
    two_boards: bool


# --- the hub backup (server.backup) --------------------------------------------------------


class BackupStatus(Out):
    """``GET /api/td/backup/status``: when the TD last saved the hub backup, and whether to
    save it again (the tables were paired, or the round set up, since)."""

    hub_id: str
    downloaded_ago_s: float | None  # None: never saved from this hub
    remind: bool
    kept: str  # the backup the hub keeps in its data folder: its file name
    kept_ago_s: float | None  # None: not written yet


class Restored(Out):
    """``POST /api/td/restore``: the hub is now the one the backup was made of."""

    hub_id: str
    fingerprint: str | None
    made_at: str
    clocks: int
    rounds: int
    aside: str  # the folder in the data folder where the replaced hub's files are kept
    check: str  # what the TD checks now, in a sentence


# --- the roster (server.routers.roster) ---------------------------------------------------


class PersonOut(Out):
    """A person with their id and ``name``, the display name the hub knows them by."""

    id: int
    name: str
    given_name: str
    family_name: str
    homonym: int
    note: str
    wdd: int | None
    wdr: int | None
    nationality: str
    club: str
    preregistered: bool
    email: str
    location: str


class ApartOut(Out):
    a: int
    b: int
    a_name: str
    b_name: str


class RosterOut(Out):
    people: list[PersonOut]
    apart: list[ApartOut]


class PersonChanged(Out):
    person: PersonOut
    summary: str


class Said(Out):
    summary: str


class RefusedLine(Out):
    line: int
    why: str


class ImportOut(Out):
    """What an import did (``stored``), or would do: names added, updated, removed, the
    lines refused, and notes (columns ignored, the encoding guessed)."""

    stored: bool
    added: list[str]
    updated: list[str]
    removed: list[str]
    refused: list[RefusedLine]
    notes: list[str]
    summary: str


# --- the register (server.routers.register) -------------------------------------------------


class Registered(Out):
    id: int
    name: str
    status: Literal["present", "absent", "sitting_out", "withdrawn"]
    preregistered: bool


class RegisterOut(Out):
    """Round ``round``'s register: each person's status; what it gives the seating
    (``players``, ``sit_out_first`` groups named by ``groups``, the roster's ``apart``);
    ``called``: the board call was made (nobody more is marked present); ``bonus``: the
    points the event gives a volunteer who sits out (0: none); ``base``: the newest log line
    it was read after, sent back with a mark (``server.stale``)."""

    round: int
    called: bool
    people: list[Registered]
    counts: dict[str, int]
    players: list[str]
    sit_out_first: list[list[str]]
    groups: list[str]
    apart: list[list[str]]
    bonus: float
    words: dict[str, str]
    base: int


class ArchiveImported(Out):
    """``POST /api/td/import/archive``: the hub now holds the archive's event."""

    event: str | None
    made_at: str
    rounds: int
    people: int
    aside: str  # the folder in the data folder where the replaced database is kept
    summary: str


class ReplacementRow(Out):
    """One replacement on the "A player leaves" card (``server.routers.replacements``)."""

    id: int
    round: int
    table: int
    power: str  # the letter
    power_name: str
    phase: str  # "F1903"
    phase_title: str  # "Fall 1903"
    player: str | None  # None: civil disorder
    who: str  # the player, or "civil disorder"
    share: float | None
    started: str  # the player seated at the start


class PhaseChoice(Out):
    code: str  # "F1903"
    title: str  # "Fall 1903"


class ReplacementsOut(Out):
    """``GET /api/td/replacements/{round}``: the round's replacements and the card's choices."""

    round: int
    #: the powers' names by letter, and the phases a replacement may start from: the card
    #: holds no rule of its own (tests/server/test_static_rules.py)
    powers: dict[str, str]
    phases: list[PhaseChoice]
    rule: str  # the event's replaced_score
    rule_words: str
    td_shares: bool  # the event leaves the score to the TD: the card asks a share
    last_year: int | None
    #: the round's seating, table -> power letter -> player, for the card's choices
    seated: dict[int, dict[str, str]]
    records: list[ReplacementRow]
    base: int


# --- game-end votes (``server.routers.votes``) -------------------------------------------


class TableVotes(Out):
    """``GET /api/votes/{round}/{table}``: what a phone at the table shows."""

    vote: TableVote | None
    history: list[TableVote]
    can_propose: bool
    why_not: str
    forms: list[str]
    choices: list[str]
    veto: bool
    seated: dict[str, str]
    centres: dict[str, int] | None
    period: str | None


class Claimed(Out):
    claim: str
    press: str


class ProposedOut(Out):
    vote: TableVote
    claim: str
    press: str


class ClaimOut(Out):
    state: Literal["waiting", "cast", "conflict", "lapsed", "refused"]
    why: str


class TDTable(Out):
    """One table's votes for the TD's card, and the secret votes its event lets a voter
    cast (a count by hand offers only those)."""

    table: int
    vote: TableVote | None
    history: list[TableVote]
    choices: list[str] = ["yes", "no", "abstain"]


class TableCode(Out):
    """``POST /api/td/votes/show-code``: the table's clock shows its vote page's QR code
    until ``until`` (hub time, naive UTC)."""

    table: int
    until: datetime


class VoteRecord(Out):
    """One proposal in the round's record: when, where, what, who proposed, how it ended
    and why; who voted, never how."""

    id: int
    table: int
    at: datetime
    form: str
    words: str
    period: str
    proposer: str | None
    proposed_by: str
    state: str
    why: str
    headline: str
    chart_year: int | None
    voted: list[str]
    closed_at: datetime | None
    closed_by: str | None
    undone_at: datetime | None
    undone_by: str | None


class PageWordsOut(Out):
    """``GET /api/words/{lang}`` (and ``GET /api/words``, the browser's language): the pages'
    own words in a language (``dipclock.i18n``):
    English -> the language, a plural's forms, whether 0 takes the singular."""

    lang: str
    words: dict[str, str]
    plurals: dict[str, list[str]]
    zero_is_one: bool
    #: the languages a page's switch offers: code -> the language's own name
    languages: dict[str, str] = {}

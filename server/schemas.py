"""Request bodies. Strict: an unknown field, a time zone or an absurd number is a 422."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)

from dipclock.errors import DipclockError
from dipclock.i18n import said
from dipclock.powers import PowerLetter, power_letter
from dipclock.provinces import UnknownUnit, parse_units
from dipclock.schedule import PhaseRef
from dipclock.seating.seatfile import MOST_PLAYERS


class BodyError(DipclockError, ValueError):
    """A request's field that does not make sense: pydantic keeps it as the problem's
    ``ctx["error"]``, so its sentence is said in the phone's language
    (``dipclock.errors.describe``)."""


def _local(moment: datetime) -> datetime:
    if moment.tzinfo is not None:
        raise BodyError(said("give the local time without a zone, like 2024-05-04T13:00"))
    if not 2000 <= moment.year <= 2100:
        raise BodyError(said("the year must be between 2000 and 2100"))
    return moment


def _phase(code: str) -> str:
    return PhaseRef.parse(code).code


LocalTime = Annotated[datetime, AfterValidator(_local)]
TableNo = Annotated[int, Field(ge=1, le=999)]
PhaseCode = Annotated[str, Field(max_length=8), AfterValidator(_phase)]
Note = Annotated[str, Field(max_length=500)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, str_strip_whitespace=True)


class Login(Body):
    password: Annotated[str, Field(min_length=1, max_length=200)]


class EventChoice(Body):
    """A built-in event by id, or the text of a TD's TOML file (read by the page)."""

    builtin: Annotated[str, Field(max_length=64)] | None = None
    toml: Annotated[str, Field(max_length=100_000)] | None = None
    filename: Annotated[str, Field(max_length=200)] = "event.toml"

    @model_validator(mode="after")
    def _one(self) -> EventChoice:
        if (self.builtin is None) == (self.toml is None):
            raise BodyError(said("give either builtin (an event id) or toml (a file's text)"))
        return self


class RoundSetup(Body):
    number: Annotated[int, Field(ge=1, le=99)]
    start: LocalTime
    last_year: Annotated[int, Field(ge=1901, le=1999)] | None = None
    call: LocalTime | None = None
    title: Annotated[str, Field(max_length=80)] = ""
    #: correct a round that is a record (presses, rulings, a call or sheets): the TD
    #: reopens it on purpose, after the preview of what would move
    reopen: bool = False
    #: with ``reopen``: the event the round is played under, by id (a built-in, the event
    #: chosen now, or one a round was played under); left out, it keeps its own
    event: Annotated[str, Field(max_length=64)] | None = None

    @model_validator(mode="after")
    def _event_with_reopen(self) -> RoundSetup:
        if self.event is not None and not self.reopen:
            raise BodyError(said("event: give it only when reopening a round (a new round is "
                             "played under the event chosen above)"))
        return self


class TablesSetup(Body):
    """``{"count": 20}`` for tables 1-20, or ``{"tables": [1, 2, 5]}``."""

    count: Annotated[int, Field(ge=1, le=999)] | None = None
    tables: Annotated[list[TableNo], Field(min_length=1, max_length=999)] | None = None

    @model_validator(mode="after")
    def _one(self) -> TablesSetup:
        if (self.count is None) == (self.tables is None):
            raise BodyError(said("give either count or tables"))
        return self

    def numbers(self) -> list[int]:
        return sorted(set(self.tables)) if self.tables else list(range(1, (self.count or 0) + 1))


class PauseRequest(Body):
    """Stop the clock now (or at a deadline) for every table, or hold one table."""

    deadline: PhaseCode | None = None  # "S1903": start at that deadline, not now
    until: LocalTime | None = None  # the announced restart
    minutes: Annotated[float, Field(gt=0, le=24 * 60)] | None = None
    table: TableNo | None = None
    reason: Annotated[str, Field(max_length=80)] = ""

    @model_validator(mode="after")
    def _one_end(self) -> PauseRequest:
        if self.until is not None and self.minutes is not None:
            raise BodyError(said("give until or minutes, not both"))
        return self


class ResumeRequest(Body):
    table: TableNo | None = None  # None: end the hall-wide break; n: end table n's hold


class AdjustRequest(Body):
    seconds: Annotated[float, Field(ge=-4 * 3600, le=4 * 3600)]
    table: TableNo | None = None

    @model_validator(mode="after")
    def _nonzero(self) -> AdjustRequest:
        if self.seconds == 0:
            raise BodyError(said("seconds must not be 0"))
        return self


class CallRequest(Body):
    at: LocalTime | None = None  # None: now


class PenaltyDecision(Body):
    round: Annotated[int, Field(ge=1, le=99)]
    table: TableNo
    power: PowerLetter
    phase: PhaseCode
    decision: Literal["confirm", "waive", "change"]
    final: Annotated[str, Field(max_length=120)] = ""  # the new penalty, for "change"
    note: Note = ""

    @model_validator(mode="after")
    def _final(self) -> PenaltyDecision:
        if self.decision == "change" and not self.final:
            raise BodyError(said("a changed penalty needs final (what the penalty is now)"))
        return self


class SeatIn(Body):
    """One player in one seat: ``power`` is a letter or a name (``I``, ``Italy``); an empty
    ``player`` clears the seat."""

    round: Annotated[int, Field(ge=1, le=99)]
    table: TableNo
    power: Annotated[str, Field(max_length=16), AfterValidator(power_letter)]
    player: Annotated[str, Field(max_length=80, pattern=r"^[^\x00-\x1f\x7f]*$")] = ""


class SeatingIn(Body):
    """Seats as a list, or the text of a CSV file ``round,table,power,player`` (read by the
    page; a header line is optional)."""

    # fail_fast: 6,993 bad seats are one problem found, not 6,993 described
    seats: Annotated[list[SeatIn], Field(max_length=MOST_PLAYERS, fail_fast=True)] | None = None
    csv: Annotated[str, Field(max_length=500_000)] | None = None

    @model_validator(mode="after")
    def _one(self) -> SeatingIn:
        if (self.seats is None) == (self.csv is None):
            raise BodyError(said("give either seats (a list) or csv (a file's text)"))
        return self


class TeamsIn(Body):
    """The teams as the text of a CSV file ``team,player`` (a header line is optional); they
    replace the teams stored before. An empty text clears them."""

    csv: Annotated[str, Field(max_length=200_000)]


def _split_units(value: Any) -> Any:
    """"A Vie, A Bud, F Tri" as the TD types it (or a list): one unit per comma, spaces
    tidied; an empty text is no units (clears them)."""
    if isinstance(value, str):
        value = [u for u in value.split(",") if u.strip()]
    if isinstance(value, list | tuple):
        return [" ".join(u.split()) if isinstance(u, str) else u for u in value]
    return value


def _on_the_map(units: tuple[str, ...]) -> tuple[str, ...]:
    """Each unit a unit of the standard map (``dipclock.provinces``), written back in the
    usual short form ("f stp/sc" -> "F StP/sc") and given once."""
    try:
        return tuple(u.text for u in parse_units(units))
    except UnknownUnit as exc:
        raise BodyError(exc) from None


def _printable(unit: str) -> str:
    if not unit.isprintable():
        raise BodyError(said("a unit is printable text, like A Vie"))
    return unit


Unit = Annotated[str, Field(min_length=1, max_length=24), AfterValidator(_printable)]


class UnitsIn(Body):
    """A power's units in one phase ("A Vie, A Bud, F Tri"), so the review names the orders
    a graduated penalty deletes; no units clears them. ``power`` is a letter or a name."""

    round: Annotated[int, Field(ge=1, le=99)]
    table: TableNo
    power: Annotated[str, Field(max_length=16), AfterValidator(power_letter)]
    phase: PhaseCode
    units: Annotated[tuple[Unit, ...], Field(max_length=34), BeforeValidator(_split_units),
                     AfterValidator(_on_the_map)]


#: what a press id may be: the clock's own, plain ASCII
PRESS_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


class PressIn(Body):
    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
    power: PowerLetter
    kind: Literal["press", "hold"]
    at: LocalTime


class PressBatch(Body):
    """A list of objects; each is checked against ``PressIn`` on its own by the route."""

    presses: Annotated[list[dict[str, Any]], Field(max_length=500)]


#: What ``machine.power.Throttling.summary`` says, word for word.
PowerState = Literal[
    "ok", "under-voltage now", "under-voltage since boot", "throttled now (too hot?)",
    "throttled since boot",
]
Printable = r"^[\x21-\x7e][\x20-\x7e]*$"  # shown on the TD's grid: no control characters


class KioskInfo(Body):
    """What a kiosk says about itself with each status report (docs/protocol.md)."""

    id: Annotated[str, Field(min_length=1, max_length=64, pattern=Printable)]
    version: Annotated[str, Field(min_length=1, max_length=32, pattern=Printable)]
    uptime: Annotated[float, Field(ge=0, le=10 * 365 * 86400)]
    buttons: Annotated[list[Literal["gpio", "serial", "keyboard"]], Field(max_length=3)]
    pin_factory: Annotated[str, Field(max_length=32, pattern=Printable)] | None = None
    box: Literal["connected", "disconnected"] | None = None  # None: no box configured
    power: PowerState | None = None  # None: this machine does not report it
    clock: Literal["hub", "system", "unverified"]

    @model_validator(mode="after")
    def _once_each(self) -> KioskInfo:
        if len(set(self.buttons)) != len(self.buttons):
            raise BodyError(said("buttons: name each input once"))
        return self


class StatusIn(Body):
    offset: Annotated[float, Field(ge=-1e10, le=1e10)]
    rtt: Annotated[float, Field(ge=0, le=600)]
    kiosk: KioskInfo | None = None  # older kiosks send no block
    #: sent only to a hub whose time is provisional: this kiosk kept the time across the
    #: hub's absence and did not follow its sample; ``offset`` is hub time minus the kept
    kept: bool = False


class ClockSet(Body):
    """Set the hub's time: ``{"time": the phone's local wall time}``,
    ``{"source": "system"}`` (the machine's clock, once NTP has synchronised it) or
    ``{"source": "machine"}`` (the machine's clock as it is: the TD undoes the time the
    tables kept, ``server.kepttime``)."""

    time: LocalTime | None = None
    source: Literal["system", "machine"] | None = None

    @model_validator(mode="after")
    def _one(self) -> ClockSet:
        if (self.time is None) == (self.source is None):
            raise BodyError(said('give either time (the phone\'s local time) or source "system" '
                             'or "machine"'))
        return self


Fingerprint = Annotated[str, Field(pattern=r"^([0-9A-F]{2}:){31}[0-9A-F]{2}$")]


class PairAsk(Body):
    """A clock asks to be paired (``server.pairing``): its id, its token's SHA-256, the
    table its card says, and the hub certificate's fingerprint as it sees it."""

    kiosk: Annotated[str, Field(min_length=1, max_length=64, pattern=Printable)]
    token_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    table: TableNo | None = None
    fingerprint: Fingerprint | None = None  # None: it reached the hub over plain HTTP


class PairApprove(Body):
    """The TD pairs the clock showing ``code`` for ``table``."""

    code: Annotated[str, Field(min_length=1, max_length=20)]
    table: TableNo


class PairRefuse(Body):
    code: Annotated[str, Field(min_length=1, max_length=20)]

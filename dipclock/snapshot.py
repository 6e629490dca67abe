"""The snapshot a table's kiosk gets from the hub (docs/protocol.md), and the hub's other
replies to a kiosk, as models.

The hub builds them (``server.snapshot``, ``server.routers.kiosk``) and the kiosk parses
them (``kiosk.session``) with
these same classes, so the two sides cannot drift apart: a field added, renamed or made
stricter changes both at once. Unknown keys are ignored, so an older kiosk still takes
the snapshot of a newer hub; a kiosk gets one line naming what is wrong with a bad one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from dipclock.errors import DipclockError, describe
from dipclock.events import EventProfile
from dipclock.hallmessage import HallMessage
from dipclock.i18n import said
from dipclock.names import spelling
from dipclock.powers import PowerLetter
from dipclock.schedule import Schedule


class PlayerNameError(DipclockError, ValueError):
    """A name the TD typed that cannot be kept, said in the TD's language (a request's
    validator: ``server.seatingdesk``)."""


def _kept_name(text: str) -> str:
    kept = spelling(text)
    if not kept:
        raise PlayerNameError(said("a player's name is empty"))
    return kept


#: A seated player's name as the hub stores it (``server.schemas.SeatIn``): one line, in the
#: one form every name is kept in (``dipclock.names.spelling``).
PlayerName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]*$"),
                       AfterValidator(_kept_name)]


#: A result sheet's path and key, as the hub makes it (``server.resultsdesk.sheet_link``).
SheetLink = Annotated[str, Field(max_length=200, pattern=r"^/sheet/\d+/\d+#[a-z2-7]+$")]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)


class SnapshotPress(_Part):
    """A press the hub holds for the table: ``at`` is naive UTC."""

    id: str
    power: PowerLetter
    kind: Literal["press", "hold"]
    at: datetime


class Claim(_Part):
    """A kiosk that says it is this table (listed only when two or more do)."""

    id: str
    address: str


class TableResult(_Part):
    """The table's result sheet as its players entered it, for each of them to confirm
    their own line with their power's button on the clock (``dipclock.sheetlines``).

    ``version`` is the version of what a player confirms: the sheet's version at its last
    change of centres, year or ending, or of the TD's final (confirmed or reopened); lines
    confirmed since leave it. A confirmation names the version its player saw, and the
    hub refuses one made against a sheet whose entries or final have changed since, never
    for another player's line confirmed meanwhile.
    """

    round: Annotated[int, Field(ge=1)]
    version: Annotated[int, Field(ge=1)]
    year: int
    centres: dict[PowerLetter, Annotated[int, Field(ge=0, le=34)]]
    ending: Annotated[str, Field(max_length=120)]  # "A draw of all survivors", "Solo: France"
    scores: dict[PowerLetter, float] = Field(default_factory=dict)  # empty: it cannot score
    confirmed: tuple[PowerLetter, ...] = ()
    #: the TD has confirmed the sheet: nothing is left for the players to confirm
    final: bool = False
    #: why the sheet cannot be confirmed as it stands ("" when it can): the players correct
    #: it on the phone first
    problem: Annotated[str, Field(max_length=300)] = ""


class PlayerFrom(_Part):
    """From ``phase`` (its code, "F1903") on, ``player`` plays ``power`` at the table: a
    replacement the TD recorded, or "civil disorder" (``dipclock.replacements``). The
    table's clock applies it when its own clock reaches the phase, so one recorded in
    advance shows on time, not at the hub's next change."""

    phase: Annotated[str, Field(pattern=r"^[SF]\d{4}$")]
    power: PowerLetter
    player: PlayerName


VoteState = Literal["open", "passed", "failed", "vetoed", "cancelled"]


class TableVote(_Part):
    """The table's game-end vote as its screen shows it (``dipclock.votes``): what is
    proposed, who votes and who has voted, never how. ``waiting_button``: the powers whose
    phone has chosen and waits for its power's button on the clock (the proof that the
    phone's player holds the power); a press of such a power's button is that vote's
    (``VotePress``), not orders in. ``headline``: the result once closed ("Draw agreed,
    Fall 1905: the 1904 centre chart counts"). ``queued``: proposals waiting behind this one
    (graduated20 votes concessions first)."""

    id: Annotated[int, Field(ge=1)]
    state: VoteState
    words: Annotated[str, Field(max_length=120)]  # "a draw of all survivors"
    form: Annotated[str, Field(max_length=40)]  # "dias", "draw:A,E", "concede:F"
    period: Annotated[str, Field(max_length=20)]  # "Fall 1905"
    proposer: PowerLetter | None = None
    voters: tuple[PowerLetter, ...] = ()
    voted: tuple[PowerLetter, ...] = ()
    absent: tuple[PowerLetter, ...] = ()
    waiting_button: tuple[PowerLetter, ...] = ()
    headline: Annotated[str, Field(max_length=200)] = ""
    at: datetime  # proposed (naive UTC)
    closed_at: datetime | None = None
    queued: Annotated[int, Field(ge=0)] = 0
    #: the TD undid it (its result no longer stands; the record keeps it)
    undone: bool = False


class Snapshot(_Part):
    """Everything a table's kiosk needs to count on its own: the schedule, not seconds left.

    ``seq`` orders the snapshots of one ``hub`` (its id); ``clock`` is the hub clock's
    epoch, raised each time the TD sets the hub's time. ``event`` and ``schedule`` are both
    None before the TD has set up the round.
    """

    seq: int
    hub: str | None = None  # None: an older hub, without an id
    #: drawn afresh each time the hub is restored from a backup (``server.routers.backup``;
    #: None: never restored, or an older hub): a restored hub keeps the old hub's id but
    #: counts ``seq`` on from its backup, lower than what the tables last took, and lacks
    #: the presses made since the backup, so a kiosk takes it as a new hub (not a new pairing)
    restored: str | None = None
    table: int
    event: EventProfile | None
    schedule: Schedule | None
    out: tuple[PowerLetter, ...] = ()
    presses: tuple[SnapshotPress, ...] = ()
    hub_time: float
    claims: tuple[Claim, ...] = ()
    clock: Annotated[int, Field(strict=True, ge=0)] = 0
    #: who plays which power at this table this round, as the TD seated them: the screen
    #: names the player beside a late power. From a replacement's phase on, the player who
    #: plays it now, or "civil disorder" (``dipclock.replacements``). Empty from a hub that
    #: does not send it.
    players: dict[PowerLetter, PlayerName] = Field(default_factory=dict)
    #: the table's replacements, each from its phase (``players`` already names those
    #: begun at hub time); empty from a hub that does not send them
    players_from: tuple[PlayerFrom, ...] = ()
    #: the path of this table's result sheet this round, its key after '#'
    #: ("/sheet/2/14#k3..."): when the game is over the kiosk shows it as a QR code, on the
    #: address it reaches the hub by. None from a hub without a results desk.
    sheet: SheetLink | None = None
    #: the same for the round played before this one: until this round starts (set up in
    #: advance) the kiosk shows its QR code, so the players of that round still reach their
    #: sheet. None: no round before, or an older hub.
    sheet_before: SheetLink | None = None
    #: the table's sheet once entered, for its players to confirm on the clock (None: no
    #: sheet yet, or a hub without it)
    result: TableResult | None = None
    #: the TD's hall message while it shows (``dipclock.hallmessage``): the kiosk hides it
    #: at its ``until`` by its own hub time. None: no message, or a hub without them
    message: HallMessage | None = None
    #: the table's game-end vote: the one under way, else the last one closed this round
    #: (a passed one ended the game: the schedule's ``ends`` says when). None: no vote, or
    #: a hub without votes
    vote: TableVote | None = None
    #: until when (hub time, naive UTC) the table's clock shows the QR code of its players'
    #: vote page (``/vote/R/T#key``, the sheet's key) to propose a game end: the TD asked
    #: for it on the dashboard (``POST /api/td/votes/show-code``), for a table whose
    #: players have not found the page. None: not asked, run out, or an older hub. While a
    #: vote is open the clock shows the code anyway.
    vote_code_until: datetime | None = None

    @model_validator(mode="after")
    def _round_whole(self) -> Snapshot:
        if (self.event is None) != (self.schedule is None):
            raise ValueError("event and schedule come together: both set, or both null")
        return self


def reason(exc: ValidationError) -> str:
    """A snapshot's first problem in one line, for a log: ``presses.0.power: ...``."""
    return str(describe(exc.errors(), whole="snapshot"))  # the kiosk's log: English


class TimeReply(_Part):
    """``GET /api/time``: hub time when the request arrived (t1) and the reply left (t2)."""

    t1: float
    t2: float
    #: the hub started a moment ago and listens for the time its tables kept: a kiosk that
    #: kept it does not follow a sample far from it, but reports it (``server.kepttime``)
    provisional: bool = False


class Rejected(_Part):
    """A press the hub would not store, and why (``id`` is None if it had no text id)."""

    id: str | None
    reason: str = ""


class LineConfirmed(_Part):
    """A player confirmed their power's line of the table's sheet with its button: the
    version of the sheet the clock showed then (``TableResult.version``)."""

    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
    round: Annotated[int, Field(ge=1, le=99)]
    power: PowerLetter
    version: Annotated[int, Field(ge=1)]


class VotePress(_Part):
    """A power's button pressed on the clock while its phone's vote waited for it
    (``TableVote.waiting_button``): the press casts the vote that phone chose."""

    id: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
    vote: Annotated[int, Field(ge=1)]
    power: PowerLetter
    at: datetime


class VotePressBatch(_Part):
    """``POST /api/tables/{n}/votes/presses``: the vote presses the clock's outbox holds
    unsent; the reply is a ``ConfirmationsReply`` (taken, refused with why)."""

    presses: Annotated[tuple[VotePress, ...], Field(max_length=50)]


class ConfirmationBatch(_Part):
    """``POST /api/tables/{n}/confirmations``: what the clock's outbox holds unsent."""

    confirmations: Annotated[tuple[LineConfirmed, ...], Field(max_length=50)]


class ConfirmationsReply(_Part):
    """Which confirmations the hub took (a line already confirmed is taken again), and
    which it refused with why (the sheet changed since: its player confirms anew)."""

    taken: tuple[str, ...] = ()
    refused: tuple[Rejected, ...] = ()


class PressesReply(_Part):
    """``POST /api/tables/{n}/presses``: how many were new, how many known, how many merged
    into a press stored a moment before (a bounce: ``dipclock.debounce``), which refused."""

    stored: int = 0
    duplicates: int = 0
    merged: int = 0
    rejected: tuple[Rejected, ...] = ()

"""What the store's tables hold, as the hub's code reads them: one dataclass per kind of
row, its columns and its conversions to and from SQLite, and the meta keys.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.sentences import listed, plural
from server.sheets import Sheet, SheetIn

#: the meta key of the hub's own note of its time (``Store.note_time``)
TIME_SEEN = "hub_time_seen"
#: the meta key of the TD's hall message (``Store.set_hall_message``): one row of JSON,
#: so no schema step (a hub of an older version ignores the key)
HALL_MESSAGE = "hall_message"
#: the meta key of the last round whose tables' sheet links are closed for good
#: (``Store.sheet_links_closed``): raised before any change that could take a started
#: round back, never lowered
SHEET_LINKS_CLOSED = "sheet_links_closed_through"

_BUMP = ("INSERT INTO table_revs(round, table_no, rev) VALUES(?, ?, 1) "
         "ON CONFLICT(round, table_no) DO UPDATE SET rev = rev + 1")


@dataclass(frozen=True)
class RoundRow:
    number: int
    start: datetime
    last_year: int | None
    call: datetime | None
    title: str
    #: the event's rules for this round: the event set when the round was set up, or set
    #: while it was the current round (None only for a row not yet stored)
    profile: EventProfile | None = None


_ROUND_COLUMNS = "number, start, last_year, call, title, profile"


def _round_row(r: tuple[Any, ...]) -> RoundRow:
    profile = EventProfile.model_validate_json(r[5]) if r[5] else None
    return RoundRow(r[0], datetime.fromisoformat(r[1]), r[2], _dt(r[3]), r[4], profile)


def takes_the_tables(number: int, set_up: bool, current: int | None) -> bool:
    """Whether setting up round ``number`` puts it on every table: a round set up anew (or
    the first) or the round the tables play does; correcting a round already set up that
    is not the one they play (reopening yesterday's, say) leaves them on theirs. The store
    writes by it and the round's preview says it (``server.roundsetup``)."""
    return not set_up or current is None or current == number


def _differs(old: RoundRow, new: RoundRow) -> bool:
    """Whether setting up ``new`` over ``old`` changes anything of it."""
    return (old.start, old.last_year, old.call, old.title, old.profile) != (
        new.start, new.last_year, new.call, new.title, new.profile)


def _round_json(r: tuple[Any, ...]) -> str:
    return json.dumps(dict(zip(_ROUND_COLUMNS.split(", "), r, strict=True)))


def _round_from_json(text: str) -> RoundRow:
    data = json.loads(text)
    return _round_row(tuple(data[c] for c in _ROUND_COLUMNS.split(", ")))


def _write_round(db: sqlite3.Connection, r: RoundRow) -> None:
    db.execute(
        "INSERT OR REPLACE INTO rounds(number, start, last_year, call, title, profile) "
        "VALUES(?, ?, ?, ?, ?, ?)",
        (r.number, r.start.isoformat(), r.last_year, r.call.isoformat() if r.call else None,
         r.title, r.profile.model_dump_json() if r.profile else None),
    )


@dataclass(frozen=True)
class RoundRecord:
    """What a round holds that was played there: button presses from its start on, the
    TD's rulings and units, result sheets, a call. Any of them makes the round a record,
    whose event, start and schedule change only when the TD reopens it."""

    presses: int
    rulings: int
    units: int
    sheets: int
    called: bool

    def __bool__(self) -> bool:
        return bool(self.presses or self.rulings or self.units or self.sheets or self.called)

    def text(self, words: Words = ENGLISH) -> str:
        """"19 button presses, 2 rulings, called, 3 result sheets": what the TD would lose,
        in ``words`` (the TD's phone's language)."""
        return self.sentence().in_(words)

    def sentence(self) -> Said:
        """``text`` as a sentence, for a refusal said later in its reader's language."""
        parts = [plural("{n} button press", "{n} button presses", self.presses)
                 if self.presses else None,
                 plural("{n} ruling", "{n} rulings", self.rulings) if self.rulings else None,
                 plural("{n} list of units", "{n} lists of units", self.units)
                 if self.units else None,
                 plural("{n} result sheet", "{n} result sheets", self.sheets)
                 if self.sheets else None,
                 said("called") if self.called else None]
        shown = [p for p in parts if p is not None]
        return listed(*shown) if shown else said("nothing played yet")


_SHEET_COLUMNS = ("round, table_no, body, confirmed, td, by_td, at, version, td_without, "
                  "settled")


def _sheet_row(r: tuple[Any, ...]) -> Sheet:
    return Sheet(r[0], r[1], SheetIn.model_validate_json(r[2]), json.loads(r[3]), bool(r[4]),
                 bool(r[5]), r[6], r[7], tuple(json.loads(r[8])), settled=r[9])


@dataclass(frozen=True)
class PressRow:
    id: str
    round: int
    table: int
    power: str
    kind: str
    at: datetime

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "power": self.power, "kind": self.kind, "at": self.at.isoformat()}


@dataclass
class PressesAdded:
    """What ``Store.add_presses`` did with a batch: how many it stored, knew already
    (the same id) and merged into one stored (a bounce), and the ids over the bound."""

    stored: int = 0
    duplicates: int = 0
    merged: int = 0
    over: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Decision:
    round: int
    table: int
    power: str
    phase: str
    decision: str  # confirm | waive | change
    final: str
    note: str
    at: datetime


@dataclass(frozen=True)
class Units:
    """A power's units at one table in one phase of a round, as the TD gave them."""

    round: int
    table: int
    power: str
    phase: str  # "S1901"
    units: tuple[str, ...]  # "A Vie", "F Tri": empty clears


@dataclass(frozen=True)
class Waiting:
    """A clock asking to be paired: the code it shows, and what it said of itself."""

    code: str
    token_hash: str
    kiosk: str  # the clock's own id (``kiosk.about``)
    wished: int | None  # the table its card says
    fingerprint: str | None  # the hub certificate it sees (None: plain HTTP)
    address: str
    asked: datetime
    expires: float  # hub time


@dataclass(frozen=True)
class PairedClock:
    """A clock paired for one table; ``token_hash`` is all the hub keeps of its token."""

    id: int
    token_hash: str
    table: int
    kiosk: str
    address: str
    paired: datetime


_WAITING = "code, token_hash, kiosk, wished, fingerprint, address, asked, expires"


_CLOCKS = "id, token_hash, table_no, kiosk, address, paired"


def _waiting_row(r: tuple[Any, ...]) -> Waiting:
    return Waiting(r[0], r[1], r[2], r[3], r[4], r[5], datetime.fromisoformat(r[6]), r[7])


def _clock_row(r: tuple[Any, ...]) -> PairedClock:
    return PairedClock(r[0], r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5]))


@dataclass(frozen=True)
class AuditRow:
    id: int
    at: datetime
    action: str
    summary: str
    #: the line's sentence as kept (``server.logline``), None for English text alone
    said: str | None = None


def _press_rows(rows: list[tuple[Any, ...]]) -> list[PressRow]:
    return [PressRow(r[0], r[1], r[2], r[3], r[4], datetime.fromisoformat(r[5])) for r in rows]


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None

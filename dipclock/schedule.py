"""A round as the TD set it up: the inputs every clock question starts from.

A start, the last year or the call that ends the game, the breaks and holds, and the
time given or taken away. Nothing here computes a deadline: ``dipclock.gameclock`` turns
a schedule into game time, ``dipclock.timeline`` asks it questions.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dipclock.errors import DipclockError
from dipclock.events import FIRST_YEAR, Year
from dipclock.i18n import said

Season = Literal["spring", "fall"]
_SEASON_CODES: dict[str, Season] = {"S": "spring", "F": "fall", "A": "fall"}


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScheduleError(DipclockError, ValueError):
    """A phase or a pause that cannot be, said in the reader's language; a ``ValueError``
    too, as a request's validator and the command line's parsing expect."""


class PhaseRef(_Strict):
    """A movement phase: ``S1903`` is the Spring 1903 phase."""

    year: Year
    season: Season

    @classmethod
    def parse(cls, text: str) -> PhaseRef:
        """``S1903``, ``F1904`` (``A`` for Autumn is accepted too)."""
        code = text.strip().upper()
        if len(code) != 5 or code[0] not in _SEASON_CODES or not code[1:].isdigit():
            raise ScheduleError(said("{text} is not a phase like S1903 or F1904",
                                     text=repr(text)))
        return cls(year=int(code[1:]), season=_SEASON_CODES[code[0]])

    @property
    def code(self) -> str:
        return f"{self.season[0].upper()}{self.year}"

    @property
    def title(self) -> str:
        return f"{self.season.capitalize()} {self.year}"

    @property
    def index(self) -> int:
        return (self.year - FIRST_YEAR) * 2 + (self.season == "fall")


class Pause(_Strict):
    """The clock stopped: a break for every table, or (``table`` set) a hold on one board.

    It starts at a moment (``at``) or at a phase's deadline (``at_deadline``, the wdc2003
    meal-break rule). It ends when the TD resumes (``ended``), else after ``minutes``, else
    at the announced restart (``until``); with none of these it is open-ended. A break
    before the round stops the countdown to the start as well: the round starts later.
    """

    at: datetime | None = None
    at_deadline: PhaseRef | None = None
    minutes: Annotated[float, Field(ge=0, le=7 * 24 * 60)] | None = None  # at most a week
    until: datetime | None = None
    ended: datetime | None = None
    table: int | None = None
    reason: str = ""

    @model_validator(mode="after")
    def _one_start(self) -> Pause:
        if (self.at is None) == (self.at_deadline is None):
            raise ScheduleError(said("a pause starts either at a moment or at a deadline"))
        return self

    def applies_to(self, table: int | None) -> bool:
        """A hall-wide break stops every table; a hold stops its own table only."""
        return self.table is None or self.table == table


class Adjustment(_Strict):
    """Time given (positive seconds) or taken away (negative) at a moment, for all or one table."""

    at: datetime
    seconds: float
    table: int | None = None

    def applies_to(self, table: int | None) -> bool:
        return self.table is None or self.table == table


class BoardStart(_Strict):
    """A board on its own clock (an event with ``central_clock = false``) is ready: the
    phase after the deadline it is stopped at starts now (``dipclock.boardclock``)."""

    at: datetime
    table: int | None = None  # None: every table (a standalone kiosk is its own table)

    def applies_to(self, table: int | None) -> bool:
        return self.table is None or self.table == table


class VotedEnd(_Strict):
    """A board's game ended early by a vote its players agreed (``dipclock.votes``): from
    ``at`` its clock shows ``headline`` ("Draw agreed, Fall 1905: the 1904 centre chart
    counts") and counts no more deadlines; the rest of the hall plays on."""

    at: datetime
    table: int | None = None  # None: a standalone kiosk, its own table
    headline: Annotated[str, Field(max_length=200)] = ""

    def applies_to(self, table: int | None) -> bool:
        return self.table is None or self.table == table


class Schedule(_Strict):
    """One round as the hub knows it: the input of every clock question."""

    start: datetime
    last_year: Year | None = None
    call: datetime | None = None
    pauses: tuple[Pause, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    title: str = ""
    #: Board clocks only: when each board said it was ready for its next phase.
    board_starts: tuple[BoardStart, ...] = ()
    #: Boards whose game a vote ended before the round's end.
    ends: tuple[VotedEnd, ...] = ()

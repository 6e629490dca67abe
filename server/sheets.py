"""A board's result sheet on the hub: its key, what it holds, and what the TD must check.

When a game ends, its kiosk shows a QR code for the table's sheet; a phone opens it, the
board's players enter the centres and how the game ended, and each player confirms their
own line, as they sign the paper sheet (wdc2003: "each player must sign the scoring sheet on
the line of the power that he or she played"). The TD sees every sheet with what looks wrong
and confirms it; only then do its scores count in the standings.

The sheet's key is an HMAC of the round and the table under a secret kept in the data dir:
nothing to store per table, good for that table's sheet only, and a new data dir (a new
event) makes every old QR code useless. Pure but for the secret's HMAC; the store and the
routes are elsewhere (``server.store``, ``server.routers.results``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dipclock.events import EventProfile
from dipclock.eventscoring import Scored, score_result
from dipclock.i18n import ENGLISH, N_, Words, said
from dipclock.powers import LETTERS, POWERS, PowerLetter
from dipclock.scoring import GameResult, ResultError
from dipclock.scoring.result import FIRST_YEAR, LAST_YEAR, TOTAL_CENTRES

#: The header a sheet's page sends its key in (never the URL's path or query, which logs
#: keep: the key travels in the link's #fragment, which a browser never sends).
KEY_HEADER = "X-Sheet-Key"
Centres = Annotated[int, Field(ge=0, le=TOTAL_CENTRES)]
GameYear = Annotated[int, Field(ge=FIRST_YEAR, le=LAST_YEAR)]


def sheet_key(secret: str, round_no: int, table: int) -> str:
    """The key in table ``table``'s QR code for round ``round_no``: 16 base32 characters
    (80 bits: no one guesses it; few enough that the code stays large on a small screen)."""
    mac = hmac.new(secret.encode(), f"sheet {round_no} {table}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()).decode()[:16].lower()


class SheetIn(BaseModel):
    """What a sheet holds, as the page sends it (powers by letter)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    centres: dict[PowerLetter, Centres]
    #: the game year whose Fall centres count
    year: GameYear
    ending: Literal["draw", "solo", "concession"] = "draw"
    solo: PowerLetter | None = None
    #: the power the others conceded the game to (events whose text has concessions)
    conceded_to: PowerLetter | None = None
    #: a draw's participants where the event scores draws by size; None: all survivors
    draw: Annotated[list[PowerLetter], Field(max_length=7)] | None = None
    eliminated: dict[PowerLetter, GameYear] = {}
    #: False: the largest power did not gain a centre in the final year (wdc2003's victory
    #: needs it to have grown; the page asks only there)
    leader_grew: bool = True

    def result(self) -> GameResult:
        """The core's game result (a ``ResultError`` for a sheet that cannot be one)."""
        if self.ending == "solo" and self.solo is None:
            raise ResultError(said("a solo needs its winner"))
        if self.ending == "concession" and self.conceded_to is None:
            raise ResultError(said("a concession needs the power it was conceded to"))
        return GameResult(
            centres=dict(self.centres),
            year=self.year,
            solo=self.solo if self.ending == "solo" else None,
            draw=frozenset(self.draw) if self.draw and self.ending == "draw" else None,
            eliminated=dict(self.eliminated),
            conceded_to=self.conceded_to if self.ending == "concession" else None,
            leader_grew=self.leader_grew,
        )


#: How a line was confirmed: ``button``, by its player pressing the power's own button on
#: the table's clock (the one way a player confirms); ``td``, by the TD for that player;
#: ``phone``, on the sheet's page by anyone holding the table's link (hubs before 0.3).
Confirmation = Literal["button", "td", "phone"]


@dataclass(frozen=True)
class Sheet:
    """One board's sheet as stored: what it says, who confirmed which line, whether the TD
    confirmed it, and its version (raised by every change, a line's confirmation, the TD's
    final and reopening too: a change names the version it was made against,
    ``Store.edit_sheet``, which sets both numbers)."""

    round: int
    table: int
    body: SheetIn
    confirmations: Mapping[str, Confirmation]  # power letter -> how, for these entries
    td: bool  # confirmed by the TD: its scores count
    by_td: bool  # entered or last changed by the TD
    at: str
    version: int = 1
    #: the seated powers whose players had not confirmed when the TD confirmed the sheet
    td_without: tuple[str, ...] = ()
    #: the version at the last change of what a player confirms (the entries, or whether
    #: the TD has confirmed the sheet): lines confirmed since leave it. A button pressed
    #: against any version from this one on confirms what the sheet says now.
    settled: int = 1

    @property
    def confirmed(self) -> frozenset[str]:
        """The powers whose lines are confirmed."""
        return frozenset(self.confirmations)


Status = Literal["empty", "entered", "confirmed", "final"]
#: What a change of a sheet changed: its entries (centres, year, ending), whether the TD
#: has confirmed it (final, reopened), or one line's confirmation.
ChangeKind = Literal["entries", "final", "line"]


@dataclass(frozen=True)
class SheetChange:
    """One change of a sheet as whoever made a change against an older version is told
    it: "the TD marked this sheet final" (the time is added where it is said)."""

    kind: ChangeKind
    words: str


#: A change's words as the store keeps them (English, ``SheetChange.words``), each said
#: again in its reader's language (``change_words``)
ENTERED_BY_TD = N_("the TD entered this sheet")
ENTERED_BY_PHONE = N_("a player's phone entered this sheet")
CORRECTED_BY_TD = N_("the TD corrected this sheet")
CORRECTED_BY_PHONE = N_("a player's phone corrected this sheet")
MARKED_FINAL = N_("the TD marked this sheet final")
REOPENED = N_("the TD reopened this sheet")
CHANGED = N_("this sheet changed")
_FIXED = frozenset({ENTERED_BY_TD, ENTERED_BY_PHONE, CORRECTED_BY_TD, CORRECTED_BY_PHONE,
                    MARKED_FINAL, REOPENED, CHANGED})
_BY_TD = re.compile(r"the TD confirmed (\w+)'s line")
_BY_PLAYER = re.compile(r"(\w+)'s player confirmed their line")
_LETTER = {name: letter for letter, name in POWERS.items()}


def change_of(before: Sheet | None, after: Sheet) -> SheetChange:
    """What ``after`` changed of ``before`` (None: no sheet yet), in words a player reads
    (English as stored; ``change_words`` says them in the reader's language)."""
    td = after.by_td
    if before is None:
        return SheetChange("entries", ENTERED_BY_TD if td else ENTERED_BY_PHONE)
    if before.body != after.body:
        return SheetChange("entries", CORRECTED_BY_TD if td else CORRECTED_BY_PHONE)
    if before.td != after.td:
        return SheetChange("final", MARKED_FINAL if after.td else REOPENED)
    lines = [p for p in LETTERS if p in after.confirmations and p not in before.confirmations]
    if not lines:
        return SheetChange("line", CHANGED)
    power = POWERS[lines[0]]
    if after.confirmations[lines[0]] == "td":
        return SheetChange("line", f"the TD confirmed {power}'s line")
    return SheetChange("line", f"{power}'s player confirmed their line")


def change_words(stored: str, words: Words = ENGLISH) -> str:
    """A change's stored words (``change_of``'s) in ``words``' language; words of another
    shape as they were stored."""
    if stored in _FIXED:
        return words(stored)
    if (found := _BY_TD.fullmatch(stored)) and found[1] in _LETTER:
        return words("the TD confirmed {power}'s line", power=words.power(_LETTER[found[1]]))
    if (found := _BY_PLAYER.fullmatch(stored)) and found[1] in _LETTER:
        return words("{power}'s player confirmed their line",
                     power=words.power(_LETTER[found[1]]))
    return stored


#: Changes named one by one in a refusal (the latest); the rest are counted.
NAMED_CHANGES = 3


def changed_since(changes: Sequence[tuple[datetime, str]], tz: tzinfo, unknown: int = 0,
                  words: Words = ENGLISH) -> str:
    """The one line refusing a change made against an older version: what happened since,
    oldest first, each at its time on the venue's clock (``changes``: naive UTC instants
    with ``SheetChange.words``); ``unknown`` more changes whose words were not kept. In
    ``words``' language (the phone's)."""
    shown = [words("{change} at {time}", change=change_words(stored, words),
                   time=at.replace(tzinfo=UTC).astimezone(tz).strftime("%H:%M"))
             for at, stored in changes[-NAMED_CHANGES:]]
    more = len(changes) - len(shown) + unknown
    if not shown:
        listed = words(CHANGED)
    else:
        listed = shown[0]  # "a, b and c"
        for middle in shown[1:-1]:
            listed = words("{first}, {second}", first=listed, second=middle)
        if len(shown) > 1:
            listed = words("{first} and {second}", first=listed, second=shown[-1])
        if more > 0:
            listed = words.plural("{changes} (and {n} earlier change)",
                                  "{changes} (and {n} earlier changes)", more, changes=listed)
    return words("{changes} since you loaded it: reload to see it, and make your change "
                 "again if it is still needed", changes=listed)


@dataclass(frozen=True)
class Where:
    """Where a sheet's game was played, as its scoring needs it: the round (its number
    and last year, as set up) and the Fall the table's clock ended the game with (None: no
    end known yet)."""

    round: int | None = None
    last_year: int | None = None
    clock_year: int | None = None


def scored_result(profile: EventProfile, body: SheetIn, where: Where = Where()) -> Scored:
    """The sheet as the event's rules score it (``dipclock.eventscoring``): a
    ``ResultError`` if the event has no system or the sheet cannot be scored."""
    if profile.scoring is None:
        raise ResultError(said("{event} names no scoring system: the TD adds one ([scoring] "
                               "system in the event file)", event=profile.name))
    return score_result(profile, body.result(), where.round, where.last_year,
                        where.clock_year)


def scored(profile: EventProfile, body: SheetIn, where: Where = Where()) -> dict[str, float]:
    """The sheet's scores under the event's rules (``scored_result``)."""
    return scored_result(profile, body, where).scores


def refusal(profile: EventProfile, body: SheetIn, where: Where = Where()
            ) -> ResultError | None:
    """Why the core cannot score the sheet (a soloist under the year's threshold, a draw
    naming an eliminated power, ...), as the error, said in whichever language reads it
    (``Refused(409, error)``): such a sheet cannot be confirmed. None: it scores."""
    try:
        scored(profile, body, where)
    except ResultError as exc:
        return exc
    return None


def problem(profile: EventProfile, body: SheetIn, where: Where = Where(),
            words: Words = ENGLISH) -> str | None:
    """``refusal`` in ``words``' language (None: the sheet scores)."""
    refused = refusal(profile, body, where)
    return None if refused is None else refused.in_(words)


def warnings(body: SheetIn, words: Words = ENGLISH) -> list[str]:
    """What the TD should look at, though it may be right: a total that is not the board's
    34 (a neutral centre never taken, or a typo), in ``words``' language."""
    total = sum(body.centres.values())
    if len(body.centres) == len(LETTERS) and total < TOTAL_CENTRES:
        return [words("centres add up to {total}, not {board}", total=total,
                      board=TOTAL_CENTRES)]
    return []


def missing_lines(sheet: Sheet, seated: Sequence[str]) -> list[str]:
    """The lines still to confirm, in the order AEFGIRT: each seated power's (every
    power's when nobody is seated) that no one has confirmed."""
    needed = set(seated) or set(LETTERS)
    return [p for p in LETTERS if p in needed and p not in sheet.confirmations]


def status(sheet: Sheet | None, seated: Sequence[str]) -> Status:
    """``final``: the TD confirmed; ``confirmed``: every seated power's player did."""
    if sheet is None:
        return "empty"
    if sheet.td:
        return "final"
    return "entered" if missing_lines(sheet, seated) else "confirmed"


def ending_text(body: SheetIn) -> str:
    """How the game ended, as the table's clock and the sheet say it."""
    if body.ending == "solo" and body.solo:
        return f"Solo: {POWERS[body.solo]}"
    if body.ending == "concession" and body.conceded_to:
        return f"Conceded to {POWERS[body.conceded_to]}"
    if body.draw:
        return "Draw: " + ", ".join(POWERS[p] for p in LETTERS if p in body.draw)
    return "A draw of all survivors"


def describe(body: SheetIn) -> str:
    """The audit log's line for a sheet: "A 5, E 4, ... (1907, draw)"."""
    centres = ", ".join(f"{p} {body.centres.get(p, '?')}" for p in LETTERS)
    end = ending_text(body).lower().replace("a draw of all survivors", "draw")
    return f"{centres} ({body.year}, {end})"


def named(scores: Mapping[str, float]) -> dict[str, float]:
    return {POWERS[p]: round(v, 2) for p, v in scores.items()}

"""The table's result sheet on its clock: what a power's button means while the clock shows
it, and what each line of it shows.

Why a button: a line of the sheet is its player's to confirm, as a signature on the paper
sheet is. At a table with seven phones and no accounts a phone holding the sheet's link
could be anyone's (Austria's phone once confirmed Turkey's line); the power's button on the
table's clock is that power's, the one its player has pressed for orders all game.

So at game over, once the hub has sent the sheet (``Snapshot.result``), a short press of
P's button confirms P's line of the version the clock shows (the hub refuses it if the sheet
changed meanwhile: nobody confirms what they did not see) when there is a line to confirm:
the TD has not confirmed the sheet (``final``), it has no ``problem`` the players must
correct on the phone first, and P's line is not confirmed (nor on its way to the hub). A
power counting late after the last deadline (its ``LATE_WINDOW``, ``dipclock.late``) is
handing in its last orders: that press is a late submission, as at every deadline, never a
confirmation, and its line shows the count. Any other press means what it always did (at
game over: nothing), and a 3-second hold too. A press means what the screen shows: the
sheet, its open lines and its late counts all come from here.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from dipclock.boardclock import with_board_starts
from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, N_, Words
from dipclock.late import Pressed, board, orders
from dipclock.penalties import started_seconds
from dipclock.phaseview import view
from dipclock.powers import LETTERS, POWERS
from dipclock.schedule import Schedule
from dipclock.screen import BANNER_SECONDS, who
from dipclock.snapshot import TableResult
from dipclock.timeline import table_clock

#: A line as the clock shows it: nobody has confirmed it; this clock has, and the hub has
#: not answered yet; confirmed (the hub says so, or took this clock's confirmation).
LineState = Literal["open", "pending", "confirmed"]
#: What the instruction under the sheet asks: press a button; nothing (all done); correct
#: the sheet on the phone first.
Tone = Literal["ask", "done", "problem"]
#: A confirmation as the clock's outbox keeps it: not yet answered, taken, refused.
SentState = Literal["pending", "taken", "refused"]

ASK = N_("Press your power's button to confirm your line")
ALL_CONFIRMED = N_("Every line confirmed: the TD confirms the sheet")
FINAL = N_("Confirmed by the TD")
#: How the hub words a game's ending (``server.sheets.ending_text``), read back to be said
#: in the hall's language
_SOLO = re.compile(r"Solo: (\w+)")
_CONCEDED = re.compile(r"Conceded to (\w+)")
_DRAW = re.compile(r"Draw: ((?:\w+, )*\w+)")
_LETTER = {name: letter for letter, name in POWERS.items()}


class Sent(Protocol):
    """A line this clock confirmed with a button: ``kiosk.outbox.StoredConfirmation``."""

    @property
    def power(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def state(self) -> SentState: ...
    @property
    def at(self) -> datetime: ...


@dataclass(frozen=True)
class TableNow:
    """What the table's clock knows at ``now``, as ``dipclock.screen.build`` takes it: the
    round, the presses (the hub's and the clock's own) and who is out."""

    profile: EventProfile
    schedule: Schedule
    now: datetime
    presses: Sequence[Pressed] = ()
    out: Collection[str] = ()
    table: int | None = None


@dataclass(frozen=True)
class Confirm:
    """A press that confirms ``power``'s line of the sheet's ``version`` in ``round``."""

    round: int
    power: str
    version: int


@dataclass(frozen=True)
class SheetLine:
    """One power's line: what the sheet says, and whether its player has confirmed it."""

    letter: str
    power: str  # "Austria"
    player: str  # as the TD seated them; "" if nobody is seated
    centres: str  # "5"; "-" when the sheet has none for it
    score: str  # "24.75"; "" when the sheet cannot be scored
    state: LineState
    late: str  # "late +17 s" while the power counts late (its press is late orders), else ""


@dataclass(frozen=True)
class SheetView:
    """The sheet for the table to check, and the one thing to do about it."""

    lines: tuple[SheetLine, ...]
    ending: str  # "Fall 1909 · Solo: France"
    instruction: str
    tone: Tone
    #: what the last confirmation made on this clock did, while it is the latest press
    #: (``BANNER_SECONDS``), else ""
    banner: str = ""


def late_counts(at: TableNow) -> dict[str, float] | None:
    """The powers counting late at ``at.now`` (seconds since the last deadline), or None
    when the game is not over on this table, so no sheet is shown."""
    schedule = at.schedule
    if not at.profile.central_clock:
        schedule = with_board_starts(schedule, at.presses, at.table)
    if view(at.profile, schedule, at.now, at.table).stage != "game_over":
        return None
    built = table_clock(at.profile, schedule, at.table)  # a pause stops the late count too
    status = board(built.phases, at.now, orders(at.presses), at.profile.penalty, at.out,
                   stops=built.stops)
    return {p: s.late_seconds for p, s in status.items() if s.late_seconds is not None}


def line_states(result: TableResult, mine: Iterable[Sent]) -> dict[str, LineState]:
    """Each power's line: confirmed when the hub says so or took this clock's confirmation
    of this version; pending while this clock's is unanswered; else open. A refused one
    (the sheet changed, or the TD confirmed it meanwhile) leaves the line open."""
    states: dict[str, LineState] = {p: "open" for p in LETTERS}
    for c in mine:
        if c.round != result.round or c.version != result.version:
            continue
        if c.state == "taken":
            states[c.power] = "confirmed"
        elif c.state == "pending" and states[c.power] == "open":
            states[c.power] = "pending"
    for p in result.confirmed:
        states[p] = "confirmed"
    return states


def confirms(at: TableNow, power: str, kind: str, result: TableResult | None,
             mine: Iterable[Sent] = ()) -> Confirm | None:
    """What a button event of ``power`` at ``at.now`` confirms (None: it is an ordinary
    press or hold, as it always was)."""
    if kind != "press" or result is None or result.final or result.problem:
        return None
    late = late_counts(at)
    if late is None or power in late or line_states(result, mine)[power] != "open":
        return None
    return Confirm(result.round, power, result.version)


def sheet_view(at: TableNow, result: TableResult | None, mine: Sequence[Sent] = (),
               players: Mapping[str, str] | None = None,
               banner_seconds: float = BANNER_SECONDS, words: Words = ENGLISH
               ) -> SheetView | None:
    """The sheet as the table's clock shows it at game over (None: no sheet yet, or the game
    is not over). ``players`` (letter -> name) as the TD seated the table: a sheet is done
    when every seated power's line is confirmed (every power's when nobody is seated).
    ``words``: the language of the table's screen (``dipclock.i18n.words_of`` the event)."""
    if result is None:
        return None
    late = late_counts(at)
    if late is None:
        return None
    seated = players or {}
    states = line_states(result, mine)
    lines = tuple(
        SheetLine(
            letter, words.power(letter), seated.get(letter, "").strip(),
            str(result.centres[letter]) if letter in result.centres else "-",
            f"{result.scores[letter]:.2f}" if letter in result.scores else "",
            states[letter],
            words("late +{seconds} s", seconds=started_seconds(late[letter]))
            if letter in late else "",
        )
        for letter in LETTERS
    )
    needed = set(seated) or set(LETTERS)
    tone: Tone
    if result.final:
        instruction, tone = words(FINAL), "done"
    elif result.problem:
        instruction = words("Correct the sheet on the phone: {problem}", problem=result.problem)
        tone = "problem"
    elif all(states[p] != "open" for p in needed):
        instruction, tone = words(ALL_CONFIRMED), "done"
    else:
        instruction, tone = words(ASK), "ask"
    fall = words.phase(result.year, "fall")
    ending = f"{fall} · {ending_words(result.ending, words)}" if result.ending else fall
    return SheetView(lines, ending, instruction, tone,
                     _banner(at, result, mine, seated, banner_seconds, words))


def ending_words(ending: str, words: Words = ENGLISH) -> str:
    """How the game ended, as the hub words it ("Solo: France", "Draw: Austria, Italy"), in
    ``words``' language; an ending of another shape as it came."""
    if found := _SOLO.fullmatch(ending):
        if found[1] in _LETTER:
            return words("Solo: {power}", power=words.power(_LETTER[found[1]]))
    if found := _CONCEDED.fullmatch(ending):
        if found[1] in _LETTER:
            return words("Conceded to {power}", power=words.power(_LETTER[found[1]]))
    if found := _DRAW.fullmatch(ending):
        named = found[1].split(", ")
        if all(n in _LETTER for n in named):
            return words("Draw: {powers}",
                         powers=", ".join(words.power(_LETTER[n]) for n in named))
    if ending == "A draw of all survivors":
        return words("A draw of all survivors")
    return ending


def _banner(at: TableNow, result: TableResult, mine: Sequence[Sent],
            players: Mapping[str, str], banner_seconds: float, words: Words = ENGLISH) -> str:
    """What the last confirmation did, while no press came after it."""
    recent = [c for c in mine if c.round == result.round
              and timedelta(0) <= at.now - c.at < timedelta(seconds=banner_seconds)]
    if not recent:
        return ""
    last = max(recent, key=lambda c: c.at)
    if any(last.at < p.at <= at.now for p in at.presses):
        return ""  # a press after it: the screen's banner says what that did
    name = who(last.power, players, words)
    if last.state == "refused" or last.version != result.version:  # the hub refuses those
        return words("{power}: not confirmed, the sheet changed: check it and press again",
                     power=name)
    return words("{power}: line confirmed", power=name)

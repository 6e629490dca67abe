"""Which phase a button press belongs to, and who is late right now.

The rule, as the kiosk and the hub both apply it: after a deadline, a power that has not
pressed for the phase just ended has ``LATE_WINDOW`` (5 minutes) to press; that press is a
late submission for the ended phase, ``seconds_late`` after its deadline. A press outside
the window, or by a power already in, counts for the phase now running; a press before the
round starts counts for nothing (it may be another round's). After the window
a power that never pressed has missed the phase (no orders: every event's NMR). Five
minutes is far past every event's worst band (91 s under graduated20), yet short enough
that a press for the next phase is never mistaken for a late one: boards spend longer
than that adjudicating.

Lateness and the window count only the time the table's clock runs: a TD's break or
hold on the table (``stops``: ``TableClock.stops``) stops them as it stops the countdown,
so no power reaches "all units hold" over lunch, and a press during a pause is late by
the running seconds before it (at least the first second: orders handed in over a meal
break that started at their deadline were not in when due). A board clock's own stop at
a deadline is no such pause (the board adjudicates; late orders count on), and extra time
given after a deadline changes no lateness. Every function takes ``stops`` (default: none,
wall time).

Offences count late presses only. A phase with no press at all is not counted as an
offence: a forgotten button is likelier than orders over five minutes late, and ``missed``
lists those phases for the TD to judge.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from dipclock.debounce import debounced
from dipclock.events import EventProfile, PenaltyRules
from dipclock.gameclock import NEVER, Stop, merged
from dipclock.penalties import Penalty, penalty, started_seconds
from dipclock.powers import LETTERS
from dipclock.schedule import PhaseRef
from dipclock.timeline import Phase

LATE_WINDOW = timedelta(minutes=5)
#: A power's second press this soon after its last one is a double tap, never new orders.
REPEAT = timedelta(seconds=30)
#: Two holds of different powers this close together are a chord: on a board clock, the
#: board saying it is ready for its next phase (``dipclock.boardclock``), not two powers
#: going out of the game.
CHORD = timedelta(seconds=2)


PressKind = Literal["press", "hold"]
DropReason = Literal["not_started", "game_over", "already_in"]


class Pressed(Protocol):
    """Any record of a button going down: the kiosk's outbox row, the hub's stored row."""

    @property
    def power(self) -> str: ...
    @property
    def kind(self) -> str: ...  # "press" (orders in) or "hold" (out of the game / back)
    @property
    def at(self) -> datetime: ...


@dataclass(frozen=True)
class Press:
    """A button going down: a short press says orders are in, a 3-second hold toggles out."""

    power: str
    at: datetime
    kind: PressKind = "press"


def orders(presses: Iterable[Pressed]) -> list[Press]:
    """The presses that mean 'our orders are in' (not the holds)."""
    return [Press(p.power, p.at) for p in presses if p.kind == "press"]


@dataclass(frozen=True)
class Submission:
    """A power's orders in the box for one phase."""

    power: str
    phase: PhaseRef
    at: datetime
    seconds_late: float  # <= 0: on time
    offence: int  # late submissions by this power so far this game, this one included (0: on time)
    #: seconds the table's clock stood still (a break or hold) between the deadline and a
    #: late press: ``seconds_late`` is the wall time between them less these (at least
    #: ``FIRST_SECOND``), so a reader of the review can check it by hand; 0 when on time
    paused_seconds: float = 0.0

    @property
    def late(self) -> bool:
        return started_seconds(self.seconds_late) > 0


@dataclass(frozen=True)
class PowerStatus:
    power: str
    out: bool
    in_now: bool  # orders in for the phase now running
    late_seconds: float | None  # counting up after a deadline, until pressed or the window ends
    heading_for: Penalty | None  # what the running lateness would cost
    last_late: Submission | None  # the late submission for the phase just ended, if any
    paused: bool = False  # the late count stands still now: the table's clock is stopped


def _ran(start: datetime, end: datetime, stops: Sequence[Stop]) -> float:
    """Seconds the clock ran from ``start`` to ``end`` (negative when ``end`` is earlier)."""
    if end < start:
        return -_ran(end, start, stops)
    total = (end - start).total_seconds()
    for a, b in stops:
        lo, hi = max(a, start), min(b, end)
        if lo < hi:
            total -= (hi - lo).total_seconds()
    return total


#: The lateness of orders handed in after a deadline while the clock stood still from it
#: (a meal break starting at the deadline): no running second has passed, yet the orders
#: were not in when they were due, so they are in the first started second (a millisecond:
#: the review and the CSV show it as more than nothing).
FIRST_SECOND = 0.001


def _stood(deadline: datetime, at: datetime, stops: Sequence[Stop]) -> float:
    """Seconds the clock stood still from ``deadline`` to a press ``at`` after it (0 for a
    press before it): the wall time the lateness does not count."""
    if at <= deadline:
        return 0.0
    return (at - deadline).total_seconds() - _ran(deadline, at, stops)


def _late(deadline: datetime, at: datetime, stops: Sequence[Stop]) -> float:
    """Seconds late at ``at`` for orders due at ``deadline``: the running seconds since it,
    at least the first started second once the deadline has passed."""
    ran = _ran(deadline, at, stops)
    return FIRST_SECOND if ran <= 0 < (at - deadline).total_seconds() else ran


def _closes(deadline: datetime, window: timedelta, stops: Sequence[Stop]) -> datetime:
    """The last moment of the late window after ``deadline``: the clock has run ``window``
    since, and a stop that starts as it does holds it open to its end (NEVER: open-ended).
    So a moment is in the window exactly when it is at or before this one."""
    t, left = deadline, window.total_seconds()
    for a, b in stops:
        if b <= t:
            continue
        if a > t:
            run = (a - t).total_seconds()
            if run > left:
                break
            left -= run
        if b == NEVER:
            return NEVER
        t = b
    return t + timedelta(seconds=left)


def stopped_at(now: datetime, stops: Iterable[Stop]) -> bool:
    """The table's clock is stopped at ``now`` (a break or a hold): late counts stand still."""
    return any(a <= now < b for a, b in stops)


def submissions(
    phases: Sequence[Phase],
    presses: Iterable[Press],
    window: timedelta = LATE_WINDOW,
    stops: Iterable[Stop] = (),
) -> list[Submission]:
    """Turn presses (in any order) into submissions; lateness in running seconds (``stops``).

    Dropped: a bounce (``dipclock.debounce``: the hub merges it, a kiosk may still hold
    it), a repeat press in a phase the power is already in for, and a double tap (a press
    within ``REPEAT`` of the power's previous one), which would otherwise count a nervous
    second press just after a deadline as the next phase's orders.
    """
    stops = merged(stops)
    done: set[tuple[str, PhaseRef]] = set()
    offences: dict[str, int] = {}
    last: dict[str, datetime] = {}
    out = []
    for press in debounced(presses):
        previous = last.get(press.power)
        last[press.power] = press.at
        if previous is not None and press.at - previous < REPEAT:
            continue
        target = _target(phases, press, done, window, stops)
        if target is None:
            continue
        phase, late = target
        done.add((press.power, phase.ref))
        n, paused = 0, 0.0
        if started_seconds(late) > 0:
            n = offences[press.power] = offences.get(press.power, 0) + 1
            paused = _stood(phase.deadline, press.at, stops)
        out.append(Submission(press.power, phase.ref, press.at, late, n, paused))
    return out


def _target(
    phases: Sequence[Phase], press: Press, done: set[tuple[str, PhaseRef]], window: timedelta,
    stops: Sequence[Stop],
) -> tuple[Phase, float] | None:
    if not phases or press.at < phases[0].opens:
        return None  # before the round: no orders are due yet (or another round's press)
    prev = next((p for p in reversed(phases) if p.deadline <= press.at), None)
    if (prev and (press.power, prev.ref) not in done
            and press.at <= _closes(prev.deadline, window, stops)):
        return prev, _late(prev.deadline, press.at, stops)
    current = next((p for p in phases if p.deadline > press.at), None)
    if current is None or (press.power, current.ref) in done:
        return None
    return current, _ran(current.deadline, press.at, stops)


def board(
    phases: Sequence[Phase],
    now: datetime,
    presses: Iterable[Press],
    rules: PenaltyRules,
    out: Collection[str] = (),
    window: timedelta = LATE_WINDOW,
    stops: Iterable[Stop] = (),
) -> dict[str, PowerStatus]:
    """Each power's state at ``now``: in or not, and the live lateness after a deadline,
    standing still while the table's clock is stopped (``stops``). Under a break that
    starts at the deadline a power not in is late all the same, in its first second."""
    stops = merged(stops)
    subs = [s for s in submissions(phases, presses, window, stops) if s.at <= now]
    prev = next((p for p in reversed(phases) if p.deadline <= now), None)
    current = next((p for p in phases if p.deadline > now), None)
    paused = stopped_at(now, stops)
    status = {}
    for power in LETTERS:
        mine = [s for s in subs if s.power == power]
        in_now = current is not None and any(s.phase == current.ref for s in mine)
        late_seconds = heading = last_late = None
        if prev is not None and power not in out:
            for_prev = next((s for s in mine if s.phase == prev.ref), None)
            if for_prev is None and now <= _closes(prev.deadline, window, stops):
                late_seconds = _late(prev.deadline, now, stops)
                offence = sum(1 for s in mine if s.late) + 1
                heading = penalty(rules, late_seconds, offence)
            elif for_prev is not None and for_prev.late:
                last_late = for_prev
        status[power] = PowerStatus(
            power, power in out, in_now, late_seconds, heading, last_late,
            paused and late_seconds is not None,
        )
    return status


def chords(presses: Iterable[Pressed]) -> list[tuple[Pressed, Pressed]]:
    """Pairs of holds by two different powers within ``CHORD`` of each other, in time
    order; a hold belongs to one chord at most, a bounce (``dipclock.debounce``) to none."""
    holds = debounced(p for p in presses if p.kind == "hold")
    out: list[tuple[Pressed, Pressed]] = []
    i = 0
    while i + 1 < len(holds):
        first, second = holds[i], holds[i + 1]
        if first.power != second.power and second.at - first.at <= CHORD:
            out.append((first, second))
            i += 2
        else:
            i += 1
    return out


def out_of_game(
    presses: Iterable[Pressed],
    since: datetime,
    base: Collection[str] = (),
    now: datetime | None = None,
    board: bool = False,
    seen: Iterable[Pressed] = (),
) -> set[str]:
    """Powers out of the game: each 3-second hold toggles its power out or back.

    Short presses are ignored. ``base`` is who was out before these holds (a kiosk starts
    from the hub's list). Holds before ``since`` (the round's start) are button tests or
    another round's: ignored. With ``now``, holds after it do not count yet (the state at a
    past deadline); without, every recorded hold counts, even one stamped a moment ahead
    of the reader's clock by a kiosk's clock error: a hold is a fact once recorded.
    With ``board`` (an event on board clocks) the holds of a chord are the board's ready
    signal and take no one out; ``seen`` are holds already counted in ``base`` (the hub's),
    read only to find a chord whose other half is among ``presses``, or a hold among
    ``presses`` that is a bounce of one of them (``dipclock.debounce``: it toggles nothing).
    """
    presses, seen = list(presses), list(seen)
    out = set(base)
    holds = [p for p in [*seen, *presses] if p.kind == "hold"]
    kept = {id(h) for h in debounced(holds)}
    skip: set[int] = {id(h) for h in holds if id(h) not in kept}
    if board:
        counted = {id(h) for h in seen}
        for pair in chords([*seen, *presses]):
            skip.update(id(h) for h in pair)
            halves = [h for h in pair if id(h) in counted]
            if len(halves) == 1 and halves[0].at >= since:
                # ``base`` took the hub's half of this chord for a power going out (the hub
                # had not seen the other half yet): it was the board's ready signal
                out ^= {halves[0].power}
    for h in sorted((p for p in presses if p.kind == "hold"), key=lambda p: p.at):
        if h.at >= since and (now is None or h.at <= now) and id(h) not in skip:
            out ^= {h.power}
    return out


def powers_out(
    profile: EventProfile | None,
    presses: Iterable[Pressed],
    since: datetime,
    base: Collection[str] = (),
    now: datetime | None = None,
    seen: Iterable[Pressed] = (),
) -> tuple[str, ...]:
    """``out_of_game`` under ``profile``'s clock, in table order: on a board clock (not
    ``central_clock``) a chord of two holds is the board's ready signal, not two powers out.
    What the hub sends a table and what the table's kiosk shows."""
    board = profile is not None and not profile.central_clock
    out = out_of_game(presses, since, base, now=now, board=board, seen=seen)
    return tuple(p for p in LETTERS if p in out)


def drop_reason(phases: Sequence[Phase], at: datetime) -> DropReason:
    """Why ``submissions`` gave a press made ``at`` no phase (ask only for a dropped press).

    Before the round, nothing is due; after the last deadline no phase is left to press for
    (a late press for it would have counted); otherwise the power was already in (or this
    is a double tap of that press).
    """
    if not phases or at < phases[0].opens:
        return "not_started"
    if phases[-1].deadline <= at:
        return "game_over"
    return "already_in"


@dataclass(frozen=True)
class Missed:
    """A phase a power never pressed for, on a table whose buttons were in use then."""

    power: str
    phase: PhaseRef
    deadline: datetime
    offence: int  # counted like a late submission: the late ones before it, plus this one
    proposed: Penalty  # the event's penalty for orders later than the late window


def missed_to_judge(
    phases: Sequence[Phase],
    now: datetime,
    presses: Sequence[Pressed],
    rules: PenaltyRules,
    since: datetime,
    window: timedelta = LATE_WINDOW,
    board: bool = False,
    stops: Iterable[Stop] = (),
) -> list[Missed]:
    """The missed phases the TD must rule on, with the penalty the event proposes.

    Skipped: a phase in which no button of the table was used (a kiosk not in use then),
    and a power out of the game at that deadline. Either the orders never went in or the
    button was forgotten; only the TD can tell which, so the proposal is the penalty for
    orders later than the window, on the offence count a late press would have had.
    """
    stops = merged(stops)
    mine = orders(presses)
    subs = submissions(phases, mine, window, stops)
    in_use = {s.phase for s in subs}
    deadlines = {p.ref: p.deadline for p in phases}
    out = []
    for power, ref in missed(phases, now, mine, window=window, stops=stops):
        deadline = deadlines[ref]
        if ref not in in_use or power in out_of_game(presses, since, now=deadline, board=board):
            continue
        offence = 1 + sum(1 for s in subs if s.power == power and s.late and s.at < deadline)
        proposed = penalty(rules, window.total_seconds() + 1, offence)
        out.append(Missed(power, ref, deadline, offence, proposed))
    return out


def judged_until(
    phases: Sequence[Phase],
    now: datetime,
    window: timedelta = LATE_WINDOW,
    stops: Iterable[Stop] = (),
) -> datetime | None:
    """Until when ``missed_to_judge`` at ``now`` stands, if no press comes: the next close of
    a late window, later by every stop in it (NEVER: an open-ended one; None: every window
    has closed, so the answer is final). The hub keeps a table's judgment until then rather
    than judging its whole history at every poll."""
    stops = merged(stops)
    closes = (_closes(p.deadline, window, stops) for p in phases)
    return min((c for c in closes if c >= now), default=None)


def last_close(
    phases: Sequence[Phase], window: timedelta = LATE_WINDOW, stops: Iterable[Stop] = ()
) -> datetime | None:
    """When the late window after the last of ``phases`` closes, held open by every stop in
    it (NEVER: an open-ended one; None: no phases): after it no press counts for any."""
    return _closes(phases[-1].deadline, window, merged(stops)) if phases else None


def missed(
    phases: Sequence[Phase],
    now: datetime,
    presses: Iterable[Press],
    out: Collection[str] = (),
    window: timedelta = LATE_WINDOW,
    stops: Iterable[Stop] = (),
) -> list[tuple[str, PhaseRef]]:
    """(power, phase) pairs with no orders at all: the window closed without a press."""
    stops = merged(stops)
    subs = {(s.power, s.phase) for s in submissions(phases, presses, window, stops)}
    return [
        (power, p.ref)
        for p in phases
        if _closes(p.deadline, window, stops) < now
        for power in LETTERS
        if power not in out and (power, p.ref) not in subs
    ]

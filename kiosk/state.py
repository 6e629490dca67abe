"""What the table's screen shows at one moment: the core's answers, worded for the table.

``build`` is a pure function of (event, schedule, presses, moment, ...) to a ``Screen``.
It asks ``dipclock.timeline.view`` for the stage and the time left, ``dipclock.late.board``
and ``submissions`` for who is in and who is late, and ``dipclock.penalties.penalty`` for
what a late press cost; it decides nothing about the game itself. Tests assert on the
``Screen``; ``kiosk.draw`` only paints it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from dipclock.events import EventProfile
from dipclock.late import Press, Submission, board, out_of_game, submissions
from dipclock.penalties import penalty, started_seconds
from dipclock.powers import LETTERS, POWERS
from dipclock.timeline import PhaseView, Schedule, timetable, view
from kiosk.outbox import StoredPress

Look = Literal[
    "connecting",
    "before_start",
    "negotiating",
    "warning",
    "writing",
    "late",
    "paused",
    "held",
    "game_over",
    "problem",
]
ChipState = Literal["waiting", "in", "late", "just_late", "out"]

#: How long a press's message stays on screen (from the moment the button went down).
BANNER_SECONDS = 8.0


@dataclass(frozen=True)
class Chip:
    """One power in the strip along the bottom."""

    letter: str
    name: str
    state: ChipState
    note: str  # "IN", "+17 s", "OUT", ""
    detail: str  # the penalty it is heading for / was given, else ""


@dataclass(frozen=True)
class Screen:
    """Everything drawn, as text and a look; equal Screens draw identical frames."""

    look: Look
    heading: str  # "Round 2 · Table 3"
    phase: str  # "Spring 1903"
    deadline: str  # "Deadline 10:17"
    label: str  # the stage in words
    big: str  # the remaining time, as large as the screen allows
    notes: tuple[str, ...]
    banner: str
    chips: tuple[Chip, ...]
    hub_lost: bool
    alerts: tuple[str, ...] = ()  # small marks: box unplugged, clock not verified, ...


@dataclass(frozen=True)
class Frame:
    """A screen and how long it stays right: the loop sleeps that long."""

    screen: Screen
    valid_for: float  # seconds until something on the screen changes (<= 1)
    view: PhaseView | None


def clock_text(moment: datetime) -> str:
    """10:17, or 10:17:30 when the deadline is not on a whole minute (after an adjustment)."""
    return moment.strftime("%H:%M:%S" if moment.second else "%H:%M")


def duration_text(seconds: float) -> str:
    """A countdown as M:SS or H:MM:SS, rounded up: 0.3 s left still shows 0:01."""
    s = max(0, math.ceil(round(seconds, 6)))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def _until_tick(x: float) -> float:
    """Seconds until ceil(x) changes, for a value counting down (x > 0) or up (late)."""
    frac = x - math.floor(x)
    return frac if frac > 1e-6 else 1.0


def out_powers(
    base: Collection[str], holds: Iterable[StoredPress], now: datetime, since: datetime
) -> set[str]:
    """Powers out of the game: ``base`` (the hub's list) toggled by each hold of the round."""
    holds = [Press(h.power, h.at) for h in holds if h.kind == "hold"]
    return out_of_game(holds, now, base, since=since)


def connecting(heading: str, hub_lost: bool, alerts: tuple[str, ...] = ()) -> Frame:
    """No round to show yet: say why rather than show a made-up clock.

    Hub lost: it has not answered yet. Hub there: the TD has not set up the round.
    """
    chips = tuple(Chip(c, POWERS[c], "waiting", "", "") for c in LETTERS)
    label = "Waiting for the hub" if hub_lost else "Waiting for the TD to set up the round"
    screen = Screen("connecting", heading, "", "", label, "--:--", (), "", chips, hub_lost,
                    tuple(alerts))
    return Frame(screen, 1.0, None)


def hub_line(address: str, discovered: bool = False) -> str:
    """"Hub 10.0.0.1:8000, found on the network": which hub this table talks to."""
    shown = address.removeprefix("http://").removeprefix("https://").rstrip("/")
    return f"Hub {shown}, found on the network" if discovered else f"Hub {shown}"


def looking_for_hub(table: int | None, alerts: tuple[str, ...] = ()) -> Frame:
    """A kiosk with a key and no hub address browses the network (mDNS) for its hub.

    The fix is on the screen too, for a hall whose network drops multicast.
    """
    chips = tuple(Chip(c, POWERS[c], "waiting", "", "") for c in LETTERS)
    fix = ("If this stays, set hub = http://ADDRESS:8000 in dipclock.txt on the card's "
           "boot partition")
    screen = Screen("connecting", _table_heading(table), "", "",
                    "Looking for the hub on the network", "--:--", (fix,), "", chips, False,
                    tuple(alerts))
    return Frame(screen, 1.0, None)


def problem(what: str, fix: str, table: int | None = None) -> Frame:
    """The kiosk cannot start: what is wrong and the fix, for the TD called to the table.

    Drawn instead of a clock (a wrong clock is worse than none); the kiosk stays up on it
    and starts over when a settings file changes.
    """
    screen = Screen("problem", _table_heading(table) or "dipclock", "", "",
                    "This clock cannot start: please call the TD", "",
                    (what, f"Fix: {fix}"), "", (), False)
    return Frame(screen, 1.0, None)


def _table_heading(table: int | None) -> str:
    return f"Table {table}" if table is not None else ""


def introduce(frame: Frame, table: int | None, hub: str) -> Frame:
    """Before a round (waiting, or counting down to the start), name the table and its hub.

    A TD walking a hall of cloned cards checks each screen against the seating plan.
    """
    screen = frame.screen
    if screen.look not in ("connecting", "before_start"):
        return frame
    heading = screen.heading or _table_heading(table)
    notes = screen.notes if not hub or hub in screen.notes else (*screen.notes, hub)
    if (heading, notes) == (screen.heading, screen.notes):
        return frame
    return replace(frame, screen=replace(screen, heading=heading, notes=notes))


def build(
    profile: EventProfile,
    schedule: Schedule,
    now: datetime,
    presses: Sequence[StoredPress] = (),
    out: Collection[str] = (),
    table: int | None = None,
    warning_seconds: float = 120.0,
    hub_lost: bool = False,
    banner_seconds: float = BANNER_SECONDS,
    alerts: tuple[str, ...] = (),
) -> Frame:
    """The screen of ``table`` at ``now`` (hub local time)."""
    v = view(profile, schedule, now, table)
    phases = timetable(profile, schedule, table).phases
    orders = [Press(p.power, p.at) for p in presses if p.kind == "press"]
    status = board(phases, now, orders, profile.penalty, out)
    subs = {(s.power, s.at): s for s in submissions(phases, orders)}
    ticks = [1.0]

    recent = [
        p for p in presses if timedelta(0) <= now - p.at < timedelta(seconds=banner_seconds)
    ]
    for p in recent:
        ticks.append(banner_seconds - (now - p.at).total_seconds())
    recent.sort(key=lambda p: p.at)

    chips = []
    late_lines: list[tuple[str, str]] = []
    for letter in LETTERS:
        st = status[letter]
        name = POWERS[letter]
        just = next(
            (subs.get((p.power, p.at)) for p in reversed(recent)
             if p.power == letter and p.kind == "press"),
            None,
        )
        if st.out:
            chips.append(Chip(letter, name, "out", "OUT", ""))
        elif st.late_seconds is not None:
            late = started_seconds(st.late_seconds)
            ticks.append(_until_tick(st.late_seconds))
            label = st.heading_for.label if st.heading_for else ""
            chips.append(Chip(letter, name, "late", f"+{late} s", label))
            late_lines.append((name, f"+{late} s, {label}" if label else f"+{late} s"))
        elif just is not None and just.late:
            cost = penalty(profile.penalty, just.seconds_late, just.offence)
            secs = started_seconds(just.seconds_late)
            chips.append(Chip(letter, name, "just_late", f"IN +{secs} s", cost.label))
        elif st.in_now:
            chips.append(Chip(letter, name, "in", "IN", ""))
        else:
            chips.append(Chip(letter, name, "waiting", "", ""))

    banner = _banner(recent[-1], subs, profile, v, out) if recent else ""
    opens = phases[0].opens if phases else schedule.start
    look, label, big, notes = _stage(
        v, warning_seconds, bool(late_lines), schedule.title, opens, schedule.call
    )
    if v.stage == "paused" and v.restart_at is not None:
        ticks.append(_until_tick((v.restart_at - now).total_seconds()))
    elif v.stage not in ("held", "paused", "game_over"):
        ticks.append(_until_tick(v.remaining))
    elif v.stage == "game_over" and schedule.call is not None and now < schedule.call:
        ticks.append(_until_tick((schedule.call - now).total_seconds()))  # counting to the call
    if look == "late":
        notes = _late_notes(late_lines) + notes
    heading = " · ".join(
        x for x in (schedule.title or "", f"Table {table}" if table is not None else "") if x
    )
    phase = v.phase.title if v.phase else (v.previous.ref.title if v.previous else "")
    deadline = ""
    if v.deadline is not None and v.stage != "game_over":
        first = "First deadline" if v.stage == "before_start" else "Deadline"
        deadline = f"{first} {clock_text(v.deadline)}"
    screen = Screen(
        look, heading, phase, deadline, label, big, notes, banner, tuple(chips), hub_lost,
        tuple(alerts),
    )
    return Frame(screen, max(0.001, min(ticks)), v)


def _late_notes(lines: list[tuple[str, str]]) -> tuple[str, ...]:
    """"Italy +17 s, 2-unit NMR"; powers on the same count grouped ("5 powers +17 s, ...")."""
    groups: dict[str, list[str]] = {}
    for name, what in lines:
        groups.setdefault(what, []).append(name)
    return tuple(
        f"{' and '.join(names) if len(names) <= 2 else f'{len(names)} powers'} {what}"
        for what, names in groups.items()
    )


def _banner(
    press: StoredPress,
    subs: dict[tuple[str, datetime], Submission],
    profile: EventProfile,
    v: PhaseView,
    out: Collection[str],
) -> str:
    name = POWERS[press.power]
    if press.kind == "hold":
        return f"{name} is out of the game" if press.power in out else f"{name} is back in the game"
    sub = subs.get((press.power, press.at))
    if sub is None:  # the core gave the press no phase: say why
        if v.stage == "before_start":
            return f"{name}: not counted, the round has not started"
        if v.stage == "game_over":
            return f"{name}: not counted, the game is over"
        return f"{name}: already in"
    if sub.late:
        cost = penalty(profile.penalty, sub.seconds_late, sub.offence)
        return f"{name} +{started_seconds(sub.seconds_late)} s, {cost.label}"
    return f"{name}: orders in"


def _stage(
    v: PhaseView,
    warning_seconds: float,
    anyone_late: bool,
    title: str,
    opens: datetime,
    call: datetime | None,
) -> tuple[Look, str, str, tuple[str, ...]]:
    """The look, the stage label, the big text and the notes for a view."""
    notes: list[str] = []
    if v.phase is not None:
        if v.final_year:
            notes.append("Final year")
        if v.victory_centres:
            notes.append(f"{v.victory_centres} centres to win in {v.phase.year}")
        if v.next_length_changes and v.next_phase and v.next_minutes:
            notes.append(f"Next: {v.next_phase.title}, {v.next_minutes:g} min")
    big = duration_text(v.remaining)
    match v.stage:
        case "before_start":
            return "before_start", f"{title or 'The round'} starts at {clock_text(opens)}", big, ()
        case "paused":
            reason = (v.pause.reason if v.pause else "") or "Break"
            if v.restart_at is None:
                label = f"{reason}: the clock is stopped"
                to_go = "Break"
            else:
                label = f"{reason}, clock restarts at {clock_text(v.restart_at)}"
                to_go = duration_text((v.restart_at - v.now).total_seconds())
            if v.phase is not None:
                notes.insert(0, f"Then {v.phase.title}: {big} to the deadline")
            return "paused", label, to_go, tuple(notes)
        case "held":
            label = "Table held by the TD"
            if v.restart_at is not None:
                label += f", clock restarts at {clock_text(v.restart_at)}"
            return "held", label, big, tuple(notes)
        case "game_over":
            if v.game_over_reason == "called" and call is not None and v.now < call:
                # no deadline is left before the call: boards finish, the call ends them
                label = f"No more deadlines: the round ends at {clock_text(call)}"
                return "game_over", label, duration_text((call - v.now).total_seconds()), ()
            if v.game_over_reason == "called":
                label = "Round called: the game ends here"
            elif v.previous is not None:
                label = f"{v.previous.ref.title} was the last deadline"
            else:
                label = "The game is over"
            return "game_over", label, "Game over", ()
        case "writing":
            return "writing", "WRITING, silence", big, tuple(notes)
    if anyone_late:
        ended = v.previous.ref.title if v.previous else "The"
        return "late", f"{ended} deadline passed: orders late", big, tuple(notes)
    if v.remaining <= warning_seconds:
        return "warning", "Last minutes", big, tuple(notes)
    return "negotiating", "Negotiating", big, tuple(notes)

"""What a clock screen shows at one moment: the table's kiosk, the hall clock, the dashboard.

One pure function, ``build``, of (event, schedule, moment, presses, ...) to a ``Screen``:
the look, the words and the big number, and what the big number means (``count_to``,
``ticking``) so a screen that redraws between answers (the hall page's JavaScript) ticks
it the same way the kiosk does. Every screen shows this model; none decides again, so a
table and the projector can never disagree. The stage and time left come from
``dipclock.phaseview.view``, who is in and late from ``dipclock.late``, and what a late
press costs from ``dipclock.penalties``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Literal

from dipclock import callwords
from dipclock.boardclock import with_board_starts
from dipclock.debounce import debounced
from dipclock.events import CallEnds, EventProfile
from dipclock.gameclock import Stop
from dipclock.i18n import ENGLISH, N_, Words
from dipclock.late import (
    REPEAT,
    DropReason,
    PowerStatus,
    Press,
    Pressed,
    Submission,
    board,
    chords,
    drop_reason,
    orders,
    submissions,
)
from dipclock.penalties import penalty, started_seconds
from dipclock.phaseview import PhaseView, Stage, view
from dipclock.powers import LETTERS
from dipclock.schedule import PhaseRef, Schedule
from dipclock.timeline import Phase, table_clock
from dipclock.venuetime import venue_naive, zone
from dipclock.votewords import headline_words

Look = Literal[
    "before_start", "negotiating", "warning", "writing", "late", "paused", "held",
    "adjudicating", "game_over",
]
ChipState = Literal["waiting", "in", "late", "just_late", "out"]

#: How long a press's message stays on screen (from the moment the button went down).
BANNER_SECONDS = 8.0
#: How a board on its own clock starts its next phase (``dipclock.boardclock``).
READY_HINT = N_("Ready? Two players hold their buttons together for 3 s")
#: From this many seconds before a deadline the screen says "Last minutes".
WARNING_SECONDS = 120.0

DROPPED: dict[DropReason, str] = {
    "not_started": N_("not counted, the round has not started"),
    "game_over": N_("not counted, the game is over"),
    "already_in": N_("already in"),
}
#: The round titles the hub makes when the TD names none ("Round 2"): said in the event's
#: language; a title the TD typed is shown as typed.
HUB_TITLE = re.compile(r"Round (\d+)")


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
    """Everything a clock shows of a round, as text and a look, plus what the big text means.

    ``count_to`` is the moment the big number counts down to (None: it is not a countdown:
    "Break", "Game over", a held table's frozen time); ``ticking`` says it runs, so a
    screen may redraw it from ``count_to`` and its own clock until it next asks. The
    heading is the round's title and the table apart: a screen keeps the table readable
    however long the title (the TD types it).
    """

    look: Look
    title: str  # "Round 2"
    table_name: str  # "Table 3" ("" on the hall's clock)
    phase: str  # "Spring 1903"
    deadline: str  # "Deadline 10:17"
    label: str  # the stage in words
    big: str  # the remaining time, as large as the screen allows
    count_to: datetime | None
    ticking: bool
    notes: tuple[str, ...]
    banner: str
    chips: tuple[Chip, ...]
    valid_for: float  # seconds until something on the screen changes (<= 1)
    view: PhaseView
    #: before the round starts, the table's seated players as (power, player), in the
    #: powers' order: the board call, so each player finds their table from across the
    #: room ("" when the table is not seated, or on the hall's clock)
    board_call: tuple[tuple[str, str], ...] = ()
    #: each power's state at the moment (``dipclock.late.board``), as the chips were drawn
    #: from it: the TD's grid shows the same without judging the table again
    powers: Mapping[str, PowerStatus] = field(default_factory=dict)

    @property
    def heading(self) -> str:
        """"Round 2 · Table 3"."""
        return heading_text(self.title, self.table_name)


def heading_text(title: str, table_name: str) -> str:
    """A screen's heading in one line: the round's title, then the table."""
    return " · ".join(x for x in (title, table_name) if x)


def clock_text(moment: datetime, tz: tzinfo = UTC, day_of: datetime | None = None) -> str:
    """A UTC moment on the venue's clock: 10:17, or 10:17:30 when the deadline is not on a
    whole minute (after an adjustment); with ``day_of`` (a UTC moment), the weekday first
    when the moment falls on another day than that one ("Sun 09:00", ``dipclock plan``)."""
    local = venue_naive(moment, tz)
    text = local.strftime("%H:%M:%S" if local.second else "%H:%M")
    if day_of is not None and local.date() != venue_naive(day_of, tz).date():
        text = local.strftime("%a ") + text
    return text


def duration_text(seconds: float) -> str:
    """A countdown as M:SS or H:MM:SS, rounded up: 0.3 s left still shows 0:01."""
    s = max(0, math.ceil(round(seconds, 6)))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def in_sentence(label: str, words: Words = ENGLISH) -> str:
    """A penalty's label after a comma: "Italy +95 s, all units hold (NMR)". A first word in
    capitals ("NMR: ...") or with a digit ("4-unit NMR") stays as it is, and so does German,
    whose nouns keep their capital ("Verwarnung")."""
    first = label.split(" ", 1)[0]
    if not label or first.isupper() or any(c.isdigit() for c in first) or words.lang == "de":
        return label
    return label[0].lower() + label[1:]


def who(letter: str, players: Mapping[str, str], words: Words = ENGLISH) -> str:
    """"Italy (Ann Smith)": the power, and its player when the TD seated one."""
    player = players.get(letter, "").strip()
    power = words.power(letter)
    return f"{power} ({player})" if player else power


def phase_words(ref: PhaseRef, words: Words = ENGLISH) -> str:
    """"Spring 1903" in ``words``' language (``PhaseRef.title`` in English)."""
    return words.phase(ref.year, ref.season)


def title_words(title: str, words: Words = ENGLISH) -> str:
    """A round's title: the hub's own "Round 2" in ``words``' language, a TD's as typed."""
    made = HUB_TITLE.fullmatch(title)
    return words("Round {number}", number=int(made[1])) if made else title


def table_words(table: int, words: Words = ENGLISH) -> str:
    """"Table 3"."""
    return words("Table {number}", number=table)


def _until_tick(x: float) -> float:
    """Seconds until ceil(x) changes, for a value counting down (x > 0) or up (late)."""
    frac = x - math.floor(x)
    return frac if frac > 1e-6 else 1.0


def build(
    profile: EventProfile,
    schedule: Schedule,
    now: datetime,
    presses: Sequence[Pressed] = (),
    out: Collection[str] = (),
    table: int | None = None,
    warning_seconds: float = WARNING_SECONDS,
    banner_seconds: float = BANNER_SECONDS,
    buttons: bool = True,
    players: Mapping[str, str] | None = None,
    words: Words = ENGLISH,
) -> Screen:
    """The screen of ``table`` at ``now``; ``table`` None is every table's clock.

    ``buttons=False`` is a clock with no buttons (the hall's projector, the dashboard): no
    chips, no banner, and no "orders late" after a deadline, which only a table can know.
    ``players`` (power letter -> name, as the TD seated the table) names the player beside
    the power in the late notes and the banner, so the table hears who is late; the chips
    keep the power's name alone, to fit seven along the bottom. ``words``: the language
    every word is said in (``dipclock.i18n.words_of`` the event; English by default).
    """
    seated = players or {}
    tz = zone(profile.timezone)
    if not profile.central_clock and buttons:
        schedule = with_board_starts(schedule, presses, table)  # this board's own signals
    v = view(profile, schedule, now, table)
    built = table_clock(profile, schedule, table)
    phases, stops = built.phases, built.stops  # a break or a hold stops the late counts too
    if not buttons:
        presses = ()
    mine = orders(presses)
    status = board(phases, now, mine, profile.penalty, out, stops=stops)
    subs = {(s.power, s.at): s for s in submissions(phases, mine, stops=stops)}
    ticks = [1.0]

    recent = [
        p for p in presses if timedelta(0) <= now - p.at < timedelta(seconds=banner_seconds)
    ]
    if recent:
        # a bounce (``dipclock.debounce``) says nothing of its own: the press it bounced
        # off keeps the banner, as the hub merges the bounce into that press
        kept = {id(p) for p in debounced(presses)}
        recent = [p for p in recent if id(p) in kept]
    for p in recent:
        ticks.append(banner_seconds - (now - p.at).total_seconds())
    recent.sort(key=lambda p: p.at)

    chips = []
    late_lines: list[tuple[str, str]] = []
    for letter in LETTERS if buttons else ():
        st = status[letter]
        name = words.power(letter)
        just = next(
            (subs.get((p.power, p.at)) for p in reversed(recent)
             if p.power == letter and p.kind == "press"),
            None,
        )
        if st.out:
            chips.append(Chip(letter, name, "out", words("OUT"), ""))
        elif st.late_seconds is not None:
            late = started_seconds(st.late_seconds)
            if not st.paused:
                ticks.append(_until_tick(st.late_seconds))
            label = st.heading_for.said(words) if st.heading_for else ""
            chips.append(Chip(letter, name, "late", words("+{seconds} s", seconds=late), label))
            count = (words("+{seconds} s paused", seconds=late) if st.paused  # stands still
                     else words("+{seconds} s", seconds=late))
            what = f"{count}, {in_sentence(label, words)}" if label else count
            late_lines.append((who(letter, seated, words), what))
        elif just is not None and just.late:
            cost = penalty(profile.penalty, just.seconds_late, just.offence)
            secs = started_seconds(just.seconds_late)
            chips.append(Chip(letter, name, "just_late", words("IN +{seconds} s", seconds=secs),
                              cost.said(words)))
        elif st.in_now:
            chips.append(Chip(letter, name, "in", words("IN"), ""))
        else:
            chips.append(Chip(letter, name, "waiting", "", ""))

    banner = ""
    if recent:
        banner = _banner(recent[-1], subs, profile, phases, out, seated,
                         _Again(mine, stops, tz, words))
        board_ready = {id(h) for pair in chords(recent) for h in pair}
        if not profile.central_clock and id(recent[-1]) in board_ready:
            banner = (words("Board ready: {phase} starts", phase=phase_words(v.phase, words))
                      if v.phase else words("Board ready"))
    opens = phases[0].opens if phases else schedule.start
    look, label, big, count_to, notes = _stage(
        v, warning_seconds, bool(late_lines), title_words(schedule.title, words), opens,
        schedule.call, profile.call_ends, tz, words,
    )
    if count_to is not None:
        ticks.append(_until_tick((count_to - now).total_seconds()))
    if look in ("late", "adjudicating", "paused", "held"):
        notes = _late_notes(late_lines, words) + notes
    if look == "adjudicating" and not buttons:
        notes = tuple(n for n in notes if n != words(READY_HINT))
        if table is None:
            label = words("Board clocks: each board starts its next phase when it is ready")
    shown = v.phase or (v.previous.ref if v.previous else None)
    phase = phase_words(shown, words) if shown else ""
    deadline = ""
    if v.deadline is not None and v.stage != "game_over":
        at = clock_text(v.deadline, tz)
        deadline = (words("First deadline {time}", time=at) if v.stage == "before_start"
                    else words("Deadline {time}", time=at))
    return Screen(
        look, title_words(schedule.title or "", words),
        table_words(table, words) if table is not None else "", phase,
        deadline, label, big, count_to, count_to is not None, notes,
        banner, tuple(chips), max(0.001, min(ticks)), v,
        board_call(seated, words) if v.stage == "before_start" and table is not None else (),
        status,
    )


def board_call(players: Mapping[str, str], words: Words = ENGLISH
               ) -> tuple[tuple[str, str], ...]:
    """A table's seated players (power letter -> name) as the board call shows them: each
    power's name and its player, in the powers' order, an empty seat left out."""
    return tuple((words.power(p), players[p].strip()) for p in LETTERS
                 if players.get(p, "").strip())


@dataclass(frozen=True)
class Apart:
    """How one table's clock differs from the hall's, in the few words the hall's projector
    lists beside its own clock ("Table 4 held: ruling", "Table 7: 2 min extra, Deadline
    10:21:30"): a hold of the TD's, extra time given or taken away, or a board clock's own
    phase."""

    stage: Stage  # the table's (``dipclock.phaseview``): "held", "adjudicating", ...
    held: bool  # stopped by the TD now
    reason: str  # the hold's reason ("" when the TD gave none, or not held)
    restart: str  # when a held table's clock restarts ("10:30"), "" when not said
    #: seconds the table has more (+) or fewer (-) than the hall to the same phase's
    #: deadline; None when that is no question (held, a board on its own clock, no phase)
    extra: float | None
    phase: str  # the table's phase where the hall does not play it ("Fall 1901"), else ""
    deadline: str  # the table's own deadline line ("Deadline 10:21:30"), "" when none


def apart(hall: Screen, table: Screen, tz: tzinfo = UTC) -> Apart | None:
    """How ``table``'s screen differs from the hall's (``build`` for no table) at the same
    moment, or None where it shows the hall's clock (its late powers are its own business:
    only the clock counts here)."""
    h, t = hall.view, table.view
    if ((h.stage, h.phase, h.deadline, h.restart_at) == (t.stage, t.phase, t.deadline,
                                                          t.restart_at)
            and math.isclose(h.remaining, t.remaining, abs_tol=1e-6)):
        return None
    held = t.stage == "held"
    return Apart(
        stage=t.stage,
        held=held,
        reason=(t.pause.reason if t.pause else "") if held else "",
        restart=clock_text(t.restart_at, tz) if held and t.restart_at else "",
        extra=None if held else _extra(h, t),
        # the table's phase where the hall does not play it (a board clock's hall waits)
        phase=t.phase.title if t.phase is not None and (
            t.phase != h.phase or (h.stage == "adjudicating") != (t.stage == "adjudicating"))
        else "",
        deadline=table.deadline,
    )


def _extra(h: PhaseView, t: PhaseView) -> float | None:
    """The table's time to its deadline less the hall's to the same phase's deadline."""
    if t.phase is None or "adjudicating" in (h.stage, t.stage):
        return None  # a board on its own clock runs its own phases: no time to compare
    if t.phase == h.phase:
        return round(t.remaining - h.remaining, 3)
    if h.previous is not None and h.previous.ref == t.phase and t.deadline is not None:
        # the hall's deadline has passed, the table's not yet
        return round((t.deadline - h.previous.deadline).total_seconds(), 3)
    return None


def _grouped(lines: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """(who, what) pairs as each what with everyone it is said of, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for name, what in lines:
        groups.setdefault(what, []).append(name)
    return groups


def _late_notes(lines: list[tuple[str, str]], words: Words = ENGLISH) -> tuple[str, ...]:
    """"Italy +17 s, 2-unit NMR"; powers on the same count grouped ("5 powers +17 s, ...")."""
    return tuple(f"{_together(names, words)} {what}" for what, names in _grouped(lines).items())


def _together(names: Sequence[str], words: Words) -> str:
    """"Italy", "Italy and France", "5 powers"."""
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return words("{first} and {second}", first=names[0], second=names[1])
    return words.plural("{n} power", "{n} powers", len(names))


def late_summary(heading: Iterable[tuple[str, str]]) -> str:
    """The powers late now by the penalty each is heading for, one part per penalty, as
    the TD's grid tile says it: "A F G → Red card: all units hold; I → Yellow card"."""
    return "; ".join(f"{' '.join(powers)} → {label}"
                     for label, powers in _grouped(heading).items())


@dataclass(frozen=True)
class _Again:
    """What ``_banner`` needs to tell a repeat press what a press would count for later:
    the table's order presses, its clock's stops, and the venue's zone."""

    mine: Sequence[Press]
    stops: Sequence[Stop]
    tz: tzinfo
    words: Words = ENGLISH


def _repeat_words(press: Pressed, phases: Sequence[Phase], again: _Again) -> str:
    """For a press dropped as a repeat (within ``REPEAT`` of its power's last press) that
    leaves the power's orders for a phase still to come: what it was taken as, and from
    when a press counts for that phase, asked of ``dipclock.late`` itself. "" when it is
    no such press (a second press while in for the running phase is plainly "already in").

    A player who pressed just before a deadline and again just after is told the second
    press was the first one's repeat, not the next phase's orders: so a press meant for the
    next phase is not lost unseen (it once was, and its late count then took the player's
    next press, meant to confirm the result sheet, as late orders)."""
    before = [p for p in debounced(again.mine) if p.power == press.power and p.at <= press.at]
    earlier = [p for p in before if p.at < press.at]
    if not earlier or press.at - earlier[-1].at >= REPEAT:
        return ""
    taken = submissions(phases, before, stops=again.stops)
    running = next((p for p in phases if p.deadline > press.at), None)
    if taken and running is not None and taken[-1].phase == running.ref:
        return ""  # in for the running phase: a nervous second press, plainly "already in"
    when = press.at + REPEAT
    then = next((s for s in submissions(phases, [*before, Press(press.power, when)],
                                        stops=again.stops)
                 if s.power == press.power and s.at == when), None)
    if then is None:
        return ""
    words = again.words
    first = (words("already in for {phase}", phase=phase_words(taken[-1].phase, words))
             if taken else
             words("not counted, a second press within {seconds} s", seconds=REPEAT.seconds))
    return words("{first}; for {phase}, press again from {time}", first=first,
                 phase=phase_words(then.phase, words), time=clock_text(when, again.tz))


def _banner(
    press: Pressed,
    subs: dict[tuple[str, datetime], Submission],
    profile: EventProfile,
    phases: Sequence[Phase],
    out: Collection[str],
    players: Mapping[str, str],
    again: _Again,
) -> str:
    """What the last press did, in words: in, late and its cost, out, or why not counted."""
    words = again.words
    name = who(press.power, players, words)
    if press.kind == "hold":
        return (words("{power} is out of the game", power=name) if press.power in out
                else words("{power} is back in the game", power=name))
    sub = subs.get((press.power, press.at))
    if sub is None:  # the core gave the press no phase: say why
        repeat = _repeat_words(press, phases, again)
        if repeat:
            return f"{name}: {repeat}"
        reason = drop_reason(phases, press.at)
        return f"{name}: {words(DROPPED[reason])}"
    if sub.late:
        cost = penalty(profile.penalty, sub.seconds_late, sub.offence)
        late = words("+{seconds} s", seconds=started_seconds(sub.seconds_late))
        return f"{name} {late}, {in_sentence(cost.said(words), words)}"
    return words("{power}: orders in", power=name)


def _stage(
    v: PhaseView,
    warning_seconds: float,
    anyone_late: bool,
    title: str,
    opens: datetime,
    call: datetime | None,
    call_ends: CallEnds = "last_deadline",
    tz: tzinfo = UTC,
    words: Words = ENGLISH,
) -> tuple[Look, str, str, datetime | None, tuple[str, ...]]:
    """The look, the stage label, the big text, what it counts to, and the notes."""
    notes: list[str] = []
    if call is not None and v.phase is not None and v.last_counted is not None:
        # the TD has called the round: every table hears where its game will end
        ends = callwords.game_ends(v.last_counted, v.scoring_phase, call_ends, words=words)
        notes.append(words("Called for {time}: {ends}", time=clock_text(call, tz), ends=ends))
    if v.phase is not None:
        if v.final_year:
            notes.append(words("Final year"))
        if v.victory_centres:
            notes.append(words("{centres} centres to win in {year}",
                               centres=v.victory_centres, year=v.phase.year))
        if v.next_length_changes and v.next_phase and v.next_minutes:
            minutes = format(v.next_minutes, "g")
            notes.append(words("Next: {phase}, {minutes} min",
                               phase=phase_words(v.next_phase, words), minutes=minutes))
    big = duration_text(v.remaining)
    running = v.now + timedelta(seconds=v.remaining)  # the clock runs until then
    match v.stage:
        case "before_start":
            at = clock_text(opens, tz)
            label = (words("{title} starts at {time}", title=title, time=at) if title
                     else words("The round starts at {time}", time=at))
            return "before_start", label, big, running, ()
        case "paused":
            reason = (v.pause.reason if v.pause else "") or words("Break")
            if v.phase is not None:
                notes.insert(0, words("Then {phase}: {time} to the deadline",
                                      phase=phase_words(v.phase, words), time=big))
            if v.restart_at is None:
                return ("paused", words("{reason}: the clock is stopped", reason=reason),
                        words("Break"), None, tuple(notes))
            label = words("{reason}, clock restarts at {time}", reason=reason,
                          time=clock_text(v.restart_at, tz))
            to_go = duration_text((v.restart_at - v.now).total_seconds())
            return "paused", label, to_go, v.restart_at, tuple(notes)
        case "held":
            # the players at a held table ask why: the TD's reason is on their screen
            held_for = v.pause.reason if v.pause else ""
            label = (words("Table held by the TD: {reason}", reason=held_for) if held_for
                     else words("Table held by the TD"))
            if v.restart_at is not None:
                label = words("{held}, clock restarts at {time}", held=label,
                              time=clock_text(v.restart_at, tz))
            return "held", label, big, None, tuple(notes)
        case "game_over":
            over = words("Game over")
            if v.game_over_reason == "voted":  # the vote's result says which chart counts
                said = headline_words(v.voted, words) if v.voted else ""
                return "game_over", said or words("The game ended by vote"), over, None, ()
            counts = callwords.counts(v.scoring_phase, words)
            counted = v.scoring_phase is not None or v.last_counted or v.previous
            scoring = (counts[:1].upper() + counts[1:],) if counted else ()
            called = v.game_over_reason == "called" and call is not None
            if called and call is not None and v.now < call and call_ends != "last_fall":
                # no deadline is left before the call: boards finish, the call ends them
                label = words("No more deadlines: the round ends at {time}",
                              time=clock_text(call, tz))
                to_go = duration_text((call - v.now).total_seconds())
                return "game_over", label, to_go, call, scoring
            if called and v.last_counted is not None and call_ends == "last_fall":
                label = words("Round called: the game ended after {phase}",
                              phase=phase_words(v.last_counted, words))
            elif called:
                label = words("Round called: the game ends here")
            elif v.previous is not None:
                label = words("{phase} was the last deadline",
                              phase=phase_words(v.previous.ref, words))
            else:
                label = words("The game is over")
            return "game_over", label, over, None, scoring
        case "writing":
            return "writing", words("WRITING, silence"), big, running, tuple(notes)
        case "adjudicating":
            # a board clock: the next phase's whole length waits for the board
            label = (words("Adjudicating: {phase} starts when the board is ready",
                           phase=phase_words(v.phase, words)) if v.phase
                     else words("Adjudicating: The next phase starts when the board is ready"))
            return "adjudicating", label, big, None, (words(READY_HINT), *notes)
    if anyone_late:
        label = (words("{phase} deadline passed: orders late",
                       phase=phase_words(v.previous.ref, words)) if v.previous
                 else words("The deadline passed: orders late"))
        return "late", label, big, running, tuple(notes)
    if v.remaining <= warning_seconds:
        return "warning", words("Last minutes"), big, running, tuple(notes)
    return "negotiating", words("Negotiating"), big, running, tuple(notes)

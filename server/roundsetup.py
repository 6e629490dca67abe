"""Setting up a round, or correcting one: what it would do, said before it is done.

A round with button presses, rulings, a call or result sheets is a record
(``server.store.RoundRecord``): the store refuses to change its event, start or schedule
unless the TD reopens it on purpose. Before the TD says yes, ``preview`` answers with the
same core the change would run under: what every table would show at once, the questions
a TD must answer (a round under way that the tables would stop showing, a start in the
past), and for a reopened round everything that would move: deadlines, late rows, rulings
and scores. ``change`` is the round the store would keep; the route and the preview share
it, so what was previewed is what is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import NamedTuple

from dipclock.events import BUILTIN, EventProfile
from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.powers import POWERS
from dipclock.schedule import PhaseRef, Schedule
from dipclock.sentences import phase_of
from dipclock.timeline import timetable
from dipclock.venuetime import NoSuchTime, resolve, venue_naive
from server import actions
from server.context import Hub
from server.responses import JudgedItem, RoundPreview
from server.resultsdesk import Board, board_problem, board_result
from server.review import judge_table
from server.rounds import in_venue, round_profile, schedule_for, venue
from server.schemas import RoundSetup
from server.sheets import named
from server.store import RoundRow, takes_the_tables
from server.views import clock_model

#: A start further back than this is asked about: the tables would jump into the game (or
#: to its end) at once. A few minutes is a round set up just after its announced start.
PAST_GRACE = timedelta(minutes=5)
#: How many lines of each kind of move the preview lists before "and N more".
SHOWN = 6


@dataclass(frozen=True)
class Change:
    """A round setup as the store would keep it, and what the round was before."""

    row: RoundRow
    summary: str | Said
    stored: RoundRow | None
    record: str


def change(hub: Hub, body: RoundSetup, now: datetime, words: Words = ENGLISH) -> Change:
    """The round ``body`` sets up, under the event it would be played under (a record
    keeps its own unless the TD reopening it chose another); what the round holds in
    ``words``."""
    stored = hub.store.round(body.number)
    record = hub.store.record(stored) if stored is not None else None
    chosen = _chosen(hub, body.event) if body.event is not None else None
    done = actions.set_up_round(body, hub.store.event(), stored, now, bool(record), chosen)
    return Change(done.what, done.said, stored, record.text(words) if record else "")


DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def next_round(hub: Hub, now: datetime) -> tuple[int, datetime | None, bool]:
    """What the Set up form fills in: (number, start or None, correcting). The current
    round's number while it has not started and holds nothing played (the TD corrects
    it), else the one after the highest set up; its start where the event publishes the
    round's day and time (the next such moment on the venue's clock)."""
    cur = hub.store.current_round()
    if cur is not None and not actions.played(cur, now) and not hub.store.record(cur):
        return cur.number, cur.start, True
    numbers = [r.number for r in hub.store.rounds()]
    number = max(numbers, default=0) + 1
    event = hub.store.event()
    info = next((r for r in event.rounds if r.number == number), None) if event else None
    if event is None or info is None or info.start is None:
        return number, None, False
    tz = venue(event)
    local = venue_naive(now, tz)
    day = local.date()
    for _ in range(8):
        moment = datetime.combine(day, info.start)
        weekday = info.day.strip().lower()
        if moment > local and (weekday not in DAYS or DAYS[day.weekday()] == weekday):
            try:
                return number, resolve(moment, tz)[0], False
            except NoSuchTime:  # a start the clocks skip that night: the TD types one
                return number, None, False
        day += timedelta(days=1)
    return number, None, False


def _chosen(hub: Hub, event_id: str) -> EventProfile:
    """An event by id: a built-in, the one chosen now, or one a round was played under."""
    known: dict[str, EventProfile] = dict(BUILTIN)
    for rnd in hub.store.rounds():
        if rnd.profile is not None:
            known.setdefault(rnd.profile.id, rnd.profile)
    chosen_now = hub.store.event()
    if chosen_now is not None:
        known[chosen_now.id] = chosen_now
    if event_id not in known:
        raise actions.Refused(422, said("event: no event {event} here (one of {known})",
                                        event=repr(event_id), known=", ".join(sorted(known))))
    return known[event_id]


def preview(hub: Hub, body: RoundSetup, words: Words = ENGLISH) -> RoundPreview:
    """``RoundPreview``, its lines in ``words`` (the TD's phone's language)."""
    now = hub.clock.moment()
    done = change(hub, body, now, words)
    row, stored = done.row, done.stored
    profile = _profile(row)
    tz = venue(profile)
    schedule = _schedule(hub, row)
    unchanged = stored is not None and _same(stored, row)
    moves: list[str] = []
    if stored is not None and done.record and not unchanged:
        moves = what_moves(hub, stored, row, now, tz, words)
    cur = hub.store.current_round()
    stays = cur if cur is not None and not takes_the_tables(
        row.number, stored is not None, cur.number) else None
    stays_profile = round_profile(hub.store, stays) if stays is not None else None
    if stays is not None and stays_profile is not None:  # the tables play on as they do
        tables_round = stays.number
        tables_show = shows(stays_profile, schedule_for(hub.store, stays), now, words)
    else:
        tables_round, tables_show = row.number, shows(profile, schedule, now, words)
    return RoundPreview(
        round=row.number, new=stored is None, unchanged=unchanged, record=done.record,
        needs_reopen=bool(done.record) and not unchanged, tables_show=tables_show,
        tables_round=tables_round,
        questions=[] if unchanged or tables_round != row.number
        else questions(hub, row, stored, profile, schedule, now, tz, words),
        moves=moves, event=profile.name)


def _profile(row: RoundRow) -> EventProfile:
    assert row.profile is not None  # set_up_round always gives the round its event
    return in_venue(row.profile)


def _schedule(hub: Hub, row: RoundRow) -> Schedule:
    """The round's schedule as it would be: its breaks and extra time kept."""
    return schedule_for(hub.store, row)


def _same(a: RoundRow, b: RoundRow) -> bool:
    return (a.start, a.last_year, a.call, a.title, a.profile) == (
        b.start, b.last_year, b.call, b.title, b.profile)


def shows(profile: EventProfile, schedule: Schedule, now: datetime,
          words: Words = ENGLISH) -> str:
    """What every table's clock would show at ``now``, in a line (in ``words``)."""
    c = clock_model(profile, schedule, now, words)
    if not any(ch.isdigit() for ch in c.big):  # words ("Game over", "Break"): say them first
        return words("{big}: {label}", big=c.big, label=c.label) if c.label else c.big
    phase = c.phase if c.phase and c.phase not in c.label else ""
    return " · ".join(p for p in (c.label, phase, c.big, c.deadline) if p)


def questions(hub: Hub, row: RoundRow, stored: RoundRow | None, profile: EventProfile,
              schedule: Schedule, now: datetime, tz: tzinfo, words: Words = ENGLISH
              ) -> list[str]:
    """What the TD is asked before the round is set up as ``row`` (over ``stored``, if it
    is set up already), when the tables will play it: what they stop showing, and what
    they jump to when its start, new or moved, is long past. (A round the tables do not
    play, as an earlier one reopened, moves nothing on them: ``preview`` asks nothing.)"""
    out: list[str] = []
    cur = hub.store.current_round()
    if cur is not None and cur.number != row.number and actions.played(cur, now):
        cur_profile = round_profile(hub.store, cur)
        if cur_profile is not None:
            hall = clock_model(cur_profile, schedule_for(hub.store, cur), now, words)
            if hall.stage != "game_over":
                out.append(words("Round {number} is under way ({phase}, {clock} on the "
                                 "clock): every table stops showing it and shows round "
                                 "{new} instead.", number=cur.number,
                                 phase=hall.phase or hall.label, clock=hall.big,
                                 new=row.number))
    if row.start < now - PAST_GRACE and (stored is None or stored.start != row.start):
        start = venue_naive(row.start, tz).strftime("%Y-%m-%d %H:%M")
        out.append(words("The start, {start}, is {ago} in the past: every table jumps to "
                         "{shows}.", start=start, ago=_ago(now - row.start, words),
                         shows=shows(profile, schedule, now, words)))
    return out


def _ago(gap: timedelta, words: Words = ENGLISH) -> str:
    minutes = int(gap.total_seconds() // 60)
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    if days:
        return words.plural("{n} day {hours} h", "{n} days {hours} h", days, hours=hours)
    return words("{hours} h {minutes} min", hours=hours, minutes=mins) if hours \
        else words("{minutes} min", minutes=mins)


def what_moves(hub: Hub, old: RoundRow, new: RoundRow, now: datetime, tz: tzinfo,
               words: Words = ENGLISH) -> list[str]:
    """Everything played that reopening ``old`` as ``new`` would move: its deadlines, its
    late rows, the TD's rulings on them, and the scores of its sheets (in ``words``)."""
    old_p, new_p = _profile(old), _profile(new)
    old_s, new_s = _schedule(hub, old), _schedule(hub, new)
    out = _deadlines(old_p, old_s, new_p, new_s, tz, words)
    before, after = _late_rows(hub, old.number, old_p, old_s, now), _late_rows(
        hub, new.number, new_p, new_s, now)
    added = [after[k] for k in after if k not in before]
    gone = [before[k] for k in before if k not in after]
    changed = [(before[k], after[k]) for k in after if k in before
               and _gist(before[k]) != _gist(after[k])]
    if added:
        out.append(_listed(words.plural("{n} new late row", "{n} new late rows",
                                        len(added)), (_row(r, words) for r in added), words))
    if gone:
        out.append(_listed(words.plural("{n} late row would go", "{n} late rows would go",
                                        len(gone)), (_row(r, words) for r in gone), words))
    if changed:
        out.append(_listed(words.plural("{n} late row would change",
                                        "{n} late rows would change", len(changed)),
                           (words("{row} (was {before})", row=_row(a, words),
                                  before=_gist_text(b, words)) for b, a in changed), words))
    decided = hub.store.decisions()

    def ruled(k: Key) -> bool:
        return (old.number, *k) in decided

    lost = [_where(before[k], words) for k in before if k not in after and ruled(k)]
    moved = [_where(after[k], words) for k in after
             if k in before and _gist(before[k]) != _gist(after[k]) and ruled(k)]
    if lost:
        out.append(_listed(words.plural("{n} ruling would lose the late row ruled on",
                                        "{n} rulings would lose the late row ruled on",
                                        len(lost)), lost, words))
    if moved:
        out.append(_listed(words.plural("{n} ruling would stand on a changed late row",
                                        "{n} rulings would stand on a changed late row",
                                        len(moved)), moved, words))
    out += _scores(hub, Board(old, old_p, old_s), Board(new, new_p, new_s), words)
    return out


def _deadlines(old_p: EventProfile, old_s: Schedule, new_p: EventProfile, new_s: Schedule,
               tz: tzinfo, words: Words = ENGLISH) -> list[str]:
    def named(ref: PhaseRef) -> str:
        return words.phase(ref.year, ref.season)

    def hms(moment: datetime) -> str:
        return venue_naive(moment, tz).strftime("%H:%M:%S")

    was = {p.ref.code: (p.ref, p.deadline) for p in timetable(old_p, old_s).phases}
    will = {p.ref.code: (p.ref, p.deadline) for p in timetable(new_p, new_s).phases}
    lines = [words("{phase} {before} → {after}", phase=named(was[c][0]),
                   before=hms(was[c][1]), after=hms(will[c][1]))
             for c in was if c in will and was[c][1] != will[c][1]]
    lines += [words("{phase} no longer played", phase=named(was[c][0]))
              for c in was if c not in will]
    lines += [words("{phase} added", phase=named(will[c][0])) for c in will if c not in was]
    if not lines:
        return []
    return [_listed(words.plural("{n} deadline would move", "{n} deadlines would move",
                                 len(lines)), lines, words)]


Key = tuple[int, str, str]  # (table, power letter, phase code)


class LateRow(NamedTuple):
    """A judged late row with its table (the item does not name it)."""

    table: int
    item: JudgedItem


def _late_rows(hub: Hub, number: int, profile: EventProfile, schedule: Schedule,
               now: datetime) -> dict[Key, LateRow]:
    """Every late row and missed phase of the round under ``profile`` and ``schedule``,
    judged afresh from its presses (nothing of it is kept: it is a what-if)."""
    units = {(u.table, u.power, u.phase): u.units for u in hub.store.units(number)}
    out: dict[Key, LateRow] = {}
    for n, rev in sorted(hub.store.table_revs(number).items()):
        judged = judge_table(hub, number, n, rev, profile, schedule, now, units)
        for item in judged.items:
            out[(n, item.power, item.phase)] = LateRow(n, item)
    return out


def _gist(row: LateRow) -> tuple[object, ...]:
    return (row.item.kind, row.item.started_second, row.item.proposed.text)


def _gist_text(row: LateRow, words: Words = ENGLISH) -> str:
    proposed = row.item.proposed
    penalty = proposed.said.get(words.lang) or proposed.text
    if row.item.kind == "missed":
        return words("missed: {penalty}", penalty=penalty)
    return words("{seconds} s late: {penalty}", seconds=row.item.started_second,
                 penalty=penalty)


def _where(row: LateRow, words: Words = ENGLISH) -> str:
    return words("table {table} {power} {phase}", table=row.table,
                 power=words.power(row.item.power), phase=phase_of(row.item.phase).in_(words))


def _row(row: LateRow, words: Words = ENGLISH) -> str:
    return words("{where}, {what}", where=_where(row, words), what=_gist_text(row, words))


def _scores(hub: Hub, old: Board, new: Board, words: Words = ENGLISH) -> list[str]:
    """Each sheet whose scores, or whether it can be scored, the round's new rules or its
    new end would change, player by player (in ``words``)."""
    seats = {(s.table, s.power): s.player for s in hub.store.seating(old.rnd.number)}
    lines = []
    for sheet in hub.store.sheets(old.rnd.number):
        refused = board_problem(new, sheet.table, sheet.body, words)
        if refused != board_problem(old, sheet.table, sheet.body, words):
            lines.append(words("table {table}'s sheet: could no longer be scored ({why})",
                               table=sheet.table, why=refused) if refused else
                         words("table {table}'s sheet: could be scored again",
                               table=sheet.table))
            continue
        if refused:
            continue
        was = named(board_result(old, sheet.table, sheet.body).scores)
        will = named(board_result(new, sheet.table, sheet.body).scores)
        for letter, name in POWERS.items():
            if was.get(name) != will.get(name):
                power = words.power(letter)
                who = seats.get((sheet.table, letter), power)
                lines.append(words("table {table} {who} ({power}) {before} → {after}",
                                   table=sheet.table, who=who, power=power,
                                   before=format(was.get(name, 0), ".2f"),
                                   after=format(will.get(name, 0), ".2f")))
    if not lines:
        return []
    return [_listed(words.plural("{n} score would change", "{n} scores would change",
                                 len(lines)), lines, words)]


def _listed(head: str, lines: Iterable[str], words: Words = ENGLISH) -> str:
    items = list(lines)
    shown = "; ".join(items[:SHOWN])
    if len(items) > SHOWN:
        shown = words.plural("{lines}; and {n} more", "{lines}; and {n} more",
                             len(items) - SHOWN, lines=shown)
    return words("{head}: {lines}", head=head, lines=shown)

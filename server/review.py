"""Late submissions for the TD to rule on: ``late.submissions`` + ``penalties.penalty``.

Phases a power never pressed for (``late.missed``: the late window closed with no press)
are listed too, on tables whose buttons are in use: either the orders never went in or
the button was forgotten, and only the TD can tell which. Their proposal is the event's
penalty for orders later than the window.

The proposal is always the event's model applied by the core; the TD's decision (confirm,
waive, change with a note) is stored beside it, never instead of it, so the CSV shows both.
"""

from __future__ import annotations

import csv
import hashlib
import io
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

import dipclock
from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, LANGUAGES, Words
from dipclock.late import judged_until, missed_to_judge, orders, submissions
from dipclock.penalties import Penalty, penalty, started_seconds
from dipclock.powers import POWERS
from dipclock.provinces import UnknownUnit
from dipclock.schedule import PhaseRef, Schedule
from dipclock.sentences import phase_of
from dipclock.venuetime import zone
from machine.storage import is_disk_full
from server.context import Hub
from server.csvcells import cell
from server.history import Judged
from server.responses import JudgedItem, LateSubmission, ProposedPenalty
from server.rounds import round_profile, schedule_for, table_clocks
from server.views import iso

COLUMNS = (
    "round", "table", "power", "phase", "kind", "deadline", "pressed_at", "seconds_late",
    "started_second", "offence", "proposed", "decision", "final", "note", "decided_at",
    "player", "units",
    # last, so a reader of the columns above by position still finds them: the seconds the
    # table's clock stood still between the deadline and a late press (seconds_late is
    # pressed_at - deadline - paused_seconds), and the deadline as it was before a break or
    # hold moved it (empty where none did)
    "paused_seconds", "deadline_before_pauses",
)


def late_submissions(hub: Hub, round_no: int | None = None,
                     words: Words = ENGLISH) -> list[LateSubmission]:
    """Every late submission and missed phase of every round (or of ``round_no``), with
    the player, the TD's decision and the deadline on the venue's clock. The judged items
    are kept as JSON (``Store.keep_judged``); the reply is built from them here, the
    powers named in ``words``' language (the dashboard's phone's; the CSV's: English)."""
    decisions = hub.store.decisions()
    seats = {(s.round, s.table, s.power): s.player for s in hub.store.seating(round_no)}
    out: list[LateSubmission] = []
    for j in judged(hub, round_no):
        rnd, n, item = j.round, j.table, j.item
        d = decisions.get((rnd, n, item.power, item.phase))
        row = LateSubmission(
            round=rnd, table=n, power=item.power, power_name=words.power(item.power),
            phase=item.phase, kind=item.kind, deadline=item.deadline,
            pressed_at=item.pressed_at, seconds_late=item.seconds_late,
            started_second=item.started_second, offence=item.offence,
            proposed=item.proposed,
            decision=d.decision if d else None,
            final=d.final if d else None,
            note=d.note if d else "",
            decided_at=iso(d.at, zone(j.timezone)) if d else None,
            player=seats.get((rnd, n, item.power), ""),
            units=item.units, deadline_before_pauses=item.deadline_before_pauses,
            proposed_said=item.proposed.said.get(words.lang) or item.proposed.text
            or item.proposed.label, phase_said=phase_of(item.phase).in_(words),
        )
        if item.kind == "late":  # a missed phase's reply has neither key (as it never had)
            row.units_asked, row.paused_seconds = item.units_asked, item.paused_seconds
        out.append(row)
    out.sort(key=lambda r: (r.round, r.pressed_at or r.deadline or "", r.table))
    return out


def undecided(hub: Hub) -> dict[int, int]:
    """Each round's count of late orders and missed phases the TD has not ruled on (the
    dashboard's every poll: the tables' judgments are counted as they are kept, with no
    row made of each)."""
    decided = hub.store.decisions()
    counts: dict[int, int] = {}
    for rnd, n, _, items in judged_tables(hub):
        left = sum((rnd, n, item.power, item.phase) not in decided for item in items)
        if left:
            counts[rnd] = counts.get(rnd, 0) + left
    return counts


class Item(NamedTuple):
    """One late submission or missed phase, judged, before the TD's decision is added."""

    round: int
    table: int
    timezone: str | None
    item: JudgedItem


def judged(hub: Hub, round_no: int | None = None) -> list[Item]:
    """Each late submission and missed phase, each table judged
    again only when it could have changed (``server.history.Judgments``).

    Each round is judged by the event profile stored with it (``Store.set_round``).
    """
    return [Item(rnd, n, tz, item) for rnd, n, tz, items in judged_tables(hub, round_no)
            for item in items]


def judged_tables(hub: Hub, round_no: int | None = None
                  ) -> list[tuple[int, int, str | None, Sequence[JudgedItem]]]:
    """``judged``'s items table by table: (round, table, the round's time zone, items)."""
    now = hub.clock.moment()
    out: list[tuple[int, int, str | None, Sequence[JudgedItem]]] = []
    final: list[tuple[int, int, int, str, list[dict[str, object]]]] = []
    for rnd in hub.store.rounds():
        if round_no is not None and rnd.number != round_no:
            continue
        found = round_profile(hub.store, rnd)  # the round's own rules, not today's event
        if found is None:
            continue
        profile, schedule = hub.judgments.same(rnd.number, found, schedule_for(hub.store, rnd))
        units: dict[tuple[int, str, str], tuple[str, ...]] | None = None
        kept: dict[int, tuple[int, str, list[dict[str, object]]]] | None = None
        basis = ""
        for n, rev in sorted(hub.store.table_revs(rnd.number).items()):
            j = hub.judgments.get(rnd.number, n, rev, profile, schedule, now)
            if j is None:
                if kept is None:  # the first table to judge in this round since the start
                    kept, basis = hub.store.judged(rnd.number), basis_of(profile, schedule)
                    units = {(u.table, u.power, u.phase): u.units
                             for u in hub.store.units(rnd.number)}
                saved = kept.get(n)
                if saved is not None and saved[:2] == (rev, basis):
                    j = Judged(rev, profile, schedule, None, kept_items(saved[2]))
                else:
                    j = judge_table(hub, rnd.number, n, rev, profile, schedule, now, units or {})
                    if j.until is None:
                        final.append((rnd.number, n, rev, basis, [
                            i.model_dump(mode="json", exclude_unset=True) for i in j.items]))
                hub.judgments.keep(rnd.number, n, j)
            out.append((rnd.number, n, profile.timezone, j.items))
    if final:
        try:
            hub.store.keep_judged(final)
        except sqlite3.OperationalError as exc:  # a cache: on a full disk, kept in memory
            if not is_disk_full(exc):             # (``hub.judgments``) and written later
                raise
    return out


def basis_of(profile: EventProfile, schedule: Schedule) -> str:
    """What a final judgment was made under besides the table's presses: the round's rules
    and schedule, and the core's code (a hub upgraded since judges again)."""
    text = profile.model_dump_json() + schedule.model_dump_json() + _CORE
    return hashlib.sha256(text.encode()).hexdigest()


def _core_digest() -> str:
    """The core's source, hashed once: the judging lives there."""
    digest = hashlib.sha256()
    for path in sorted(Path(dipclock.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


_CORE = _core_digest()


def judge_table(
    hub: Hub, round_no: int, n: int, rev: int, profile: EventProfile, schedule: Schedule,
    now: datetime, units: dict[tuple[int, str, str], tuple[str, ...]],
) -> Judged:
    """Table ``n``'s late submissions and missed phases in the round, from its presses."""
    tz = zone(profile.timezone)  # times on the venue's clock, as the TD reads them
    mine = hub.store.presses(round_no, n)
    built = table_clocks(profile, schedule, [n])[n]
    phases, stops = built.phases, built.stops  # a break or hold stops late counts and windows
    deadlines = {ph.ref: ph.deadline for ph in phases}
    before = _deadlines_before_pauses(profile, schedule, n, deadlines)
    items: list[JudgedItem] = []
    for s in submissions(phases, orders(mine), stops=stops):
        if s.late:
            given = units.get((n, s.power, s.phase.code))
            cost = _cost(profile, s.seconds_late, s.offence, given)
            items.append(JudgedItem(
                power=s.power, power_name=POWERS[s.power], phase=s.phase.code, kind="late",
                deadline=iso(deadlines.get(s.phase), tz), pressed_at=iso(s.at, tz),
                seconds_late=round(s.seconds_late, 3),
                started_second=started_seconds(s.seconds_late), offence=s.offence,
                proposed=_proposed(cost), units=list(given or ()),
                units_asked=cost.asks_units, paused_seconds=round(s.paused_seconds, 3),
                deadline_before_pauses=iso(before.get(s.phase), tz),
            ))
    for m in missed_to_judge(phases, now, mine, profile.penalty, schedule.start,
                             board=not profile.central_clock, stops=stops):
        # no orders came, so none are deleted: the units name nothing here
        items.append(JudgedItem(
            power=m.power, power_name=POWERS[m.power], phase=m.phase.code, kind="missed",
            deadline=iso(deadlines.get(m.phase), tz), pressed_at=None, seconds_late=None,
            started_second=None, offence=m.offence,
            proposed=_proposed(m.proposed.no_orders()), units=[],
            deadline_before_pauses=iso(before.get(m.phase), tz),
        ))
    return Judged(rev, profile, schedule, judged_until(phases, now, stops=stops),
                  tuple(items))


def kept_items(saved: Sequence[dict[str, object]]) -> tuple[JudgedItem, ...]:
    """Judged items as ``Store.keep_judged`` kept them (JSON, with only the keys each was
    built with), read back as they were built."""
    return tuple(JudgedItem.model_validate(item) for item in saved)


def _deadlines_before_pauses(
    profile: EventProfile, schedule: Schedule, n: int, deadlines: dict[PhaseRef, datetime],
) -> dict[PhaseRef, datetime]:
    """Each deadline of table ``n`` that a break or hold moved, as it was without them
    (the same clock with no pauses): the penalties CSV shows both, so the move is seen."""
    if not schedule.pauses:
        return {}
    plain = table_clocks(profile, schedule.model_copy(update={"pauses": ()}), [n])[n]
    return {p.ref: p.deadline for p in plain.all_phases
            if p.ref in deadlines and p.deadline != deadlines[p.ref]}


def _cost(
    profile: EventProfile, seconds_late: float, offence: int, units: Sequence[str] | None
) -> Penalty:
    """The proposal, naming the deleted orders when the units given are on the map (units
    stored before the hub checked them may not be: the proposal then names none)."""
    try:
        return penalty(profile.penalty, seconds_late, offence, units)
    except UnknownUnit:
        return penalty(profile.penalty, seconds_late, offence)


def _proposed(cost: Penalty) -> ProposedPenalty:
    """The proposal, with its text: the label and, once the power's units are entered, the
    orders it deletes ("2-unit NMR: delete A Bud, A Vie"). ``deleted_orders`` is set only
    by the models that delete orders (``Penalty.as_json``): the key is absent otherwise."""
    out = ProposedPenalty(kind=cost.kind, all_units_hold=cost.all_units_hold,
                          units_deleted=cost.units_deleted, label=cost.label, text=cost.text,
                          said={lang: cost.told(Words(lang)) for lang in LANGUAGES})
    if cost.deleted_orders is not None:
        out.deleted_orders = list(cost.deleted_orders)
    return out


def as_csv(rows: list[LateSubmission]) -> str:
    """The review as CSV: ``proposed`` is the proposal's text (naming the orders to delete
    once the units are entered), ``units`` the units the TD gave, comma-separated."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(COLUMNS)
    for r in rows:
        flat = r.model_dump() | {"proposed": r.proposed.text, "units": ", ".join(r.units)}
        w.writerow([cell(flat[c]) for c in COLUMNS])
    return buf.getvalue()

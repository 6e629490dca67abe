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
import io
from collections.abc import Sequence
from typing import Any

from dipclock.events import EventProfile
from dipclock.late import missed_to_judge, submissions
from dipclock.penalties import Penalty, penalty, started_seconds
from dipclock.powers import POWERS
from dipclock.provinces import UnknownUnit
from dipclock.venuetime import zone
from server.context import Hub
from server.rounds import core_presses, round_profile, schedule_for, table_phases
from server.views import iso

COLUMNS = (
    "round", "table", "power", "phase", "kind", "deadline", "pressed_at", "seconds_late",
    "started_second", "offence", "proposed", "decision", "final", "note", "decided_at",
    "player", "units",
)


def late_submissions(hub: Hub, round_no: int | None = None) -> list[dict[str, Any]]:
    """Every late submission and missed phase of every round (or of ``round_no``).

    Each round is judged by the event profile stored with it (``Store.set_round``).
    """
    decisions = hub.store.decisions()
    seats = {(s.round, s.table, s.power): s.player for s in hub.store.seating(round_no)}
    units = {(u.round, u.table, u.power, u.phase): u.units for u in hub.store.units(round_no)}
    now = hub.clock.moment()
    out: list[dict[str, Any]] = []
    for rnd in hub.store.rounds():
        if round_no is not None and rnd.number != round_no:
            continue
        profile = round_profile(hub.store, rnd)  # the round's own rules, not today's event
        if profile is None:
            continue
        schedule = schedule_for(hub.store, rnd)
        tz = zone(profile.timezone)  # times on the venue's clock, as the TD reads them
        presses = hub.store.presses(rnd.number)
        tables = sorted({p.table for p in presses})
        phases = table_phases(profile, schedule, tables)
        for n in tables:
            mine = [p for p in presses if p.table == n]
            orders = core_presses(mine)
            deadlines = {ph.ref: ph.deadline for ph in phases[n]}
            subs = submissions(phases[n], orders)
            items: list[dict[str, Any]] = []
            for s in subs:
                if s.late:
                    given = units.get((rnd.number, n, s.power, s.phase.code))
                    cost = _cost(profile, s.seconds_late, s.offence, given)
                    items.append({
                        "power": s.power, "phase": s.phase, "kind": "late",
                        "pressed_at": iso(s.at, tz), "seconds_late": round(s.seconds_late, 3),
                        "started_second": started_seconds(s.seconds_late), "offence": s.offence,
                        "proposed": _proposed(cost), "units": list(given or ()),
                    })
            for m in missed_to_judge(phases[n], now, mine, profile.penalty, schedule.start,
                                     board=not profile.central_clock):
                # no orders came, so none are deleted: the units name nothing here
                items.append({
                    "power": m.power, "phase": m.phase, "kind": "missed", "pressed_at": None,
                    "seconds_late": None, "started_second": None, "offence": m.offence,
                    "proposed": _proposed(m.proposed.no_orders()), "units": [],
                })
            for item in items:
                d = decisions.get((rnd.number, n, item["power"], item["phase"].code))
                out.append(item | {
                    "round": rnd.number,
                    "table": n,
                    "power_name": POWERS[item["power"]],
                    "phase": item["phase"].code,
                    "deadline": iso(deadlines.get(item["phase"]), tz),
                    "decision": d.decision if d else None,
                    "final": d.final if d else None,
                    "note": d.note if d else "",
                    "decided_at": iso(d.at, tz) if d else None,
                    "player": seats.get((rnd.number, n, item["power"]), ""),
                })
    out.sort(key=lambda r: (r["round"], r["pressed_at"] or r["deadline"] or "", r["table"]))
    return out


def _cost(
    profile: EventProfile, seconds_late: float, offence: int, units: Sequence[str] | None
) -> Penalty:
    """The proposal, naming the deleted orders when the units given are on the map (units
    stored before the hub checked them may not be: the proposal then names none)."""
    try:
        return penalty(profile.penalty, seconds_late, offence, units)
    except UnknownUnit:
        return penalty(profile.penalty, seconds_late, offence)


def _proposed(cost: Penalty) -> dict[str, object]:
    """The proposal as JSON, with its text: the label and, once the power's units are
    entered, the orders it deletes ("2-unit NMR: delete A Bud, A Vie")."""
    return cost.as_json() | {"text": cost.text}


def as_csv(rows: list[dict[str, Any]]) -> str:
    """The review as CSV: ``proposed`` is the proposal's text (naming the orders to delete
    once the units are entered), ``units`` the units the TD gave, comma-separated."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(COLUMNS)
    for r in rows:
        flat = r | {"proposed": r["proposed"]["text"], "units": ", ".join(r["units"])}
        w.writerow([_cell(flat[c]) for c in COLUMNS])
    return buf.getvalue()


def _cell(value: object) -> object:
    """Free text that a spreadsheet would run as a formula is quoted (CSV injection)."""
    if value is None:
        return ""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value

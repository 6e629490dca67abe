"""The TD's live grid: one row per table, from ``dipclock.phaseview.view`` and ``late.board``,
with what the table's kiosk says about itself (the hall of Pis: ``server.kiosks``).

Each tile's clock is that table's own screen (``dipclock.screen.build`` with its number and
its presses: what its kiosk shows), with the table's own extra time and holds beside it, so
a table given +90 s or held for a ruling never reads like every other table. The hall page
lists the same tables under the hall's clock (``apart``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from dipclock import screen
from dipclock.i18n import Words, words_of
from dipclock.late import orders, powers_out
from dipclock.penalties import started_seconds
from dipclock.timeline import break_state
from dipclock.venuetime import zone
from server import presslimit
from server.context import Hub
from server.kiosks import REPORT_SECONDS, TableStatus
from server.responses import (
    ApartJson,
    Claim,
    KioskReport,
    OwnAdjustment,
    OwnHold,
    PowerTile,
    TableRow,
    TileView,
)
from server.rounds import Current, own_tables
from server.store import PressRow
from server.views import iso, screen_json


def kiosk_json(status: TableStatus | None, mono: float) -> KioskReport | None:
    """The table's kiosk as it last described itself; uptime counted on to now while it
    still reports (a kiosk gone quiet may have restarted since)."""
    k = status.latest() if status else None
    if k is None:
        return None
    age = mono - k.reported
    return KioskReport(**k.info.model_dump() | {
        "address": k.address,
        "uptime": round(k.info.uptime + (age if age <= REPORT_SECONDS else 0)),
        "reported_ago": round(age, 1),
    })


def apart(cur: Current, now: datetime, tables: Iterable[int]) -> list[ApartJson]:
    """The tables whose clock is not the hall's at ``now`` (``dipclock.screen.apart``: each
    table's own screen against the hall's), for the hall page to list under its clock. A
    table with no hold, adjustment or board start of its own shows the hall's clock: no
    screen is built for it."""
    tz = zone(cur.profile.timezone)
    hall = screen.build(cur.profile, cur.schedule, now, buttons=False)
    own = own_tables(cur.schedule)
    out = []
    for n in tables:
        if n not in own:
            continue
        mine = screen.build(cur.profile, cur.schedule, now, table=n, buttons=False)
        differs = screen.apart(hall, mine, tz)
        if differs is not None:
            out.append(ApartJson(
                table=n, stage=differs.stage, held=differs.held, reason=differs.reason,
                restart=differs.restart, extra=differs.extra, phase=differs.phase,
                deadline=differs.deadline))
    return out


def own_changes(cur: Current, now: datetime, table: int
                ) -> tuple[list[OwnAdjustment], list[OwnHold]]:
    """What the TD did to this table alone: its extra time and its holds not yet over."""
    tz = zone(cur.profile.timezone)
    return (
        [OwnAdjustment(seconds=a.seconds, at=iso(a.at, tz))
         for a in cur.schedule.adjustments if a.table == table],
        [OwnHold(id=i, reason=p.reason, state=state, at=iso(p.at, tz),
                 until=iso(p.until, tz), minutes=p.minutes)
         for i, p in cur.pauses
         if p.table == table
         and (state := break_state(cur.profile, cur.schedule, p, now)) != "over"],
    )


def grid(hub: Hub, cur: Current | None, words: Words | None = None) -> list[TableRow]:
    """Each table's tile; its clock in ``words`` (the TD's phone's language), else the
    event's."""
    tables = hub.store.tables()
    mono = hub.clock.mono()
    rows: dict[int, tuple[PressRow, ...]] = {}
    if cur is not None:
        rows = hub.book.rows(hub.store, cur.round.number, tables)
    now = hub.clock.moment()
    out = []
    for n in tables:
        status = hub.table_status(n)
        seen = status.seen if status else None
        row = TableRow(
            table=n,
            connected=hub.fanout.count(n) > 0
            or (seen is not None and mono - seen <= hub.settings.online_seconds),
            sockets=hub.fanout.count(n),
            offset=status.offset if status else None,
            rtt=status.rtt if status else None,
            seen_ago=None if seen is None else round(mono - seen, 1),
            kiosk=kiosk_json(status, mono),
            claims=[Claim(**c) for c in hub.claims(n)],
        )
        if cur is not None:
            presses = rows.get(n, ())
            gone = powers_out(cur.profile, presses, cur.schedule.start)
            # the table's own screen, built once: the tile, its clock and its powers are
            # what the table shows (its board's own starts, for a board clock, included)
            shown = screen.build(cur.profile, cur.schedule, now, orders(presses), gone,
                                 table=n, words=words or words_of(cur.profile))
            v, powers = shown.view, shown.powers
            row.view = TileView(  # the few fields a tile shows: the grid is polled every 2 s
                stage=v.stage,
                phase=v.phase.code if v.phase else None,
                remaining=round(v.remaining, 1),
                deadline=iso(v.deadline, zone(cur.profile.timezone)),
            )
            row.clock = screen_json(shown, now, zone(cur.profile.timezone))
            row.adjustments, row.holds = own_changes(cur, now, n)
            row.powers = [
                PowerTile.model_validate({
                    "power": s.power,
                    "out": s.out,
                    "in": s.in_now,
                    # started seconds, the core's count: 15.2 s late is "+16"
                    "late": started_seconds(s.late_seconds) if s.late_seconds is not None
                    else None,
                    "heading_for": s.heading_for.label if s.heading_for else None,
                    "last_late": s.last_late.seconds_late if s.last_late else None,
                })
                for s in powers.values()
            ]
            late = [(s.power, s.heading_for.label if s.heading_for else "")
                    for s in powers.values() if s.late_seconds is not None and not s.out]
            row.late_note = screen.late_summary(late) if late else None
            row.press_note = presslimit.grid_note(
                presses, status.refusals if status else None, zone(cur.profile.timezone), now)
        out.append(row)
    return out

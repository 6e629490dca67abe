"""The round as the core sees it: the stored rows turned into a ``dipclock.schedule.Schedule``.

Bookkeeping only. Every deadline, stage and lateness comes from ``dipclock.timeline`` and
``dipclock.late`` with the schedule built here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import cache, lru_cache

from dipclock.boardclock import with_board_starts
from dipclock.eventfiles import machine_zone
from dipclock.events import EventProfile
from dipclock.schedule import Pause, Schedule, VotedEnd
from dipclock.stamps import round_over
from dipclock.timeline import TableClock, table_clock
from dipclock.venuetime import zone
from server.store import PressRow, RoundRow, Store, VoteRow


@dataclass(frozen=True)
class Current:
    """The event and the round every table plays now."""

    profile: EventProfile
    round: RoundRow
    schedule: Schedule
    pauses: list[tuple[int, Pause]]


def current(store: Store) -> Current | None:
    rnd = store.current_round()
    if rnd is None:
        return None
    profile = round_profile(store, rnd)
    if profile is None:
        return None
    pauses = store.pauses(rnd.number)
    return Current(profile, rnd, schedule_for(store, rnd, pauses), pauses)


def round_profile(store: Store, rnd: RoundRow) -> EventProfile | None:
    """The rules ``rnd`` is played and judged under: the profile stored with the round, in
    the venue's zone (``in_venue``)."""
    profile = rnd.profile if rnd.profile is not None else store.event()
    return in_venue(profile) if profile is not None else None


@cache
def hub_zone() -> str:
    """The hub machine's zone: the venue's, for an event that names none."""
    return machine_zone()


@lru_cache(maxsize=64)
def in_venue(profile: EventProfile) -> EventProfile:
    """``profile`` with its time zone said: its own, else the hub machine's. Kiosks get it
    in the snapshot, so a table shows the venue's time whatever its own Pi's zone. Cached:
    the same profile object each time, so the built clocks' cache finds it at once."""
    if profile.timezone is not None:
        return profile
    return profile.model_copy(update={"timezone": hub_zone()})


def venue(profile: EventProfile | None) -> tzinfo:
    """The zone the TD types and reads times in."""
    return zone(profile.timezone if profile and profile.timezone else hub_zone())


def hall_venue(store: Store, cur: Current | None) -> tzinfo:
    """The venue's zone now: the current round's event's (``cur``, as read), else the
    chosen event's."""
    return venue(cur.profile if cur is not None else store.event())


def round_for(rounds: Iterable[RoundRow], at: datetime, fallback: RoundRow) -> RoundRow:
    """The round a press stamped ``at`` belongs to: the latest start at or before ``at``.

    A kiosk offline across a round change uploads the old round's presses late; they
    belong to the round they were made in, not to the one set up since. With no round
    started by ``at`` (a button test before the first round), ``fallback`` (the current),
    whose start the press is then before (``dipclock.stamps``: refused).
    """
    best: RoundRow | None = None
    for r in rounds:
        if r.start <= at and (
            best is None
            or r.start > best.start
            or (r.start == best.start and r.number == fallback.number)
        ):
            best = r
    return best or fallback


def over_on(store: Store, rnd: RoundRow, table: int, cur: Current) -> datetime | None:
    """When round ``rnd`` is over on ``table`` (``dipclock.stamps.round_over``): a press
    stamped after it is no press of that round. The current round as ``cur`` read it."""
    if rnd.number == cur.round.number:
        profile, schedule = cur.profile, cur.schedule
    else:
        found = round_profile(store, rnd)
        if found is None:
            return None
        profile, schedule = found, schedule_for(store, rnd)
    return round_over(table_clock(profile, schedule, table=table))


def following(rounds: Iterable[RoundRow], rnd: RoundRow) -> RoundRow | None:
    """The round that starts next after ``rnd`` (None: none is set up)."""
    later = [r for r in rounds if r.start > rnd.start]
    return min(later, key=lambda r: (r.start, r.number), default=None)


def schedule_for(
    store: Store, rnd: RoundRow, pauses: list[tuple[int, Pause]] | None = None
) -> Schedule:
    pauses = store.pauses(rnd.number) if pauses is None else pauses
    schedule = Schedule(
        start=rnd.start,
        last_year=rnd.last_year,
        call=rnd.call,
        pauses=tuple(p for _, p in pauses),
        adjustments=tuple(a for _, a in store.adjustments(rnd.number)),
        title=rnd.title,
    )
    profile = round_profile(store, rnd)
    schedule = with_votes(schedule, store.votes(rnd.number), profile)
    if profile is not None and not profile.central_clock:
        # board clocks: each table's ready signals, read from its holds as its kiosk does
        by_table: dict[int, list[PressRow]] = {}
        for row in store.holds(rnd.number):
            by_table.setdefault(row.table, []).append(row)
        for table, rows in sorted(by_table.items()):
            schedule = with_board_starts(schedule, rows, table)
    return schedule


def with_votes(schedule: Schedule, votes: Iterable[VoteRow],
               profile: EventProfile | None) -> Schedule:
    """``schedule`` with what the round's game-end votes did to its tables' clocks: each
    passed vote that stands ends its table's game when it closed (``VotedEnd``, its
    headline on the screen), and where the event stops a board's clock for a vote
    (``VoteRules.clock_stops``, board clocks only) the table is held while its ballot is
    open. Kept in the votes' own rows and added here, where every schedule of the round
    is built (the snapshots, the sheets, the review), rather than copied into the round's
    row: an undo is then one row's change, and no schedule can disagree with the votes."""
    ends: list[VotedEnd] = []
    holds: list[Pause] = []
    stops = profile is not None and profile.votes.clock_stops and not profile.central_clock
    for v in votes:
        if v.state == "passed" and v.undone_at is None and v.closed_at is not None:
            ends.append(VotedEnd(at=v.closed_at, table=v.table, headline=v.headline))
        if stops and v.opened_at is not None:
            holds.append(Pause(at=v.opened_at, ended=v.closed_at, table=v.table,
                               reason="vote"))
    if not ends and not holds:
        return schedule
    return schedule.model_copy(update={"ends": (*schedule.ends, *ends),
                                       "pauses": (*schedule.pauses, *holds)})


def own_tables(schedule: Schedule) -> set[int | None]:
    """The tables with a hold, an adjustment or a board start of their own: any other
    table's clock is the hall's (``table`` None) to the microsecond."""
    return ({p.table for p in schedule.pauses} | {a.table for a in schedule.adjustments}
            | {s.table for s in schedule.board_starts} | {e.table for e in schedule.ends})


def table_clocks(
    profile: EventProfile, schedule: Schedule, tables: Iterable[int]
) -> dict[int, TableClock]:
    """Each table's built clock (its deadlines, and the breaks and holds that stop its late
    counts); tables with no hold, adjustment or board start of their own share one."""
    own = own_tables(schedule)
    shared: TableClock | None = None
    out = {}
    for n in tables:
        if n in own:
            out[n] = table_clock(profile, schedule, table=n)
        else:
            if shared is None:
                shared = table_clock(profile, schedule)
            out[n] = shared
    return out

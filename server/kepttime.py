"""The hall remembers the time: a restarted hub takes the time its tables kept.

A hub restarted in the same boot takes its own time back from the monotonic clock
(``server.hubtime``). After a reboot it has only the machine's wall clock, and a Pi that
lost power boots on fake-hwclock's guess (or NTP reaches it at last, or someone set the
clock by hand): anchored on that, it would move every deadline of the hall at once. The
kiosks still know the right time: they track hub time on their monotonic clocks
across the hub's absence. So for ``LISTEN_SECONDS`` after a start the hub's time is
*provisional* (``TimeReply.provisional``): a kiosk that kept the time does not follow a
sample far from it, and reports the difference. ``GATHER_SECONDS`` after the first such
report the hub weighs the votes (``dipclock.keptvote``: a quorum of the paired tables, a
move bounded by the hub's own last record of its time), moves its clock if they carry it,
and logs every table's vote for the TD, who may undo the move (``server.hubtime``); its
time stays provisional until then. With no such report the hub's time stands, and a
report after the listening is over is no kept time: the hub did not restart for it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from dipclock.i18n import said
from dipclock.keptvote import kept_time_change
from dipclock.sync import to_moment, to_seconds
from dipclock.venuetime import venue_naive
from server.clock import GATHER_SECONDS, KEPT_BY_TABLES
from server.context import Hub
from server.hubtime import change_text, moved_anchor, when
from server.rounds import current, hall_venue

log = logging.getLogger("uvicorn.error")


def hear(hub: Hub, table: int, difference: float, rtt: float) -> None:
    """Table ``table`` kept the time and finds the hub's ``difference`` s from it, by an
    exchange of round trip ``rtt`` (each table's best-measured vote counts, and once);
    after ``GATHER_SECONDS`` the hub settles (on this report or a later one). Once the
    listening or the gathering is over, a report is no restart's vote: it is not heard."""
    ear = hub.kept
    mono = hub.clock.mono()
    with ear.lock:
        heard = ear.decided is None and ear.open(mono)
        first = heard and ear.first is None
        if first:
            ear.first = mono
        if heard and (table not in ear.votes or rtt < ear.votes[table][1]):
            ear.votes[table] = (difference, rtt)
    if first:  # settled then even if no other request comes (a report or a poll also may)
        timer = threading.Timer(GATHER_SECONDS, _settle_later, (hub,))
        timer.daemon = True
        timer.start()
    settle(hub)


def _settle_later(hub: Hub) -> None:
    """The timer's ``settle``: a hub stopped meanwhile has closed its store."""
    try:
        settle(hub)
    except sqlite3.ProgrammingError:
        log.info("hub stopped before it settled its time")


def settle(hub: Hub) -> None:
    """Decide once the gathering is over: take the tables' time, or keep the hub's.

    The clock's epoch stays: for the hall its time did not move, and a new epoch would
    make every kiosk drop its samples and sync afresh at once. A kiosk that took the
    hub's provisional time (it had kept none) sees the change at its next sync, a sample
    far from its own (``kiosk.clocksync.ClockSync.take``). Votes that would have moved
    the hall but did not carry (a minority, or a time the hub's own record rules out) are
    logged for the TD with every table's vote."""
    ear = hub.kept
    mono = hub.clock.mono()
    with ear.lock:
        if ear.decided is not None or ear.open(mono):
            return
        last = ear.last_seen
        verdict = kept_time_change(dict(ear.votes), paired_tables(hub), hub.clock.now(),
                                   to_seconds(last) if last is not None else None)
        ear.verdict = verdict
        change = verdict.change
        if change is None:
            ear.decided = 0.0
            if verdict.told:
                with hub.store.change(hub.clock.moment(), "clock vote", verdict.said,
                                      bump=False):
                    pass
                log.warning("%s", verdict.text)
            return
        before = hub.clock.now()
        after = before + change
        tz = hall_venue(hub.store, current(hub.store))
        here, there = venue_naive(to_moment(before), tz), venue_naive(to_moment(after), tz)
        tables = len(verdict.agreeing)
        # the tables' verdict as its own sentence: the log says it in each reader's language
        moved = {"tables": tables, "before": when(here, there), "after": when(there, here),
                 "change": change_text(change), "verdict": verdict.said}
        line = (said("hub time taken from the {tables} tables that kept it across the hub's "
                     "restart, from {before} to {after}, {change}: the hub machine's clock "
                     "was ahead ({verdict})", **moved) if change < 0 else
                said("hub time taken from the {tables} tables that kept it across the hub's "
                     "restart, from {before} to {after}, {change}: the hub machine's clock "
                     "was behind ({verdict})", **moved))
        summary = str(line)
        hub.store.set_clock(change, to_moment(after), line,
                            moved_anchor(hub, after, KEPT_BY_TABLES), new_epoch=False)
        # moved by ``change`` from now, not set to ``after``: the store's write took time,
        # and a clock set to a time read before it would lag by that (6 ms, once)
        hub.clock.set_to(hub.clock.now() + change)
        hub.clock_standing = KEPT_BY_TABLES
        ear.decided = change
    log.warning("%s", summary)


def paired_tables(hub: Hub) -> int:
    """The tables with a paired clock: the electorate of a restarted hub's time."""
    return len({clock.table for clock in hub.clocks.by_hash.values()})

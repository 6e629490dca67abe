"""The hall remembers the time: a restarted hub takes the time its tables kept.

A hub restarted in the same boot takes its own time back from the monotonic clock
(``server.hubtime``). After a reboot it has only the machine's wall clock, and a Pi that
lost power boots on fake-hwclock's guess (or NTP reaches it at last, or someone set the
clock by hand): anchored on that, it would move every deadline of the hall at once. The
kiosks still know the right time: they track hub time on their monotonic clocks
across the hub's absence. So for ``LISTEN_SECONDS`` after a start the hub's time is
*provisional* (``TimeReply.provisional``): a kiosk that kept the time does not follow a
sample far from it, and reports the difference. ``GATHER_SECONDS`` after the first such
report the hub takes the median of the best-measured ones
(``dipclock.sync.kept_time_change``), moves its clock if the tables agree it is off, and
logs it for the TD; its time stays provisional until then. With no such report the hub's
time stands.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from dipclock.sync import kept_time_change, to_moment
from dipclock.venuetime import venue_naive
from server.clock import GATHER_SECONDS, KEPT_BY_TABLES
from server.context import Hub
from server.hubtime import change_text, moved_anchor, when
from server.rounds import current, hall_venue

log = logging.getLogger("uvicorn.error")


def hear(hub: Hub, table: int, difference: float, rtt: float) -> None:
    """Table ``table`` kept the time and finds the hub's ``difference`` s from it, by an
    exchange of round trip ``rtt`` (its best-measured vote counts); after
    ``GATHER_SECONDS`` the hub settles (on this report or a later one)."""
    ear = hub.kept
    mono = hub.clock.mono()
    with ear.lock:
        if ear.decided is not None:
            return
        first = ear.first is None
        if first:
            ear.first = mono
        if table not in ear.votes or rtt < ear.votes[table][1]:
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
    far from its own (``kiosk.clocksync.ClockSync.take``)."""
    ear = hub.kept
    mono = hub.clock.mono()
    with ear.lock:
        if ear.decided is not None or ear.open(mono):
            return
        change = kept_time_change(list(ear.votes.values()))
        tables = len(ear.votes)
        if change is None:
            ear.decided = 0.0
            return
        before = hub.clock.now()
        after = before + change
        tz = hall_venue(hub.store, current(hub.store))
        here, there = venue_naive(to_moment(before), tz), venue_naive(to_moment(after), tz)
        summary = (f"hub time taken from the {tables} table{'s' * (tables != 1)} that kept it "
                   f"across the hub's restart, from {when(here, there)} to "
                   f"{when(there, here)}, {change_text(change)}: the hub machine's clock was "
                   f"{'ahead' if change < 0 else 'behind'}")
        hub.store.set_clock(change, to_moment(after), summary,
                            moved_anchor(hub, after, KEPT_BY_TABLES), new_epoch=False)
        # moved by ``change`` from now, not set to ``after``: the store's write took time,
        # and a clock set to a time read before it would lag by that (6 ms, once)
        hub.clock.set_to(hub.clock.now() + change)
        hub.clock_standing = KEPT_BY_TABLES
        ear.decided = change
    log.warning("%s", summary)

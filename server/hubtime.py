"""How far the hub's time can be trusted, the TD setting it, and keeping it across a restart.

A hub on a Pi boots on fake-hwclock's guess and may start before NTP has set the clock, or
in a hall with no time server at all. The hub says where its time came from (its
*standing*), the dashboard puts it beside the phone's clock, and the TD can set it from the
phone or, once NTP has caught up, from the system's clock. Every setting is logged and
raises the clock's *epoch* (kiosks then drop their time samples and resync).

Hub time is the monotonic clock plus an offset, and that offset is kept in the store with
the boot it belongs to (its *anchor*), at every start and every change. A hub restarted in
the same boot (a crash, an upgrade, the TD's restart) takes its time back from the anchor:
the monotonic clock ran on meanwhile and is the same clock for every process of a boot, so
the hall's time does not move by a microsecond, whatever the wall clock did. Only after a
reboot, when the monotonic clock starts again from zero, does the hub anchor on the wall
clock, and then listen for the time its tables kept (``server.kepttime``).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from datetime import datetime
from typing import Any

from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, Words, said
from dipclock.sync import to_moment, to_seconds
from dipclock.venuetime import NoSuchTime, to_utc, venue_naive
from machine.storage import is_disk_full
from server.clock import KEPT_BY_TABLES, SET_BY_TD, SYNCHRONISED, standing_of
from server.context import Hub
from server.responses import ClockStanding
from server.rounds import current, hall_venue
from server.store import Store

log = logging.getLogger("uvicorn.error")
#: the meta key of the anchor: JSON {"boot", "minus_mono": hub time - monotonic, "standing"}
ANCHOR = "hub_time_anchor"
#: before the anchor: JSON {"boot", "correction": hub time - wall time}, kept only when the
#: TD set the time; read once, by a hub upgraded in the middle of a boot
LEGACY_CORRECTION = "clock_correction"


class ClockRefused(DipclockError):
    """The hub's time cannot be set that way now: the reason, for a 409 (raised with a
    ``said(...)``: in the reader's language; ``str()`` is English)."""


def anchor_of(hub: Hub) -> str | None:
    """The anchor of the hub's time now, as stored (None: no boot id, nothing to keep)."""
    return moved_anchor(hub, hub.clock.now(), hub.clock_standing)


def kept_anchor(store: Store, boot: str | None) -> tuple[float, str] | None:
    """Hub time minus the monotonic clock as last kept in boot ``boot``, and the clock's
    standing then; None if nothing was kept in this boot."""
    text = store.meta(ANCHOR)
    if boot is None or not text:
        return None
    try:
        stored = json.loads(text)
        if stored["boot"] != boot:
            return None
        return float(stored["minus_mono"]), str(stored["standing"])
    except (ValueError, TypeError, KeyError):
        return None  # unreadable: start on the wall clock as after a reboot


def kept_this_boot(store: Store, boot: str | None) -> str | None:
    """The standing of the time a hub started now takes back from earlier in this boot, or
    None: it anchors on the wall clock (and may wait for NTP first)."""
    kept = kept_anchor(store, boot)
    if kept is not None:
        return kept[1]
    return SET_BY_TD if _legacy(store, boot) is not None else None


def _legacy(store: Store, boot: str | None) -> float | None:
    text = store.meta(LEGACY_CORRECTION)
    if boot is None or not text:
        return None
    try:
        stored = json.loads(text)
        return float(stored["correction"]) if stored["boot"] == boot else None
    except (ValueError, TypeError, KeyError):
        return None


def restore(hub: Hub) -> None:
    """At start: the hub's time of this boot, taken back from its anchor (not provisional:
    the tables have nothing to correct), then the anchor kept anew. After a reboot the
    clock stays on the wall clock it was just anchored on."""
    kept = kept_anchor(hub.store, hub.boot)
    if kept is not None:
        minus_mono, hub.clock_standing = kept
        moved = hub.clock.mono() + minus_mono - hub.clock.now()
        hub.clock.set_to(hub.clock.mono() + minus_mono)
        with hub.kept.lock:
            hub.kept.decided = 0.0
        log.warning("hub time: kept across the restart on this boot's monotonic clock (%s; "
                    "%+.3f s from the system clock)", hub.clock_standing, moved)
    elif (legacy := _legacy(hub.store, hub.boot)) is not None:
        hub.clock_standing = SET_BY_TD
        hub.clock.set_to(hub.clock.wall() + legacy)
        log.warning("hub time: the TD's setting of this boot kept (%+.1f s from the system "
                    "clock)", legacy)
    anchor = anchor_of(hub)
    if anchor is not None:
        try:
            hub.store.set_meta(ANCHOR, anchor)
        except sqlite3.OperationalError as exc:
            if not is_disk_full(exc):
                raise
            # a hub started on a full disk serves all the same (reads, and a clear 507 for
            # each write); its time is kept again at the next change once there is room
            log.error("the hub's disk is full: it starts, and stores nothing until room is "
                      "made")


#: How often a running hub writes down its time (``Store.note_time``): the tables' time
#: after a restart may not be before it (``dipclock.keptvote``), so a few minutes' lag
#: costs nothing.
NOTE_EVERY = 300.0


def note_time(hub: Hub) -> None:
    """Write down the hub's time, unless it is provisional: a wrong clock's time, written
    down, could make the tables' true time look like time gone back."""
    if not hub.kept.provisional(hub.clock.mono()):
        hub.store.note_time(hub.clock.moment())


def moved_anchor(hub: Hub, after: float, standing: str) -> str | None:
    """The anchor once hub time is ``after`` now, with ``standing``: stored with the change
    that moves it, so a restart never finds the one without the other."""
    if hub.boot is None:
        return None
    return json.dumps({"boot": hub.boot, "minus_mono": after - hub.clock.mono(),
                       "standing": standing})


def status(hub: Hub, words: Words = ENGLISH) -> ClockStanding:
    """The hub clock's standing for the dashboard (``/api/td/state``'s ``clock``), its
    note in ``words`` (the phone's language).

    ``offer_system``: "Use the system's synchronised time" makes sense, since NTP has set
    the system clock after the hub anchored its time on an unsynchronised one.
    """
    synced = hub.synced()
    offer = hub.clock_standing != SYNCHRONISED and synced is True
    moved = hub.kept.decided or None  # 0.0: the hub's time stood
    verdict = hub.kept.verdict
    note = verdict.said.in_(words) if verdict is not None and verdict.told else None
    return ClockStanding(
        provisional=hub.kept.provisional(hub.clock.mono()),
        kept_change=round(moved, 3) if moved is not None else None,
        kept_tables=len(verdict.agreeing) if moved is not None and verdict else None,
        kept_note=note,
        offer_machine=hub.clock_standing == KEPT_BY_TABLES,
        standing=hub.clock_standing,
        epoch=hub.clock_epoch,
        system_synchronised=synced,
        offer_system=offer,
        # what "Use the system's synchronised time" would change, for its confirmation
        system_change=round(hub.clock.wall() - hub.clock.now(), 3) if offer else None,
    )


def when(moment: datetime, other: datetime) -> str:
    """A venue time for the log: the time, with the date when the day changed."""
    return f"{moment:%H:%M:%S}" if moment.date() == other.date() else f"{moment:%Y-%m-%d %H:%M:%S}"


def change_text(seconds: float) -> str:
    """+122 s, -0.4 s: how far the hub's time moved."""
    return f"{seconds:+.1f} s" if abs(seconds) < 10 else f"{seconds:+.0f} s"


def set_time(hub: Hub, target: datetime | None, base: int | None = None,
             machine: bool = False) -> dict[str, Any]:
    """Set hub time to ``target`` (the phone's local time), or to the system's synchronised
    clock when ``target`` is None; ``machine``: back to the machine's clock as it is, the
    TD refusing the time the tables kept (``server.kepttime``). Logged, kept for this
    boot, announced to every kiosk. ``base``: the TD's screen (``server.stale``): a second
    tap from it moves nothing."""
    before = hub.clock.now()
    tz = hall_venue(hub.store, current(hub.store))
    if machine:
        if hub.clock_standing != KEPT_BY_TABLES:
            raise ClockRefused(said("the hub's time is not the time its tables kept: nothing "
                                    "to undo"))
        after, standing = hub.clock.wall(), standing_of(hub.synced())
    elif target is None:
        if hub.synced() is not True:
            raise ClockRefused(said("the system clock is not synchronised: set the hub's time "
                                    "from your phone"))
        after, standing = hub.clock.wall(), SYNCHRONISED
    else:
        try:  # the phone's wall time, on the venue's clock (schemas.LocalTime)
            after, standing = to_seconds(to_utc(target, tz)), SET_BY_TD
        except NoSuchTime as exc:
            raise ClockRefused(said("time: {error}", error=exc)) from None
    shift = after - before
    old, new = to_moment(before), to_moment(after)
    here, there = venue_naive(old, tz), venue_naive(new, tz)
    moved = {"before": when(here, there), "after": when(there, here),
             "change": change_text(shift)}
    line = (said("hub time put back on the hub machine's own clock (the TD undid the time "
                 "the tables kept), from {before} to {after}, {change}", **moved) if machine
            else said("hub time set to the system's synchronised time, from {before} to "
                      "{after}, {change}", **moved) if target is None
            else said("hub time set from {before} to {after}, {change}", **moved))
    summary = str(line)  # the reply's words: English, as the log keeps them
    anchor = moved_anchor(hub, after, standing)
    hub.store.set_clock(shift, new, line, anchor, base=base)  # first: if it fails,
    # nothing moved
    with hub.kept.lock:  # the TD's time wins over what the tables kept
        hub.kept.decided = 0.0 if hub.kept.decided is None else hub.kept.decided
    hub.clock.set_to(hub.clock.now() + shift)  # from now: the store's write took time
    hub.clock_standing = standing
    hub.clock_epoch = hub.store.clock_epoch()
    return {"hub_time": after, "from": here.isoformat(), "to": there.isoformat(),
            "change": shift, "standing": standing, "epoch": hub.clock_epoch,
            "summary": summary}

"""How far the hub's time can be trusted, and the TD setting it.

A hub on a Pi boots on fake-hwclock's guess and may start before NTP has set the clock, or
in a hall with no time server at all. The hub says where its time came from (its
*standing*), the dashboard puts it beside the phone's clock, and the TD can set it from the
phone or, once NTP has caught up, from the system's clock. Every setting is logged, raises
the clock's *epoch* (kiosks then drop their time samples and resync), and is kept for a
restart on the same boot, since the wall clock it corrects is still wrong until a reboot.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from dipclock.errors import DipclockError
from dipclock.sync import to_moment, to_seconds
from dipclock.venuetime import NoSuchTime, to_utc, venue_naive
from server.clock import SET_BY_TD, SYNCHRONISED
from server.context import Hub
from server.rounds import current, hall_venue
from server.store import Store

log = logging.getLogger("uvicorn.error")
CORRECTION = "clock_correction"


class ClockRefused(DipclockError):
    """The hub's time cannot be set that way now: the reason, for a 409."""


def correction_for(store: Store, boot: str | None) -> float | None:
    """Hub time minus wall time as set in boot ``boot``; None if not this boot."""
    kept = kept_correction(store, boot)
    return kept[0] if kept else None


def kept_correction(store: Store, boot: str | None) -> tuple[float, str] | None:
    """Hub time minus wall time as set in boot ``boot``, and by whom (the clock's standing
    then: the TD, or the tables that kept the time); None if not this boot."""
    text = store.meta(CORRECTION)
    if boot is None or not text:
        return None
    try:
        stored = json.loads(text)
        if stored["boot"] != boot:
            return None
        return float(stored["correction"]), str(stored.get("standing", SET_BY_TD))
    except (ValueError, TypeError, KeyError):
        return None  # unreadable: start on the wall clock as ever


def restore(hub: Hub) -> None:
    """At start: re-apply the TD's correction of this boot's wall clock, unless the system
    clock is synchronised now (then it is right by itself)."""
    if hub.clock_standing == SYNCHRONISED:
        return
    kept = kept_correction(hub.store, hub.boot)
    if kept is None:
        return
    correction, hub.clock_standing = kept
    hub.clock.set_to(hub.clock.wall() + correction)
    log.warning("hub time: the setting of this boot kept (%s, %+.1f s from the system clock)",
                hub.clock_standing, correction)


def status(hub: Hub) -> dict[str, Any]:
    """The hub clock's standing for the dashboard (``/api/td/state``'s ``clock``).

    ``offer_system``: "Use the system's synchronised time" makes sense, since NTP has set
    the system clock after the hub anchored its time on an unsynchronised one.
    """
    synced = hub.synced()
    offer = hub.clock_standing != SYNCHRONISED and synced is True
    moved = hub.kept.decided or None  # 0.0: the hub's time stood
    return {
        "provisional": hub.kept.provisional(hub.clock.mono()),
        "kept_change": round(moved, 3) if moved is not None else None,
        "kept_tables": len(hub.kept.votes) if moved is not None else None,
        "standing": hub.clock_standing,
        "epoch": hub.clock_epoch,
        "system_synchronised": synced,
        "offer_system": offer,
        # what "Use the system's synchronised time" would change, for its confirmation
        "system_change": round(hub.clock.wall() - hub.clock.now(), 3) if offer else None,
    }


def when(moment: datetime, other: datetime) -> str:
    """A venue time for the log: the time, with the date when the day changed."""
    return f"{moment:%H:%M:%S}" if moment.date() == other.date() else f"{moment:%Y-%m-%d %H:%M:%S}"


def change_text(seconds: float) -> str:
    """+122 s, -0.4 s: how far the hub's time moved."""
    return f"{seconds:+.1f} s" if abs(seconds) < 10 else f"{seconds:+.0f} s"


def set_time(hub: Hub, target: datetime | None) -> dict[str, Any]:
    """Set hub time to ``target`` (the phone's local time), or to the system's synchronised
    clock when ``target`` is None. Logged, kept for this boot, announced to every kiosk."""
    before = hub.clock.now()
    tz = hall_venue(hub.store, current(hub.store))
    if target is None:
        if hub.synced() is not True:
            raise ClockRefused(
                "the system clock is not synchronised: set the hub's time from your phone"
            )
        after, standing = hub.clock.wall(), SYNCHRONISED
    else:
        try:  # the phone's wall time, on the venue's clock (schemas.LocalTime)
            after, standing = to_seconds(to_utc(target, tz)), SET_BY_TD
        except NoSuchTime as exc:
            raise ClockRefused(f"time: {exc}") from None
    shift = after - before
    old, new = to_moment(before), to_moment(after)
    here, there = venue_naive(old, tz), venue_naive(new, tz)
    summary = (
        "hub time set" + (" to the system's synchronised time," if target is None else "")
        + f" from {when(here, there)} to {when(there, here)}, {change_text(shift)}"
    )
    kept = None
    if standing == SET_BY_TD and hub.boot is not None:
        kept = json.dumps({"boot": hub.boot, "correction": after - hub.clock.wall()})
    hub.store.set_clock(shift, new, summary, kept)  # first: if it fails, nothing moved
    with hub.kept.lock:  # the TD's time wins over what the tables kept
        hub.kept.decided = 0.0 if hub.kept.decided is None else hub.kept.decided
    hub.clock.set_to(after)
    hub.clock_standing = standing
    hub.clock_epoch = hub.store.clock_epoch()
    return {"hub_time": after, "from": here.isoformat(), "to": there.isoformat(),
            "change": shift, "standing": standing, "epoch": hub.clock_epoch,
            "summary": summary}

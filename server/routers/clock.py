"""``POST /api/clock``: the TD sets the hub's time from the phone, or from the system's
clock once NTP has set it (see ``server.hubtime``).

A plain ``def``: the change is a durable SQLite write, so it runs in a worker thread and
the kiosks' time sync on the event loop never waits for it."""

from __future__ import annotations

from fastapi import APIRouter

from dipclock.i18n import Said
from server.auth import Base, TDClock
from server.context import HubDep
from server.hubtime import ClockRefused, set_time
from server.refusal import Refused
from server.responses import ClockMoved
from server.schemas import ClockSet
from server.snapshot import publish

router = APIRouter(prefix="/api", tags=["td"])


@router.post("/clock", response_model=ClockMoved)
def set_clock(body: ClockSet, _: TDClock, hub: HubDep, base: Base) -> ClockMoved:
    """Set hub time; every table gets a snapshot with the clock's new epoch and resyncs."""
    try:
        done = set_time(hub, body.time, base, machine=body.source == "machine")
    except ClockRefused as exc:
        # in the reader's language (``server.app``); the core's words stay English
        raise Refused(409, exc.said if isinstance(exc.said, Said) else str(exc)) from None
    publish(hub)
    return ClockMoved.model_validate(done | {"seq": hub.store.seq()})

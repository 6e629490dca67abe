"""``POST /api/clock``: the TD sets the hub's time from the phone, or from the system's
clock once NTP has set it (see ``server.hubtime``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from server.auth import TDWrite
from server.context import HubDep
from server.hubtime import ClockRefused, set_time
from server.schemas import ClockSet
from server.snapshot import publish

router = APIRouter(prefix="/api", tags=["td"])


@router.post("/clock")
async def set_clock(body: ClockSet, _: TDWrite, hub: HubDep) -> dict[str, Any]:
    """Set hub time; every table gets a snapshot with the clock's new epoch and resyncs."""
    try:
        done = set_time(hub, body.time)
    except ClockRefused as exc:
        raise HTTPException(409, str(exc)) from None
    publish(hub)
    return done | {"seq": hub.store.seq()}

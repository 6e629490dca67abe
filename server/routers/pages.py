"""The pages: the TD's dashboard, the projector's hall clock, and the hall clock's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse
from pydantic import BaseModel

from dipclock.phaseview import view
from dipclock.venuetime import zone
from server.context import HubDep
from server.rounds import current
from server.views import ClockJson, clock_model, view_json

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(tags=["pages"])
_NO_STORE = {"Cache-Control": "no-store"}


@router.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    return RedirectResponse("/dashboard")


@router.get("/dashboard", include_in_schema=False)
def dashboard() -> FileResponse:
    return FileResponse(STATIC / "dashboard.html", headers=_NO_STORE)


@router.get("/hall", include_in_schema=False)
def hall() -> FileResponse:
    return FileResponse(STATIC / "hall.html", headers=_NO_STORE)


class HallJson(BaseModel):
    """What the hall page polls: the hub's time and every table's clock."""

    hub_time: float  # the hub's clock (POSIX seconds: the page ticks from it)
    seq: int
    timezone: str = "UTC"  # the venue's zone: the times in ``view`` are its local time
    event: str | None = None
    round: str | None = None
    clock: ClockJson | None = None  # None: no round set up yet
    view: dict[str, Any] | None = None  # the core's raw view, for scripts that read it


@router.get("/api/hall", response_model=HallJson)
def hall_view(hub: HubDep) -> HallJson:
    """The hall clock: ``dipclock.screen`` for no table, the screen every table shows when
    it has no hold of its own. Read-only, so open to all; a plain ``def`` (a worker
    thread) because it reads the store."""
    cur = current(hub.store)
    out = HallJson(hub_time=hub.clock.now(), seq=hub.store.seq())
    if cur is not None:
        now = hub.clock.moment()
        out.event = cur.profile.name
        out.timezone = cur.profile.timezone or "UTC"
        out.round = cur.round.title or f"Round {cur.round.number}"
        out.clock = clock_model(cur.profile, cur.schedule, now)
        out.view = view_json(view(cur.profile, cur.schedule, now), zone(cur.profile.timezone))
    return out

"""The pages: the TD's dashboard, the projector's hall clock, and the hall clock's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from dipclock.timeline import view
from server.context import HubDep
from server.rounds import current
from server.views import view_json

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


@router.get("/api/hall")
async def hall_view(hub: HubDep) -> dict[str, Any]:
    """The hall clock (``dipclock.timeline.view`` for no table). Read-only, so open to all:
    it shows exactly what every table's screen already shows."""
    cur = current(hub.store)
    out: dict[str, Any] = {"hub_time": hub.clock.now(), "seq": hub.store.seq(), "view": None}
    if cur is not None:
        out["event"] = cur.profile.name
        out["round"] = cur.round.title or f"Round {cur.round.number}"
        out["view"] = view_json(view(cur.profile, cur.schedule, hub.clock.moment()))
    return out

"""The pages: the TD's dashboard, the projector's hall clock, and the hall clock's data;
the players' game-end vote page (its data: ``server.routers.votes``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, RedirectResponse, Response

from dipclock.i18n import words_of
from dipclock.phaseview import view
from dipclock.sync import to_moment
from dipclock.venuetime import zone
from server.context import Hub, HubDep
from server.grid import apart
from server.hallmessage import as_json, showing
from server.pagecache import served
from server.responses import HallJson
from server.rounds import current
from server.views import clock_model, view_json

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(tags=["pages"])
#: a page is read again on each load: a hub upgraded mid-event serves its new scripts
NO_STORE = {"Cache-Control": "no-store"}
#: seconds of hub time one hall reply is built for: the page ticks its countdown between
#: polls from the reply's ``hub_time`` and the header ``HUB_TIME`` (the hub's time when it
#: was sent), so a reply built up to this long ago still counts down to the instant; a
#: change the page cannot tick to (the next phase, a message running out) shows up to
#: this much later
HALL_STEP = 0.25
#: the hub's time as a reply left it, on every hall reply (and its 304s)
HUB_TIME = "X-Hub-Time"


@router.get("/", include_in_schema=False)
def root() -> RedirectResponse:
    return RedirectResponse("/dashboard")


@router.get("/dashboard", include_in_schema=False)
def dashboard() -> FileResponse:
    return FileResponse(STATIC / "dashboard.html", headers=NO_STORE)


@router.get("/vote/{round_no}/{table}", include_in_schema=False)
def vote_page(round_no: Annotated[int, PathParam(ge=1, le=99)],
              table: Annotated[int, PathParam(ge=1, le=999)]) -> FileResponse:
    """A table's game-end vote on a player's phone: opened with the table's sheet link (its
    key after '#', which the page sends in a header, as the sheet's page does)."""
    return FileResponse(STATIC / "vote.html", headers=NO_STORE)


@router.get("/hall", include_in_schema=False)
def hall() -> FileResponse:
    return FileResponse(STATIC / "hall.html", headers=NO_STORE)


@router.get("/api/hall", response_model=HallJson)
async def hall_view(request: Request, hub: HubDep) -> Response:
    """The hall clock: ``dipclock.screen`` for no table, the screen every table shows when
    it has no hold of its own; and the tables whose own clock differs (held, extra time or
    time taken away, a board's own phase). Read-only, so open to all. Built once per change
    of the store and ``HALL_STEP`` of hub time (``server.pagecache``), in a worker thread."""
    stamp = (hub.store.writes, hub.clock.now() // HALL_STEP)
    made = await hub.pages.get("hall", stamp, lambda: hall_json(hub).model_dump_json().encode())
    return served(made, request, {HUB_TIME: repr(hub.clock.now())})


def hall_json(hub: Hub) -> HallJson:
    """Read from the store: run in a worker thread. One reading of the hub's time: the
    page ticks from ``hub_time`` what was computed for it."""
    t = hub.clock.now()
    now = to_moment(t)
    cur = current(hub.store)
    out = HallJson(hub_time=t, seq=hub.store.seq())
    if cur is not None:
        out.event = cur.profile.name
        out.lang = cur.profile.language
        out.timezone = cur.profile.timezone or "UTC"
        words = words_of(cur.profile)  # the hall speaks the event's language
        out.round = cur.round.title or words("Round {number}", number=cur.round.number)
        out.clock = clock_model(cur.profile, cur.schedule, now)
        out.view = view_json(view(cur.profile, cur.schedule, now), zone(cur.profile.timezone))
        out.apart = apart(cur, now, hub.store.tables())
    out.message = as_json(showing(hub.store, now), zone(out.timezone))
    return out

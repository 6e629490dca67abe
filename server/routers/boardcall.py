"""The board call: ``/boardcall``, a projector page that pages by itself through every
table's seven players and powers, with when the round starts and the TD's hall message,
and the data it polls.

Open to all, like the hall clock: a board call is read out to the whole hall. Its reply is
built once per change of what it shows (the TD's actions: the seating, the rounds, the
event, the hall message; not a table's presses) and served from ``server.pagecache``, with
an ETag. Nothing in it changes with time alone: the page counts down to ``starts_at`` and
hides the message at its ``ends`` by the hub's time, ticked from ``hub_time`` and the
header ``HUB_TIME`` as the hall clock does."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from dipclock.i18n import ENGLISH, words_of
from dipclock.powers import LETTERS
from dipclock.sync import to_moment, to_seconds
from dipclock.timeline import table_clock
from server.context import Hub, HubDep
from server.hallmessage import as_json, showing
from server.pagecache import served
from server.responses import BoardCall, CalledSeat, CalledTable
from server.resultsdesk import players_of
from server.rounds import round_profile, schedule_for, venue
from server.routers.pages import HUB_TIME, NO_STORE, STATIC
from server.views import iso

router = APIRouter(tags=["pages"])


@router.get("/boardcall", include_in_schema=False)
def boardcall_page() -> FileResponse:
    return FileResponse(STATIC / "boardcall.html", headers=NO_STORE)


@router.get("/api/boardcall", response_model=BoardCall)
async def boardcall(request: Request, hub: HubDep,
                    round: Annotated[int | None, Query(ge=1, le=99)] = None) -> Response:
    """The board call of round ``round`` (default: the latest seated round): the bytes
    built for the TD's last action (``Store.actions``), else built now in a worker thread."""
    made = await hub.pages.get(("boardcall", round), hub.store.actions,
                               lambda: board_call(hub, round).model_dump_json().encode())
    return served(made, request, {HUB_TIME: repr(hub.clock.now())})


def board_call(hub: Hub, round: int | None) -> BoardCall:
    """Read from the store: run in a worker thread."""
    t = hub.clock.now()
    number = round if round is not None else max(
        (s.round for s in hub.store.seating()), default=None)
    event = hub.store.event()
    out = BoardCall(seq=hub.store.seq(), hub_time=t, event=event.name if event else None,
                    round=number, lang=event.language if event else "en")
    stored = hub.store.round(number) if number is not None else None
    profile = round_profile(hub.store, stored) if stored is not None else None
    tz = venue(profile if profile is not None else event)
    out.message = as_json(showing(hub.store, to_moment(t)), tz)
    if number is None:
        return out
    if stored is not None and profile is not None:
        # where every table's clock opens (dipclock.screen: "... starts at")
        schedule = schedule_for(hub.store, stored)
        phases = table_clock(profile, schedule).phases
        opens = phases[0].opens if phases else schedule.start
        out.starts, out.starts_at = iso(opens, tz), to_seconds(opens)
    tables = players_of(hub.store, number)
    speaks = profile or event
    words = words_of(speaks) if speaks is not None else ENGLISH
    out.title = (stored.title if stored and stored.title else "") or words(
        "Round {number}", number=number)
    out.tables = [CalledTable(table=n, seats=[CalledSeat(power=words.power(p), player=t[p])
                                             for p in LETTERS if p in t])
                  for n, t in sorted(tables.items())]
    return out

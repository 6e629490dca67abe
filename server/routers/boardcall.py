"""The board call: ``/boardcall``, a projector page that pages by itself through every
table's seven players and powers, and the data it polls.

Open to all, like the hall clock: a board call is read out to the whole hall. Its reply is
built once per change of what it shows (the TD's actions: the seating, the rounds, the
event; not a table's presses) and served from ``server.pagecache``, with an ETag."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel

from dipclock.powers import LETTERS, POWERS
from server.context import Hub, HubDep
from server.pagecache import served
from server.resultsdesk import players_of
from server.routers.pages import NO_STORE, STATIC

router = APIRouter(tags=["pages"])


class CalledSeat(BaseModel):
    power: str  # the power's English name
    player: str


class CalledTable(BaseModel):
    table: int
    seats: list[CalledSeat]  # in the powers' order, an empty seat left out


class BoardCall(BaseModel):
    """A round's tables as seated: the latest round the hub has a seating for, unless
    asked for another."""

    seq: int
    event: str | None = None
    round: int | None = None  # None: nothing seated yet
    title: str = ""
    tables: list[CalledTable] = []


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
    return served(made, request)


def board_call(hub: Hub, round: int | None) -> BoardCall:
    """Read from the store: run in a worker thread."""
    number = round if round is not None else max(
        (s.round for s in hub.store.seating()), default=None)
    event = hub.store.event()
    out = BoardCall(seq=hub.store.seq(), event=event.name if event else None, round=number)
    if number is None:
        return out
    stored = hub.store.round(number)
    out.title = (stored.title if stored and stored.title else "") or f"Round {number}"
    tables = players_of(hub.store, number)
    out.tables = [CalledTable(table=n, seats=[CalledSeat(power=POWERS[p], player=t[p])
                                             for p in LETTERS if p in t])
                  for n, t in sorted(tables.items())]
    return out

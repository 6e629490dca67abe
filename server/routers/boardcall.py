"""The board call: ``/boardcall``, a projector page that pages by itself through every
table's seven players and powers, and the data it polls.

Open to all, like the hall clock: a board call is read out to the whole hall."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from pydantic import BaseModel

from dipclock.powers import LETTERS, POWERS
from server.context import HubDep
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
def boardcall(hub: HubDep,
              round: Annotated[int | None, Query(ge=1, le=99)] = None) -> BoardCall:
    """The board call of round ``round`` (default: the latest seated round). A plain
    ``def`` (a worker thread): it reads the store."""
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

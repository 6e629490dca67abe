"""The seating: who plays which power at which table in each round.

The TD enters it on the dashboard or imports a CSV file (``round,table,power,player``);
the review and the penalties CSV name the player beside the power (``server.review``).
Included by ``server.routers.td`` under its ``/api`` prefix.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from server import actions
from server.auth import TD, TDWrite
from server.context import HubDep
from server.responses import SeatingSet, SeatOut
from server.schemas import SeatingIn

router = APIRouter(tags=["seating"])


@router.get("/td/seating", response_model=list[SeatOut])
def seating(
    _: TD, hub: HubDep, round: Annotated[int | None, Query(ge=1, le=99)] = None
) -> list[SeatOut]:
    """Every seat of round ``round`` (or of every round)."""
    return [SeatOut(round=s.round, table=s.table, power=s.power, player=s.player)
            for s in hub.store.seating(round)]


@router.put("/td/seating", response_model=SeatingSet)
def set_seating(body: SeatingIn, _: TDWrite, hub: HubDep) -> SeatingSet:
    """Seat players (from a list or a CSV file's text); a seat given with no player is
    cleared. Seats not named stay as they are."""
    done = actions.seat(body)
    hub.store.set_seating(done.what, hub.clock.moment(), done.summary)
    return SeatingSet(seats=len(done.what), summary=done.summary, seq=hub.store.seq())

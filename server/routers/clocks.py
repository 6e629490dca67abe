"""Pairing a table's clock: the clock asks and waits, the TD approves, refuses or revokes.

``POST /api/pair`` and ``GET /api/pair`` are the clock's (``server.pairing`` says how);
``/api/td/clocks`` the TD's. Plain ``def`` routes, run in worker threads: each is a durable
SQLite write or read, kept off the event loop that answers the hall's time sync. Revoking
is ``async``: it closes the clock's push channel on the loop that serves it, its store work
in a worker thread.
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Any

import anyio.to_thread
from fastapi import APIRouter, Path, Request

from dipclock.i18n import said
from server import pairing
from server.actions import Refused
from server.auth import TD, TDWrite, bearer
from server.context import HubDep, client_address
from server.dashboard import clocks_card
from server.responses import Changed, ClocksOut, PairAsked, Paired, PairStanding
from server.rounds import current, hall_venue
from server.schemas import PairApprove, PairAsk, PairRefuse
from server.store import Waiting

router = APIRouter(prefix="/api", tags=["clocks"])


@router.post("/pair", status_code=201, response_model=PairAsked)
def ask(body: PairAsk, request: Request, hub: HubDep) -> PairAsked:
    """A clock asks to be paired; open to all (the TD's approval is the check). It always
    gets a code: at most ``pairing.WAITING_MOST`` wait at once and ``WAITING_PER_ADDRESS``
    from one address, the oldest of the busiest address put out to make room."""
    asked = pairing.ask(hub.store, hub.clocks, body.kiosk, body.token_hash, body.table,
                        body.fingerprint, client_address(request), hub.clock.now(),
                        hub.clock.moment())
    return PairAsked(code=pairing.shown(asked.code), expires_in=round(asked.expires_in, 1),
                     hub=hub.hub_id)


@router.get("/pair", response_model=PairStanding, response_model_exclude_none=True)
def standing(request: Request, hub: HubDep) -> PairStanding:
    """Where the clock sending its token stands: waiting, or paired for a table (404: no
    request of it is waiting any more: it asks again)."""
    token = bearer(request)
    if token is None:
        raise Refused(401, said("send the token as 'Authorization: Bearer TOKEN'"))
    now = hub.clock.now()
    state, found = pairing.standing(hub.store, hub.clocks, token, now)
    if isinstance(found, Waiting):
        return PairStanding(state=state, code=pairing.shown(found.code),
                            expires_in=round(found.expires - now, 1), hub=hub.hub_id)
    return PairStanding(state=state, table=found.table, hub=hub.hub_id)


@router.get("/td/clocks", response_model=ClocksOut)
def clocks(_: TD, hub: HubDep) -> ClocksOut:
    return clocks_card(hub, hall_venue(hub.store, current(hub.store)))


@router.post("/td/clocks", response_model=Paired)
def approve(body: PairApprove, _: TDWrite, hub: HubDep) -> Paired:
    """Pair the clock showing ``code`` for ``table``: its token is good for that table from
    its next request on (it polls every few seconds)."""
    paired = pairing.approve(hub.store, hub.clocks, body.code, body.table, hub.clock.now(),
                             hub.clock.moment())
    hub.regulars.saw(paired.address)  # the hall's from now on, as after a restart
    return Paired(id=paired.id, table=paired.table, kiosk=paired.kiosk, seq=hub.store.seq())


@router.post("/td/clocks/refuse", response_model=Changed)
def refuse(body: PairRefuse, _: TDWrite, hub: HubDep) -> Changed:
    """Turn a waiting request down (a clock nobody in the hall knows)."""
    pairing.refuse(hub.store, body.code)
    return Changed(seq=hub.store.seq())


@router.post("/td/clocks/refuse-all", response_model=Changed)
def refuse_all(_: TDWrite, hub: HubDep) -> Changed:
    """Turn every waiting request down at once: a flood of them, cleared in one action."""
    pairing.refuse_all(hub.store, hub.clock.moment())
    return Changed(seq=hub.store.seq())


@router.delete("/td/clocks/{clock_id}", response_model=Changed)
async def revoke(clock_id: Annotated[int, Path(ge=1)], _: TDWrite, hub: HubDep) -> Changed:
    """Take a clock's token back: its requests are refused from now on, its push channel is
    closed at once, and it shows a new code to be paired again."""
    def revoked() -> tuple[list[Any], int]:  # store work: in a worker thread
        _gone, channels = pairing.revoke(hub.store, hub.clocks, clock_id, hub.clock.moment())
        return channels, hub.store.seq()

    channels, seq = await anyio.to_thread.run_sync(revoked)
    for ws in channels:
        with contextlib.suppress(Exception):  # already closing: nothing more to do
            await ws.close(code=1008)
    return Changed(seq=seq)

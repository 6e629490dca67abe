"""What a table's kiosk may do with the kiosk key: sync, read its snapshot, send presses."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Response, WebSocket

from server.auth import Kiosk, key_ok, websocket_key
from server.context import HubDep
from server.rounds import current
from server.schemas import PressBatch, StatusIn
from server.snapshot import publish, snapshot
from server.store import PressRow

router = APIRouter(prefix="/api", tags=["kiosk"])
TablePath = Annotated[int, Path(ge=1, le=999, description="the table's number")]


@router.get("/time")
def hub_time(hub: HubDep) -> dict[str, float]:
    """t1/t2 for the kiosk's four-timestamp sync. Open to all: it reveals only the time."""
    t1 = hub.clock.now()
    return {"t1": t1, "t2": hub.clock.now()}


@router.get("/tables/{n}/snapshot")
async def table_snapshot(n: TablePath, hub: HubDep, _: Kiosk) -> dict[str, Any]:
    hub.seen(n)
    return snapshot(hub, n)


@router.post("/tables/{n}/presses")
async def post_presses(n: TablePath, body: PressBatch, hub: HubDep, _: Kiosk) -> dict[str, int]:
    hub.seen(n)
    cur = current(hub.store)
    if cur is None:
        raise HTTPException(409, "no round is set up yet: keep the presses and send them later")
    if n not in hub.store.tables():
        raise HTTPException(404, f"table {n} is not in this round")
    rows = [PressRow(p.id, cur.round.number, n, p.power, p.kind, p.at) for p in body.presses]
    stored, duplicates = hub.store.add_presses(cur.round.number, n, rows, hub.clock.moment())
    if stored:
        publish(hub, {n})
    return {"stored": stored, "duplicates": duplicates}


@router.post("/tables/{n}/status", status_code=204)
async def post_status(n: TablePath, body: StatusIn, hub: HubDep, _: Kiosk) -> Response:
    """The kiosk's measured offset and round trip, for the TD's grid (kept in memory)."""
    s = hub.seen(n)
    s.offset, s.rtt = body.offset, body.rtt
    return Response(status_code=204)


@router.websocket("/tables/{n}/ws")
async def table_ws(ws: WebSocket, n: int, hub: HubDep) -> None:
    if not 1 <= n <= 999 or not key_ok(hub, websocket_key(ws)):
        await ws.close(code=1008)  # before accept: the handshake is refused with 403
        return
    await ws.accept()
    hub.seen(n)
    await hub.fanout.serve(ws, n, snapshot(hub, n))
    hub.seen(n)

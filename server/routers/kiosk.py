"""What a table's paired clock may do with its token: sync, read its snapshot, send presses.

Each route but ``/api/time`` takes the clock's token (``server.auth.Clock``) and serves only
the table the clock was paired for.

Every route but ``/api/time`` is a plain ``def``: FastAPI runs it in a worker thread, so its
durable SQLite writes and snapshot builds never hold up the event loop that answers the
hall's time sync.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import anyio
from fastapi import APIRouter, HTTPException, Request, Response, WebSocket
from pydantic import ValidationError

from dipclock.powers import POWERS
from dipclock.snapshot import (
    ConfirmationBatch,
    ConfirmationsReply,
    PressesReply,
    Rejected,
    Snapshot,
    TimeReply,
)
from server import kepttime, presslimit
from server.actions import Refused
from server.auth import Clock, TablePath, bearer
from server.context import HubDep, client_address
from server.errors import describe
from server.resultsdesk import Board, board_of, board_problem
from server.rounds import current, round_for
from server.schemas import PRESS_ID, PressBatch, PressIn, StatusIn
from server.sheets import Sheet
from server.snapshot import check_claims, publish, snapshot, snapshots
from server.store import PressRow

router = APIRouter(prefix="/api", tags=["kiosk"])


@router.get("/time")
async def hub_time(hub: HubDep) -> TimeReply:
    """t1/t2 for the kiosk's four-timestamp sync. Open to all: it reveals only the time.

    ``async`` on purpose: a plain ``def`` would run in the threadpool, and the hop there
    (before t1) would lengthen only the request's leg and bias every kiosk's offset.
    """
    t1 = hub.clock.now()
    provisional = hub.kept.provisional(hub.clock.mono())
    return TimeReply(t1=t1, t2=hub.clock.now(), provisional=provisional)


@router.get("/tables/{n}/snapshot")
def table_snapshot(
    n: TablePath, request: Request, hub: HubDep, _: Clock
) -> Snapshot:
    """The table's snapshot (``dipclock.snapshot.Snapshot``): the kiosk's polling fallback."""
    hub.seen(n, client_address(request))
    check_claims(hub, n)
    return snapshot(hub, n)


@router.post("/tables/{n}/presses")
def post_presses(
    n: TablePath, body: PressBatch, request: Request, hub: HubDep, _: Clock
) -> PressesReply:
    """Each press is checked on its own: the good ones are stored, the others named in
    ``rejected`` with the reason, so one bad press never holds up the rest of the table's.

    A press is filed under the round it was made in (``rounds.round_for``), so a backlog
    uploaded after the TD set up the next round still counts for the round before.
    """
    hub.seen(n, client_address(request))
    cur = current(hub.store)
    if cur is None:
        raise HTTPException(409, "no round is set up yet: keep the presses and send them later")
    if n not in hub.store.tables():
        raise HTTPException(404, f"table {n} is not in this round")
    rounds = hub.store.rounds()
    rows: list[PressRow] = []
    rejected: list[Rejected] = []
    for item in body.presses:
        try:
            p = PressIn.model_validate(item)
        except ValidationError as exc:
            press_id = item.get("id")  # echoed only if it is an id: a lone surrogate
            rejected.append(Rejected(  # could not even be written into the reply
                id=press_id if isinstance(press_id, str) and PRESS_ID.fullmatch(press_id)
                else None, reason=describe(exc.errors())))
            continue
        rnd = round_for(rounds, p.at, cur.round)
        rows.append(PressRow(p.id, rnd.number, n, p.power, p.kind, p.at))
    stored = duplicates = 0
    if rows:
        stored, duplicates, over = hub.store.add_presses(rows, hub.clock.moment(),
                                                         presslimit.TABLE_ROUND_MOST)
        rounds_of = {r.id: r.round for r in rows}
        rejected += [Rejected(id=i, reason=presslimit.refused(n, rounds_of[i])) for i in over]
    if stored:
        publish(hub, {n})
    return PressesReply(stored=stored, duplicates=duplicates, rejected=tuple(rejected))


@router.post("/tables/{n}/confirmations")
def post_confirmations(
    n: TablePath, body: ConfirmationBatch, request: Request, hub: HubDep, _: Clock
) -> ConfirmationsReply:
    """Players confirming their lines of the table's sheet with their powers' buttons: the
    clock is this table's (its token) and each button its power's, so a line confirmed so
    is its player's, as a signature on the paper sheet is. Each is made against the
    version of the sheet the clock showed (``Store.edit_sheet``): one shown before a
    correction is refused, and the clock asks for the new sheet's confirmation."""
    hub.seen(n, client_address(request))
    taken: list[str] = []
    refused: list[Rejected] = []
    now = hub.clock.moment()
    boards: dict[int, Board | None] = {}
    for c in body.confirmations:
        if c.round not in boards:
            boards[c.round] = board_of(hub.store, c.round)
        board = boards[c.round]
        try:
            if board is None:
                raise Refused(404, f"no round {c.round} is set up")
            hub.store.edit_sheet(c.round, n, c.version, _confirm_line(board, c.power, n), now)
        except Refused as exc:
            refused.append(Rejected(id=c.id, reason=exc.message))
            continue
        taken.append(c.id)
    if taken:
        publish(hub, {n})
    return ConfirmationsReply(taken=tuple(taken), refused=tuple(refused))


def _confirm_line(board: Board, power: str, table: int
                  ) -> Callable[[Sheet | None], tuple[Sheet, str] | None]:
    round_no = board.rnd.number

    def edit(stored: Sheet | None) -> tuple[Sheet, str] | None:
        if stored is None:
            raise Refused(409, "no sheet to confirm")
        if stored.td:
            raise Refused(409, "the TD has confirmed this sheet already")
        refused = board_problem(board, table, stored.body)
        if refused is not None:
            raise Refused(409, f"the sheet cannot be confirmed as it stands: {refused}")
        if power in stored.confirmations:
            return None  # sent again (the clock's outbox): it stands
        return (replace(stored, confirmations={**stored.confirmations, power: "button"}),
                f"round {round_no} table {table} sheet: {POWERS[power]}'s line confirmed "
                "with its button")
    return edit


@router.post("/tables/{n}/status", status_code=204)
def post_status(
    n: TablePath, body: StatusIn, request: Request, hub: HubDep, _: Clock
) -> Response:
    """The kiosk's measured offset and round trip, and what it says about itself, for the
    TD's grid (kept in memory). A second kiosk saying it is this table is a claim
    conflict: both kiosks get a snapshot that lists the claims."""
    address = client_address(request)
    s = hub.seen(n, address)
    s.offset, s.rtt = body.offset, body.rtt
    if body.kiosk is not None:
        s.report(body.kiosk, address, hub.clock.mono())
    if body.kept:
        kepttime.hear(hub, n, body.offset, body.rtt)
    else:
        kepttime.settle(hub)
    check_claims(hub, n)
    return Response(status_code=204)


@router.websocket("/tables/{n}/ws")
async def table_ws(ws: WebSocket, n: int, hub: HubDep) -> None:
    """The push channel; the TD revoking the clock closes it (``server.pairing``)."""
    try:
        if not 1 <= n <= 999:
            raise Refused(404, "no such table")
        clock = hub.clocks.check(bearer(ws), n)
        hub.regulars.saw(client_address(ws))
    except Refused:
        await ws.close(code=1008)  # before accept: the handshake is refused with 403
        return
    await ws.accept()
    hub.clocks.open_channel(clock.id, ws)
    try:
        address = client_address(ws)
        hub.seen(n, address)
        first = await anyio.to_thread.run_sync(lambda: snapshots(hub, {n})[n])  # store reads
        await hub.fanout.serve(ws, n, first, address)
    finally:
        hub.clocks.close_channel(clock.id, ws)
    hub.seen(n, address)
    # a kiosk gone may end a claim conflict: that stores and publishes, in a worker thread
    await anyio.to_thread.run_sync(check_claims, hub, n)

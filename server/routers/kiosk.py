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
from datetime import datetime

import anyio
from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import ValidationError

from dipclock.debounce import DEBOUNCE
from dipclock.i18n import said, words_of
from dipclock.sentences import power as said_power
from dipclock.snapshot import (
    ConfirmationBatch,
    ConfirmationsReply,
    PressesReply,
    Rejected,
    Snapshot,
    TimeReply,
    VotePress,
    VotePressBatch,
)
from dipclock.stamps import stamp_fault
from server import kepttime, presslimit, votedesk
from server.actions import Refused
from server.auth import Clock, TablePath, bearer
from server.context import HubDep, client_address
from server.errors import describe
from server.logline import Summary
from server.resultsdesk import Board, board_of, board_problem
from server.rounds import current, following, over_on, round_for, venue
from server.schemas import PRESS_ID, PressBatch, PressIn, StatusIn
from server.sheets import Sheet
from server.snapshot import check_claims, publish, snapshot, snapshots
from server.store import PressesAdded, PressRow, SheetChanged, StoreConflict

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
    uploaded after the TD set up the next round still counts for the round before; one
    stamped where no round can hold it (``dipclock.stamps``) is refused. A bounce of a press
    stored (``dipclock.debounce``) is merged into it; past its power's bound
    (``server.presslimit``) a press is refused. The TD's grid counts the refusals.
    """
    status = hub.seen(n, client_address(request))
    cur = current(hub.store)
    if cur is None:
        raise Refused(409, said("no round is set up yet: keep the presses and send them "
                                "later"))
    if n not in hub.store.tables():
        raise Refused(404, said("table {table} is not in this round", table=n))
    rounds = hub.store.rounds()
    now = hub.clock.moment()
    # a restarted hub about to take the time its tables kept may be an hour off: the
    # stamps, made on that kept time, are not judged against its own meanwhile
    settled = hub.kept.gathering(hub.clock.mono()) is None
    overs: dict[int, datetime | None] = {}
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
        if rnd.number not in overs:
            overs[rnd.number] = over_on(hub.store, rnd, n, cur)
        fault = stamp_fault(p.at, rnd.start, overs[rnd.number], now if settled else None)
        if fault is not None:
            if fault == "before":  # before every round: name the first it is before
                rnd = min((r for r in rounds if r.start > p.at), default=rnd,
                          key=lambda r: (r.start, r.number))
            nxt = following(rounds, rnd)
            rejected.append(Rejected(id=p.id, reason=presslimit.stamp_refused(
                fault, p.at, rnd.number, rnd.start, overs.get(rnd.number), now,
                venue(cur.profile), (nxt.number, nxt.start) if nxt else None)))
            continue
        rows.append(PressRow(p.id, rnd.number, n, p.power, p.kind, p.at))
    added = PressesAdded()
    if rows:
        added = hub.store.add_presses(rows, now, presslimit.POWER_ROUND_MOST, DEBOUNCE)
        by_id = {r.id: r for r in rows}
        rejected += [Rejected(id=i, reason=presslimit.refused(by_id[i].power, by_id[i].round))
                     for i in added.over]
    status.refusals.add([r.reason for r in rejected], now)
    if added.stored:
        publish(hub, {n})
    return PressesReply(stored=added.stored, duplicates=added.duplicates, merged=added.merged,
                        rejected=tuple(rejected))


@router.post("/tables/{n}/confirmations")
def post_confirmations(
    n: TablePath, body: ConfirmationBatch, request: Request, hub: HubDep, _: Clock
) -> ConfirmationsReply:
    """Players confirming their lines of the table's sheet with their powers' buttons: the
    clock is this table's (its token) and each button its power's, so a line confirmed so
    is its player's, as a signature on the paper sheet is.

    Each is made against the version of the sheet the clock showed, and every change
    raises the sheet's version, a line's confirmation too. Seven players press one after
    another against what their clock showed, each press on its way while the last one's
    push is, so a confirmation is refused only when what its player confirms changed
    since: the entries (a correction) or the TD's final (confirmed or reopened), never
    another player's line. The sheet keeps the version of its last such change
    (``Sheet.settled``, what the clock is sent as ``TableResult.version``), and a press
    made against any version from that one on is taken (``Store.edit_sheet``'s
    ``line``). One refused says what changed, and the clock asks for the new sheet's
    confirmation."""
    hub.seen(n, client_address(request))
    taken: list[str] = []
    refused: list[Rejected] = []
    now = hub.clock.moment()
    boards: dict[int, Board | None] = {}
    for c in body.confirmations:
        if c.round not in boards:
            boards[c.round] = board_of(hub.store, c.round)
        board = boards[c.round]
        if board is None:
            refused.append(Rejected(id=c.id, reason=f"no round {c.round} is set up"))
            continue
        try:
            hub.store.edit_sheet(c.round, n, c.version, _confirm_line(board, c.power, n), now,
                                 line=True)
        except SheetChanged as exc:  # what changed, on the venue's clock
            refused.append(Rejected(id=c.id, reason=exc.text(venue(board.profile))))
            continue
        except Refused as exc:  # in the table's words: its screen speaks the event's language
            refused.append(Rejected(id=c.id, reason=exc.in_(words_of(board.profile))))
            continue
        except StoreConflict as exc:
            refused.append(Rejected(id=c.id, reason=exc.message))
            continue
        taken.append(c.id)
    if taken:
        publish(hub, {n})
    return ConfirmationsReply(taken=tuple(taken), refused=tuple(refused))


@router.post("/tables/{n}/votes/presses")
def post_vote_presses(
    n: TablePath, body: VotePressBatch, request: Request, hub: HubDep, _: Clock
) -> ConfirmationsReply:
    """Powers' buttons pressed while a phone's choice waited for them
    (``TableVote.waiting_button``): the clock is this table's and each button its power's,
    so the choice is that power's player's (``server.votedesk.take_press``). Each press is
    its own transaction; one sent again (the clock's outbox) is taken again, changing
    nothing; one with no choice waiting, or that the rules refuse, is refused with why."""
    hub.seen(n, client_address(request))
    cur = current(hub.store)
    if cur is None:
        raise Refused(409, said("no round is set up yet"))
    board = Board(cur.round, cur.profile, cur.schedule)
    taken: list[str] = []
    refused: list[Rejected] = []

    def take(press: VotePress) -> str:
        return hub.store.vote_change(
            hub.clock.moment(), lambda tx: votedesk.take_press(tx, board, n, press),
            subject=votedesk.subject(cur.round.number, n), action=False)

    for p in body.presses:
        why = take(p)
        if why:
            refused.append(Rejected(id=p.id, reason=why))
        else:
            taken.append(p.id)
    publish(hub, {n})
    return ConfirmationsReply(taken=tuple(taken), refused=tuple(refused))


def _confirm_line(board: Board, power: str, table: int
                  ) -> Callable[[Sheet | None], tuple[Sheet, Summary] | None]:
    round_no = board.rnd.number

    def edit(stored: Sheet | None) -> tuple[Sheet, Summary] | None:
        if stored is None:
            raise Refused(409, said("no sheet to confirm"))
        if stored.td:
            raise Refused(409, said("the TD has confirmed this sheet already"))
        refused = board_problem(board, table, stored.body, words_of(board.profile))
        if refused is not None:  # read on the table's screen: the event's language
            raise Refused(409, said("the sheet cannot be confirmed as it stands: {problem}",
                                    problem=refused))
        if power in stored.confirmations:
            return None  # sent again (the clock's outbox): it stands
        return (replace(stored, confirmations={**stored.confirmations, power: "button"}),
                said("round {round} table {table} sheet: {power}'s line confirmed with its "
                     "button", round=round_no, table=table, power=said_power(power)))
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

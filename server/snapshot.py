"""The snapshot each kiosk gets (docs/protocol.md) and the push of it on every change."""

from __future__ import annotations

import json
from typing import Any

from dipclock.i18n import words_of
from dipclock.late import powers_out
from dipclock.powers import LETTERS
from dipclock.replacements import Replacement, begun, players_at
from dipclock.snapshot import Claim, PlayerFrom, Snapshot, SnapshotPress, TableResult
from server.context import Hub
from server.hallmessage import showing
from server.push import Frame
from server.resultsdesk import (
    Board,
    board_problem,
    board_result,
    players_of,
    sheet_link,
    sheet_secret,
)
from server.rounds import Current, current
from server.sheets import ending_text
from server.store import PressRow
from server.votedesk import table_votes, vote_codes


def models(hub: Hub, tables: set[int]) -> dict[int, Snapshot]:
    """One snapshot per table, sharing the event and schedule, with the same ``seq``."""
    cur = current(hub.store)
    seq = hub.store.seq()
    by_table: dict[int, tuple[PressRow, ...]] = {n: () for n in tables}
    players: dict[int, dict[str, str]] = {}
    upcoming: dict[int, tuple[PlayerFrom, ...]] = {}
    if cur is not None:
        by_table = hub.book.rows(hub.store, cur.round.number, sorted(tables))
        players = playing_now(hub, cur, players_of(hub.store, cur.round.number), tables)
        for _, r in hub.store.replacements(cur.round.number):
            if r.table in tables:
                upcoming[r.table] = (*upcoming.get(r.table, ()), PlayerFrom(
                    phase=r.phase.code, power=r.power, player=r.who))
    now = hub.clock.now()
    secret = sheet_secret(hub.store) if cur is not None else ""
    results = table_results(hub, cur, tables) if cur is not None else {}
    # the round played before: its QR code stays up until the current round starts
    before = hub.store.round_before(cur.round) if cur is not None else None
    message = showing(hub.store, hub.clock.moment())  # every table's, round or none
    votes = table_votes(hub.store, cur.profile, cur.round.number, tables,
                        hub.clock.moment()) if cur is not None else {}
    codes = vote_codes(hub.store, cur.round.number, tables,
                       hub.clock.moment()) if cur is not None else {}
    return {
        n: Snapshot(
            seq=seq,
            hub=hub.hub_id,
            restored=hub.restored,
            table=n,
            event=cur.profile if cur else None,
            schedule=cur.schedule if cur else None,
            out=powers_out(cur.profile, rows, cur.schedule.start) if cur else (),
            presses=tuple(SnapshotPress.model_validate(
                {"id": r.id, "power": r.power, "kind": r.kind, "at": r.at}) for r in rows),
            hub_time=now,
            claims=tuple(Claim.model_validate(c) for c in hub.claims(n)),
            clock=hub.clock_epoch,
            players=players.get(n, {}),
            players_from=upcoming.get(n, ()),
            sheet=sheet_link(secret, cur.round.number, n) if cur else None,
            sheet_before=sheet_link(secret, before, n) if before is not None else None,
            result=results.get(n),
            message=message,
            vote=votes.get(n),
            vote_code_until=codes.get(n),
        )
        for n, rows in by_table.items()
    }


def playing_now(hub: Hub, cur: Current, seated: dict[int, dict[str, str]],
                tables: set[int]) -> dict[int, dict[str, str]]:
    """Each table's players by power as they play now: a power replaced from a phase that
    has begun at that table (its clock's timetable at hub time) is named by its
    replacement, or ``civil disorder`` (``dipclock.replacements``)."""
    records: dict[int, list[Replacement]] = {}
    for _, r in hub.store.replacements(cur.round.number):
        if r.table in tables:
            records.setdefault(r.table, []).append(r)
    if not records:
        return seated
    now = hub.clock.moment()
    out = dict(seated)
    for n, mine in records.items():
        out[n] = players_at(seated.get(n, {}), mine, begun(cur.profile, cur.schedule, n, now))
    return out


def table_results(hub: Hub, cur: Current, tables: set[int]) -> dict[int, TableResult]:
    """Each of ``tables``' sheet in the current round, as its clock shows it for its
    players to confirm their lines with their buttons: its version is the one of what they
    confirm (``Sheet.settled``), the same for all seven presses."""
    out = {}
    board = Board(cur.round, cur.profile, cur.schedule)
    for sheet in hub.store.sheets(cur.round.number):
        if sheet.table not in tables:
            continue
        # the table's screen says the problem in the event's language
        refused = board_problem(board, sheet.table, sheet.body, words_of(cur.profile))
        out[sheet.table] = TableResult(
            round=sheet.round, version=sheet.settled, year=sheet.body.year,
            centres=dict(sheet.body.centres), ending=ending_text(sheet.body),
            scores={} if refused else {p: round(v, 2) for p, v in board_result(
                board, sheet.table, sheet.body).scores.items()},
            confirmed=tuple(p for p in LETTERS if p in sheet.confirmations),
            final=sheet.td, problem=refused or "")
    return out


#: What every table's snapshot shares: dumped once, not once per table (the event is most
#: of a snapshot, and a pause publishes to every table of the hall at once).
_SHARED = {"event", "schedule"}


def snapshots(hub: Hub, tables: set[int]) -> dict[int, dict[str, Any]]:
    """The snapshots of ``models`` as JSON-ready dicts: what the WebSocket sends."""
    built = models(hub, tables)
    if not built:
        return {}
    shared = next(iter(built.values())).model_dump(mode="json", include=_SHARED)
    return {n: snap.model_dump(mode="json", exclude=_SHARED) | shared
            for n, snap in built.items()}


def frames(hub: Hub, tables: set[int]) -> dict[int, Frame]:
    """The snapshots of ``models`` as the WebSocket sends them, the shared part encoded
    once: a pause encodes the event once, not once for each of a hundred tables."""
    built = models(hub, tables)
    if not built:
        return {}
    shared = json.dumps(next(iter(built.values())).model_dump(mode="json", include=_SHARED))
    return {n: Frame(snap.seq, json.dumps(snap.model_dump(mode="json", exclude=_SHARED))[:-1]
                     + ", " + shared[1:])
            for n, snap in built.items()}


def snapshot(hub: Hub, table: int) -> Snapshot:
    return models(hub, {table})[table]


def publish(hub: Hub, tables: set[int] | None = None) -> None:
    """Push the new state to every kiosk (or those of ``tables``) after a change."""
    hub.fanout.publish(lambda wanted: frames(hub, wanted), tables)


def check_claims(hub: Hub, table: int) -> None:
    """Tell the table's kiosks when the kiosks claiming it change (one more, one gone).

    The claims live in memory, not the store, so ``seq`` is bumped on its own: kiosks
    take only a snapshot whose ``seq`` has risen.
    """
    status = hub.status.get(table)
    if status is None:
        return
    now = tuple((c["id"], c["address"]) for c in hub.claims(table))
    if now != status.claims:
        status.claims = now
        hub.store.touch(hub.clock.moment())
        publish(hub, {table})

"""The dashboard's seating as the TD checks it: a round table by table with what to fix, the
teams' players seated nowhere, and what a list of players present makes.

What is flagged is the core's (``dipclock.seating.seating_problems``, the same lines that
stop the Seating card calling a draft), and a player is the same player only when the name
is the same, as the core compares: the page only shows what this module sends (issue 34:
the page had its own powers, its own idea of one player and its own warnings).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from dipclock.i18n import ENGLISH, Words
from dipclock.powers import LETTERS
from dipclock.seating import Table, seating_problems, table_plan, two_boards_allowed
from dipclock.seating.seat import played_enough
from dipclock.seating.seatfile import MOST_PLAYERS
from dipclock.snapshot import PlayerName
from server.context import Hub
from server.responses import Plan, PowerLine, SeatingView, SeatLine, TableView
from server.schemas import Body
from server.seatingdesk import earlier


class PlanIn(Body):
    """The players present, one name each, as the TD typed them, and the round they are
    to play (where given, those who have played the most rounds the event allows are
    counted out, as the draw sits them out)."""

    players: Annotated[list[PlayerName], Field(max_length=MOST_PLAYERS)]
    round: Annotated[int, Field(ge=1, le=99)] | None = None


def _two_boards(hub: Hub) -> bool:
    event = hub.store.event()
    return two_boards_allowed(event.standings if event else None)


def view(hub: Hub, picked: int | None, words: Words = ENGLISH) -> SeatingView:
    """Round ``picked`` (when seated or current; else the current round, else the first
    seated) table by table, each with the core's problems; the powers and the problems in
    ``words``' language."""
    seats = hub.store.seating()
    current = hub.store.current_round()
    now = current.number if current else None
    rounds = sorted({s.round for s in seats} | ({now} if now is not None else set()))
    shown = picked if picked in rounds else now if now is not None else (
        rounds[0] if rounds else None)
    by_table: dict[int, dict[str, str]] = {}
    if shown is not None and shown == now:
        by_table = {n: {} for n in hub.store.tables()}
    for s in seats:
        if s.round == shown:
            by_table.setdefault(s.table, {})[s.power] = s.player
    tables = [Table(n, by_table[n]) for n in sorted(by_table)]
    found = seating_problems(tables, two_boards=_two_boards(hub))
    out = []
    for t in tables:
        here = [p for p in found if t.number in p.tables]
        twice = {n for p in here for n in p.players}
        lines = [SeatLine(power=p, name=words.power(p), player=t.seats.get(p, ""),
                          twice=t.seats.get(p, "") in twice) for p in LETTERS]
        out.append(TableView(table=t.number, seats=lines if t.seats else [],
                             problems=[p.in_(words) for p in here]))
    seated = {s.player for s in seats}
    unseated = {team: [p for p in players if p not in seated]
                for team, players in hub.store.teams().items()}
    return SeatingView(
        powers=[PowerLine(letter=p, name=words.power(p)) for p in LETTERS],
        rounds=rounds, round=shown, tables=out,
        players=len({n for t in tables for n in t.seats.values()}),
        unseated={team: missing for team, missing in unseated.items() if missing})


def plan(hub: Hub, body: PlanIn, words: Words = ENGLISH) -> Plan:
    allowed = _two_boards(hub)
    event = hub.store.event()
    out: list[str] = []
    if body.round is not None and event is not None:
        out = played_enough(body.players, earlier(hub, body.round), body.round,
                            event.standings)
    return Plan(text=table_plan(body.players, allowed, out, words), two_boards=allowed)


__all__ = ["Plan", "PlanIn", "SeatingView", "plan", "view"]

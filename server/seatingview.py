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

from dipclock.powers import LETTERS, POWERS
from dipclock.seating import Table, seating_problems, table_plan, two_boards_allowed
from dipclock.snapshot import PlayerName
from server.context import Hub
from server.responses import Out
from server.resultsdesk import PowerLine
from server.schemas import Body

#: a hall's most players (as ``server.seatingdesk``'s draft takes)
MOST_PLAYERS = 7 * 999


class SeatLine(Out):
    """One seat of a table, in table order: its power and its player ("" for nobody)."""

    power: str  # "A"
    name: str  # "Austria"
    player: str
    #: the player is seated more often than the event allows (the page marks the seat)
    twice: bool


class TableView(Out):
    table: int
    seats: list[SeatLine]  # empty: nobody seated at this table yet
    problems: list[str]  # what to fix at this table, in the core's words


class SeatingView(Out):
    """``GET /api/td/seating/view``: one round's seating, with the rounds the TD can pick."""

    powers: list[PowerLine]  # the seven, in table order (the Seating card's draft too)
    rounds: list[int]  # the rounds seated, and the current one
    round: int | None  # the round shown; None: nothing seated, no round set up
    tables: list[TableView]  # the current round's: every table set up, seated or not
    players: int  # the players seated in the round (a name seated twice counts once)
    #: each team's players seated in no round (the team table would never count them)
    unseated: dict[str, list[str]]


class PlanIn(Body):
    """The players present, one name each, as the TD typed them."""

    players: Annotated[list[PlayerName], Field(max_length=MOST_PLAYERS)]


class Plan(Out):
    """``POST /api/td/seating/plan``: what the players make ("23 players: 3 tables, 2
    sitting out"), and whether the event lets a player play two boards."""

    text: str
    two_boards: bool


def _two_boards(hub: Hub) -> bool:
    event = hub.store.event()
    return two_boards_allowed(event.standings if event else None)


def view(hub: Hub, picked: int | None) -> SeatingView:
    """Round ``picked`` (when seated or current; else the current round, else the first
    seated) table by table, each with the core's problems."""
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
        lines = [SeatLine(power=p, name=POWERS[p], player=t.seats.get(p, ""),
                          twice=t.seats.get(p, "") in twice) for p in LETTERS]
        out.append(TableView(table=t.number, seats=lines if t.seats else [],
                             problems=[p.words for p in here]))
    seated = {s.player for s in seats}
    unseated = {team: [p for p in players if p not in seated]
                for team, players in hub.store.teams().items()}
    return SeatingView(
        powers=[PowerLine(letter=p, name=POWERS[p]) for p in LETTERS],
        rounds=rounds, round=shown, tables=out,
        players=len({n for t in tables for n in t.seats.values()}),
        unseated={team: missing for team, missing in unseated.items() if missing})


def plan(hub: Hub, body: PlanIn) -> Plan:
    allowed = _two_boards(hub)
    return Plan(text=table_plan(body.players, allowed), two_boards=allowed)


__all__ = ["Plan", "PlanIn", "SeatingView", "plan", "view"]

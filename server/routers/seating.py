"""The seating: who plays which power at which table in each round, and the units a power
had in a phase.

The TD seats a round on the dashboard (``server.seatingdesk``: drafted by the core, moved
by hand, called) or imports a CSV file (``round,table,power,player``); the review and the
penalties CSV name the player beside the power (``server.review``) and each table's kiosk
names a late power's player. Under a graduated penalty the TD enters a late power's units
("A Vie, A Bud, F Tri") and the review names the orders its penalty deletes. Included by
``server.routers.td`` under its ``/api`` prefix.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from dipclock.i18n import Said, said
from dipclock.names import name_key
from dipclock.sentences import plural
from dipclock.sentences import power as said_power
from server import actions, seatingdesk, seatingview
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep
from server.language import PhoneWords
from server.refusal import Refused
from server.responses import (
    Draft,
    Judged,
    Plan,
    SeatingSet,
    SeatingView,
    SeatOut,
    TeamsSet,
    UnitsOut,
    UnitsSet,
)
from server.schemas import SeatingIn, TeamsIn, UnitsIn
from server.snapshot import publish
from server.store import Units

router = APIRouter(tags=["seating"])


@router.get("/td/seating", response_model=list[SeatOut])
def seating(
    _: TD, hub: HubDep, round: Annotated[int | None, Query(ge=1, le=99)] = None
) -> list[SeatOut]:
    """Every seat of round ``round`` (or of every round)."""
    return [SeatOut(round=s.round, table=s.table, power=s.power, player=s.player)
            for s in hub.store.seating(round)]


@router.get("/td/seating/view", response_model=SeatingView)
def seating_view(
    _: TD, hub: HubDep, words: PhoneWords,
    round: Annotated[int | None, Query(ge=1, le=99)] = None,
) -> SeatingView:
    """Round ``round`` (default: the current one) table by table with what to fix, as the
    core finds it, and each team's players seated nowhere: the dashboard shows only this
    (the powers named in the phone's language)."""
    return seatingview.view(hub, round, words)


@router.post("/td/seating/plan", response_model=Plan)
def seating_plan(body: Parsed[seatingview.PlanIn], _: TD, hub: HubDep,
                 words: PhoneWords) -> Plan:
    """What the players present make ("23 players: 3 tables, 2 sitting out"), by the
    event's rules (two boards only where it allows them), in the phone's language."""
    return seatingview.plan(hub, body, words)


@router.put("/td/seating", response_model=SeatingSet)
def set_seating(body: Parsed[SeatingIn], _: TDWrite, hub: HubDep, base: Base,
                words: PhoneWords) -> SeatingSet:
    """Seat players (from a list or a CSV file's text); a seat given with no player is
    cleared. Seats not named stay as they are. The summary in the phone's language."""
    done = actions.seat(body)
    # which tables, too: what the TD checks first after an import (and the log keeps)
    tables = sorted({s.table for s in done.what})
    summary = plural("{change}, table {tables}", "{change}, tables {tables}",
                             len(tables), change=done.said,
                             tables=actions.table_ranges(tables))
    hub.store.set_seating(done.what, hub.clock.moment(), summary, base=base)
    publish(hub)  # the tables' screens name their players: a new seating reaches them now
    return SeatingSet(seats=len(done.what), summary=summary.in_(words), seq=hub.store.seq())


@router.post("/td/seating/draft", response_model=Draft)
async def seating_draft(body: Parsed[seatingdesk.DraftIn], _: TD, hub: HubDep,
                        request: Request, words: PhoneWords) -> Response:
    """Round ``round`` seated from the players present and the rounds the hub holds, with
    its figures; nothing is stored (the TD moves players, then calls it). Seated in the
    hub's back room, a process of its own, stopped if the TD's page leaves first; ``async``
    so that it can tell: the loop only waits (``server.seatingdesk.draft``). Its problems
    and notes in the phone's language."""
    drafted = await seatingdesk.draft(hub, body, request.is_disconnected, words)
    return Response(drafted, media_type="application/json")


@router.post("/td/seating/check", response_model=Judged)
def seating_check(body: Parsed[seatingdesk.CheckIn], _: TD, hub: HubDep,
                  words: PhoneWords) -> Judged:
    """A seating's figures and problems as the TD has it now (after moving players), the
    problems in the phone's language."""
    return seatingdesk.check(hub, body, words)


@router.put("/td/seating/round", response_model=SeatingSet)
def call_seating(body: Parsed[seatingdesk.CheckIn], _: TDWrite, hub: HubDep,
                 base: Base, words: PhoneWords) -> SeatingSet:
    """Call the seating: it replaces the round's whole seating in one write, and the
    tables' screens show their players. Refused for a round that has been played."""
    seats, summary = seatingdesk.call(hub, body)
    hub.store.replace_round_seating(body.round, seats, hub.clock.moment(), summary,
                                    base=base)
    publish(hub)
    return SeatingSet(seats=len(seats), summary=summary.in_(words), seq=hub.store.seq())


@router.get("/td/teams", response_model=dict[str, list[str]])
def teams(_: TD, hub: HubDep) -> dict[str, list[str]]:
    """Each team's players."""
    return hub.store.teams()


@router.put("/td/teams", response_model=TeamsSet)
def set_teams(body: Parsed[TeamsIn], _: TDWrite, hub: HubDep, base: Base,
              words: PhoneWords) -> TeamsSet:
    """Replace the teams (``team,player`` lines): the standings' team table follows. With
    a roster, each player is one of its people, kept in its spelling (refused by line)."""
    roster = {p.key: p.name for _, p in hub.store.people()}
    done = actions.teams_from_csv(body.csv, roster or None)
    hub.store.set_teams(done.what, hub.clock.moment(), done.said, base=base)
    summary = done.said
    return TeamsSet(summary=summary.in_(words) if isinstance(summary, Said) else summary,
                    seq=hub.store.seq())


@router.put("/td/teams/from-roster", response_model=TeamsSet)
def set_teams_from_roster(_: TDWrite, hub: HubDep, base: Base,
                          words: PhoneWords) -> TeamsSet:
    """Replace the teams with the roster's clubs (its "club or team" column, issue 36: a
    name is typed once per event): each person with a club in that club's team, by their
    display name. Refused (409, one line) with no roster, no one with a club, or an event
    whose team round is seated from its teams: each member there plays a power the roster
    does not hold (graduated20 2: "teams of seven players, with one player playing each
    of the seven Great Powers"), so those teams stay ``team,player,power`` lines."""
    members, summary = _roster_teams(hub)
    hub.store.set_teams(members, hub.clock.moment(), summary, base=base)
    return TeamsSet(summary=summary.in_(words), seq=hub.store.seq())


def _roster_teams(hub: Hub) -> tuple[list[tuple[str, str, str | None]], Said]:
    """The teams the roster's clubs make, and the log's line; clubs spelt alike ("Paris
    DC", "paris dc") are one team, named as first written."""
    event = hub.store.event()
    if event is not None and event.standings and event.standings.team_round_from_teams:
        raise Refused(409, said("teams from the roster: the team round of {event} is "
                                "seated from its teams, each player at a power, and the "
                                "roster holds no powers: give team,player,power lines in the "
                                "box instead", event=event.name))
    people = [p for _, p in hub.store.people()]
    if not people:
        raise Refused(409, said("teams from the roster: the roster is empty: import it on "
                                "the Roster card first (its club or team column makes the "
                                "teams)"))
    teams: dict[str, str] = {}
    members: list[tuple[str, str, str | None]] = [
        (teams.setdefault(name_key(p.club), p.club), p.name, None) for p in people if p.club]
    if not members:
        raise Refused(409, plural(
            "teams from the roster: no one on the roster ({n} person) has a club or team: "
            "fill in their club, or give team,player lines in the box",
            "teams from the roster: no one on the roster ({n} people) has a club or team: "
            "fill in their club, or give team,player lines in the box", len(people)))
    left = len(people) - len(members)
    summary = said("teams from the roster: {teams}, {players}",
                   teams=plural("{n} team", "{n} teams", len(teams)),
                   players=plural("{n} player", "{n} players", len(members)))
    if left:
        summary = said("{change}; {people} with no club in no team", change=summary,
                       people=plural("{n} person", "{n} people", left))
    return members, summary


@router.get("/td/units", response_model=list[UnitsOut])
def units(
    _: TD, hub: HubDep, round: Annotated[int | None, Query(ge=1, le=99)] = None
) -> list[UnitsOut]:
    """The units the TD entered, per power and phase, of round ``round`` (or every round)."""
    return [UnitsOut(round=u.round, table=u.table, power=u.power, phase=u.phase,
                     units=list(u.units)) for u in hub.store.units(round)]


@router.put("/td/units", response_model=UnitsSet)
def set_units(body: UnitsIn, _: TDWrite, hub: HubDep, base: Base,
              words: PhoneWords) -> UnitsSet:
    """A power's units in one phase (replacing those given before; none clears them), so
    the review names the orders a graduated penalty deletes."""
    # the power by its name (the reader's), the phase and the units as their codes
    where = {"round": body.round, "table": body.table, "power": said_power(body.power),
             "phase": body.phase}
    summary = (said("units: round {round} table {table} {power} {phase}: {units}",
                    units=", ".join(body.units), **where) if body.units
               else said("units: round {round} table {table} {power} {phase} cleared",
                         **where))
    hub.store.set_units(Units(body.round, body.table, body.power, body.phase, body.units),
                        hub.clock.moment(), summary, base=base)
    return UnitsSet(units=list(body.units), summary=summary.in_(words), seq=hub.store.seq())

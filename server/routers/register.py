"""Registration for a round on the hub, for the TD only: who of the roster plays round N.

``GET /api/td/register/{round}``: every person with their status in the round, what it
gives the seating (the players, the sit-out order, the roster's kept-apart pairs) and
whether the board call has been made. ``PUT .../people/{id}`` marks one person (one tap),
``POST .../preregistered`` marks every pre-registered person present (one tap). The rules
are the core's (``dipclock.roster.register``); the store checks a mark in its write.

Every route needs the TD's session (``server.gate``), every change its CSRF header too,
each body bounded (``server.bodylimit``'s default: a mark is a few bytes).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Response

from dipclock.roster.register import (
    WORDS,
    Status,
    counts,
    for_seating,
    signed_up_late,
)
from dipclock.standings import StandingsRules
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep, heavy_read
from server.language import PhoneWords
from server.responses import Registered, RegisterOut, Said, render
from server.schemas import Body
from server.store.register import statuses
from server.store.roster import apart_pairs

router = APIRouter(prefix="/api/td", tags=["register"])

RoundNo = Annotated[int, Path(ge=1, le=99, description="the round")]
PersonId = Annotated[int, Path(ge=1, le=2**62, description="the person's id")]


class MarkIn(Body):
    """One person's status in the round."""

    status: Status


def register_out(hub: Hub, round_no: int) -> RegisterOut:
    base = hub.store.audit_head()  # read first: what follows is at least this new
    people = hub.store.people()
    marks = hub.store.marks(round_no)
    event = hub.store.event()
    rules = event.standings if event else None
    status = statuses(people, marks, round_no)
    seating = for_seating(people, marks, round_no, rules=rules,
                          late=_late(hub, round_no, rules))
    return RegisterOut(
        round=round_no, called=hub.store.called(round_no),
        people=[Registered(id=i, name=p.name, status=status[i],
                           preregistered=p.preregistered) for i, p in people],
        counts=dict(counts(status)), players=list(seating.players),
        sit_out_first=[list(g) for g in seating.sit_out_first], groups=list(seating.groups),
        apart=[list(p) for p in sorted(apart_pairs(hub.store))],
        bonus=rules.sit_out_bonus if rules else 0.0, words=dict(WORDS), base=base)


def _late(hub: Hub, round_no: int, rules: StandingsRules | None) -> list[int]:
    """Who signed up for round ``round_no`` after the event's deadline, where its sit-out
    order has a ``late`` group and the round has a start (wdc2006 2)."""
    if rules is None or "late" not in rules.sit_out_groups \
            or rules.signup_deadline_minutes is None:
        return []
    rnd = hub.store.round(round_no)
    if rnd is None:
        return []
    deadline = rnd.start - timedelta(minutes=rules.signup_deadline_minutes)
    return signed_up_late(hub.store.mark_lines(round_no), deadline)


@router.get("/register/{round_no}", response_model=RegisterOut)
async def register(round_no: RoundNo, _: TD, hub: HubDep) -> Response:
    """Round ``round_no``'s register and what it gives the seating."""
    return await heavy_read(hub, lambda: render(RegisterOut, register_out(hub, round_no)))


@router.put("/register/{round_no}/people/{person_id}", response_model=Said)
def mark(round_no: RoundNo, person_id: PersonId, body: Parsed[MarkIn], _: TDWrite,
         hub: HubDep, base: Base, words: PhoneWords) -> Said:
    """Mark one person: present, absent, asking to sit out, withdrawn (from this round
    on). Present is refused (409, with why) once the round's seating is called. The
    summary is in the phone's language."""
    who, was = hub.store.mark(round_no, person_id, body.status, hub.clock.moment(),
                              base=base)
    said = words("{name}: {status} in round {round}", name=who.name,
                 status=words(WORDS[body.status]), round=round_no)
    return Said(summary=said if was != body.status else words("{said} (already)", said=said))


@router.post("/register/{round_no}/preregistered", response_model=Said)
def mark_preregistered(round_no: RoundNo, _: TDWrite, hub: HubDep, base: Base,
                       words: PhoneWords) -> Said:
    """Every pre-registered person not yet marked (nor withdrawn) present; the summary in
    the phone's language."""
    names = hub.store.mark_preregistered(round_no, hub.clock.moment(), base=base)
    if not names:
        return Said(summary=words("round {round}: every pre-registered player was marked "
                                  "already", round=round_no))
    return Said(summary=words.plural("round {round}: {n} pre-registered player marked present",
                                     "round {round}: {n} pre-registered players marked present",
                                     len(names), round=round_no))


__all__ = ["router"]

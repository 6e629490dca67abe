"""The event's roster on the hub: its people and the pairs kept apart, for the TD only.

Every route needs the TD's session (``server.gate`` checks it before a byte of a body is
read), and every change its CSRF header too; each body is bounded (``server.bodylimit``:
a person a few KB, an import's file 2 MB). What a person and an import are is the core's
(``dipclock.roster``); the store checks each change against the roster as it writes it.

An import (``POST /api/td/roster/import``) takes the file's bytes as they are (UTF-8, or
what ``dipclock.roster.decode`` reads) and merges them into the roster by default: the
file's new people are added, those it names again updated, nobody removed; ``mode=replace``
makes the roster the file's people, refused whole if it would remove someone seated. A
line refused (by its number, with why) stores nothing (422, every refusal listed) unless
``keep_good=true``: then the good lines are stored and the reply lists the refused ones.
"""

from __future__ import annotations

from typing import Annotated, Literal

import anyio.to_thread
from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from dipclock.i18n import Words, said
from dipclock.roster import (
    Person,
    PersonError,
    RosterFile,
    RosterFileError,
    decode,
    person,
    read_roster,
    write_roster,
)
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep, heavy_read
from server.language import PhoneWords
from server.refusal import Refused
from server.responses import (
    ApartOut,
    ImportOut,
    PersonChanged,
    PersonOut,
    RefusedLine,
    RosterOut,
    Said,
    render,
)
from server.schemas import Body

router = APIRouter(prefix="/api/td", tags=["roster"])

PersonId = Annotated[int, Path(ge=1, le=2**62, description="the person's id")]
Text = Annotated[str, Field(max_length=200)]


class PersonIn(Body):
    """One person as the TD types them (each field checked by ``dipclock.roster.person``)."""

    given_name: Text
    family_name: Text
    homonym: Annotated[int, Field(ge=1, le=99)] = 1
    note: Text = ""
    wdd: Annotated[int, Field(ge=1, le=999_999_999)] | None = None
    wdr: Annotated[int, Field(ge=1, le=999_999_999)] | None = None
    nationality: Text = ""
    club: Text = ""
    preregistered: bool = False
    email: Annotated[str, Field(max_length=300)] = ""
    location: Text = ""


class ApartIn(Body):
    """Two people (by id) never to be seated at one table."""

    a: Annotated[int, Field(ge=1, le=2**62)]
    b: Annotated[int, Field(ge=1, le=2**62)]


def _out(person_id: int, p: Person) -> PersonOut:
    return PersonOut(id=person_id, name=p.name, given_name=p.given, family_name=p.family,
                     homonym=p.homonym, note=p.note, wdd=p.wdd, wdr=p.wdr,
                     nationality=p.nationality, club=p.club, preregistered=p.preregistered,
                     email=p.email, location=p.location)


def _person(body: PersonIn) -> Person:
    try:
        return person(body.given_name, body.family_name, homonym=body.homonym,
                      note=body.note, wdd=body.wdd, wdr=body.wdr,
                      nationality=body.nationality, club=body.club,
                      preregistered=body.preregistered, email=body.email,
                      location=body.location)
    except PersonError as exc:
        raise Refused(422, exc) from None


def roster_out(hub: Hub) -> RosterOut:
    return RosterOut(people=[_out(i, p) for i, p in hub.store.people()],
                     apart=[ApartOut(a=a, b=b, a_name=x, b_name=y)
                            for a, b, x, y in hub.store.apart()])


@router.get("/roster", response_model=RosterOut)
async def roster(_: TD, hub: HubDep) -> Response:
    """Every person, in the order they joined, and the pairs kept apart."""
    return await heavy_read(hub, lambda: render(RosterOut, roster_out(hub)))


@router.get("/roster.csv", response_class=Response, responses={
    200: {"content": {"text/csv": {}}, "description": "the roster, a person a line"}})
async def roster_csv(_: TD, hub: HubDep) -> Response:
    """The roster as the CSV file an import reads back (``dipclock.roster.COLUMNS``)."""
    text = await heavy_read(hub, lambda: write_roster([p for _, p in hub.store.people()]))
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="roster.csv"'})


@router.post("/roster/people", response_model=PersonChanged, status_code=201)
def add_person(body: Parsed[PersonIn], _: TDWrite, hub: HubDep, base: Base,
               words: PhoneWords) -> PersonChanged:
    """Add one person (refused, 409, if the roster has the name or an id)."""
    p = _person(body)
    person_id = hub.store.add_person(p, hub.clock.moment(), base=base)
    return PersonChanged(person=_out(person_id, p),
                         summary=words("{name} added to the roster", name=p.name))


@router.put("/roster/people/{person_id}", response_model=PersonChanged)
def edit_person(person_id: PersonId, body: Parsed[PersonIn], _: TDWrite, hub: HubDep,
                base: Base, words: PhoneWords) -> PersonChanged:
    """Person ``person_id`` as given (every field). A seated person's name stays."""
    p = _person(body)
    was = hub.store.edit_person(person_id, p, hub.clock.moment(), base=base)
    summary = words("{name} changed on the roster", name=p.name) if was.name == p.name else \
        words("{was}, now {name}, changed on the roster", was=was.name, name=p.name)
    return PersonChanged(person=_out(person_id, p), summary=summary)


@router.delete("/roster/people/{person_id}", response_model=Said)
def remove_person(person_id: PersonId, _: TDWrite, hub: HubDep, base: Base,
                  words: PhoneWords) -> Said:
    """Take a person off the roster (and out of their pairs kept apart); refused while a
    seat of any round names them, saying where."""
    was = hub.store.remove_person(person_id, hub.clock.moment(), base=base)
    return Said(summary=words("{name} removed from the roster", name=was.name))


@router.post("/roster/import", response_model=ImportOut, responses={
    422: {"description": "lines refused and nothing stored (``refused`` lists them), or a "
                         "file that cannot be read"}})
async def import_roster(
    request: Request, _: TDWrite, hub: HubDep, base: Base, words: PhoneWords,
    mode: Annotated[Literal["merge", "replace"], Query()] = "merge",
    keep_good: Annotated[bool, Query()] = False,
) -> Response:
    """The body is the CSV file's bytes, as saved (``text/csv``). The summary, the notes,
    the refused lines' reasons and a refusal in the phone's language; the names as
    written."""
    data = await request.body()  # bounded by server.bodylimit before it got here
    return await anyio.to_thread.run_sync(
        lambda: _import(hub, data, mode == "replace", keep_good, base, words))


def _import(hub: Hub, data: bytes, replace: bool, keep_good: bool,
            base: int | None, words: Words) -> Response:
    try:
        text, note = decode(data)
        read = read_roster(text)
    except RosterFileError as exc:
        raise Refused(422, said("roster file: {error}", error=exc)) from None
    read = RosterFile(read.people, read.refused, ((note,) if note else ()) + read.notes)
    done = hub.store.import_roster(read, hub.clock.moment(), replace=replace,
                                   keep_good=keep_good, base=base)
    c = done.combined
    out = ImportOut(
        stored=done.stored, added=[p.name for p in c.added],
        updated=[new.name for _, new in c.updated], removed=[p.name for p in c.removed],
        refused=[RefusedLine(line=r.line, why=r.why.in_(words)) for r in c.refused],
        notes=[n.in_(words) for n in read.notes],
        summary=c.summary(words) if done.stored
        else words("roster import: nothing stored") if c.refused
        else words("roster import: nothing to change"))
    if c.refused and not done.stored:
        first = "; ".join(r.text().in_(words) for r in c.refused[:3])
        if len(c.refused) > 3:
            first = words("{lines} (and {n} more)", lines=first, n=len(c.refused) - 3)
        detail = words.plural(
            "roster file: {n} line refused, nothing stored: {lines}. Fix the file, or import "
            "it keeping the good lines",
            "roster file: {n} lines refused, nothing stored: {lines}. Fix the file, or "
            "import it keeping the good lines", len(c.refused), lines=first)
        return JSONResponse(out.model_dump() | {"detail": detail}, status_code=422)
    return render(ImportOut, out)


@router.get("/roster/apart", response_model=list[ApartOut])
def apart(_: TD, hub: HubDep) -> list[ApartOut]:
    """The pairs kept apart, by person."""
    return roster_out(hub).apart


@router.post("/roster/apart", response_model=Said)
def keep_apart(body: Parsed[ApartIn], _: TDWrite, hub: HubDep, base: Base,
               words: PhoneWords) -> Said:
    """Keep two people apart: never seated at one table."""
    a, b = hub.store.set_apart(body.a, body.b, False, hub.clock.moment(), base=base)
    return Said(summary=words("{first} and {second} kept apart", first=a, second=b))


@router.delete("/roster/apart/{a}/{b}", response_model=Said)
def no_longer_apart(a: PersonId, b: PersonId, _: TDWrite, hub: HubDep,
                    base: Base, words: PhoneWords) -> Said:
    """Two people no longer kept apart."""
    first, second = hub.store.set_apart(a, b, True, hub.clock.moment(), base=base)
    return Said(summary=words("{first} and {second} no longer kept apart", first=first,
                              second=second))


__all__ = ["router"]

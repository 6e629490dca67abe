"""The dashboard's Seating card: a round seated by the core from the players present and
the rounds the hub holds, previewed with its quality, checked again after the TD moves two
players, and called (stored) in one write.

Who sits where is the core's (``dipclock.seating``); this module only gathers what it
needs from the store and says what it found in the dashboard's words. A draft is not
stored: the TD's phone holds it until it is called, so a second phone or a reload never
calls a seating the TD did not see.

A draft's search takes seconds (a 140-player round 5: 2 to 12), so it runs in the hub's
back room (``server.seatingjob`` in a process of ``server.backroom``'s), never in the
interpreter that answers the clocks. A check or a call only counts what a seating repeats
(under a millisecond for 20 tables) and stays in a worker thread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated

import anyio.to_thread
from pydantic import Field

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS, PowerLetter
from dipclock.seating import (
    Past,
    Seat,
    SeatingError,
    Table,
    apart_together,
    pair,
    pairs_met_before,
    powers_repeated,
    problems,
    read_past,
    two_boards_allowed,
)
from dipclock.seating.seatfile import MOST_PLAYERS
from dipclock.seating.teams import team_apart
from dipclock.snapshot import PlayerName
from dipclock.standings import StandingsRules
from server import seatingjob
from server.backroom import Gone, Task
from server.context import Hub
from server.refusal import Refused
from server.responses import Draft, Judged, Quality, TableOut
from server.resultsdesk import game_scores, players_of
from server.schemas import Body, TableNo

#: a hall's most pairs kept apart
MOST_APART = 2000


class TableIn(Body):
    table: TableNo
    seats: dict[PowerLetter, PlayerName]


class DraftIn(Body):
    """Seat round ``round`` for ``players`` (those present). ``keep``: tables of the round
    already called, kept as the hub holds them; ``two_boards``: players willing to play a
    second board, where the event allows it; ``seed``: the same seed seats the same."""

    round: Annotated[int, Field(ge=1, le=99)]
    players: Annotated[list[PlayerName], Field(max_length=MOST_PLAYERS)]
    apart: Annotated[list[tuple[PlayerName, PlayerName]], Field(max_length=MOST_APART)] = []
    keep: Annotated[list[TableNo], Field(max_length=999)] = []
    two_boards: Annotated[list[PlayerName], Field(max_length=6)] = []
    seed: Annotated[int, Field(ge=0, le=2**31)] | None = None
    #: groups of the players who sit out before the rest, in order (the register's:
    #: ``dipclock.roster.register.for_seating``)
    sit_out_first: Annotated[list[Annotated[list[PlayerName], Field(max_length=MOST_PLAYERS)]],
                             Field(max_length=4)] = []
    #: the TD's names for top-board seats the ranking leaves tied (a withdrawn player's seat
    #: goes to the next in the ranking; where those next are level, the TD names who)
    top_board_pick: Annotated[list[PlayerName], Field(max_length=7)] = []


class CheckIn(Body):
    """A seating as the TD has it now (after moving players by hand), to be judged."""

    round: Annotated[int, Field(ge=1, le=99)]
    tables: Annotated[list[TableIn], Field(min_length=1, max_length=999)]
    apart: Annotated[list[tuple[PlayerName, PlayerName]], Field(max_length=MOST_APART)] = []


def earlier(hub: Hub, before: int) -> Past:
    """The rounds before ``before`` as the hub holds them, counted; a seating no round can
    have had (a player twice at a table, imported so) is a 422 naming it."""
    try:
        return read_past(s for s in hub.store.seating() if s.round < before)
    except SeatingError as exc:
        raise Refused(422, said("seating: the hub's {error}", error=exc)) from None


#: a draft in the TD's words, for the back room's lines ("the draft took longer ...")
DRAFT = Task(said("the draft"), said("seat fewer players at once"))


async def draft(hub: Hub, body: DraftIn, gone: Gone, words: Words = ENGLISH) -> bytes:
    """Round ``body.round`` seated by the core in the hub's back room (a process of its
    own: ``server.backroom``), the reply's JSON made in a worker thread: the event loop
    only waits. A seating that cannot be is a 422; ``gone``: has the TD's page left?
    ``words``: the TD's phone's, for the draft's problems and notes."""
    job = await anyio.to_thread.run_sync(lambda: draft_job(hub, body))
    if hub.backroom is None:
        raise Refused(503, said("the hub is starting: try again in a moment"))
    try:
        drafted = await hub.backroom.run(seatingjob.draft, job, DRAFT, gone)
    except SeatingError as exc:
        raise Refused(422, said("seating: {error}", error=exc)) from None
    return await anyio.to_thread.run_sync(
        lambda: reply(job, drafted, played(hub, job.round), words).model_dump_json().encode())


def draft_job(hub: Hub, body: DraftIn) -> seatingjob.DraftJob:
    """What a draft needs from the store (quick reads, in a worker thread); refused (422)
    for tables to keep that are not seated, or two boards where the event does not allow
    them."""
    rules = _rules(hub)
    if body.two_boards and not two_boards_allowed(rules):
        event = hub.store.event()
        raise Refused(422, said("two boards: {event}'s rules do not let a player play two "
                                "boards", event=event.name) if event else
                      said("two boards: the event's rules do not let a player play two "
                           "boards"))
    held = players_of(hub.store, body.round)
    missing = [n for n in body.keep if n not in held]
    if missing:
        raise Refused(422, said("keep: round {round} has no table {table} seated",
                                round=body.round, table=missing[0]))
    top_board = rules is not None and rules.top_board_round == body.round
    players = tuple(spelling(p) for p in body.players if p.strip())
    known = {name_key(p): p for p in players}  # "josé" willing is the players' "José"
    return seatingjob.DraftJob(
        round=body.round,
        players=players,
        earlier=tuple(s for s in hub.store.seating() if s.round < body.round),
        seed=body.seed if body.seed is not None else random.randrange(10**6),
        apart=frozenset(_apart(body.apart)),
        kept=tuple(Table(n, held[n]) for n in sorted(set(body.keep))),
        two_boards=tuple(known.get(name_key(p), spelling(p)) for p in body.two_boards),
        rules=rules,
        scores=tuple(game_scores(hub.store, body.round - 1)) if top_board else (),
        sit_out_first=tuple(tuple(known.get(name_key(p), spelling(p)) for p in group)
                            for group in body.sit_out_first),
        top_board_pick=tuple(known.get(name_key(p), spelling(p)) for p in body.top_board_pick),
        teams=tuple((t, tuple(known.get(name_key(p), spelling(p)) for p in members))
                    for t, members in hub.store.teams().items()),
        team_powers=tuple((t, tuple((letter, known.get(name_key(p), spelling(p)))
                                    for letter, p in seats.items()))
                          for t, seats in hub.store.team_powers().items()))


def reply(job: seatingjob.DraftJob, drafted: seatingjob.Drafted, played: str,
          words: Words = ENGLISH) -> Draft:
    """The dashboard's draft: the back room's seating with its figures and problems, and
    what its round holds that was played (read as it is answered); its problems and notes
    in ``words``."""
    seated = drafted.seating
    return Draft(
        round=job.round, tables=_out(seated.tables),
        quality=Quality(pairs_met_before=seated.pairs_met_before,
                        powers_repeated=seated.powers_repeated,
                        apart_together=seated.apart_together),
        problems=[p.in_(words) for p in drafted.problems], played=played, seed=job.seed,
        sitting_out=list(seated.sitting_out), two_boards=list(seated.two_boards),
        top_board=list(drafted.top_board), notes=[n.in_(words) for n in drafted.notes])


def judge(hub: Hub, number: int, tables: list[Table], apart: set[tuple[str, str]],
          past: Past, rules: StandingsRules | None, words: Words = ENGLISH) -> Judged:
    """A seating's figures against the rounds before it (``past``), and its problems in
    ``words``."""
    return Judged(
        round=number,
        tables=_out(tables),
        quality=Quality(pairs_met_before=pairs_met_before(tables, past),
                        powers_repeated=powers_repeated(tables, past),
                        apart_together=apart_together(tables, apart)),
        problems=[p.in_(words) for p in _problems(tables, apart, rules)],
        played=played(hub, number))


def _problems(tables: list[Table], apart: set[tuple[str, str]],
              rules: StandingsRules | None) -> list[Said]:
    return problems(tables, apart, two_boards_allowed(rules))


def _checked(hub: Hub, body: CheckIn
             ) -> tuple[list[Table], set[tuple[str, str]], Past, StandingsRules | None]:
    """The TD's seating, the pairs it keeps apart (the team-mates' too), the rounds before
    it and the event's rules; a table given twice is refused."""
    numbers = [t.table for t in body.tables]
    twice = next((n for i, n in enumerate(numbers) if n in numbers[:i]), None)
    if twice is not None:
        raise Refused(422, said("seating: table {table} is given twice", table=twice))
    past, rules = earlier(hub, body.round), _rules(hub)
    mates = team_apart({t: [spelling(p) for p in m] for t, m in hub.store.teams().items()},
                       rules, body.round, past)
    return _tables(body.tables), _apart(body.apart) | mates, past, rules


def check(hub: Hub, body: CheckIn, words: Words = ENGLISH) -> Judged:
    """The TD's seating judged, its problems in ``words`` (the TD's phone's)."""
    tables, apart, past, rules = _checked(hub, body)
    return judge(hub, body.round, tables, apart, past, rules, words)


def call(hub: Hub, body: CheckIn) -> tuple[list[Seat], Said]:
    """The seats that replace round ``body.round``'s, and the log's line; refused (409)
    when the round has been played (``Store.replace_round_seating`` checks it again in
    its write) or the seating has a problem (said in the reader's language)."""
    tables, apart, past, rules = _checked(hub, body)
    judged = judge(hub, body.round, tables, apart, past, rules)
    if judged.played:  # looked at first, to say so before any problem; the write looks again
        raise hub.store.seating_stays(body.round, judged.played)
    found = _problems(tables, apart, rules)
    if found:
        raise Refused(422, said("seating: {error}", error=found[0]))
    seats = [Seat(body.round, t.table, p, n) for t in judged.tables for p, n in t.seats.items()]
    q = judged.quality
    summary = said("seating: round {round} called, {tables} tables; {pairs} pairs met "
                   "before, {repeats} powers repeated", round=body.round,
                   tables=len(judged.tables), pairs=q.pairs_met_before,
                   repeats=q.powers_repeated)
    return seats, summary


def played(hub: Hub, number: int) -> str:
    """What round ``number`` holds that was played ("" if nothing: its seating may
    change)."""
    rnd = hub.store.round(number)
    if rnd is None:
        return ""
    record = hub.store.record(rnd)
    return record.text() if record else ""


def _out(tables: Sequence[Table]) -> list[TableOut]:
    return [TableOut(table=t.number, seats={p: t.seats[p] for p in LETTERS if p in t.seats})
            for t in tables]


def _tables(tables: list[TableIn]) -> list[Table]:
    return [Table(t.table, {p: n.strip() for p, n in t.seats.items()})
            for t in sorted(tables, key=lambda t: t.table)]


def _apart(pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
    return {pair(a.strip(), b.strip()) for a, b in pairs}


def _rules(hub: Hub) -> StandingsRules | None:
    """The event's standings rules: its top board, whether it allows two boards."""
    event = hub.store.event()
    return event.standings if event else None


__all__ = ["CheckIn", "Draft", "DraftIn", "Judged", "call", "check", "draft"]

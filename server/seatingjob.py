"""The seating desk's heavy half: a round drafted by the core (``dipclock.seating``) from
inputs the hub read for it, in the hub's back room (``server.backroom``), a process of its
own. ``server.seatingdesk`` reads the store, hands a ``DraftJob`` over and turns the
``Drafted`` it gets back into the dashboard's reply.

It imports the core only: the back room's fork server imports this module once and every
draft's process starts from it, so the lighter it is, the less the Pi holds for it and the
sooner a draft starts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dipclock.i18n import Said, said
from dipclock.seating import (
    Seat,
    Seating,
    SeatingError,
    Table,
    problems,
    read_past,
    seat_round,
    two_boards_allowed,
)
from dipclock.seating.teams import team_apart
from dipclock.seating.topboard import top_board_round
from dipclock.sentences import plural
from dipclock.standings import GameScore, StandingsRules


@dataclass(frozen=True)
class DraftJob:
    """Round ``round`` to seat for ``players`` (those present, stripped) after the rounds
    whose seats are ``earlier``; ``kept``: its tables already called; ``scores``: the
    confirmed sheets before it, read only in the event's top-board round."""

    round: int
    players: tuple[str, ...]
    earlier: tuple[Seat, ...]
    seed: int
    apart: frozenset[tuple[str, str]]
    kept: tuple[Table, ...]
    two_boards: tuple[str, ...]
    rules: StandingsRules | None
    scores: tuple[GameScore, ...]
    #: groups of players who sit out before the rest, in order (the register's)
    sit_out_first: tuple[tuple[str, ...], ...] = ()
    #: the hub's teams, (team, its members), in the players' spelling: team-mates kept
    #: apart in the rounds the event says (``team_apart``)
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: each team's player of each power, (team, ((letter, player), ...)): a team round
    #: seated from its teams (graduated20)
    team_powers: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    #: the TD's names for a tied top-board seat (``top_board_round``'s ``chosen``)
    top_board_pick: tuple[str, ...] = ()


@dataclass(frozen=True)
class Drafted:
    """The round seated, what stops it being called (``problems``), the top board's seven
    (best first) and what the TD should know of it (``notes``): sentences, said in the
    TD's phone's language when the reply is made."""

    seating: Seating
    problems: tuple[Said, ...]
    top_board: tuple[str, ...]
    notes: tuple[Said, ...]


def draft(job: DraftJob) -> Drafted:
    """The round seated by the core; a seating that cannot be is a ``SeatingError``
    (the hub's own earlier rounds, imported so, say "the hub's ...")."""
    try:
        past = read_past(job.earlier, job.players)
    except SeatingError as exc:
        raise SeatingError(said("the hub's {error}", error=exc)) from None
    rng = random.Random(job.seed)
    # the core's one top-board step, as ``dipclock seat`` takes it: a tie is a note
    top = top_board_round(job.round, job.players, job.scores, job.rules, past, rng,
                          {t.number for t in job.kept}, chosen=job.top_board_pick)
    mates = team_apart({t: list(m) for t, m in job.teams}, job.rules, job.round, past)
    apart = job.apart | mates
    seated = seat_round(list(job.players), past, job.round, rng, apart=apart,
                        fixed=[*job.kept, *top.tables], two_boards=list(job.two_boards),
                        rules=job.rules, sit_out_first=job.sit_out_first,
                        teams={t: dict(s) for t, s in job.team_powers} or None)
    enough = ((said("sitting out, having played the most rounds the event allows: "
                    "{players}", players=", ".join(seated.played_enough)),)
              if seated.played_enough else ())
    apart_note = ((plural("team-mates kept apart this round, as the event's rules say ({n} "
                          "pair)",
                          "team-mates kept apart this round, as the event's rules say ({n} "
                          "pairs)", len(mates)),) if mates else ())
    return Drafted(seated, tuple(problems(seated.tables, apart,
                                          two_boards_allowed(job.rules))),
                   top.seeds, top.notes + enough + apart_note)


__all__ = ["DraftJob", "Drafted", "draft"]

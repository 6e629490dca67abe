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
from collections.abc import Sequence
from dataclasses import dataclass

from dipclock.seating import (
    Past,
    Seat,
    Seating,
    SeatingError,
    Table,
    problems,
    read_past,
    seat_round,
    two_boards_allowed,
)
from dipclock.seating.topboard import seat_top_board
from dipclock.standings import GameScore, SeatTie, StandingsRules, top_board_seeds


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


@dataclass(frozen=True)
class Drafted:
    """The round seated, what stops it being called (``problems``), the top board's seven
    (best first) and what the TD should know of it (``notes``)."""

    seating: Seating
    problems: tuple[str, ...]
    top_board: tuple[str, ...]
    notes: tuple[str, ...]


def draft(job: DraftJob) -> Drafted:
    """The round seated by the core; a seating that cannot be is a ``SeatingError``
    (the hub's own earlier rounds, imported so, say "the hub's ...")."""
    try:
        past = read_past(job.earlier)
    except SeatingError as exc:
        raise SeatingError(f"the hub's {exc}") from None
    rng = random.Random(job.seed)
    notes: list[str] = []
    top, seeds = top_board_of(job, past, rng, notes)
    seated = seat_round(list(job.players), past, job.round, rng, apart=job.apart,
                        fixed=[*job.kept, *top], two_boards=list(job.two_boards))
    return Drafted(seated, tuple(problems(seated.tables, job.apart,
                                          two_boards_allowed(job.rules))),
                   tuple(seeds), tuple(notes))


def top_board_of(job: DraftJob, past: Past, rng: random.Random,
                 notes: list[str]) -> tuple[list[Table], Sequence[str]]:
    """In the event's top-board round, its table and its seven (best first) by the
    standings of the confirmed sheets (those absent passed over), at the first table not
    kept; how its powers are given goes to ``notes``. None before any sheet is confirmed,
    or when its last seat is tied (the TD decides: said in ``notes``)."""
    rules = job.rules
    if rules is None or rules.top_board_round != job.round:
        return [], []
    absent = {s.player for s in job.scores} - set(job.players)
    try:
        seeds = top_board_seeds(job.scores, rules, absent=absent)
    except SeatTie as exc:
        notes.append(f"{exc}: the top board is not seated")
        return [], []
    if not seeds:
        notes.append(f"round {job.round} is the top board's: no confirmed sheet yet to seat "
                     "it by")
        return [], []
    table, said = seat_top_board(seeds, rules.top_board_powers, past, rng,
                                 {t.number for t in job.kept})
    notes += said
    return [table], seeds


__all__ = ["DraftJob", "Drafted", "draft"]

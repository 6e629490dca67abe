"""What the earlier rounds say about the players: how often each pair met, which powers
each played, which rounds each sat out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from dipclock.powers import LETTERS


@dataclass(frozen=True)
class Seat:
    """One line of a seating: in round ``round``, at table ``table``, ``player`` played
    ``power`` (a letter of ``dipclock.powers.LETTERS``)."""

    round: int
    table: int
    power: str
    player: str


class SeatingError(ValueError):
    """A seating that cannot be: its one line says why."""


@dataclass
class Past:
    """The earlier rounds, counted: ``met[(a, b)]`` (a < b) the rounds two players shared a
    table, ``played[player][power]`` how often a player had a power, ``rounds`` the rounds
    seated, ``seated[round]`` who played in each."""

    met: Counter[tuple[str, str]] = field(default_factory=Counter)
    played: dict[str, Counter[str]] = field(default_factory=dict)
    rounds: set[int] = field(default_factory=set)
    seated: dict[int, set[str]] = field(default_factory=dict)

    def times_met(self, a: str, b: str) -> int:
        return self.met[pair(a, b)]

    def times_played(self, player: str, power: str) -> int:
        return self.played.get(player, Counter())[power]

    def sat_out(self, player: str) -> int:
        """The earlier rounds ``player`` had no seat in."""
        return sum(player not in who for who in self.seated.values())


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def read_past(seats: Iterable[Seat]) -> Past:
    """The earlier rounds from their seats; ``SeatingError`` for a table that names a power
    or a player twice. A player may be at two tables of a round (two boards)."""
    tables: dict[tuple[int, int], dict[str, str]] = {}
    for s in seats:
        if s.power not in LETTERS:
            raise SeatingError(f"round {s.round}, table {s.table}: {s.power!r} is not a power")
        table = tables.setdefault((s.round, s.table), {})
        if s.power in table:
            raise SeatingError(f"round {s.round}, table {s.table}: {s.power} is seated twice "
                               f"({table[s.power]} and {s.player})")
        if s.player in table.values():
            raise SeatingError(f"round {s.round}, table {s.table}: {s.player} is seated "
                               "twice")
        table[s.power] = s.player
    past = Past()
    for (rnd, _), table in sorted(tables.items()):
        past.rounds.add(rnd)
        past.seated.setdefault(rnd, set()).update(table.values())
        players: Sequence[str] = sorted(table.values())
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                past.met[(a, b)] += 1
        for power, player in table.items():
            past.played.setdefault(player, Counter())[power] += 1
    return past

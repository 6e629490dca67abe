"""What the earlier rounds say about the players: how often each pair met, which powers
each played, which rounds each sat out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from dipclock.errors import DipclockError
from dipclock.i18n import said
from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS
from dipclock.sentences import power as said_power

T = TypeVar("T")

#: a table's seats: one for each power (every "seven" of the seating is this one)
SEATS = len(LETTERS)


class Chance(Protocol):
    """The random draws a seating makes (``random.Random`` is one): passed in, so the core
    reads no entropy and a seed seats the same again."""

    def random(self) -> float: ...

    def randrange(self, stop: int, /) -> int: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


@dataclass(frozen=True)
class Seat:
    """One line of a seating: in round ``round``, at table ``table``, ``player`` played
    ``power`` (a letter of ``dipclock.powers.LETTERS``)."""

    round: int
    table: int
    power: str
    player: str


class SeatingError(DipclockError, ValueError):
    """A seating that cannot be: its one line says why, in the reader's language
    (``in_``)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # a draft's error crosses the hub's back room (a process of its own, pickled): it
        # keeps its sentence, not only its English text
        return (type(self), (self.said if self.said is not None else str(self),))


@dataclass
class Past:
    """The earlier rounds, counted: ``met[(a, b)]`` (a < b) the rounds two players shared a
    table, ``played[player][power]`` how often a player had a power, ``last[player]`` the
    power of their latest round, ``seated[round]`` who played in each, ``tables[round]``
    each table's players."""

    met: Counter[tuple[str, str]] = field(default_factory=Counter)
    played: dict[str, Counter[str]] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    seated: dict[int, set[str]] = field(default_factory=dict)
    tables: dict[int, list[list[str]]] = field(default_factory=dict)
    #: ``faced[(a, b)]`` (a < b): the powers a and b played at each table they shared
    faced: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)

    def times_met(self, a: str, b: str) -> int:
        return self.met[pair(a, b)]

    def times_played(self, player: str, power: str) -> int:
        return self.played.get(player, Counter())[power]

    def sat_out(self, player: str) -> int:
        """The earlier rounds ``player`` had no seat in."""
        return sum(player not in who for who in self.seated.values())


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def one_spelling(seats: Iterable[Seat], present: Iterable[str]) -> list[Seat]:
    """``seats`` with each player named as in ``present`` where the two spellings are one
    person (``dipclock.names.name_key``: "JOSÉ" in last round's file is today's "José"),
    every other name in the kept form (``dipclock.names.spelling``)."""
    known = {name_key(p): p for p in present}
    return [replace(s, player=known.get(name_key(s.player), spelling(s.player)))
            for s in seats]


def read_past(seats: Iterable[Seat], present: Iterable[str] = ()) -> Past:
    """The earlier rounds from their seats; ``SeatingError`` for a table that names a power
    or a player twice. A player may be at two tables of a round (two boards). ``present``:
    this round's players, whose past is read under another spelling too (``one_spelling``)."""
    tables: dict[tuple[int, int], dict[str, str]] = {}
    for s in one_spelling(seats, present):
        if s.power not in LETTERS:
            raise SeatingError(said("round {round}, table {table}: {power} is not a power",
                                    round=s.round, table=s.table, power=repr(s.power)))
        table = tables.setdefault((s.round, s.table), {})
        if s.power in table:
            raise SeatingError(said("round {round}, table {table}: {power} is seated twice "
                                    "({first} and {second})", round=s.round, table=s.table,
                                    power=said_power(s.power), first=table[s.power],
                                    second=s.player))
        if s.player in table.values():
            raise SeatingError(said("round {round}, table {table}: {name} is seated twice",
                                    round=s.round, table=s.table, name=s.player))
        table[s.power] = s.player
    past = Past()
    for (rnd, _), table in sorted(tables.items()):
        past.seated.setdefault(rnd, set()).update(table.values())
        past.tables.setdefault(rnd, []).append(sorted(table.values()))
        players: Sequence[str] = sorted(table.values())
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                past.met[(a, b)] += 1
        by_player = {player: power for power, player in table.items()}
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                past.faced.setdefault((a, b), []).append((by_player[a], by_player[b]))
        for power, player in table.items():
            past.played.setdefault(player, Counter())[power] += 1
            past.last[player] = power
    return past

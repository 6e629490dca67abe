"""Giving out a table's seven powers so each player gets one they have played least, and
what an event's text asks beyond that: a new area each round (wdc2003), not adjacent
powers again for two players who meet again (wdc2006), no power repeated before a pair
meeting again (wdc2018: ``fewer_power_repeats``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations

from dipclock.powers import LETTERS
from dipclock.seating.past import Chance, Past, pair
from dipclock.standings.rules import StandingsRules


def cheapest_assignment(costs: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """The least total cost of giving each row its own column of a square matrix, and the
    column of each row: Kuhn and Munkres' method in O(n³) (a table is 7 by 7: a library
    such as scipy would be a large dependency for a Pi's clock for 40 lines)."""
    n = len(costs)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    owner = [0] * (n + 1)  # owner[column] = row (1-based; 0: none)
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        column = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            r, step, nxt = owner[column], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    c = costs[r - 1][j - 1] - u[r] - v[j]
                    if c < least[j]:
                        least[j], way[j] = c, column
                    if least[j] < step:
                        step, nxt = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += step
                    v[j] -= step
                else:
                    least[j] -= step
            column = nxt
            if owner[column] == 0:
                break
        while column:
            prev = way[column]
            owner[column] = owner[prev]
            column = prev
    of_row = [0] * n
    for j in range(1, n + 1):
        of_row[owner[j] - 1] = j - 1
    return sum(costs[i][of_row[i]] for i in range(n)), of_row


#: a seat whose player had the power before weighs more than anything else a table can
#: hold, so the assignment first repeats as few seats as can be...
REPEAT = 10_000
#: ...then gives the powers played least (each earlier time)...
TIMES = 10
#: ...never the power a player has at their other board of this round when another
#: repeat can be had instead (more than the times of any event's rounds)...
TWICE = 500
#: ...then keeps a player off the power of their latest round
LATEST = 1
#: Where the event has areas: a power of an area the player had before weighs less than a
#: repeated power ("a different power in each round", then "as much as possible ... a
#: different geographical area") and more than the rest of a table's choices.
AREA = 100
#: Where the event has adjacent powers: two players who met before at adjacent powers
#: seated at adjacent powers again weigh more than a repeated power: wdc2006 4 lists "not
#: adjacent powers both times" before "not play a power which they have already played".
ADJACENT = 100_000


@dataclass(frozen=True)
class PowerRules:
    """What an event asks of a table's powers beyond the powers played least: ``area``,
    each power's area (its letters; empty: the event has no areas), and the ``adjacent``
    pairs of powers."""

    area: Mapping[str, frozenset[str]] = field(default_factory=dict)
    adjacent: frozenset[frozenset[str]] = frozenset()

    @classmethod
    def of(cls, rules: StandingsRules | None) -> PowerRules:
        """The event's rules for powers (none where ``rules`` is None)."""
        if rules is None:
            return cls()
        area: dict[str, frozenset[str]] = {}
        if rules.power_areas:
            area = {p: frozenset(p) for p in LETTERS}
            for group in rules.power_areas:
                area.update(dict.fromkeys(group, frozenset(group)))
        return cls(area, frozenset(frozenset(ab) for ab in rules.adjacent_powers))


NO_RULES = PowerRules()


def power_costs(players: Sequence[str], past: Past,
                this_round: Mapping[str, Collection[str]] | None = None,
                rules: PowerRules = NO_RULES) -> list[list[int]]:
    """What giving each player each power (``LETTERS`` order) costs; ``this_round``: the
    powers a player on two boards already has at another board of this round."""
    now = this_round or {}
    return [[_cost(past, p, power, power in now.get(p, ()))
             + AREA * had_area(past, p, power, rules, now.get(p, ()))
             for power in LETTERS] for p in players]


def _cost(past: Past, player: str, power: str, now: bool = False) -> int:
    times = past.times_played(player, power)
    return (REPEAT * (times > 0 or now) + TIMES * times + TWICE * now
            + LATEST * (past.last.get(player) == power))


def had_area(past: Past, player: str, power: str, rules: PowerRules,
             now: Collection[str] = ()) -> bool:
    """Whether ``player`` had a power of ``power``'s area in an earlier round (or, ``now``,
    at another board of this one); False where the event has no areas."""
    if not rules.area:
        return False
    return any(past.times_played(player, q) or q in now for q in rules.area[power])


def _watched(players: Sequence[str], past: Past, rules: PowerRules) -> list[tuple[int, int]]:
    """The pairs of ``players`` (by index) who met before at adjacent powers: seated at
    adjacent powers again, they would play adjacent powers both times."""
    if not rules.adjacent:
        return []
    out = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            key = pair(a, b)
            if any(frozenset(powers) in rules.adjacent for powers in past.faced.get(key, ())):
                out.append((i, j))
    return out


def _clashes(columns: Sequence[int], watched: Sequence[tuple[int, int]],
             rules: PowerRules) -> int:
    return sum(frozenset((LETTERS[columns[i]], LETTERS[columns[j]])) in rules.adjacent
               for i, j in watched)


def _with_pairs(costs: Sequence[Sequence[int]], watched: Sequence[tuple[int, int]],
                rules: PowerRules) -> list[int]:
    """The least-cost columns counting ``ADJACENT`` for each watched pair at adjacent
    powers: a cost of two seats at once, which the assignment cannot weigh, so each of the
    table's 5,040 ways is tried (a few milliseconds, and only at a table with such a pair)."""
    n = len(costs)
    best, kept = -1, list(range(n))
    for columns in permutations(range(n)):
        total = sum(costs[i][columns[i]] for i in range(n))
        if best >= 0 and total >= best:
            continue
        total += ADJACENT * _clashes(columns, watched, rules)
        if best < 0 or total < best:
            best, kept = total, list(columns)
    return kept


def table_cost(players: Sequence[str], past: Past, rules: PowerRules = NO_RULES) -> int:
    """The least cost of a table's powers, all its choices weighed (``power_costs``)."""
    return cheapest_assignment(power_costs(players, past, None, rules))[0]


def repeats(players: Sequence[str], past: Past) -> int:
    """The fewest seats at this table whose player has had the power before."""
    return cheapest_assignment(power_costs(players, past))[0] // REPEAT


def give_powers(players: Sequence[str], past: Past, rng: Chance,
                this_round: Mapping[str, Collection[str]] | None = None,
                rules: PowerRules = NO_RULES) -> dict[str, str]:
    """Power letter -> player for a table of seven, repeating as few powers as can be (a
    power a player has at another board this round counts as a repeat), then, where the
    event has them (``rules``), as few areas; two players who met at adjacent powers not at
    adjacent powers again, before all that. Among equally good ways, one at random (so the
    first player listed is not always Austria)."""
    order = list(players)
    rng.shuffle(order)
    costs = power_costs(order, past, this_round, rules)
    _, columns = cheapest_assignment(costs)
    watched = _watched(order, past, rules)
    if watched and _clashes(columns, watched, rules):
        columns = _with_pairs(costs, watched, rules)
    return {LETTERS[c]: p for p, c in sorted(zip(order, columns, strict=True),
                                             key=lambda pc: pc[1])}


def fewer_power_repeats(tables: Sequence[Sequence[str]], past: Past,
                        apart: Collection[tuple[str, str]], rng: Chance) -> list[list[str]]:
    """``tables`` with players swapped between them while a swap lowers the power repeats,
    each time the swap that adds the fewest meetings: for an event where a repeated power
    outranks a pair meeting again (wdc2018: "A player should not be assigned the same power
    twice in the tournament"). The tables come from the pairs' search, so the meetings are
    as few as can be; a swap gives some back only to take a repeat away. Never a kept-apart
    pair or one player twice at a table."""
    seated = [list(t) for t in tables]
    each = [repeats(t, past) for t in seated]
    improved = True
    while improved and any(each):
        improved = False
        for x in [t for t, r in enumerate(each) if r]:
            for y, a, b in _swaps_by_meetings(seated, x, past, apart, rng):
                new_x = [b if q == a else q for q in seated[x]]
                new_y = [a if q == b else q for q in seated[y]]
                rx, ry = repeats(new_x, past), repeats(new_y, past)
                if rx + ry < each[x] + each[y]:
                    seated[x], seated[y], each[x], each[y] = new_x, new_y, rx, ry
                    improved = True
                    break
    return seated


def _swaps_by_meetings(seated: Sequence[Sequence[str]], x: int, past: Past,
                       apart: Collection[tuple[str, str]], rng: Chance
                       ) -> list[tuple[int, str, str]]:
    """Each swap of a player ``a`` at table ``x`` with ``b`` at another table (as table,
    a, b), fewest meetings added first, ties at random."""
    found: list[tuple[int, float, int, str, str]] = []
    for y, other in enumerate(seated):
        if y == x:
            continue
        for a in seated[x]:
            rest_x = [q for q in seated[x] if q != a]
            if a in other:
                continue
            for b in other:
                rest_y = [q for q in other if q != b]
                if b in rest_x or any(pair(b, q) in apart for q in rest_x) or any(
                        pair(a, q) in apart for q in rest_y):
                    continue
                added = (sum(past.met[pair(b, q)] for q in rest_x)
                         + sum(past.met[pair(a, q)] for q in rest_y)
                         - sum(past.met[pair(a, q)] for q in rest_x)
                         - sum(past.met[pair(b, q)] for q in rest_y))
                found.append((added, rng.random(), y, a, b))
    found.sort()
    return [(y, a, b) for _, _, y, a, b in found]

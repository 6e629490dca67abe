"""Seating players at tables of seven so those who met before meet as little as can be,
kept-apart pairs never, and then the powers they played before as little as can be.

Simulated annealing over swaps of two players between tables: a swap's change in the
pairs' cost is read in constant time from each player's running sum over each table, so
hundreds of thousands of swaps are tried in a second; it stops at once when no pair meets
again (nothing can be better). Then, among swaps that leave the pairs' cost as it is, those
that lower the tables' power repeats (each table's least, by ``powers.cheapest_assignment``)
are taken until none is left. Several starts; the best seating of all is kept.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence

from dipclock.seating.past import SEATS, Chance, Past
from dipclock.seating.powers import repeats
from dipclock.seating.seatfile import MOST_PLAYERS

#: the cost of seating a kept-apart pair together: more than every meeting a hall can hold
APART = 1_000_000
#: swaps tried per start, per player
TRIES_PER_PLAYER = 4000
#: every so many swaps tried, the players at a table with someone they met are listed
#: again: every other swap moves one of them (in a hall of thousands, a random swap
#: almost never touches the few tables to mend)
REFOCUS = 1000
#: starts (each from another random seating)
STARTS = 4
#: the most players a round seats (``seat_round`` refuses more): the hub's, every one of
#: its 999 tables full. Measured 2026-11-28 on this project's 2-core PC: round 5 of 6,993
#: players in under a second, 100 MB (docs/seating.md); a Pi 4, several times slower a
#: core, takes a few seconds
MOST_SEATED = MOST_PLAYERS


def costs(players: Sequence[str], past: Past, apart: Collection[tuple[str, str]]
          ) -> list[dict[int, int]]:
    """The cost of seating two players together, for the pairs it is not 0 of (``m[i][j]``;
    a pair not there costs 0): the square of the rounds they met in (``weight``), or
    ``APART`` (a player on two boards is listed twice, and kept apart from themself). Only
    the pairs who met are kept, so a hall of thousands costs its meetings, not its n²."""
    at: dict[str, list[int]] = {}
    for i, p in enumerate(players):
        at.setdefault(p, []).append(i)
    m: list[dict[int, int]] = [{} for _ in players]

    def put(i: int, j: int, c: int) -> None:
        m[i][j] = m[j][i] = c

    for (a, b), k in past.met.items():
        if k and a in at and b in at:
            for i, j in itertools.product(at[a], at[b]):
                put(i, j, weight(k))
    for a, b in apart:
        for i, j in itertools.product(at.get(a, ()), at.get(b, ())):
            if i != j:
                put(i, j, APART)
    for same in at.values():
        for i, j in itertools.combinations(same, 2):
            put(i, j, APART)
    return m


def weight(met: int) -> int:
    """A pair who met ``met`` times before, seated together again: the square, so three
    meetings of one pair cost more than two of two pairs, and the repeats a small hall
    cannot avoid are spread over many pairs instead of piled on a few (14 players: two of
    them together in all five rounds, with the rounds' count alone)."""
    return met * met


def board_cost(members: Sequence[int], m: Sequence[Mapping[int, int]]) -> int:
    return sum(m[a].get(b, 0) for i, a in enumerate(members) for b in members[i + 1:])


def anneal(m: Sequence[Mapping[int, int]], tables: int, rng: Chance,
           tries: int) -> list[list[int]]:
    """Players 0..SEATS·tables-1 seated at ``tables`` tables, the pairs' cost (``m``) as low
    as ``tries`` swaps find it."""
    n = SEATS * tables
    order = list(range(n))
    rng.shuffle(order)
    members = [order[SEATS * t:SEATS * (t + 1)] for t in range(tables)]
    at = [0] * n
    for t, ms in enumerate(members):
        for p in ms:
            at[p] = t
    # sums[p][t]: p's cost with everyone at table t (missing: 0); a swap changes the sums of
    # the two players' partners only
    sums: list[dict[int, int]] = [{} for _ in range(n)]
    for p in range(n):
        row = sums[p]
        for q, c in m[p].items():
            row[at[q]] = row.get(at[q], 0) + c
    cost = sum(board_cost(ms, m) for ms in members)
    best, kept = cost, [list(ms) for ms in members]
    hot, cold = 2.0, 0.05
    cooling = (cold / hot) ** (1.0 / max(1, tries))
    heat = hot
    focus: list[int] = []
    for i in range(tries):
        if best == 0:
            break
        heat *= cooling
        if i % REFOCUS == 0:  # who sits with someone they met: in a large hall, few
            focus = [p for p in range(n) if sums[p].get(at[p], 0)]
        a = focus[rng.randrange(len(focus))] if i % 2 and focus else rng.randrange(n)
        b = rng.randrange(n)
        x, y = at[a], at[b]
        if x == y:
            continue
        sa, sb, mab = sums[a], sums[b], m[a].get(b, 0)
        delta = (sb.get(x, 0) - mab - sa.get(x, 0) + sa.get(y, 0) - mab - sb.get(y, 0))
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        for p, c in m[a].items():
            row = sums[p]
            row[x] -= c
            row[y] = row.get(y, 0) + c
        for p, c in m[b].items():
            row = sums[p]
            row[y] -= c
            row[x] = row.get(x, 0) + c
        members[x][members[x].index(a)] = b
        members[y][members[y].index(b)] = a
        at[a], at[b] = y, x
        cost += delta
        if cost < best:
            best, kept = cost, [list(ms) for ms in members]
    return kept


def fewer_repeats(members: list[list[int]], m: Sequence[Mapping[int, int]],
                  players: Sequence[str], past: Past, rng: Chance) -> None:
    """Swap players between tables where that leaves the pairs' cost as it is and lowers
    the power repeats, until no such swap is left (``members`` changed in place)."""
    names = [[players[p] for p in ms] for ms in members]
    each = [repeats(ns, past) for ns in names]
    improved = True
    while improved and any(each):
        improved = False
        for x in [t for t, r in enumerate(each) if r]:
            for y in rng.sample(range(len(members)), len(members)):
                if y == x or not each[x]:
                    continue
                for a in list(members[x]):
                    for b in list(members[y]):
                        rest_x = [q for q in members[x] if q != a]
                        rest_y = [q for q in members[y] if q != b]
                        ma, mb = m[a], m[b]
                        if (sum(mb.get(q, 0) for q in rest_x) + sum(ma.get(q, 0) for q in rest_y)
                                != sum(ma.get(q, 0) for q in rest_x)
                                + sum(mb.get(q, 0) for q in rest_y)):
                            continue
                        new_x = repeats([players[q] for q in [*rest_x, b]], past)
                        new_y = repeats([players[q] for q in [*rest_y, a]], past)
                        if new_x + new_y < each[x] + each[y]:
                            members[x] = [*rest_x, b]
                            members[y] = [*rest_y, a]
                            each[x], each[y] = new_x, new_y
                            improved = True
                            break
                    else:
                        continue
                    break


def seat_tables(players: Sequence[str], past: Past, apart: Collection[tuple[str, str]],
                rng: Chance, starts: int = STARTS) -> list[list[str]]:
    """``players`` (a multiple of seven) at tables of seven: the fewest meetings again
    (weighted by how often), no kept-apart pair together if it can be, then the fewest
    power repeats; the best of ``starts`` starts."""
    if len(players) % SEATS:
        raise ValueError(f"{len(players)} players do not fill tables of {SEATS}")
    m = costs(players, past, apart)
    tables = len(players) // SEATS
    best: tuple[int, int] | None = None
    seated: list[list[int]] = []
    for _ in range(starts):
        members = anneal(m, tables, rng, TRIES_PER_PLAYER * len(players))
        fewer_repeats(members, m, players, past, rng)
        score = (sum(board_cost(ms, m) for ms in members), _repeats(players, members, past))
        if best is None or score < best:
            best, seated = score, members
        if score == (0, 0):
            break
    return [[players[p] for p in ms] for ms in seated]


def _repeats(players: Sequence[str], tables: list[list[int]], past: Past) -> int:
    return sum(repeats([players[p] for p in ms], past) for ms in tables)

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

import math
from collections.abc import Collection, Sequence

from dipclock.seating.past import SEATS, Chance, Past, pair
from dipclock.seating.powers import repeats

#: the cost of seating a kept-apart pair together: more than every meeting a hall can hold
APART = 1_000_000
#: swaps tried per start, per player
TRIES_PER_PLAYER = 4000
#: starts (each from another random seating)
STARTS = 4


def costs(players: Sequence[str], past: Past, apart: Collection[tuple[str, str]]
          ) -> list[list[int]]:
    """The cost of seating two players together: the rounds they met in, or ``APART``
    (a player on two boards is listed twice, and kept apart from themself)."""
    n = len(players)
    m = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            key = pair(players[i], players[j])
            c = APART if key in apart or key[0] == key[1] else past.met[key]
            m[i][j] = m[j][i] = c
    return m


def board_cost(members: Sequence[int], m: Sequence[Sequence[int]]) -> int:
    return sum(m[a][b] for i, a in enumerate(members) for b in members[i + 1:])


def anneal(m: Sequence[Sequence[int]], tables: int, rng: Chance,
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
    # sums[p][t]: p's cost with everyone at table t (itself included: m[p][p] = 0)
    sums = [[sum(m[p][q] for q in ms) for ms in members] for p in range(n)]
    cost = sum(board_cost(ms, m) for ms in members)
    best, kept = cost, [list(ms) for ms in members]
    hot, cold = 2.0, 0.05
    cooling = (cold / hot) ** (1.0 / max(1, tries))
    heat = hot
    for _ in range(tries):
        if best == 0:
            break
        heat *= cooling
        a, b = rng.randrange(n), rng.randrange(n)
        x, y = at[a], at[b]
        if x == y:
            continue
        sa, sb, mab = sums[a], sums[b], m[a][b]
        delta = sb[x] - mab - sa[x] + sa[y] - mab - sb[y]
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        for p in range(n):
            row, mp = sums[p], m[p]
            row[x] += mp[b] - mp[a]
            row[y] += mp[a] - mp[b]
        members[x][members[x].index(a)] = b
        members[y][members[y].index(b)] = a
        at[a], at[b] = y, x
        cost += delta
        if cost < best:
            best, kept = cost, [list(ms) for ms in members]
    return kept


def fewer_repeats(members: list[list[int]], m: Sequence[Sequence[int]],
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
                        if (sum(m[b][q] for q in rest_x) + sum(m[a][q] for q in rest_y)
                                != sum(m[a][q] for q in rest_x)
                                + sum(m[b][q] for q in rest_y)):
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

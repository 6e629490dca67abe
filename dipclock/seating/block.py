"""Seating several rounds at once, so this round leaves the next ones clean too.

Seated one round at a time, 49 players meet nobody twice for three rounds and then cannot
avoid it in the fourth: a third round chosen at random among the clean ones is a Latin
square that rarely has an orthogonal mate. Seating the rounds still to come together (the
social golfers' problem) finds rounds that fit one another; only the first is used, and
the next call seats again from what was really played.

The cost of a block of rounds: each pair seated together in a round costs the rounds they
met in before the block, and each pair together in t rounds of the block t(t-1)/2 more.
Simulated annealing over swaps of two players within one round; a swap's change is read
from each player's running sums, per round, over each table (constant time), and an
accepted swap updates them in time linear in the players.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence


def anneal_rounds(past: Sequence[Sequence[int]], tables: int, rounds: int,
                  rng: random.Random, tries: int) -> list[list[list[int]]]:
    """``rounds`` seatings of players 0..7·tables-1 (each a list of tables of seven),
    the block's cost as low as ``tries`` swaps find it; ``past[p][q]``: the cost of p and q
    together in any round (their meetings before, or a kept-apart pair's price)."""
    n = 7 * tables
    seatings: list[list[list[int]]] = []
    at: list[list[int]] = []  # at[r][p]: p's table in round r
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        seating = [order[7 * t:7 * t + 7] for t in range(tables)]
        seatings.append(seating)
        where = [0] * n
        for t, ms in enumerate(seating):
            for p in ms:
                where[p] = t
        at.append(where)
    together = [[0] * n for _ in range(n)]
    for r in range(rounds):
        for ms in seatings[r]:
            for a in ms:
                for b in ms:
                    if a != b:
                        together[a][b] += 1
    # w[p][q]: what one more round together would cost p and q
    w = [[past[p][q] + together[p][q] for q in range(n)] for p in range(n)]

    def sums_of(r: int, p: int) -> list[int]:
        wp = w[p]
        return [sum(wp[q] for q in ms if q != p) for ms in seatings[r]]

    sums = [[sums_of(r, p) for p in range(n)] for r in range(rounds)]

    def total() -> int:
        cost = 0
        for p in range(n):
            for q in range(p + 1, n):
                t = together[p][q]
                cost += past[p][q] * t + t * (t - 1) // 2
        return cost

    cost = total()
    best, kept = cost, [[list(ms) for ms in s] for s in seatings]
    hot, cold = 2.0, 0.05
    cooling = (cold / hot) ** (1.0 / max(1, tries))
    heat = hot
    for _ in range(tries):
        if best == 0:
            break
        heat *= cooling
        r = rng.randrange(rounds)
        a, b = rng.randrange(n), rng.randrange(n)
        x, y = at[r][a], at[r][b]
        if x == y:
            continue
        sa, sb = sums[r][a], sums[r][b]
        delta = sa[y] - sa[x] + sb[x] - sb[y] - 2 * w[a][b] + 12
        if delta > 0 and rng.random() >= math.exp(-delta / heat):
            continue
        xs, ys = seatings[r][x], seatings[r][y]
        for p in range(n):  # the move, with what the pairs cost before it
            if p != a and p != b:
                row, wp = sums[r][p], w[p]
                row[x] += wp[b] - wp[a]
                row[y] += wp[a] - wp[b]
        xs[xs.index(a)] = b
        ys[ys.index(b)] = a
        at[r][a], at[r][b] = y, x
        for u, gone, come in ((a, xs, ys), (b, ys, xs)):  # who u left and now meets
            for q in gone:
                if q != a and q != b:
                    _change(u, q, -1, w, together, sums, at, rounds)
            for q in come:
                if q != a and q != b:
                    _change(u, q, +1, w, together, sums, at, rounds)
        for r2 in range(rounds):
            sums[r2][a] = sums_of(r2, a)
            sums[r2][b] = sums_of(r2, b)
        cost += delta
        if cost < best:
            best, kept = cost, [[list(ms) for ms in s] for s in seatings]
    return kept


def _change(u: int, q: int, d: int, w: list[list[int]], together: list[list[int]],
            sums: list[list[list[int]]], at: list[list[int]], rounds: int) -> None:
    """u and q are together in one round more (d = 1) or less (-1): what one more round
    would cost them, and q's sums over u's table in each round."""
    together[u][q] += d
    together[q][u] += d
    w[u][q] += d
    w[q][u] += d
    for r in range(rounds):
        sums[r][q][at[r][u]] += d

"""Seating a block of rounds by tabu search on conflicting players (a draft)."""

from __future__ import annotations

import random
from collections.abc import Sequence


class Block:
    """Rounds of tables, with the running sums that make a swap's cost change O(1)."""

    def __init__(self, past: Sequence[Sequence[int]], tables: int, rounds: int,
                 rng: random.Random) -> None:
        n = 7 * tables
        self.n, self.rounds, self.past = n, rounds, past
        self.seatings: list[list[list[int]]] = []
        self.at: list[list[int]] = []
        for _ in range(rounds):
            order = list(range(n))
            rng.shuffle(order)
            seating = [order[7 * t:7 * t + 7] for t in range(tables)]
            where = [0] * n
            for t, ms in enumerate(seating):
                for p in ms:
                    where[p] = t
            self.seatings.append(seating)
            self.at.append(where)
        together = [[0] * n for _ in range(n)]
        for s in self.seatings:
            for ms in s:
                for a in ms:
                    for b in ms:
                        if a != b:
                            together[a][b] += 1
        self.together = together
        self.w = [[past[p][q] + together[p][q] for q in range(n)] for p in range(n)]
        self.sums = [[self._sums_of(r, p) for p in range(n)] for r in range(rounds)]
        self.cost = self._total()

    def _sums_of(self, r: int, p: int) -> list[int]:
        wp = self.w[p]
        return [sum(wp[q] for q in ms if q != p) for ms in self.seatings[r]]

    def _total(self) -> int:
        c = 0
        for p in range(self.n):
            for q in range(p + 1, self.n):
                t = self.together[p][q]
                c += self.past[p][q] * t + t * (t - 1) // 2
        return c

    def delta(self, r: int, a: int, b: int) -> int:
        x, y = self.at[r][a], self.at[r][b]
        sa, sb = self.sums[r][a], self.sums[r][b]
        return sa[y] - sa[x] + sb[x] - sb[y] - 2 * self.w[a][b] + 12

    def conflicting(self, r: int, p: int) -> bool:
        wp = self.w[p]
        return any(wp[q] > 1 for q in self.seatings[r][self.at[r][p]] if q != p)

    def swap(self, r: int, a: int, b: int) -> None:
        d = self.delta(r, a, b)
        x, y = self.at[r][a], self.at[r][b]
        w, sums = self.w, self.sums
        for p in range(self.n):
            if p != a and p != b:
                row, wp = sums[r][p], w[p]
                row[x] += wp[b] - wp[a]
                row[y] += wp[a] - wp[b]
        xs, ys = self.seatings[r][x], self.seatings[r][y]
        xs[xs.index(a)] = b
        ys[ys.index(b)] = a
        self.at[r][a], self.at[r][b] = y, x
        for u, gone, come in ((a, xs, ys), (b, ys, xs)):
            for q in gone:
                if q != a and q != b:
                    self._change(u, q, -1)
            for q in come:
                if q != a and q != b:
                    self._change(u, q, +1)
        for r2 in range(self.rounds):
            sums[r2][a] = self._sums_of(r2, a)
            sums[r2][b] = self._sums_of(r2, b)
        self.cost += d

    def _change(self, u: int, q: int, d: int) -> None:
        self.together[u][q] += d
        self.together[q][u] += d
        self.w[u][q] += d
        self.w[q][u] += d
        for r in range(self.rounds):
            self.sums[r][q][self.at[r][u]] += d


def tabu_rounds(past: Sequence[Sequence[int]], tables: int, rounds: int, rng: random.Random,
                steps: int, floor: int = 0) -> tuple[int, list[list[list[int]]]]:
    """Rounds whose block cost is as low as ``steps`` tabu moves find (``floor``: the cost
    past which nothing can go, where it stops): that cost, and the rounds."""
    block = Block(past, tables, rounds, rng)
    best, kept = block.cost, [[list(ms) for ms in s] for s in block.seatings]
    tabu: dict[tuple[int, int, int], int] = {}
    stale = 0
    n = block.n
    for step in range(steps):
        if best <= floor:
            break
        move, move_delta, ties = None, None, 0
        for r in range(rounds):
            at = block.at[r]
            for a in range(n):
                if not block.conflicting(r, a):
                    continue
                for b in range(n):
                    if at[b] == at[a]:
                        continue
                    d = block.delta(r, a, b)
                    if tabu.get((r, a, b), -1) >= step and block.cost + d >= best:
                        continue
                    if move_delta is None or d < move_delta:
                        move, move_delta, ties = (r, a, b), d, 1
                    elif d == move_delta:  # one of the equal best, each as likely
                        ties += 1
                        if rng.random() * ties < 1:
                            move = (r, a, b)
        if move is None:  # every move tabu: let the oldest go
            tabu.clear()
            continue
        r, a, b = move
        block.swap(r, a, b)
        tenure = step + rng.randint(10, 40)
        tabu[(r, a, b)] = tabu[(r, b, a)] = tenure
        if block.cost < best:
            best, kept = block.cost, [[list(ms) for ms in s] for s in block.seatings]
            stale = 0
        else:
            stale += 1
            if stale > 500:  # a kick: a few random swaps
                for _ in range(3):
                    r = rng.randrange(rounds)
                    a, b = rng.randrange(n), rng.randrange(n)
                    if block.at[r][a] != block.at[r][b]:
                        block.swap(r, a, b)
                stale = 0
    return best, kept

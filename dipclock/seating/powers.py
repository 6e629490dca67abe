"""Giving out a table's seven powers so each player gets one they have played least."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from dipclock.powers import LETTERS
from dipclock.seating.past import Chance, Past


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


def power_costs(players: Sequence[str], past: Past,
                this_round: Mapping[str, Collection[str]] | None = None) -> list[list[int]]:
    """What giving each player each power (``LETTERS`` order) costs; ``this_round``: the
    powers a player on two boards already has at another board of this round."""
    now = this_round or {}
    return [[_cost(past, p, power, power in now.get(p, ())) for power in LETTERS]
            for p in players]


def _cost(past: Past, player: str, power: str, now: bool = False) -> int:
    times = past.times_played(player, power)
    return (REPEAT * (times > 0 or now) + TIMES * times + TWICE * now
            + LATEST * (past.last.get(player) == power))


def repeats(players: Sequence[str], past: Past) -> int:
    """The fewest seats at this table whose player has had the power before."""
    return cheapest_assignment(power_costs(players, past))[0] // REPEAT


def give_powers(players: Sequence[str], past: Past, rng: Chance,
                this_round: Mapping[str, Collection[str]] | None = None) -> dict[str, str]:
    """Power letter -> player for a table of seven, repeating as few powers as can be (a
    power a player has at another board this round counts as a repeat); among equally
    good ways, one at random (so the first player listed is not always Austria)."""
    order = list(players)
    rng.shuffle(order)
    _, columns = cheapest_assignment(power_costs(order, past, this_round))
    return {LETTERS[c]: p for p, c in sorted(zip(order, columns, strict=True),
                                             key=lambda pc: pc[1])}

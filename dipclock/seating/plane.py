"""Forty-nine players: the affine plane of order 7, so no two meet twice for eight rounds.

Give each player a point (x, y) of the 7 by 7 grid over the integers mod 7. The grid's
lines fall into eight classes of seven parallel lines (x fixed; or y + s·x fixed, for each
slope s): each class seats everyone at seven tables of seven, and two players share exactly
one line, so they meet in exactly one class. Seating round after round by unused classes
gives eight rounds in which no pair meets twice, which is the most there can be (each
player meets 6 of the other 48 a round). A search seating one round at a time finds three
such rounds, then the fourth round's only clean seatings are orthogonal mates of a random
Latin square, which seldom exist: it is stuck at four or five repeated pairs.

The command is given the earlier rounds, not a plan, so ``coordinates`` finds the plane in
them: two rounds that split every table of each other fix x and y; a third that is a Latin
square isotopic to the integers mod 7 fixes the arithmetic; every later one must be a
class. Rounds seated elsewhere seldom fit, and then the search seats the round instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dipclock.seating.past import Chance

ORDER = 7
#: a class of parallel lines: its slope, or None for the lines of fixed x
Slope = int | None
CLASSES: tuple[Slope, ...] = (None, *range(ORDER))
Point = tuple[int, int]


def line_of(point: Point, slope: Slope) -> int:
    """Which of its class's seven lines ``point`` is on (the table, before shuffling)."""
    x, y = point
    return x if slope is None else (y + slope * x) % ORDER


def tables_of(points: Mapping[str, Point], slope: Slope) -> list[list[str]]:
    """The class ``slope`` as seven tables of seven players."""
    tables: list[list[str]] = [[] for _ in range(ORDER)]
    for player, point in points.items():
        tables[line_of(point, slope)].append(player)
    return tables


def new_plane(players: Sequence[str], rng: Chance) -> dict[str, Point]:
    """Forty-nine players on the grid at random: the first round of a plan."""
    order = list(players)
    rng.shuffle(order)
    return {p: divmod(i, ORDER) for i, p in enumerate(order)}


def coordinates(players: Sequence[str], rounds: Sequence[Sequence[Sequence[str]]],
                rng: Chance) -> tuple[dict[str, Point], list[Slope]] | None:
    """Points for the players in which each earlier round (its tables) is a class of
    parallel lines, and the classes used; None where the rounds are not such classes."""
    everyone = set(players)
    if len(everyone) != ORDER * ORDER or any(
            len(r) != ORDER or any(len(set(t)) != ORDER for t in r)
            or set().union(*map(set, r)) != everyone for r in rounds):
        return None
    if not rounds:
        return new_plane(players, rng), []
    at = [{p: i for i, table in enumerate(r) for p in table} for r in rounds]
    if len(rounds) == 1:  # x: the table; y: a seat in it, at random
        points: dict[str, Point] = {}
        for x, table in enumerate(rounds[0]):
            for y, p in enumerate(rng.sample(list(table), ORDER)):
                points[p] = (x, y)
        return points, [None]
    first, second = at[0], at[1]
    cells = {(first[p], second[p]): p for p in players}
    if len(cells) != ORDER * ORDER:  # two players met twice: not two classes of a plane
        return None
    if len(rounds) == 2:
        return {p: (first[p], second[p]) for p in players}, [None, 0]
    # the third round as a Latin square L(x, y); L = pi(a(x) + b(y)) for some bijections
    # iff its principal loop (s * t = L(row of s, column of t)) is the group of order 7
    third = at[2]
    square = [[third[cells[(x, y)]] for y in range(ORDER)] for x in range(ORDER)]
    row_of = {square[x][0]: x for x in range(ORDER)}
    col_of = {square[0][y]: y for y in range(ORDER)}
    if len(row_of) != ORDER or len(col_of) != ORDER:
        return None

    def times(s: int, t: int) -> int:
        return square[row_of[s]][col_of[t]]

    unit, step = square[0][0], next(t for t in range(ORDER) if t != square[0][0])
    power = [unit]
    for _ in range(ORDER - 1):
        power.append(times(power[-1], step))
    index = {t: k for k, t in enumerate(power)}
    if len(index) != ORDER:
        return None
    a = [index[square[x][0]] for x in range(ORDER)]
    b = [index[square[0][y]] for y in range(ORDER)]
    if any(square[x][y] != power[(a[x] + b[y]) % ORDER]
           for x in range(ORDER) for y in range(ORDER)):
        return None
    points = {p: (a[first[p]], b[second[p]]) for p in players}
    used: list[Slope] = [None, 0, 1]  # x fixed, y fixed, x + y fixed
    for later in at[3:]:
        slope = next((s for s in range(2, ORDER)
                      if s not in used and _is_class(points, later, s)), -1)
        if slope == -1:
            return None
        used.append(slope)
    return points, used


def _is_class(points: Mapping[str, Point], tables: Mapping[str, int], slope: int) -> bool:
    table_of_line: dict[int, int] = {}
    for p, point in points.items():
        line = line_of(point, slope)
        if table_of_line.setdefault(line, tables[p]) != tables[p]:
            return False
    return True

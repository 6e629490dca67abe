"""Forty-nine, fifty-six and sixty-three players: affine planes, so no two meet twice for
eight, eight and nine rounds.

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

Fifty-six and sixty-three players: the affine planes of order 8 and 9, less one and two
lines of one class (``Design``). Each line of another class crosses each removed line once,
so it keeps seven points: 8 classes of 8 tables of 7 (56 players, 8 clean rounds) and 9
classes of 9 tables of 7 (63 players, 9 clean rounds; counting alone would allow 9 and
10). Their arithmetic is the field of 8 or 9 elements (``Field``); the earlier rounds are
recognised as classes by a small search over their tables' labels (``_labels``).

A design survives two things a hall does to it (``follow``): a newcomer replacing a
withdrawn player takes the withdrawn player's point, and one hand swap of two players in an
earlier round is read as the class it was meant to be.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from dipclock.seating.past import SEATS, Chance

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


# -------------------------------------------------- 56 and 63 players: orders 8 and 9

#: each prime power the designs need: its prime, its degree, and t^degree written through
#: the lower powers of t (GF(8) = GF(2)[t]/(t³ + t + 1), GF(9) = GF(3)[t]/(t² + 1): both
#: polynomials have no root, so each quotient is a field)
_MODULI: dict[int, tuple[int, int, tuple[int, ...]]] = {
    7: (7, 1, ()), 8: (2, 3, (1, 1, 0)), 9: (3, 2, (2, 0))}
#: the hall sizes seated by a plane less some lines: players -> the plane's order
ORDERS: dict[int, int] = {SEATS * q: q for q in (8, 9)}
#: the x of the points kept (the plane's other vertical lines are removed)
KEPT = range(SEATS)
#: the most steps ``_labels`` takes before it gives up (rounds that are no design)
MOST_STEPS = 4000
#: the most players suspected of a hand swap (those with the most pairs met twice), and
#: the most swaps tried (rounds that are no design try them all: a bound on the time lost)
SUSPECTS = 4
MOST_SWAPS = 64

#: a round as its tables, each a list of players
Round = list[list[str]]


@dataclass(frozen=True)
class Field:
    """The field of ``order`` elements, numbered 0 to order-1 (0 and 1 are zero and one),
    as tables. Written out (a polynomial product, reduced) because a library for it
    (galois) brings numpy and numba to a Pi for two 9 by 9 tables."""

    order: int
    add: tuple[tuple[int, ...], ...]
    sub: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]
    #: div[a][b] = a / b (row 0 of b unused)
    div: tuple[tuple[int, ...], ...]


def field_of(order: int) -> Field:
    """The field of 7, 8 or 9 elements."""
    p, k, low = _MODULI[order]

    def digits(a: int) -> list[int]:
        return [a // p ** i % p for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d % p * p ** i for i, d in enumerate(ds))

    def times(a: int, b: int) -> int:
        prod = [0] * (2 * k - 1)
        for (i, u), (j, v) in itertools.product(enumerate(digits(a)), enumerate(digits(b))):
            prod[i + j] += u * v
        for d in range(2 * k - 2, k - 1, -1):  # t^d = t^(d-k) · t^k, t^k = low
            c, prod[d] = prod[d], 0
            for i, lo in enumerate(low):
                prod[d - k + i] += c * lo
        return number(prod[:k])

    els = range(order)
    add = tuple(tuple(number([u + v for u, v in zip(digits(a), digits(b), strict=True)])
                      for b in els) for a in els)
    mul = tuple(tuple(times(a, b) for b in els) for a in els)
    sub = tuple(tuple(next(c for c in els if add[b][c] == a) for b in els) for a in els)
    div = tuple(tuple(next((c for c in els if mul[b][c] == a), 0) for b in els) for a in els)
    return Field(order, add, sub, mul, div)


@dataclass(frozen=True)
class Design:
    """Players at the points of a plane (49) or of a plane less some vertical lines (56,
    63), and the classes of parallel lines the earlier rounds were: each class left seats a
    round in which nobody meets anyone again."""

    order: int
    points: dict[str, Point]
    used: tuple[Slope, ...] = ()
    #: what was read into the earlier rounds to follow it ("" when they were classes)
    mended: str = ""

    def options(self) -> list[Slope]:
        """The classes left."""
        every: Sequence[Slope] = CLASSES if self.order == ORDER else range(self.order)
        return [s for s in every if s not in self.used]

    def tables(self, slope: Slope) -> list[list[str]]:
        """The class ``slope`` as tables of seven."""
        if self.order == ORDER:
            return tables_of(self.points, slope)
        f = _field(self.order)
        tables: list[list[str]] = [[] for _ in range(self.order)]
        for player, point in self.points.items():
            tables[_line(f, point, slope)].append(player)
        return tables


_FIELDS: dict[int, Field] = {}


def _field(order: int) -> Field:
    if order not in _FIELDS:
        _FIELDS[order] = field_of(order)
    return _FIELDS[order]


def _line(f: Field, point: Point, slope: Slope) -> int:
    """The line of slope ``slope`` through ``point``: y - slope·x (slopes are never None
    here: the vertical class is the one cut)."""
    x, y = point
    return f.sub[y][f.mul[slope or 0][x]]


def follow(players: Sequence[str], rounds: Sequence[Round], rng: Chance) -> Design | None:
    """The design the earlier rounds (their tables) followed, for this round's players;
    None where they followed none. A newcomer who replaces a player absent now takes that
    player's point (in each round the one present differs from today's players by one); one
    hand swap of two players in a round is read as the class that round was meant to be."""
    renamed = _renamed(players, rounds)
    if renamed is None:
        return None
    found = design(players, renamed, rng)
    if found is not None or len(renamed) < 2:
        return found
    for r, a, b in itertools.islice(_swaps(renamed), MOST_SWAPS):
        mended = list(renamed)
        mended[r] = [[b if p == a else a if p == b else p for p in t] for t in renamed[r]]
        found = design(players, mended, rng)
        if found is not None:
            return Design(found.order, found.points, found.used,
                          f"round {r + 1}'s {a} and {b} read as swapped by hand")
    return None


def design(players: Sequence[str], rounds: Sequence[Round], rng: Chance) -> Design | None:
    """The plane whose classes the earlier rounds are exactly, or None."""
    if len(players) == ORDER * ORDER:
        found = coordinates(players, rounds, rng)
        return None if found is None else Design(ORDER, found[0], tuple(found[1]))
    if len(players) in ORDERS:
        return _cut_plane(players, rounds, rng, ORDERS[len(players)])
    return None


def _renamed(players: Sequence[str], rounds: Sequence[Round]) -> list[Round] | None:
    """The rounds with a replaced player's name changed to the newcomer's: in each round,
    the one player not here now becomes the one here now who was not in it."""
    everyone = set(players)
    out = []
    for r in rounds:
        there = {p for t in r for p in t}
        gone, new = there - everyone, everyone - there
        if len(gone) == len(new) == 1:
            (was,), (now,) = gone, new
            r = [[now if p == was else p for p in t] for t in r]
        elif gone or new:
            return None
        out.append(r)
    return out


def _swaps(rounds: Sequence[Round]) -> Iterator[tuple[int, str, str]]:
    """Swaps that may have been made by hand, latest round first: a player ``a`` at a table
    with someone they met in another round too (among the few with the most such pairs),
    and a player ``b`` at another table of that round, where swapping them back would seat
    each with nobody they met in another round (a round of the design meets nobody again;
    a swapped player may, where a line of another class crosses the new table's)."""
    met = Counter(pr for r in rounds for t in r for pr in itertools.combinations(sorted(t), 2))
    often = Counter(p for pr, n in met.items() if n > 1 for p in pr)
    suspects = [p for p, _ in often.most_common(SUSPECTS)]
    for r in reversed(range(len(rounds))):
        tables = rounds[r]
        where = {p: i for i, t in enumerate(tables) for p in t}

        def elsewhere(p: str, o: str, where: dict[str, int] = where) -> int:
            """The other rounds ``p`` and ``o`` met in."""
            return met[(p, o) if p < o else (o, p)] - (where[p] == where[o])

        for a in suspects:
            mates = [o for o in tables[where[a]] if o != a]
            if not any(elsewhere(a, o) for o in mates):
                continue
            for t, table in enumerate(tables):
                if t == where[a]:
                    continue
                for b in table:
                    if not any(elsewhere(a, o) for o in table if o != b) and not any(
                            elsewhere(b, o) for o in mates):
                        yield r, a, b


def _cut_plane(players: Sequence[str], rounds: Sequence[Round], rng: Chance,
               q: int) -> Design | None:
    """The plane of order ``q`` less its vertical lines at x = 7..q-1 whose classes the
    rounds are: round 1 is made the class of slope 0 and round 2 of slope 1 (a shear and a
    stretch of y make any two classes so), then the labels of the tables are searched."""
    everyone = set(players)
    if any(len(r) != q or any(len(set(t)) != SEATS for t in r)
           or {p for t in r for p in t} != everyone for r in rounds):
        return None
    if not rounds:
        order = list(players)
        rng.shuffle(order)
        return Design(q, dict(zip(order, itertools.product(KEPT, range(q)), strict=True)))
    if len(rounds) == 1:  # y: the table's line, at random; x: a seat in it
        points: dict[str, Point] = {}
        for y, table in zip(rng.sample(range(q), q), rounds[0], strict=True):
            for x, p in enumerate(rng.sample(list(table), SEATS)):
                points[p] = (x, y)
        return Design(q, points, (0,))
    f = _field(q)
    at = [{p: i for i, t in enumerate(r) for p in t} for r in rounds]
    thirds: Sequence[int | None] = [None] if len(rounds) == 2 else range(2, q)
    for third in thirds:
        slopes = (0, 1) if third is None else (0, 1, third)
        # the labels say where two lines cross, not that a player's three lines cross at
        # one point: each labelling is tried until one makes every round a class
        for labels in _labels(f, at[:len(slopes)], slopes, [MOST_STEPS]):
            # y - 0·x = round 1's label, y - x = round 2's
            points = {p: (f.sub[labels[0, at[0][p]]][labels[1, at[1][p]]],
                          labels[0, at[0][p]]) for p in players}
            used: list[Slope] = []
            for tables in at:
                slope = next((s for s in range(q) if s not in used
                              and _fits(f, points, tables, s)), None)
                if slope is None:
                    break
                used.append(slope)
            else:
                return Design(q, points, tuple(used))
    return None


def _fits(f: Field, points: Mapping[str, Point], tables: Mapping[str, int],
          slope: int) -> bool:
    """Whether the round's tables are the lines of ``slope``."""
    table_of_line: dict[int, int] = {}
    return all(table_of_line.setdefault(_line(f, point, slope), tables[p]) == tables[p]
               for p, point in points.items())


def _labels(f: Field, at: Sequence[Mapping[str, int]], slopes: Sequence[int],
            steps: list[int]) -> Iterator[dict[tuple[int, int], int]]:
    """Each table of the rounds ``at`` (round r's tables the lines of slope ``slopes[r]``)
    given its line's label (y - slope·x), so that two tables of two rounds share a player
    exactly where their lines cross at a kept point: a search, the table with fewest labels
    left first, each label taken pruning the others (``steps``: a budget, shared)."""
    cells: set[tuple[int, int, int, int]] = set()
    n = len(at)
    for p in at[0]:
        for r, r2 in itertools.permutations(range(n), 2):
            cell = (r, at[r][p], r2, at[r2][p])
            if cell in cells:  # two players met twice: no two classes of a plane
                return
            cells.add(cell)
    q = f.order

    def kept(r: int, c: int, r2: int, c2: int) -> bool:
        # y = s·x + c and y = s2·x + c2 cross at x = (c2 - c) / (s - s2)
        return f.div[f.sub[c2][c]][f.sub[slopes[r]][slopes[r2]]] < SEATS

    def search(domains: dict[tuple[int, int], set[int]]
               ) -> Iterator[dict[tuple[int, int], int]]:
        steps[0] -= 1
        if steps[0] < 0:
            return
        key = min((k for k, d in domains.items() if len(d) > 1),
                  key=lambda k: len(domains[k]), default=None)
        if key is None:
            yield {k: next(iter(d)) for k, d in domains.items()}
            return
        r, t = key
        for c in sorted(domains[key]):
            new = {key: {c}}
            for (r2, t2), d in domains.items():
                if (r2, t2) == key:
                    continue
                if r2 == r:
                    d = d - {c}
                else:
                    shared = (r, t, r2, t2) in cells
                    d = {c2 for c2 in d if kept(r, c, r2, c2) == shared}
                if not d:
                    break
                new[r2, t2] = d
            else:
                yield from search(new)

    # a translation of y moves every label: one table's may be 0
    start = {(r, t): set(range(q)) for r in range(n) for t in range(q)}
    start[0, 0] = {0}
    for (r, t), d in list(start.items()):
        if r:
            start[r, t] = {c for c in d if kept(0, 0, r, c) == ((0, 0, r, t) in cells)}
    yield from search(start)

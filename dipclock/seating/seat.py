"""Seat one round: who sits out or plays two boards, who sits at which table, with which
power, and what the seating repeats.

The order of what matters: nobody twice at a table, each power once; kept-apart players
never together (unless nothing else can be); then the pairs who met before as few as can
be, weighted by how often; then the seats whose player had that power before. Forty-nine
players who all played every earlier round are seated by the affine plane (``plane``),
which keeps eight rounds clean; everyone else by the search (``search``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS, POWERS
from dipclock.seating import plane
from dipclock.seating.past import SEATS, Chance, Past, SeatingError, pair
from dipclock.seating.powers import give_powers, repeats
from dipclock.seating.search import seat_tables
from dipclock.standings.rules import StandingsRules


@dataclass(frozen=True)
class Table:
    """One table of a round: its number and, by power letter, who plays it."""

    number: int
    seats: dict[str, str]


@dataclass(frozen=True)
class Seating:
    """A round's seating and its quality: ``pairs_met_before`` counts each pair at a table
    once for every earlier round they met in; ``powers_repeated`` the seats whose player
    had that power before; ``apart_together`` the kept-apart pairs at one table."""

    round: int
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...]
    two_boards: tuple[str, ...]
    pairs_met_before: int
    powers_repeated: int
    apart_together: int


def seat_round(players: Sequence[str], past: Past, number: int, rng: Chance, *,
               apart: Collection[tuple[str, str]] = frozenset(),
               fixed: Sequence[Table] = (),
               two_boards: Sequence[str] = ()) -> Seating:
    """Seat round ``number`` for ``players`` (those present) after the rounds in ``past``.

    ``apart``: pairs (``past.pair`` order) never to seat together. ``fixed``: tables
    already called, kept as they are (a late arrival or a withdrawal seats the rest again).
    ``two_boards``: players willing to play a second board, in the TD's order; when the
    players do not fill tables of seven, the first of them play twice instead of the
    surplus sitting out (where the event's rules allow it: the caller's to check).
    """
    _check_names(players, "players")
    held = {p for t in fixed for p in t.seats.values()}
    stray = sorted(held - set(players))
    if stray:
        raise SeatingError(f"{stray[0]} is at a called table but not among the players")
    free = [p for p in players if p not in held]
    surplus = len(free) % SEATS
    doubles: list[str] = []
    out: list[str] = []
    if surplus and two_boards:
        doubles = _doubles(two_boards, free, held, SEATS - surplus)
    elif surplus:
        out = sitting_out(free, past, surplus, rng)
    seated = [p for p in free if p not in out] + doubles
    if not seated and not fixed:
        raise SeatingError(f"{len(players)} players: a table needs {SEATS}")
    tables = _tables(seated, past, apart, rng, doubles)
    twice = next((p for t in tables for p in t if t.count(p) > 1), None)
    if twice is not None:  # the search weighs it like a kept-apart pair: never take it
        raise SeatingError(f"{twice} would sit twice at one table: a player on two boards "
                           "needs two tables")
    numbers = _free_numbers({t.number for t in fixed}, len(tables))
    # a player on two boards gets another power on the second board where one can be
    this_round = {p: {power} for t in fixed for power, p in t.seats.items() if p in doubles}
    new = []
    for n, members in zip(numbers, tables, strict=True):
        table = Table(n, give_powers(members, past, rng, this_round))
        new.append(table)
        for power, p in table.seats.items():
            if p in doubles:
                this_round.setdefault(p, set()).add(power)
    every = sorted([*fixed, *new], key=lambda t: t.number)
    return Seating(number, tuple(every), tuple(sorted(out)), tuple(doubles),
                   pairs_met_before(every, past), powers_repeated(every, past),
                   apart_together(every, apart))


def _doubles(willing: Sequence[str], free: Sequence[str], held: Collection[str],
             needed: int) -> list[str]:
    """The first ``needed`` willing players, in the TD's order, who can play a second board:
    a player at a called table can (the new tables are other tables); one still to be seated
    only when at least two tables are seated now (after a withdrawal with the other tables
    kept, the one table seated again cannot hold the same player twice)."""
    tables_now = (len(free) + needed) // SEATS
    can = [p for p in dict.fromkeys(willing)
           if p in held or (p in free and tables_now >= 2)]
    if len(can) < needed:
        why = "" if tables_now >= 2 else (
            " (one table is seated again: its second board must be a player at a called "
            "table)")
        raise SeatingError(f"{len(free)} players need {needed} on two boards to fill the "
                           f"tables; {len(can)} of the players are willing{why}")
    return can[:needed]


def sitting_out(players: Sequence[str], past: Past, count: int,
                rng: Chance) -> list[str]:
    """``count`` players with the fewest rounds sat out so far, ties drawn at random: so
    nobody sits out twice before everyone has sat out once."""
    draw = list(players)
    rng.shuffle(draw)
    return sorted(draw, key=past.sat_out)[:count]


def _tables(seated: list[str], past: Past, apart: Collection[tuple[str, str]],
            rng: Chance, doubles: Sequence[str]) -> list[list[str]]:
    if not seated:
        return []
    if not doubles:
        earlier = [past.tables[r] for r in sorted(past.tables)]
        found = plane.coordinates(seated, earlier, rng)
        if found is not None:
            best = _best_class(*found, past, apart, rng)
            if best is not None:
                return best
    return seat_tables(seated, past, apart, rng)


def _best_class(points: dict[str, plane.Point], used: list[plane.Slope], past: Past,
                apart: Collection[tuple[str, str]],
                rng: Chance) -> list[list[str]] | None:
    """The unused class of the plane with no kept-apart pair together and the fewest
    power repeats (ties at random); None when each one left seats a kept-apart pair."""
    options = [s for s in plane.CLASSES if s not in used]
    rng.shuffle(options)
    scored = []
    for slope in options:
        tables = plane.tables_of(points, slope)
        if any(pair(a, b) in apart for t in tables for i, a in enumerate(t)
               for b in t[i + 1:]):
            continue
        scored.append((sum(repeats(t, past) for t in tables), tables))
    if not scored:
        return None
    tables = min(scored, key=lambda st: st[0])[1]
    rng.shuffle(tables)
    return tables


def _free_numbers(taken: Collection[int], count: int) -> list[int]:
    out: list[int] = []
    n = 1
    while len(out) < count:
        if n not in taken:
            out.append(n)
        n += 1
    return out


def _check_names(players: Sequence[str], what: str) -> None:
    seen: dict[str, str] = {}
    for p in players:
        if not p.strip():
            raise SeatingError(f"{what}: a name is empty")
        first = seen.get(name_key(p))
        seen.setdefault(name_key(p), p)
        if first is not None:
            raise SeatingError(f"{what}: {p} is listed twice" if first == spelling(p) else
                               f"{what}: {first} and {p} are one name (capitals and accents "
                               "aside): list the player once, or tell the two apart")
    if len(players) < SEATS:
        raise SeatingError(f"{what}: {len(players)} players, a table needs {SEATS}")


def pairs_met_before(tables: Sequence[Table], past: Past) -> int:
    """Each pair at a table, once for every earlier round they met in."""
    total = 0
    for t in tables:
        names = sorted(set(t.seats.values()))
        total += sum(past.met[(a, b)] for i, a in enumerate(names) for b in names[i + 1:])
    return total


def powers_repeated(tables: Sequence[Table], past: Past) -> int:
    """The seats whose player had that power in an earlier round, or at another board of
    this one (a player on two boards)."""
    seen: set[tuple[str, str]] = set()
    count = 0
    for t in tables:
        for power, p in t.seats.items():
            count += past.times_played(p, power) > 0 or (p, power) in seen
            seen.add((p, power))
    return count


def apart_together(tables: Sequence[Table], apart: Collection[tuple[str, str]]) -> int:
    """The kept-apart pairs seated at one table."""
    return sum(pair(a, b) in apart for t in tables
               for a in t.seats.values() for b in t.seats.values() if a < b)


def two_boards_allowed(rules: StandingsRules | None) -> bool:
    """Whether the event's text lets a player play two boards of a round (it then says how
    that scores: wdc2018, wdc2019)."""
    return rules is not None and rules.two_boards != "refuse"


def table_plan(players: Sequence[str], two_boards: bool = False) -> str:
    """What the players present make, in the dashboard's words: "23 players: 3 tables, 2
    sitting out" (and, where the event lets a player play two boards, "or 5 on two
    boards"), or why ``seat_round`` would refuse them. Empty for no players."""
    if not players:
        return ""
    try:
        _check_names(players, "players")
    except SeatingError as exc:
        return str(exc)
    tables, surplus = divmod(len(players), SEATS)
    text = f"{len(players)} players: {tables} table{'' if tables == 1 else 's'}"
    if surplus:
        text += f", {surplus} sitting out"
        if two_boards:
            text += f" (or {SEATS - surplus} on two boards)"
    return text


@dataclass(frozen=True)
class Problem:
    """One thing that stops a seating being called: the ``tables`` it is at, what it is in
    ``words`` (without "table N: ", for a page that lists it under its table), and the
    ``players`` it names as seated too often (a page marks their seats)."""

    tables: tuple[int, ...]
    words: str
    players: tuple[str, ...] = ()

    @property
    def line(self) -> str:
        """The problem on its own line: "table 3: no player for Turkey"."""
        return f"table {self.tables[0]}: {self.words}" if len(self.tables) == 1 else self.words


def seating_problems(tables: Sequence[Table], apart: Collection[tuple[str, str]] = frozenset(),
                     two_boards: bool = False) -> list[Problem]:
    """What makes a seating one a TD cannot call (``problems``), each with its tables: the
    dashboard's seating view and the desk's draft say the same (issue 34)."""
    out: list[Problem] = []
    where: dict[str, list[int]] = {}
    for t in tables:
        empty = [POWERS[p] for p in LETTERS if not t.seats.get(p, "").strip()]
        if len(empty) == len(LETTERS):
            out.append(Problem((t.number,), "no players seated"))
        elif empty:
            out.append(Problem((t.number,), f"no player for {', '.join(empty)}"))
        names = [n for n in t.seats.values() if n.strip()]
        for n in sorted({n for n in names if names.count(n) > 1}):
            out.append(Problem((t.number,), f"{n} is seated twice", (n,)))
        for n in set(names):
            where.setdefault(n, []).append(t.number)
        out += [Problem((t.number,), f"{a} and {b} are kept apart")
                for a, b in sorted(apart) if a in names and b in names]
    for n, at in sorted(where.items()):
        if len(at) > (2 if two_boards else 1):
            at = sorted(at)
            out.append(Problem(tuple(at), f"{n} is seated at tables {', '.join(map(str, at))}",
                               (n,)))
    return out


def problems(tables: Sequence[Table], apart: Collection[tuple[str, str]] = frozenset(),
             two_boards: bool = False) -> list[str]:
    """What makes a seating one a TD cannot call, one line each: an empty seat, a player
    twice at a table or at two tables (unless ``two_boards``), a kept-apart pair together.
    Empty: the seating can be called."""
    return [p.line for p in seating_problems(tables, apart, two_boards)]

"""Seat one round: who sits out or plays two boards, who sits at which table, with which
power, and what the seating repeats.

The order of what matters: nobody twice at a table, each power once; kept-apart players
never together (unless nothing else can be); then the pairs who met before as few as can
be, weighted by how often; then the seats whose player had that power before. Forty-nine,
fifty-six or sixty-three players who all played every earlier round (a newcomer in a
withdrawn player's place counts) are seated by an affine plane (``plane``), which keeps
eight, eight and nine rounds clean; everyone else by the search (``search``), up to the
hub's most players (``search.MOST_SEATED``).

An event's text changes some of that, through its rules (``StandingsRules``): who played
the most rounds it allows sits out first (``played_enough``); a repeated power comes
before a pair meeting again (``powers_before_pairs``, wdc2018); the powers avoid the
areas a player had (wdc2003) and adjacent powers for two who met at adjacent powers
(wdc2006; ``powers.PowerRules``); a team round seated from its teams is seated from
them, not drawn (``teams.seat_team_round``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS
from dipclock.seating import plane
from dipclock.seating.past import SEATS, Chance, Past, SeatingError, pair
from dipclock.seating.powers import (
    NO_RULES,
    PowerRules,
    cheapest_assignment,
    fewer_power_repeats,
    give_powers,
    had_area,
    power_costs,
    repeats,
    table_cost,
)
from dipclock.seating.search import MOST_SEATED, seat_tables
from dipclock.seating.teams import TeamPowers, seat_team_round
from dipclock.sentences import powers as said_powers
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
    #: those sitting out (among ``sitting_out``) because they played the most rounds the
    #: event lets a player play (``played_enough``)
    played_enough: tuple[str, ...] = ()


def seat_round(players: Sequence[str], past: Past, number: int, rng: Chance, *,
               apart: Collection[tuple[str, str]] = frozenset(),
               fixed: Sequence[Table] = (),
               two_boards: Sequence[str] = (),
               rules: StandingsRules | None = None,
               sit_out_first: Sequence[Collection[str]] = (),
               teams: Mapping[str, TeamPowers] | None = None) -> Seating:
    """Seat round ``number`` for ``players`` (those present) after the rounds in ``past``.

    ``apart``: pairs (``past.pair`` order) never to seat together. ``fixed``: tables
    already called, kept as they are (a late arrival or a withdrawal seats the rest again).
    ``two_boards``: players willing to play a second board, in the TD's order; when the
    players do not fill tables of seven, the first of them play twice instead of the
    surplus sitting out (where the event's rules allow it: the caller's to check).
    ``rules``: the event's, for what its text asks of the draw: who may not play this round
    (``played_enough``: they sit out first), the powers (``PowerRules``), a repeated power
    before a pair meeting again (``powers_before_pairs``), a team round not drawn.
    ``sit_out_first``: groups of players who sit out before the rest (``sitting_out``).
    ``teams``: each team's player of each power, for a team round seated from its teams
    (``team_round_from_teams``: ``teams.seat_team_round``).
    """
    _check_names(players, "players")
    if _from_teams(number, rules):
        if fixed:
            raise SeatingError(said("round {number} is the team round: it is seated whole "
                                    "from the teams, with no table kept", number=number))
        return _team_round(players, past, number, rng, apart, teams)
    held = {p for t in fixed for p in t.seats.values()}
    stray = sorted(held - set(players))
    if stray:
        raise SeatingError(said("{name} is at a called table but not among the players",
                                name=stray[0]))
    done = played_enough([p for p in players if p not in held], past, number, rules)
    free = [p for p in players if p not in held and p not in done]
    if done and len(free) < SEATS and not fixed:
        raise SeatingError(said("{done} of the {players} players have played {most} and sit "
                                "out: {left} left, a table needs {seats}", done=len(done),
                                players=len(players), most=_most(number, rules),
                                left=len(free), seats=SEATS))
    surplus = len(free) % SEATS
    doubles: list[str] = []
    out: list[str] = []
    if surplus and two_boards:
        doubles = _doubles(two_boards, free, held, SEATS - surplus)
    elif surplus:
        out = sitting_out(free, past, surplus, rng, sit_out_first)
    seated = [p for p in free if p not in out] + doubles
    if not seated and not fixed:
        raise SeatingError(said("{players} players: a table needs {seats}",
                                players=len(players), seats=SEATS))
    powers = PowerRules.of(rules)
    # a round to come (``max_rounds``) with areas: look ahead; adjacent powers too would
    # need give_powers' check of two seats at once, so not then
    ahead = bool(powers.area) and not powers.adjacent and not (
        rules is not None and rules.max_rounds is not None and number >= rules.max_rounds)
    tables, planned = _tables(seated, past, apart, rng, doubles, powers, ahead)
    if rules is not None and rules.powers_before_pairs:
        tables, planned = fewer_power_repeats(tables, past, apart, rng), False
    twice = next((p for t in tables for p in t if t.count(p) > 1), None)
    if twice is not None:  # the search weighs it like a kept-apart pair: never take it
        raise SeatingError(said("{name} would sit twice at one table: a player on two "
                                "boards needs two tables", name=twice))
    numbers = _free_numbers({t.number for t in fixed}, len(tables))
    # a player on two boards gets another power on the second board where one can be
    this_round = {p: {power} for t in fixed for power, p in t.seats.items() if p in doubles}
    new = []
    for n, members in zip(numbers, tables, strict=True):
        table = Table(n, dict(zip(LETTERS, members, strict=True)) if planned
                      else give_powers(members, past, rng, this_round, powers))
        new.append(table)
        for power, p in table.seats.items():
            if p in doubles:
                this_round.setdefault(p, set()).add(power)
    every = sorted([*fixed, *new], key=lambda t: t.number)
    return Seating(number, tuple(every), tuple(sorted([*done, *out])), tuple(doubles),
                   pairs_met_before(every, past), powers_repeated(every, past),
                   apart_together(every, apart), tuple(sorted(done)))


def played_enough(players: Sequence[str], past: Past, number: int,
                  rules: StandingsRules | None) -> list[str]:
    """Those of ``players`` who may not play round ``number``: they played ``max_rounds``
    rounds already (wdc2006 1: "A player who is in the first 4 rounds can not be in round
    5"), or, in a round before the top board's, ``max_preliminary_rounds`` of those rounds
    (wdc2018: "Players may participate in no more than three of the four preliminary
    rounds"). The standings would refuse their result; the seating sits them out first."""
    if rules is None:
        return []
    out = []
    before_top = rules.top_board_round
    for p in players:
        rounds = [r for r, who in past.seated.items() if r < number and p in who]
        if rules.max_rounds is not None and len(rounds) >= rules.max_rounds:
            out.append(p)
        elif (rules.max_preliminary_rounds is not None and before_top is not None
              and number < before_top
              and sum(r < before_top for r in rounds) >= rules.max_preliminary_rounds):
            out.append(p)
    return out


def _most(number: int, rules: StandingsRules | None) -> Said | str:
    """The most rounds the event lets a player play before round ``number``, in words."""
    if rules is None:
        return ""
    if (rules.max_preliminary_rounds is not None and rules.top_board_round is not None
            and number < rules.top_board_round):
        most, of = rules.max_preliminary_rounds, rules.top_board_round - 1
        if rules.max_rounds is None:
            return said("{most} of the {rounds} preliminary rounds, the most the event "
                        "allows", most=most, rounds=of)
        return said("{max} rounds or {most} of the {rounds} preliminary rounds, the most the "
                    "event allows", max=rules.max_rounds, most=most, rounds=of)
    return said("{max} rounds, the most the event allows", max=rules.max_rounds)


def _from_teams(number: int, rules: StandingsRules | None) -> bool:
    """Is round ``number`` a team round seated from its teams, not drawn (graduated20 2:
    "teams of seven players, with one player playing each of the seven Great Powers")?"""
    return rules is not None and rules.team_round_from_teams and number == rules.team_round


def _team_round(players: Sequence[str], past: Past, number: int, rng: Chance,
                apart: Collection[tuple[str, str]],
                teams: Mapping[str, TeamPowers] | None) -> Seating:
    """The team round seated from ``teams`` (``seat_team_round``); refused without them.
    Players present in no team sit out: only teams of seven play it."""
    if not teams:
        raise SeatingError(said("round {number} is the team round: it is seated from the "
                                "teams, each team's seven at the powers the team gave; give "
                                "the teams, each member with their power (team,player,power "
                                "lines)", number=number))
    seats = seat_team_round(teams, players, past, rng, apart)
    tables = tuple(Table(n, {p: t[p] for p in LETTERS}) for n, t in enumerate(seats, 1))
    playing = {name_key(p) for t in seats for p in t.values()}
    out = tuple(sorted(p for p in players if name_key(p) not in playing))
    return Seating(number, tables, out, (), pairs_met_before(tables, past),
                   powers_repeated(tables, past), apart_together(tables, apart))


def areas_repeated(tables: Sequence[Table], past: Past, rules: StandingsRules | None) -> int:
    """The players seated in an area of powers they had in an earlier round, once each
    (wdc2003's areas; 0 where the event has none)."""
    powers = PowerRules.of(rules)
    return len({p for t in tables for power, p in t.seats.items()
                if had_area(past, p, power, powers)})


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
        values = {"players": len(free), "needed": needed, "willing": len(can)}
        raise SeatingError(said(
            "{players} players need {needed} on two boards to fill the tables; {willing} of "
            "the players are willing", **values) if tables_now >= 2 else said(
            "{players} players need {needed} on two boards to fill the tables; {willing} of "
            "the players are willing (one table is seated again: its second board must be a "
            "player at a called table)", **values))
    return can[:needed]


def sitting_out(players: Sequence[str], past: Past, count: int,
                rng: Chance, first: Sequence[Collection[str]] = ()) -> list[str]:
    """``count`` players with the fewest rounds sat out so far, ties drawn at random: so
    nobody sits out twice before everyone has sat out once. ``first``: groups sat out
    before the rest, in order (the register's: volunteers, then where the event says so
    the non-pre-registered, ``dipclock.roster.register.for_seating``)."""
    draw = list(players)
    rng.shuffle(draw)
    group = {p: i for i, g in reversed(list(enumerate(first))) for p in g}
    return sorted(draw, key=lambda p: (group.get(p, len(first)), past.sat_out(p)))[:count]


def _tables(seated: list[str], past: Past, apart: Collection[tuple[str, str]],
            rng: Chance, doubles: Sequence[str], powers: PowerRules = NO_RULES,
            ahead: bool = False) -> tuple[list[list[str]], bool]:
    """The round's tables, and whether each is already in ``LETTERS`` order as its powers
    (a class of the plane chosen looking a round ahead, ``_looking_ahead``)."""
    if not seated:
        return [], False
    if len(seated) > MOST_SEATED:
        raise SeatingError(said("{players} players to seat: the seating seats at most "
                                "{most} ({tables} tables) in a round",
                                players=format(len(seated), ","),
                                most=format(MOST_SEATED, ","),
                                tables=format(MOST_SEATED // SEATS, ",")))
    if not doubles:
        earlier = [past.tables[r] for r in sorted(past.tables)]
        found = plane.follow(seated, earlier, rng)
        if found is not None:
            best = _best_class(found, past, apart, rng, powers, ahead)
            if best is not None:
                return best
    return seat_tables(seated, past, apart, rng), False


def _best_class(found: plane.Design, past: Past, apart: Collection[tuple[str, str]],
                rng: Chance, powers: PowerRules = NO_RULES, ahead: bool = False
                ) -> tuple[list[list[str]], bool] | None:
    """The unused class of the plane with no kept-apart pair together, the fewest pairs
    met before and then the fewest power repeats (ties at random); None when each one left
    seats a kept-apart pair. A class meets nobody again unless the design was mended (a
    hand swap's players met others the plane's later classes seat together: a pair or two
    a round); the design is kept through that, since the search, seating one round at a
    time, soon meets many more again. Only when the best class meets more than a table's
    worth again (a "newcomer" who had played elsewhere in the plane) does the search seat
    the round too, and the one meeting fewer again is taken. ``ahead`` (an event with
    areas and a round to come): among the classes as good, the one whose powers leave the
    next round the fewest areas to repeat, its powers given (``_looking_ahead``)."""
    options = found.options()
    rng.shuffle(options)
    scored = []
    for slope in options:
        tables = found.tables(slope)
        if any(pair(a, b) in apart for t in tables for i, a in enumerate(t)
               for b in t[i + 1:]):
            continue
        scored.append((_met(tables, past), _powers_score(tables, past, powers), tables, slope))
    if not scored:
        return None
    met, score, tables, _ = min(scored, key=lambda st: st[:2])
    if met >= SEATS:
        other = seat_tables([p for t in tables for p in t], past, apart, rng)
        if _met(other, past) < met:
            return other, False
    if ahead and len(options) > 1:
        even = [(s, t) for m, sc, t, s in scored if m == met and sc[0] == score[0]]
        return _looking_ahead(found, even, past, powers, rng), True
    rng.shuffle(tables)
    return tables, False


#: the draws of each class's powers ``_looking_ahead`` weighs (ties of the assignment fall
#: differently in each): one reaches 21 on seeds 1 to 20 of the benchmark, as four do, and
#: keeps round 1 of 63 players (9 classes) near 0.4 s here; four took 1.5 s
DRAWS = 1


def _looking_ahead(found: plane.Design, classes: Sequence[tuple[plane.Slope, list[list[str]]]],
                   past: Past, powers: PowerRules, rng: Chance) -> list[list[str]]:
    """Of ``classes`` (as good for pairs and powers), the tables and their powers (each
    table in ``LETTERS`` order) whose areas repeated now plus the fewest the best class
    left can reach next round are fewest. Chosen one round at a time, each round's least
    can leave the next round a table whose players all had the areas its powers can give:
    wdc2003's Germany is one power for seven a round, so over four rounds 21 players never
    play it and must repeat an area once; a repeat more comes only from such a table.
    Looking one round ahead over the classes left (at most 7 by 7 tables, each a 7 by 7
    assignment) finds a way that reaches 21. wdc2003's text: "seeding will ensure as
    much as possible that each player will play a power from a different geographical
    area in each round"."""
    best: tuple[int, float, list[list[str]]] | None = None
    for slope, tables in classes:
        for _ in range(DRAWS):
            total, seated, played = 0, [], {p: Counter(c) for p, c in past.played.items()}
            for table in tables:
                order = list(table)
                rng.shuffle(order)
                cost, columns = cheapest_assignment(power_costs(order, past, None, powers))
                total += cost
                by_power = sorted(zip(columns, order, strict=True))
                seated.append([p for _, p in by_power])
                for c, p in by_power:
                    played.setdefault(p, Counter())[LETTERS[c]] += 1
            then = Past(played=played, last={**past.last, **{
                p: LETTERS[t.index(p)] for t in seated for p in t}})
            nxt = [total + sum(table_cost(t, then, powers) for t in found.tables(s))
                   for s in found.options() if s != slope]
            score = min(nxt, default=total)
            if best is None or score < best[0]:
                best = (score, rng.random(), seated)
    assert best is not None
    out = best[2]
    rng.shuffle(out)
    return out


def _powers_score(tables: Sequence[Sequence[str]], past: Past,
                  powers: PowerRules) -> tuple[int, int]:
    """The power repeats of a class of the plane, then, where the event has areas of
    powers (wdc2003), what its tables' powers cost (``table_cost``: the class decides who
    shares a table's one Germany, so the areas repeated)."""
    areas = sum(table_cost(t, past, powers) for t in tables) if powers.area else 0
    return sum(repeats(t, past) for t in tables), areas


def _met(tables: Sequence[Sequence[str]], past: Past) -> int:
    return sum(past.met[pair(a, b)] for t in tables for i, a in enumerate(t) for b in t[i + 1:])


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
            raise SeatingError(said("{what}: a name is empty", what=what))
        first = seen.get(name_key(p))
        seen.setdefault(name_key(p), p)
        if first is not None:
            raise SeatingError(
                said("{what}: {name} is listed twice", what=what, name=p)
                if first == spelling(p) else
                said("{what}: {first} and {name} are one name (capitals and accents aside): "
                     "list the player once, or tell the two apart", what=what, first=first,
                     name=p))
    if len(players) < SEATS:
        raise SeatingError(said("{what}: {players} players, a table needs {seats}", what=what,
                                players=len(players), seats=SEATS))


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


def table_plan(players: Sequence[str], two_boards: bool = False,
               played_out: Sequence[str] = (), words: Words = ENGLISH) -> str:
    """What the players present make, in the dashboard's words (``words``: the TD's phone's
    language): "23 players: 3 tables, 2 sitting out" (and, where the event lets a player
    play two boards, "or 5 on two boards"), or why ``seat_round`` would refuse them.
    ``played_out``: those of them who have played the most rounds the event allows
    (``played_enough``): they sit out first, so they count among those sitting out, named.
    Empty for no players."""
    if not players:
        return ""
    try:
        _check_names(players, "players")
    except SeatingError as exc:
        return exc.in_(words)
    done = [p for p in players if p in set(played_out)]
    tables, surplus = divmod(len(players) - len(done), SEATS)
    text = words.plural("{n} player: {tables}", "{n} players: {tables}", len(players),
                        tables=words.plural("{n} table", "{n} tables", tables))
    if surplus or done:
        out = surplus + len(done)
        if two_boards and surplus:
            text = words("{plan}, {n} sitting out (or {two} on two boards)", plan=text, n=out,
                         two=SEATS - surplus)
        else:
            text = words("{plan}, {n} sitting out", plan=text, n=out)
    if done:
        names = ", ".join(done[:3])
        if len(done) > 3:
            names = words("{names} and {n} more", names=names, n=len(done) - 3)
        text = words.plural("{plan}; {names} has played the most rounds the event allows",
                            "{plan}; {names} have played the most rounds the event allows",
                            len(done), plan=text, names=names)
    return text


@dataclass(frozen=True)
class Problem:
    """One thing that stops a seating being called: the ``tables`` it is at, what it is
    (``said``, without "table N: ", for a page that lists it under its table; ``in_``
    says it in a reader's language), and the ``players`` it names as seated too often (a
    page marks their seats)."""

    tables: tuple[int, ...]
    said: Said
    players: tuple[str, ...] = ()

    def in_(self, words: Words) -> str:
        return self.said.in_(words)

    @property
    def line(self) -> Said:
        """The problem on its own line: "table 3: no player for Turkey"."""
        return said("table {table}: {problem}", table=self.tables[0], problem=self.said) \
            if len(self.tables) == 1 else self.said


def seating_problems(tables: Sequence[Table], apart: Collection[tuple[str, str]] = frozenset(),
                     two_boards: bool = False) -> list[Problem]:
    """What makes a seating one a TD cannot call (``problems``), each with its tables: the
    dashboard's seating view and the desk's draft say the same (issue 34), each in its
    reader's language (``Problem.in_``)."""
    out: list[Problem] = []
    where: dict[str, list[int]] = {}
    for t in tables:
        empty = [p for p in LETTERS if not t.seats.get(p, "").strip()]
        if len(empty) == len(LETTERS):
            out.append(Problem((t.number,), said("no players seated")))
        elif empty:
            out.append(Problem((t.number,), said("no player for {powers}",
                                                 powers=said_powers(empty))))
        names = [n for n in t.seats.values() if n.strip()]
        for n in sorted({n for n in names if names.count(n) > 1}):
            out.append(Problem((t.number,), said("{name} is seated twice", name=n), (n,)))
        for n in set(names):
            where.setdefault(n, []).append(t.number)
        out += [Problem((t.number,), said("{first} and {second} are kept apart", first=a,
                                          second=b))
                for a, b in sorted(apart) if a in names and b in names]
    for n, at in sorted(where.items()):
        if len(at) > (2 if two_boards else 1):
            at = sorted(at)
            out.append(Problem(tuple(at), said("{name} is seated at tables {tables}", name=n,
                                               tables=", ".join(map(str, at))), (n,)))
    return out


def problems(tables: Sequence[Table], apart: Collection[tuple[str, str]] = frozenset(),
             two_boards: bool = False) -> list[Said]:
    """What makes a seating one a TD cannot call, one line each: an empty seat, a player
    twice at a table or at two tables (unless ``two_boards``), a kept-apart pair together.
    Empty: the seating can be called. Each said in its reader's language."""
    return [p.line for p in seating_problems(tables, apart, two_boards)]

"""What an event's teams ask of the draw: team-mates kept apart, and a team round of seven.

Team-mates apart (``team_apart``) are kept-apart pairs for the rounds the event's text
says (``StandingsRules.teams_apart_rounds``, ``teams_apart_games``), so the seating
keeps them apart as it keeps any pair (never together unless nothing else can be).

graduated20's team round (rule 2: "teams of seven players, with one player playing each of
the seven Great Powers") is not drawn from the players but from the teams
(``seat_team_round``): each team gives who plays which power, and every table gets one
player of each power, each from another team. With ``n`` teams, team ``order[i]``'s player
of power ``p`` sits at table ``(i - shift[p]) mod n`` for seven different shifts: a Latin
rectangle, so each table holds seven teams once each and each team's seven are at seven
tables. Among such draws the one with the fewest kept-apart pairs together, then the fewest
pairs met before, is kept.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from dipclock.i18n import said
from dipclock.names import name_key
from dipclock.powers import LETTERS
from dipclock.seating.past import SEATS, Chance, Past, SeatingError, pair
from dipclock.sentences import plural, power, powers
from dipclock.standings.rules import StandingsRules

#: the draws of a team round tried (each costs 7 x tables pairs: 20 tables, 200 draws is
#: well under a second)
TEAM_DRAWS = 200

#: a team's players by power letter
TeamPowers = Mapping[str, str]


def team_apart(teams: Mapping[str, Sequence[str]], rules: StandingsRules | None,
               number: int, past: Past) -> set[tuple[str, str]]:
    """The team-mate pairs round ``number`` keeps apart (``past.pair`` order): every pair
    of one team in a round of ``teams_apart_rounds`` (wdc2006 4, wdc2019 II.4b); with
    ``teams_apart_games`` (wdc2003), the pairs one of whom has not yet played that many
    rounds without facing a team-mate. Empty where the event says neither."""
    if rules is None:
        return set()
    pairs = {pair(a, b) for members in teams.values()
             for i, a in enumerate(members) for b in members[i + 1:] if a != b}
    if number in rules.teams_apart_rounds:
        return pairs
    need = rules.teams_apart_games
    if need is None:
        return set()
    team_of = {m: t for t, members in teams.items() for m in members}
    clean: dict[str, int] = {}
    for rnd in sorted(r for r in past.tables if r < number):
        for table in past.tables[rnd]:
            for p in table:
                if p in team_of and not any(team_of.get(q) == team_of[p]
                                            for q in table if q != p):
                    clean[p] = clean.get(p, 0) + 1
    return {(a, b) for a, b in pairs if min(clean.get(a, 0), clean.get(b, 0)) < need}


def check_teams(teams: Mapping[str, TeamPowers], players: Collection[str]) -> None:
    """Refuse (``SeatingError``, saying why) teams a team round cannot be seated from:
    fewer than seven (a table holds seven teams), a team without a player for a power, a
    player in two teams or not among the players present."""
    if len(teams) < SEATS:
        raise SeatingError(plural("{n} team: the team round needs at least {seats}, one "
                                  "team at each power of a table",
                                  "{n} teams: the team round needs at least {seats}, one "
                                  "team at each power of a table", len(teams), seats=SEATS))
    present = {name_key(p) for p in players}
    seen: dict[str, str] = {}
    for team, seats in teams.items():
        missing = [p for p in LETTERS if not seats.get(p, "").strip()]
        if missing:
            raise SeatingError(said("team {team} has no player for {powers}: a team gives "
                                    "one player for each of the seven powers", team=team,
                                    powers=powers(missing)))
        for letter in LETTERS:
            who = seats[letter]
            if name_key(who) in seen:
                raise SeatingError(said("{name} is in two teams: {first} and {second}",
                                        name=who, first=seen[name_key(who)], second=team))
            seen[name_key(who)] = team
            if name_key(who) not in present:
                raise SeatingError(said("{name} ({power} of team {team}) is not among the "
                                        "players present: the team needs all seven",
                                        name=who, power=power(letter), team=team))


def seat_team_round(teams: Mapping[str, TeamPowers], players: Collection[str], past: Past,
                    rng: Chance, apart: Collection[tuple[str, str]] = frozenset()
                    ) -> list[dict[str, str]]:
    """The tables of a team round, each by power letter: one player of each power, no two
    of one team at a table (``check_teams`` first); the draw with the fewest kept-apart
    pairs together, then pairs met before, of ``TEAM_DRAWS`` tried."""
    check_teams(teams, players)
    names = list(teams)
    n = len(names)
    best: tuple[tuple[int, int], list[dict[str, str]]] | None = None
    for _ in range(TEAM_DRAWS):
        order = list(names)
        rng.shuffle(order)
        shifts = rng.sample(range(n), SEATS)
        tables: list[dict[str, str]] = [{} for _ in range(n)]
        for i, team in enumerate(order):
            for letter, shift in zip(LETTERS, shifts, strict=True):
                tables[(i - shift) % n][letter] = teams[team][letter]
        cost = _cost(tables, past, apart)
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == (0, 0):
            break
    assert best is not None
    return best[1]


def _cost(tables: Sequence[Mapping[str, str]], past: Past,
          apart: Collection[tuple[str, str]]) -> tuple[int, int]:
    together = met = 0
    for t in tables:
        who = list(t.values())
        for i, a in enumerate(who):
            for b in who[i + 1:]:
                together += pair(a, b) in apart
                met += past.met[pair(a, b)]
    return together, met


__all__ = ["TEAM_DRAWS", "TeamPowers", "check_teams", "seat_team_round", "team_apart"]

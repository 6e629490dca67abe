"""The World Diplomacy Database's files from a hub: its data gathered for ``dipclock.wdd``.

``dipclock.wdd`` is pure; this module reads the hub's store the way the results desk does
(``server.resultsdesk``: the same confirmed sheets, the same scores, the same standings the
dashboard shows) and hands them over: the roster's people, the standings after the last
round with a confirmed sheet, each confirmed board's result, the best countries, the top
board, the teams.

A seated name with no roster entry (a hub used before the roster, a name typed on the
Seating card) still gets its lines: its given and family names are split from the name
(``split_name``), and a note says so, for the TD to add them to the roster and export again.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said
from dipclock.names import name_key, spelling
from dipclock.powers import POWERS
from dipclock.roster import Person
from dipclock.scoring import ResultError
from dipclock.standings import StandingsError, team_standings
from dipclock.wdd import Board, Event, WddError, wdd_files
from server.resultsdesk import (
    board_of,
    board_result,
    game_scores,
    players_of,
    ranked,
    rules_of,
)
from server.store import Store


class ExportRefused(DipclockError):
    """What the hub cannot export yet, in one line for the TD, said in their language
    (``in_``; ``message`` is the English)."""

    def __init__(self, message: Said) -> None:
        super().__init__(message)
        self.message = str(message)


#: the small words a family name starts with ("Ludwig van Beethoven", "Ana de la Cruz")
PARTICLES = frozenset({"van", "von", "de", "der", "den", "del", "della", "di", "da", "das",
                       "dos", "du", "la", "le", "ter", "ten", "st", "st.", "mac", "al", "el",
                       "bin", "ibn", "y"})


def split_name(name: str) -> tuple[str, str]:
    """A display name as (given, family): the last word the family name, with the small
    words before it ("van der Berg"); a name of one word is a family name. Written here
    rather than taken from a name-parsing library: the hub only guesses for a name the
    roster lacks, says so, and the TD's roster is the real answer."""
    # not named ``words``: the catalogue's extraction reads that name as a call of ours
    parts = spelling(name).split()
    if len(parts) < 2:
        return "", " ".join(parts)
    start = len(parts) - 1
    while start > 1 and parts[start - 1].lower() in PARTICLES:
        start -= 1
    return " ".join(parts[:start]), " ".join(parts[start:])


@dataclass(frozen=True)
class Files:
    """The two files by name, and notes for the TD (names split, not on the roster)."""

    files: dict[str, bytes]
    notes: list[Said]


def last_scored_round(store: Store) -> int:
    """The last round with a board the TD confirmed (``ExportRefused`` before one)."""
    confirmed = [s.round for s in store.sheets() if s.td]
    if not confirmed:
        raise ExportRefused(said("no board's result is confirmed yet: the WDD's files list "
                                 "results, so confirm the round's sheets on the Results card "
                                 "first"))
    return max(confirmed)


def wdd_event(store: Store) -> tuple[Event, list[Said]]:
    """What ``dipclock.wdd`` needs, read from the store, and the notes for the TD."""
    last = last_scored_round(store)
    board = board_of(store, last)
    if board is None:
        raise ExportRefused(said("round {round} has no event's rules stored: set the event "
                                 "first", round=last))
    rules = rules_of(board.profile)
    scores = game_scores(store, last)
    try:
        top, table, best = ranked(store, rules, scores, last)
    except StandingsError as exc:
        raise ExportRefused(said("the standings cannot be computed: {error}",
                                 error=exc)) from None
    teams = store.teams()
    team_table = []
    if teams and rules.team_round is not None and any(s.round == rules.team_round
                                                      for s in scores):
        try:
            team_table = team_standings(scores, teams, rules)
        except StandingsError as exc:
            raise ExportRefused(said("the teams' table cannot be computed: {error}",
                                     error=exc)) from None
    people: dict[str, Person] = {p.name: p for _, p in store.people()}
    known = {name_key(n) for n in people}
    notes: list[Said] = []
    for player in sorted({s.player for s in scores}):
        if name_key(player) not in known:
            given, family = split_name(player)
            people[player] = Person(given=given, family=family)
            known.add(name_key(player))
            notes.append(said("{player!r} is not on the roster: written as first name "
                              "{given!r}, name {family!r}, with no nationality; add them to "
                              "the roster and export again to correct it", player=player,
                              given=given, family=family))
    return Event(people=people, standings=table, scores=scores,
                 boards=_boards(store, last), best=best,
                 top_board=(top.round, str(top.table)) if top and top.counts and top.table
                 else None,
                 teams={p: team for team, members in teams.items() for p in members}
                 if team_table else {},
                 team_standings=team_table, two_boards=rules.two_boards), notes


def _boards(store: Store, last: int) -> list[Board]:
    """Every board the TD confirmed, rounds up to ``last``, as its round's rules end it."""
    out = []
    for r in range(1, last + 1):
        board = board_of(store, r)
        if board is None:
            continue
        seated = players_of(store, r)
        for sheet in store.sheets(r):
            if not sheet.td:
                continue
            try:
                scored = board_result(board, sheet.table, sheet.body)
            except ResultError:
                continue  # not counted in the standings either (``game_scores``)
            players = seated.get(sheet.table, {})
            out.append(Board(round=r, board=str(sheet.table), result=scored.result,
                             players={POWERS[p]: n for p, n in players.items()},
                             scores={POWERS[p]: scored.scores[p] for p in players}))
    return out


def wdd_export(store: Store) -> Files:
    """``classification.csv`` and ``boards.csv`` for the event on this hub."""
    event, notes = wdd_event(store)
    try:
        return Files(wdd_files(event), notes)
    except WddError as exc:
        raise ExportRefused(said("the WDD's files cannot be written: {error}",
                                 error=exc)) from None


__all__ = ["ExportRefused", "Files", "last_scored_round", "split_name", "wdd_event",
           "wdd_export"]

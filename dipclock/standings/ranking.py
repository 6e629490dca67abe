"""The tournament's order: totals, the top board's places, then the tie-breaks."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from dipclock.i18n import Said, said
from dipclock.standings.aggregate import by_player, played_every, totals_of
from dipclock.standings.boards import SEATS
from dipclock.standings.model import GameScore, Standing, StandingsError, settle
from dipclock.standings.order import group_by, ranks
from dipclock.standings.rules import StandingsRules, TieBreak
from dipclock.standings.tiebreaks import Field, check_data, separate


def standings(scores: Sequence[GameScore], rules: StandingsRules, *,
              top_board: frozenset[str] = frozenset(),
              top_board_round: int | None = None,
              bonuses: Mapping[str, float] | None = None) -> list[Standing]:
    """Every player, best first: by total (a top-board player's with its bonus), then by the
    event's tie-breaks in order; players level on everything share the rank.

    With ``top_board`` and ``top_board_places``, the top board's own game decides the first
    places: its seven players are ordered by their game in ``top_board_round`` (the rules'
    own where not given; score or centres, ``top_board_by``), those level in that game by
    their total and then by the tie-breaks,
    as anywhere else in the table: the game decides, the tournament breaks its ties, and
    only players level on all of it share a place. The first ``top_board_places`` take
    places 1..n (a level group on the edge is taken whole: a shared win is still a win);
    everyone else, the rest of the top board too, follows by total.

    ``bonuses``: points added to a player's total outside any game (wdc2019 II.1b3: "A
    bonus may be given to the player who ask to sit out": ``dipclock.roster.register``);
    a player with no game yet has no place, bonus or not.
    """
    if top_board and len(top_board) != SEATS:
        raise StandingsError(said("the top board has {n} players: a board seats {seats}",
                                  n=len(top_board), seats=SEATS))
    games = by_player(scores, rules)
    check_data(scores, rules.tie_breaks)
    total = totals_of(games, rules, top_board)
    for player, points in (bonuses or {}).items():
        if player in total:
            total[player] = settle(total[player] + points)
    field = Field.of(games)
    head: list[list[str]] = []
    if top_board and rules.top_board_places:
        head = _top_board(field, total, rules, top_board,
                          rules.top_board_round if top_board_round is None else top_board_round)
    placed = {p for group in head for p in group}
    rest = [p for p in games if p not in placed]
    tail = _ordered(field, rest, lambda p: (total[p],), rules.tie_breaks)
    return [Standing(rank, p, total[p], len(games[p]), shared)
            for rank, p, shared in ranks(head + tail)]


def _ordered(field: Field, players: Iterable[str], key: Callable[[str], tuple[float, ...]],
             tie_breaks: Sequence[TieBreak]) -> list[list[str]]:
    return [group for level in group_by(players, key)
            for group in separate(field, level, tie_breaks)]


def _top_board(field: Field, total: Mapping[str, float], rules: StandingsRules,
               top_board: frozenset[str], round_: int | None) -> list[list[str]]:
    """The groups that take the first places, from the top board's game."""
    if round_ is None:
        raise StandingsError(said("top_board_places needs the top board's round "
                                  "(top_board_round)"))
    result: dict[str, float] = {}
    boards: set[str] = set()
    for p in sorted(top_board):
        game = next((g for g in field.games.get(p, ()) if g.round == round_), None)
        if game is None:
            raise StandingsError(said("{player!r} is on the top board but has no score in "
                                      "round {round}", player=p, round=round_))
        if game.board is not None:
            boards.add(game.board)
        if len(boards) > 1:
            raise StandingsError(said("the top board's players played on {n} boards of "
                                      "round {round} ({boards})", n=len(boards),
                                      round=round_, boards=", ".join(sorted(boards))))
        if rules.top_board_by == "centres":
            if game.centres is None:
                raise StandingsError(said("top_board_by = 'centres' needs the top board's "
                                          "centres: {player!r} in round {round} has none",
                                          player=p, round=round_))
            result[p] = game.centres
        else:
            result[p] = game.score
    head: list[list[str]] = []
    for group in _ordered(field, top_board, lambda p: (settle(result[p]), total[p]),
                          rules.tie_breaks):
        if sum(map(len, head)) >= rules.top_board_places:
            break
        head.append(group)
    return head


class SeatTie(StandingsError):
    """The last qualifying seat falls among players no tie-break separates: the TD decides."""

    def __init__(self, message: str | Said, players: Sequence[str] = ()) -> None:
        # ``players`` has a default as an exception is unpickled from its message alone
        # (its attributes follow: a seating job passes it back from its process)
        super().__init__(message)
        self.players = tuple(players)


def qualifiers(scores: Sequence[GameScore], rules: StandingsRules, rounds: Collection[int],
               seats: int = 7,
               exclude: Collection[str] | Callable[[str], bool] = frozenset(),
               chosen: Collection[str] = ()) -> list[str]:
    """The ``seats`` best on the standings of ``rounds`` alone (with the qualification
    weights), to seat a top board; ``exclude`` (names, or a test of a name) drops those who
    may not sit there, such as ``played_every(scores, {1, 2, 3, 4})`` at wdc2006. They are
    dropped after ranking, so that their games still count against their opponents.
    A tie on the last seat is a ``SeatTie``: no order the software picks would be fair;
    ``chosen``, the TD's names for it (wdc2006 19.8: "If a player steps back, the following
    player in the ranking may replace him"; where the following are level, the TD names who
    does), settles it when they are that many of those level."""
    out = exclude if callable(exclude) else exclude.__contains__
    table = [s for s in standings([s for s in scores if s.round in rounds],
                                  rules.for_qualification())
             if not out(s.player)]
    if len(table) > seats > 0 and table[seats - 1].rank == table[seats].rank:
        level = [s.player for s in table if s.rank == table[seats].rank]
        above = [s.player for s in table if s.rank < table[seats].rank]
        picked = [p for p in level if p in chosen]
        need = seats - len(above)
        if chosen and len(picked) == need and set(chosen) <= set(level) | set(above):
            return above + picked
        tied = {"seat": seats, "players": ", ".join(level)}
        raise SeatTie(said("seat {seat} of the top board is tied between {players}: no "
                           "tie-break separates them; the TD named {named}: name {need} of "
                           "those level", named=", ".join(chosen), need=need, **tied)
                      if chosen else
                      said("seat {seat} of the top board is tied between {players}: no "
                           "tie-break separates them", **tied), level)
    return [s.player for s in table[:seats]]


def top_board_seeds(scores: Sequence[GameScore], rules: StandingsRules,
                    absent: Collection[str] = frozenset(),
                    chosen: Collection[str] = ()) -> list[str]:
    """The top board's seven, best first, by the event's rule: the standings of the rounds
    before the top board's own, with the qualification weights, less those the event bars
    (wdc2006 19.8: who played all of them "cannot play another game") and those
    ``absent`` (a withdrawal: "the next player will take the place"). Empty: the event has
    no top board, or no round before it has a score. A tie on the last seat is a
    ``SeatTie``, unless ``chosen`` (the TD's names) settles it (``qualifiers``)."""
    if rules.top_board_round is None:
        return []
    before = set(range(1, rules.top_board_round))
    if not any(s.round in before for s in scores):
        return []
    skip = played_every(scores, before) if rules.top_board_skips_full_players else frozenset()
    return qualifiers(scores, rules, before, exclude=lambda p: p in skip or p in absent,
                      chosen=chosen)

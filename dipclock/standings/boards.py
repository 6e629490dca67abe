"""What one board of a round can hold, and what counts of a player's two boards in a round.

A board seats seven players, each a different power, on 34 centres: a scores file that says
otherwise has a typo in it, and ranking it would hide the typo. A player on two boards of
one round is an error too, unless the event's text says what counts (``two_boards``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from dipclock.i18n import said
from dipclock.powers import power_letter
from dipclock.sentences import power as said_power
from dipclock.standings.model import ALL_CENTRES, GameScore, StandingsError
from dipclock.standings.rules import TwoBoards

SEATS = 7
#: wdc2019 2b4: "His best game at 80% and his second game at 40%" (or 100 % and 0 %).
AS_ONE_GAME = (0.8, 0.4)


def check_boards(scores: Iterable[GameScore]) -> None:
    """Refuse a board (a round's ``board``) of more than seven players, one player or one
    power twice, or centres adding to more than the map's 34."""
    boards: dict[tuple[int, str], list[GameScore]] = {}
    for s in scores:
        if s.board is not None:
            boards.setdefault((s.round, s.board), []).append(s)
    for (round_, board), seated in boards.items():
        where = {"round": round_, "board": board}
        players: dict[str, GameScore] = {}
        powers: dict[str, GameScore] = {}
        for s in seated:
            if s.player in players:
                raise StandingsError(said("round {round}, board {board}: {player!r} is "
                                          "scored twice", player=s.player, **where))
            players[s.player] = s
            if s.power is not None:
                if s.power in powers:
                    raise StandingsError(said(
                        "round {round}, board {board}: {power} is played by both {first!r} "
                        "and {second!r}", power=said_power(power_letter(s.power)),
                        first=powers[s.power].player, second=s.player, **where))
                powers[s.power] = s
        if len(players) > SEATS:
            raise StandingsError(said("round {round}, board {board} has {n} players: a "
                                      "board seats {seats}", n=len(players), seats=SEATS,
                                      **where))
        total = sum(s.centres or 0 for s in seated)
        if total > ALL_CENTRES:
            raise StandingsError(said("round {round}, board {board}: the centres add up to "
                                      "{total}; a board has {most}", total=total,
                                      most=ALL_CENTRES, **where))


def one_game(games: Sequence[GameScore], rule: TwoBoards) -> GameScore:
    """A player's one result in a round from the games they were scored in there (one,
    or two boards played at once, by ``rule``)."""
    if len(games) == 1:
        return games[0]
    first = games[0]
    if rule == "refuse":
        raise StandingsError(said("{player!r} has two scores in round {round}",
                                  player=first.player, round=first.round)
                             if len(games) == 2 else
                             said("{player!r} has {n} scores in round {round}",
                                  player=first.player, round=first.round, n=len(games)))
    best, *rest = sorted(games, key=lambda g: g.score, reverse=True)
    if rule == "higher":
        return best
    if len(rest) > 1:  # wdc2019 2b3: "A player cannot player more than two games"
        raise StandingsError(said("{player!r} has {n} scores in round {round}: no one plays "
                                  "more than two games at the same time",
                                  player=first.player, round=first.round, n=len(games)))
    full, half = AS_ONE_GAME
    return replace(best, score=max(full * best.score + half * rest[0].score, best.score))


def one_per_round(scores: Iterable[GameScore], rule: TwoBoards) -> list[GameScore]:
    """Each player's one result per round, in round order (``one_game``)."""
    cells: dict[tuple[str, int], list[GameScore]] = {}
    for s in sorted(scores, key=lambda s: s.round):
        cells.setdefault((s.player, s.round), []).append(s)
    return [one_game(games, rule) for games in cells.values()]

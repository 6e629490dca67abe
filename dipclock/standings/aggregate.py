"""A player's total: the results, best first, times the event's weights."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

from dipclock.standings.model import GameScore, StandingsError, settle
from dipclock.standings.rules import StandingsRules


def by_player(scores: Iterable[GameScore], rules: StandingsRules) -> dict[str, list[GameScore]]:
    """Each player's games in round order. A player scored twice in one round, or in more
    rounds than ``max_rounds``, is an error: ranking such data would hide a typo."""
    games: dict[str, list[GameScore]] = {}
    for s in sorted(scores, key=lambda s: s.round):
        mine = games.setdefault(s.player, [])
        if mine and mine[-1].round == s.round:
            raise StandingsError(f"{s.player!r} has two scores in round {s.round}")
        mine.append(s)
    if rules.max_rounds is not None:
        for player, mine in games.items():
            if len(mine) > rules.max_rounds:
                played = ", ".join(str(g.round) for g in mine)
                raise StandingsError(f"{player!r} played {len(mine)} rounds ({played}); "
                                     f"max_rounds is {rules.max_rounds}")
    return games


def weighted(results: Iterable[float], weights: Sequence[float],
             only_when_all_played: bool = False) -> float:
    """The results, best first, times ``weights``: past the list a result does not count, a
    missing one counts 0; no weights (or, with ``only_when_all_played``, fewer results than
    weights) adds every result at 1."""
    best = sorted(results, reverse=True)
    if not weights or (only_when_all_played and len(best) < len(weights)):
        return settle(math.fsum(best))
    return settle(math.fsum(w * r for w, r in zip(weights, best, strict=False)))


def totals_of(games: Mapping[str, Sequence[GameScore]], rules: StandingsRules,
              top_board: Collection[str] = frozenset()) -> dict[str, float]:
    """``totals`` of games already grouped (and checked) by ``by_player``."""
    bonus = 1 + rules.top_board_bonus
    return {
        player: settle(weighted((g.score for g in mine), rules.weights,
                                rules.weights_only_when_all_played)
                       * (bonus if player in top_board else 1))
        for player, mine in games.items()
    }


def totals(scores: Iterable[GameScore], rules: StandingsRules,
           top_board: Collection[str] = frozenset()) -> dict[str, float]:
    """Each player's total; a top-board player's is raised by ``top_board_bonus``."""
    return totals_of(by_player(scores, rules), rules, top_board)


def played_every(scores: Iterable[GameScore], rounds: Collection[int]) -> frozenset[str]:
    """The players scored in each of ``rounds``: wdc2006's top board seats none of those who
    played all of the first four rounds, as they cannot play another game."""
    seen: dict[str, set[int]] = {}
    for s in scores:
        seen.setdefault(s.player, set()).add(s.round)
    return frozenset(p for p, played in seen.items() if set(rounds) <= played)

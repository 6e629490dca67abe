"""A player's total: the results, best first, times the event's weights."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence

from dipclock.i18n import said
from dipclock.standings.boards import check_boards, one_per_round
from dipclock.standings.model import GameScore, StandingsError, settle
from dipclock.standings.rules import StandingsRules


def by_player(scores: Iterable[GameScore], rules: StandingsRules) -> dict[str, list[GameScore]]:
    """Each player's games in round order, one per round (two boards of one round by the
    event's ``two_boards``). An impossible board (``check_boards``), or a player in more
    rounds than ``max_rounds`` or ``max_preliminary_rounds``, is an error: ranking such
    data would hide a typo."""
    scores = list(scores)
    check_boards(scores)
    games: dict[str, list[GameScore]] = {}
    for s in one_per_round(scores, rules.two_boards):
        games.setdefault(s.player, []).append(s)
    for player, mine in games.items():
        if rules.max_rounds is not None and len(mine) > rules.max_rounds:
            raise StandingsError(said("{player!r} played {n} rounds ({played}); max_rounds "
                                      "is {limit}", limit=rules.max_rounds,
                                      **_played(player, mine)))
        if rules.top_board_round is not None:
            before = [g for g in mine if g.round < rules.top_board_round]
            limit = rules.max_preliminary_rounds
            if limit is not None and len(before) > limit:
                raise StandingsError(said("{player!r} played {n} preliminary rounds "
                                          "({played}); max_preliminary_rounds is {limit}",
                                          limit=limit, **_played(player, before)))
    return games


def _played(player: str, games: Sequence[GameScore]) -> dict[str, object]:
    """A player's rounds, as a sentence over a limit names them (always more than one)."""
    return {"player": player, "n": len(games),
            "played": ", ".join(str(g.round) for g in games)}


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

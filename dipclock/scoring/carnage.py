"""Carnage, for a TD's own event: a solo takes the whole game, otherwise points by place.

"Each game is worth 28,034 points. If you solo, you get them all, and every other player
receives 0 points." Otherwise players are ranked by centres at the end, "eliminated players
are additionally ranked by the game-year that they were eliminated" (later is better); places
pay 7000, 6000, ... 1000, shared places split their points, and "each player gets 1 point per
supply center at the end of the game" (World Diplomacy Wiki, Carnage Scoring System).
"""

from __future__ import annotations

from dipclock.scoring.places import by_centres_then_elimination, shared_places
from dipclock.scoring.result import GameResult

SOLO = 28034.0
PLACES = (7000.0, 6000.0, 5000.0, 4000.0, 3000.0, 2000.0, 1000.0)


def score(result: GameResult) -> dict[str, float]:
    if result.winner is not None:
        return {p: SOLO if p == result.winner else 0.0 for p in result.centres}
    order, key = by_centres_then_elimination(result.centres, result.eliminated)
    placed = shared_places(order, key, PLACES)
    return {p: placed[p] + c for p, c in result.centres.items()}

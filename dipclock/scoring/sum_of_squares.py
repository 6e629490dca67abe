"""Sum of Squares: wdc2018 ("Scoring System: Sum of Squares"), and for a TD's own event.

"For games ending in solos, the soloist will score 100 points. All other players will receive
0 points." Otherwise "Points for player 1 = 100 * (P1 / S)", P the square of the player's
centres and S the sum of the seven squares.
"""

from __future__ import annotations

from dipclock.scoring.result import GameResult


def score(result: GameResult) -> dict[str, float]:
    if result.winner is not None:
        return {p: 100.0 if p == result.winner else 0.0 for p in result.centres}
    board = sum(c * c for c in result.centres.values())
    return {p: 100 * c * c / board for p, c in result.centres.items()}

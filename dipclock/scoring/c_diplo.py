"""C-Diplo, for a TD's own event: every game worth 100.

"1 point for playing ... 1 point per s.c. ... 38 bonus points for the table-topper ... 14
bonus points for 2nd place ... 7 bonus points for 3rd place ... an 18+ scores 100 points (with
everyone else scoring zero) and tied places share the bonus points appropriately" (Toby Harris,
"C-Diplo - Saint or Sinner?"). The 100-point solo of the original, not the 73 of some French
events. Places go to survivors: an eliminated power holds no place, and a bonus no survivor
reaches (two survivors) is not paid.
"""

from __future__ import annotations

from dipclock.scoring.places import shared_places
from dipclock.scoring.result import GameResult

SOLO = 100.0
BONUS = (38.0, 14.0, 7.0)


def score(result: GameResult) -> dict[str, float]:
    if result.winner is not None:
        return {p: SOLO if p == result.winner else 0.0 for p in result.centres}
    order = sorted(result.survivors, key=lambda p: result.centres[p], reverse=True)
    bonus = shared_places(order, result.centres.__getitem__, BONUS)
    return {p: 1.0 + c + bonus.get(p, 0.0) for p, c in result.centres.items()}

"""Super Pastis: wdc2019 (IV.1 "Scoring System").

"The player who solos scores 102 points (the double pastis). The other players score 1 point
per year played." Otherwise "All eliminated get 1 point for each year before elimination. All
survivors receive 10 points plus 2 points for each center at the end of the game", with
bonuses by the distance to the highest centre count; when "two or more players share the top
center count", x of them, each bonus is divided by x and the sharers get 48/x.

Where the text can be read two ways, dipclock reads it so that more centres never score less:
- "within 3 / 2 / 1 centers ... a bonus of 3 / 6 / 12 points": the tier the player is in, not
  their sum (a power one centre behind gets 12, not 21), and not the top players themselves.
- "a bonus of 51 points minus the second highest point score in the game": 51 minus the
  second-highest *centre count*. Read as the second player's points, a 17-16 board would give
  the top a negative bonus and a lower score than the second (10 + 34 - 3 = 41 against 54).
- In a solo, "The other players score 1 point per year played": to the end for a survivor;
  for a power eliminated before, the years it played, its elimination year included (it
  played that year's Spring and Fall). The text words this case apart from the game without
  a solo's "1 point for each year before elimination", and every other player of the board
  is scored by the same sentence: a survivor and a power eliminated in the solo's year both
  played every year.
"""

from __future__ import annotations

from dipclock.scoring.result import FIRST_YEAR, GameResult

SOLO = 102.0
TOP = 51
SHARED_TOP = 48.0
#: Bonus by centres behind the top count.
BEHIND = {1: 12.0, 2: 6.0, 3: 3.0}


def years_before_elimination(year: int) -> int:
    return year - FIRST_YEAR


def score(result: GameResult) -> dict[str, float]:
    if result.winner is not None:
        return {p: SOLO if p == result.winner else float(result.years_played(p))
                for p in result.centres}
    out: dict[str, float] = {}
    top = result.top()
    sharing = [p for p, c in result.centres.items() if c == top]
    x = len(sharing)
    second = max((c for c in result.centres.values() if c < top), default=0)
    for p, c in result.centres.items():
        if p in result.eliminated:
            out[p] = float(years_before_elimination(result.eliminated[p]))
            continue
        points = 10.0 + 2 * c
        if c == top:
            points += (TOP - second) if x == 1 else SHARED_TOP / x
        else:
            points += BEHIND.get(top - c, 0.0) / x
        out[p] = points
    return out

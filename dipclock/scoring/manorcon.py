"""ManorCon scoring, p = c² + 4c + 16: wdc2006 (rule 19) and graduated20 (rule 19).

"19.4) A solo scores 75 points. 19.5) Draws are scored by calculating p = c^2 + 4c + 16 for
each player, where c is the number of centres they held at the end of the game. Each player
scores 100 * p / (sum of p for all seven players on the board). 19.6) Eliminated players score
0.1 * (y - 1900), where y is the year they were eliminated. Losers to a solo score as if
eliminated in the year of the solo."

The sum is over *all seven* players, as the sentence says (an eliminated power's p is 16), as
ManorCon's own rules have it ("for every player (including eliminated players)"): a board with
eliminations shares out less than 100 to its survivors, and each eliminated player scores by
rule 19.6 instead of its share.

A concession (graduated20 rule 16: "a concession to a named Great Power") is scored as the
solo it concedes: rule 19 scores solos, draws and eliminations only, and "any solo beats any
draw beats any other result" (19.3); the others are "Losers to a solo" in its year.
"""

from __future__ import annotations

from dipclock.scoring.result import FIRST_YEAR, GameResult

SOLO = 75.0


def p_value(c: int) -> int:
    return c * c + 4 * c + 16


def eliminated_score(year: int) -> float:
    return 0.1 * (year - (FIRST_YEAR - 1))


def score(result: GameResult) -> dict[str, float]:
    if result.winner is not None:
        return {
            p: SOLO if p == result.winner
            else eliminated_score(result.eliminated.get(p, result.year))
            for p in result.centres
        }
    board = sum(p_value(c) for c in result.centres.values())
    return {
        p: eliminated_score(result.eliminated[p]) if p in result.eliminated
        else 100 * p_value(c) / board
        for p, c in result.centres.items()
    }

"""The ARMADA Regatta's system: wdc2003 ("Scoring System").

"104 points to a single victor; 80 points to a participant in a two-way draw; 56 ... three-way;
40 ... four-way; 32 ... five-way; 24 ... six-way; 16 ... seven-way; 0 points to a player
achieving any other result." "For each victory or draw result achieved by the player, a
reduction is made to the point award based on the final game-year ... yrs + yrs × (yrs - 1) /
200 (where yrs is the number of game-years played)." "For each elimination, loss, or
concession to another player, the "Game-Year" points ... are added to the player's score,
according to the game-year in which the player's elimination, loss, or concession occurred."

A survivor left out of a draw (the two-way draw vote of the two leaders) has lost in the final
year and is scored so. A concession is a victory ("A game will end in a victory if all players
who control at least one supply center vote unanimously to concede the game to a specific
single power"): the power conceded to scores as a victor, the others as conceding in the final
year. Read as written, the rule can pay a power eliminated late more than a
participant of a large late draw (eliminated in 1912: +12.66; a six-way draw in 1912: 24 -
12.66 = 11.34); dipclock scores what the text says.
"""

from __future__ import annotations

from dipclock.scoring.result import FIRST_YEAR, GameResult

VICTORY = 104.0
DRAW = {2: 80.0, 3: 56.0, 4: 40.0, 5: 32.0, 6: 24.0, 7: 16.0}


def game_year_points(year: int) -> float:
    """The table's "Game-Year Points": 1901 -> 1.00, 1907 -> 7.21, 1914 -> 14.91."""
    yrs = year - (FIRST_YEAR - 1)
    return yrs + yrs * (yrs - 1) / 200


def score(result: GameResult) -> dict[str, float]:
    final = game_year_points(result.year)
    drawing = result.drawing
    out: dict[str, float] = {}
    for p in result.centres:
        if p == result.winner:
            out[p] = VICTORY - final
        elif p in drawing:
            out[p] = DRAW[len(drawing)] - final
        else:
            out[p] = game_year_points(result.eliminated.get(p, result.year))
    return out

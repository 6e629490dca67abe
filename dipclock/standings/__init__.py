"""Tournament standings: totals, tie-breaks, the top board, teams and best countries.

Pure: scores in, tables out. ``rules.StandingsRules`` is an event file's ``[standings]``
table; the rest take it with a list of ``GameScore`` (one player, one game).
"""

from __future__ import annotations

from dipclock.standings.aggregate import by_player, played_every, totals, weighted
from dipclock.standings.best_country import best_countries
from dipclock.standings.boards import check_boards
from dipclock.standings.mixed import mixed_note, mixed_systems, mixed_text
from dipclock.standings.model import GameScore, Standing, StandingsError, TeamStanding
from dipclock.standings.ranking import SeatTie, qualifiers, standings, top_board_seeds
from dipclock.standings.rules import (
    BestCountryBy,
    StandingsRules,
    TeamTieBreak,
    TieBreak,
    TopBoardBy,
    TwoBoards,
    rules_from,
)
from dipclock.standings.teams import team_standings
from dipclock.standings.tiebreaks import CRITERIA

__all__ = [
    "CRITERIA",
    "BestCountryBy",
    "GameScore",
    "SeatTie",
    "Standing",
    "StandingsError",
    "StandingsRules",
    "TeamStanding",
    "TeamTieBreak",
    "TieBreak",
    "TopBoardBy",
    "TwoBoards",
    "best_countries",
    "by_player",
    "check_boards",
    "mixed_note",
    "mixed_systems",
    "mixed_text",
    "played_every",
    "qualifiers",
    "rules_from",
    "standings",
    "team_standings",
    "top_board_seeds",
    "totals",
    "weighted",
]

"""Scoring a finished game: one module per system, pure functions of its result."""

from dipclock.scoring.result import GameResult, ResultError
from dipclock.scoring.systems import SYSTEMS, System, SystemId, score_game

__all__ = ["SYSTEMS", "GameResult", "ResultError", "System", "SystemId", "score_game"]

"""Seating a round: who plays at which table with which power (issue 25).

Pure: the players, the earlier rounds and the random seed are arguments. ``past`` reads
what the earlier rounds say (who met whom, who played what, who sat out); ``seat`` seats a
round: who sits out or plays two boards, the tables (``plane`` for 49, 56 or 63 players who
played every round, ``search`` for any other number), each table's powers (``powers``) and
what the seating repeats.
"""

from dipclock.seating.past import (
    SEATS,
    Past,
    Seat,
    SeatingError,
    one_spelling,
    pair,
    read_past,
)
from dipclock.seating.seat import (
    Problem,
    Seating,
    Table,
    apart_together,
    pairs_met_before,
    powers_repeated,
    problems,
    seat_round,
    seating_problems,
    table_plan,
    two_boards_allowed,
)

__all__ = ["SEATS", "Past", "Problem", "Seat", "Seating", "SeatingError", "Table", "apart_together",
           "one_spelling", "pair", "pairs_met_before", "powers_repeated", "problems", "read_past",
           "seat_round", "seating_problems", "table_plan", "two_boards_allowed"]

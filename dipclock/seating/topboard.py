"""The top board: its seven at one table, and how they get their powers by the event's rule.

Who qualifies is the standings' (``dipclock.standings.top_board_seeds``); this module seats
them and says how the powers are given. Where the event has its players choose
(wdc2006, wdc2019), the software cannot choose for them: the table is seated with the
powers each played least, as a start, and the TD is told the event's order of choice, to
move the players to the powers they chose before calling the seating.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dipclock.seating.past import Chance, Past, SeatingError
from dipclock.seating.powers import give_powers
from dipclock.seating.seat import Table
from dipclock.standings.rules import TopBoardPowers

SEATS = 7


def top_board(seeds: Sequence[str], past: Past, rng: Chance, number: int = 1) -> Table:
    """The top board at table ``number``: the seven ``seeds``, the powers each played least
    (what the event's choice, if it has one, starts from)."""
    if len(seeds) != SEATS or len(set(seeds)) != SEATS:
        raise SeatingError(f"the top board needs seven different players, not {len(seeds)}")
    return Table(number, give_powers(list(seeds), past, rng))


def choosing(rule: TopBoardPowers, seeds: Sequence[str]) -> str:
    """How the top board's powers are given, in a line for the TD ("" where they are given
    as at every table)."""
    if rule == "placed_then_chosen":
        placing = ", then ".join(reversed(seeds))
        return (f"The top board chooses its powers. First the order of choice: {placing} "
                "place their names, each before or after those placed; then each chooses a "
                "power in that order, the last takes the one left. Move the players to the "
                "powers chosen before calling the seating.")
    if rule == "chosen":
        return ("The top board chooses its powers by the event's country-assignment rules. "
                "Move the players to the powers chosen before calling the seating.")
    return ""


def seat_top_board(seeds: Sequence[str], rule: TopBoardPowers, past: Past, rng: Chance,
                   taken: Collection[int] = ()) -> tuple[Table, list[str]]:
    """The top board at the first table number not ``taken`` (tables already called), and
    what the TD is told: which table it is, and how its powers are given."""
    number = next(n for n in range(1, len(taken) + 2) if n not in taken)
    notes = [f"table {number} is the top board: {', '.join(seeds)}"]
    words = choosing(rule, seeds)
    return top_board(seeds, past, rng, number), notes + ([words] if words else [])

"""Every scoring system dipclock knows, by the id an event file names (``[scoring] system``).

The five events' own systems and three for a TD's own event; each is one small module of pure
functions of a ``GameResult``. ``score_game`` is the one door to a system: it reads the board's
victory first (a power with the threshold and the most centres has soloed, whatever the sheet
says) and checks the sheet against the threshold, so no system ever scores an impossible board.
What an event's text adds (its endings, its last year) is ``dipclock.eventscoring``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from dipclock.i18n import said
from dipclock.scoring import armada, c_diplo, carnage, manorcon, sum_of_squares, super_pastis
from dipclock.scoring.result import GameResult, ResultError, check_solo
from dipclock.scoring.victory import as_ended
from dipclock.sentences import powers as said_powers

SystemId = Literal["manorcon", "armada", "sum-of-squares", "super-pastis", "c-diplo", "carnage"]


@dataclass(frozen=True)
class System:
    id: str
    name: str
    score: Callable[[GameResult], dict[str, float]]
    #: Whether a draw's size changes its score (ARMADA pays by draw size). Elsewhere every
    #: draw includes all survivors, so a draw that leaves one out is a mistake on the sheet.
    draws_by_size: bool = False


SYSTEMS: dict[str, System] = {
    s.id: s
    for s in (
        System("manorcon", "ManorCon (c² + 4c + 16)", manorcon.score),
        System("armada", "ARMADA Regatta", armada.score, draws_by_size=True),
        System("sum-of-squares", "Sum of Squares", sum_of_squares.score),
        System("super-pastis", "Super Pastis", super_pastis.score),
        System("c-diplo", "C-Diplo", c_diplo.score),
        System("carnage", "Carnage", carnage.score),
    )
}


def score_game(system_id: str, result: GameResult, solo_centres: int) -> dict[str, float]:
    """Each power's score (by letter) under ``system_id``; ``solo_centres``: the event's
    victory threshold in the result's year. A board a power has won is scored as its solo,
    whatever ``result`` says of the ending (``victory.as_ended``)."""
    system = SYSTEMS[system_id]
    result, _ = as_ended(result, solo_centres)
    check_solo(result, solo_centres)
    if result.draw is not None and not system.draws_by_size:
        left_out = [p for p in result.survivors if p not in result.draw]
        if left_out:
            raise ResultError(said("{system} draws include all survivors: {powers} "
                                   "survived but are not in the draw", system=system.name,
                                   powers=said_powers(left_out)))
    return system.score(result)

"""When a board has been won, whatever its sheet says: the victory read from the final count.

"The game will end in a solo victory if a single power controls 18 or more supply centers at
the end of a Fall turn" (wdc2018); wdc2003's victory needs "a single power owning more supply
centers than any other power", which "has increased its supply center count in the
just-completed game-year" and holds the year's threshold. A game whose final count shows such
a power has ended in its victory: a sheet that calls it a draw or a concession is scored as
the solo it was, and says so.
"""

from __future__ import annotations

from dataclasses import replace

from dipclock.i18n import Said, said
from dipclock.powers import LETTERS
from dipclock.scoring.result import GameResult
from dipclock.sentences import power as said_power


def victor(result: GameResult, threshold: int) -> str | None:
    """The power that met the victory conditions at the end of ``result.year``: the single
    largest, holding at least ``threshold`` centres, unless the sheet says it did not grow
    that year (``leader_grew``, where the event asks for growth)."""
    top = result.top()
    leaders = [p for p in LETTERS if result.centres[p] == top]
    if len(leaders) == 1 and top >= threshold and result.leader_grew:
        return leaders[0]
    return None


def as_ended(result: GameResult, threshold: int) -> tuple[GameResult, Said | None]:
    """``result`` as the game ended, and a note where that is not what the sheet said (a
    sentence, said in its reader's language where it is shown): a victor's board is its
    solo. A sheet naming a soloist is left to ``check_solo``."""
    won = victor(result, threshold)
    if won is None or result.solo is not None:
        return result, None
    if result.conceded_to is not None:
        sheet = said("a concession to {power}", power=said_power(result.conceded_to))
    else:
        sheet = said("a draw")
    note = said("{power} holds {centres} centres at the end of {year} (a victory needs "
                "{threshold}): the game ended in its solo, not {sheet}",
                power=said_power(won), centres=result.centres[won], year=result.year,
                threshold=threshold, sheet=sheet)
    return replace(result, solo=won, draw=None, conceded_to=None), note

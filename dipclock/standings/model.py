"""What standings are made of: one player's score in one game, and a place in the table."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dipclock.errors import DipclockError
from dipclock.i18n import said
from dipclock.powers import POWERS, power_letter
from dipclock.scoring.systems import SYSTEMS

#: Totals are compared rounded to this many decimals, so that the order in which a player's
#: results were added (0.1 + 0.2 against 0.3) never splits a tie that the arithmetic made.
DECIMALS = 9

#: The most supply centres a power can own, and a board holds.
ALL_CENTRES = 34
#: No system scores a game near this (Carnage's solo, the largest, is 28,034): a score past
#: it is a typo, and summed it would overflow (1e308 + 1e308).
MAX_SCORE = 1e6


def settle(value: float) -> float:
    """``value`` as it is compared and shown: rounded to ``DECIMALS``, never -0.0."""
    return round(value, DECIMALS) + 0.0


class StandingsError(DipclockError, ValueError):
    """Scores or rules that cannot be ranked, with one line saying why."""


@dataclass(frozen=True)
class GameScore:
    """One player's score in one game. ``board`` (the board's name within its round) tells
    who opposed whom; ``power`` is stored as its English name, whether given as "Austria"
    or "A", so that best-country awards never split one power in two. ``system``: the id
    of the scoring system the game was scored under, where known (``mixed_systems``)."""

    round: int
    player: str
    score: float
    board: str | None = None
    power: str | None = None
    centres: int | None = None
    system: str | None = None
    #: a share of a replaced power's game (``dipclock.replacements.split``) that is not
    #: the keeper's: it has no board and no power by design (a board seats one player a
    #: power), so the tie-breaks that need them do not refuse it as missing data
    shared: bool = False

    def __post_init__(self) -> None:
        who = {"player": self.player, "round": self.round}
        if not self.player.strip():
            raise StandingsError(said("round {round}: a score without a player's name",
                                      round=self.round))
        if self.round < 1:
            raise StandingsError(said("{player!r} in round {round}: rounds are numbered "
                                      "from 1", **who))
        if not math.isfinite(self.score):
            raise StandingsError(said("{player!r} in round {round}: the score {score} is not "
                                      "a number", score=self.score, **who))
        if abs(self.score) > MAX_SCORE:
            raise StandingsError(said("{player!r} in round {round}: the score {score} is out "
                                      "of range (-{most} to {most})",
                                      score=format(self.score, "g"),
                                      most=format(MAX_SCORE, "g"), **who))
        if self.system is not None and self.system not in SYSTEMS:
            raise StandingsError(said("{player!r} in round {round}: {system!r} is not a "
                                      "scoring system (one of {systems})", system=self.system,
                                      systems=", ".join(SYSTEMS), **who))
        if self.centres is not None and not 0 <= self.centres <= ALL_CENTRES:
            raise StandingsError(said("{player!r} in round {round}: {centres} centres (0 to "
                                      "{most})", centres=self.centres, most=ALL_CENTRES,
                                      **who))
        if self.power is not None:
            try:
                name = POWERS[power_letter(self.power)]
            except ValueError as exc:  # the power's own sentence, where it has one
                raise StandingsError(said("{player!r} in round {round}: {error}", error=exc,
                                          **who)) from None
            object.__setattr__(self, "power", name)


@dataclass(frozen=True)
class Standing:
    """A player's place: ``rank`` from 1; players no tie-break separates share it
    (1, 2, 2, 4) and say so in ``shared``."""

    rank: int
    player: str
    total: float
    games: int
    shared: bool


@dataclass(frozen=True)
class TeamStanding:
    """A team's place, ranked as players are."""

    rank: int
    team: str
    total: float
    shared: bool

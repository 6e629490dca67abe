"""An event's ``[scoring]`` table: which system scores its games, how its games may end, and
how it reads its text."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dipclock.i18n import said
from dipclock.scoring.result import FIRST_YEAR, LAST_YEAR, ResultError
from dipclock.scoring.systems import SYSTEMS, SystemId

#: The draws an event allows: ``all_survivors``, the draw of every power still holding a
#: centre; ``two_leaders``, that or wdc2003's two-way draw of two leaders level at the
#: year's victory threshold; ``any``, any two or more survivors.
DrawRule = Literal["all_survivors", "two_leaders", "any"]


class ScoringRules(BaseModel):
    """``system``: one of ``dipclock.scoring.SYSTEMS``. ``notes``: where the event's rule
    text can be read two ways, the reading dipclock scores by, with the sentence it reads
    (shown to the TD beside the scores, so a disputed score has its answer).

    ``concessions``: a game may be conceded to one power (wdc2003, graduated20; wdc2018:
    "Solos may not be conceded"). ``draws``: which draws the text allows; None: the
    system's own (any survivors where it pays by a draw's size, else all of them).
    ``votes_from``: the first year whose Fall count a game ended by vote (a draw or a
    concession) can score; None: any year."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: SystemId
    notes: tuple[str, ...] = ()
    concessions: bool = False
    draws: DrawRule | None = None
    votes_from: Annotated[int, Field(ge=FIRST_YEAR, le=LAST_YEAR)] | None = None

    @model_validator(mode="after")
    def _draws_fit_system(self) -> ScoringRules:
        if self.draws not in (None, "all_survivors") and not SYSTEMS[self.system].draws_by_size:
            # a ResultError is a ValueError: pydantic reports it, its sentence kept
            raise ResultError(said("draws = {draws}: {system} scores every draw as one of "
                                   "all survivors", draws=repr(self.draws),
                                   system=SYSTEMS[self.system].name))
        return self

    @property
    def draw_rule(self) -> DrawRule:
        """The draws the event allows, its system's where it says nothing."""
        if self.draws is not None:
            return self.draws
        return "any" if SYSTEMS[self.system].draws_by_size else "all_survivors"

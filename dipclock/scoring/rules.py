"""An event's ``[scoring]`` table: which system scores its games, and how it reads its text."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from dipclock.scoring.systems import SystemId


class ScoringRules(BaseModel):
    """``system``: one of ``dipclock.scoring.SYSTEMS``. ``notes``: where the event's rule
    text can be read two ways, the reading dipclock scores by, with the sentence it reads
    (shown to the TD beside the scores, so a disputed score has its answer)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    system: SystemId
    notes: tuple[str, ...] = ()

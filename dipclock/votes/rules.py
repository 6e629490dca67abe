"""An event's ``[votes]`` table: how its games may be ended early by a vote at the table.

What may be proposed (a draw of all survivors, a named draw, a concession) and from which
year is already the event's ``[scoring]`` (``concessions``, ``draws``, ``votes_from``): a
vote can only end a game in a way the event scores. This table holds the rest of what each
rule text lays down: who may veto, who votes, how an abstention, an absent player and the
proposer count, how often a vote may be held, whether the clock stops and whether the
figures are told. Every refusal names ``rule``, the text's own section, so a player who
disputes it can read the sentence.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from dipclock.i18n import said

#: Who may veto a proposal before the vote: ``any`` player at the board, only a player
#: ``with_centres`` (wdc2018: "any player who has supply centers may announce that he vetoes"),
#: or ``none`` (wdc2003 names no veto: the secret vote is unanimous or fails).
Veto = Literal["any", "with_centres", "none"]
#: How an abstention counts: ``yes`` (wdc2006, graduated20: "Abstentions count as YES"),
#: ``no`` (a unanimous vote needs every voter's yes), or ``refused`` (wdc2018: "All players
#: with at least one supply center must vote").
Abstention = Literal["yes", "no", "refused"]
#: How a player who has left the game votes (a power in civil disorder, or a player who
#: left perpetual orders): ``yes`` (wdc2018: "he is considered to vote for all
#: proposals"), ``no`` (wdc2003: "an absent player will vote against any draw proposal and
#: against any concession to another player"), ``abstains``: as an abstention.
Absent = Literal["yes", "no", "abstains"]
#: How often a vote may be held: ``result_per_season``, one vote per proposed result each
#: Spring or Fall (wdc2006, graduated20: "revotes are not allowed"); ``player_per_year``,
#: one request per player per game year (wdc2019); ``phase``, one vote per Spring or Fall
#: phase whatever it proposes (wdc2018); ``none``: the text sets no limit (wdc2003).
Limit = Literal["result_per_season", "player_per_year", "phase", "none"]
#: How a game scores that ended early without a vote passed (players who agreed a draw
#: among themselves): ``scores`` as its sheet says, or ``zero`` for everyone (wdc2006,
#: graduated20 rule 16: "Game-ends which have not been agreed using the above procedure
#: will be treated as abandoned games, and all the players involved will score zero").
UnagreedEnd = Literal["scores", "zero"]


class VoteRules(BaseModel):
    """One event's vote rules (its TOML's ``[votes]`` table; every key has the reading most
    events share, so a TD's own event file may leave the table out).

    ``proposer_votes``: False where the proposer "does not vote, because he is considered
    to be favorable" (wdc2019), and counts as a yes. ``clock_stops``: the table's clock
    pauses while its vote runs (a board clock only: a hall's central clock keeps every
    board's time; wdc2018: "The clock DOES NOT STOP for draw votes"). ``figures_shown``:
    the count is told with the result (none of the five: wdc2006 "Voting figures will not
    be revealed", wdc2019 "The vote will be secret"). ``revealed_is_veto``: a player who
    shows how they voted has vetoed (wdc2006, graduated20). ``concessions_first``: of the
    proposals voted on at once, the concessions go first, the power with most centres
    first, then the draw, and the first to pass ends the rest (graduated20 rule 16).
    ``unagreed_end``: how a game ended early with no vote passed scores (a sheet without a
    vote on the hub is flagged, ``dipclock.eventscoring.unagreed_end``). ``rule``: the
    text's section that sets all this, named in every refusal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    veto: Veto = "any"
    proposer_votes: bool = True
    abstention: Abstention = "no"
    absent: Absent = "abstains"
    limit: Limit = "none"
    clock_stops: bool = False
    figures_shown: bool = False
    revealed_is_veto: bool = False
    concessions_first: bool = False
    unagreed_end: UnagreedEnd = "scores"
    rule: str = ""

    @property
    def choices(self) -> tuple[str, ...]:
        """The secret votes a voter may cast: yes, no, and an abstention where it counts
        (not where every voter must vote yes or no: wdc2018)."""
        return ("yes", "no") if self.abstention == "refused" else ("yes", "no", "abstain")

    @model_validator(mode="after")
    def _absent_can_count(self) -> VoteRules:
        if self.absent == "abstains" and self.abstention == "refused":
            # a sentence, so the event file's problem is said in its reader's language
            # (``dipclock.errors.describe``)
            raise ValueError(said("absent = 'abstains' needs abstentions to count: with "
                                  "abstention = 'refused', set absent = 'yes' or 'no'"))
        return self


__all__ = ["Absent", "Abstention", "Limit", "UnagreedEnd", "Veto", "VoteRules"]

"""What a game-end vote is about: the moment it is held, the result it proposes, and the
board as its centre chart stands. Pure: no clock, no I/O.

A vote is held in a negotiation period, after a movement phase has been adjudicated:
``Moment`` names that phase (``dipclock vote --year 1905 --phase fall``), as a TD reads it
off the board. Every one of the five texts takes the same chart for the result: "the
Adjustments season just played, or ... the previous Adjustments season if The Draw is
agreed after a Spring season" (wdc2006, graduated20 rule 16), "the end of the previous
year" (wdc2019 II.4g4, a vote held in a Spring or Fall negotiation phase), the last Fall
counted (wdc2018's call "at once"; wdc2003 scores a game by its game-year). So the chart is
a fact of the moment, ``Moment.chart_year``, not a setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said
from dipclock.powers import LETTERS, POWERS, power_letter
from dipclock.scoring.result import FIRST_YEAR, LAST_YEAR, TOTAL_CENTRES
from dipclock.sentences import and_powers, phase, power, powers

Season = Literal["spring", "fall"]
#: ``dias``: a draw including all survivors; ``draw``: a draw of the named powers;
#: ``concede``: the game conceded to one power.
Form = Literal["dias", "draw", "concede"]


class VoteRefused(DipclockError, ValueError):
    """A proposal, a vote or a veto the event's rules do not allow: one line naming the
    rule, raised with a ``said(...)`` so its reader reads it in their language
    (``in_(words)``; ``str()`` is English)."""


@dataclass(frozen=True)
class Moment:
    """The movement phase adjudicated last when the vote is held: ``year`` and
    ``season``."""

    year: int
    season: Season

    def __post_init__(self) -> None:
        if self.season not in ("spring", "fall"):
            raise VoteRefused(said("phase {season}: spring or fall (the movement phase just "
                                   "adjudicated)", season=repr(self.season)))
        if not FIRST_YEAR <= self.year <= LAST_YEAR:
            raise VoteRefused(said("year {year}: a game year from {first}", year=self.year,
                                   first=FIRST_YEAR))

    @property
    def index(self) -> int:
        """The moments in game order: Spring 1905 < Fall 1905 < Spring 1906."""
        return self.year * 2 + (self.season == "fall")

    @property
    def chart_year(self) -> int:
        """The centre chart a game ended now counts: this year's after a Fall, the previous
        year's after a Spring."""
        return self.year if self.season == "fall" else self.year - 1

    @property
    def period(self) -> tuple[int, Season]:
        """The negotiation period the vote is held in: after Fall Y, Spring Y+1; after
        Spring Y, Fall Y."""
        return (self.year + 1, "spring") if self.season == "fall" else (self.year, "fall")

    @property
    def period_words(self) -> str:
        """The period as players say it: "Fall 1905"."""
        return str(self.period_said)

    @property
    def period_said(self) -> Said:
        """The period in its reader's language: "Fall 1905", "Automne 1905"."""
        return phase(*self.period)

    @classmethod
    def in_period(cls, year: int, season: Season) -> Moment:
        """The moment of a vote held in the negotiation period ``season`` ``year`` (a table's
        clock knows the period it is in); none in Spring 1901, before any orders."""
        if (year, season) == (FIRST_YEAR, "spring"):
            raise VoteRefused(said("no vote before the first orders are played: {phase} is "
                                   "under way", phase=phase(FIRST_YEAR, "spring")))
        return cls(year - 1, "fall") if season == "spring" else cls(year, "spring")


@dataclass(frozen=True)
class Proposal:
    """A proposed game end. ``powers``: a draw's participants (for ``dias``, the survivors,
    filled in by ``dipclock.votes.ballot.propose``) or the one power conceded to.
    ``proposer``: the power that proposed it, where known."""

    form: Form
    powers: frozenset[str] = frozenset()
    proposer: str | None = None

    @property
    def key(self) -> str:
        """The proposed result as one word (``dias``, ``draw:A,E``, ``concede:F``): two
        proposals of one result share it (wdc2006: "one Draw vote per proposed result")."""
        if self.form == "dias":
            return "dias"
        return f"{self.form}:{','.join(p for p in LETTERS if p in self.powers)}"

    @property
    def words(self) -> str:
        """The proposal as a player reads it: "a draw of all survivors"."""
        return str(self.said)

    @property
    def said(self) -> Said:
        """The proposal in its reader's language, as a refusal says it mid-sentence (the
        table screen's headline form is ``dipclock.votescreen.proposal_words``)."""
        if self.form == "dias":
            return said("a draw of all survivors")
        if self.form == "concede":
            return said("a concession to {power}",
                        power=power(next(p for p in LETTERS if p in self.powers)))
        return said("a draw of {powers}", powers=and_powers(self.powers))

    @property
    def conceded_to(self) -> str | None:
        return next(iter(self.powers)) if self.form == "concede" and self.powers else None


def parse_form(text: str, proposer: str | None = None) -> Proposal:
    """``dias``, ``draw:A,E`` (or ``draw:Austria,England``) or ``concede:F``."""
    word, _, rest = text.strip().partition(":")
    word = word.strip().casefold()
    if word == "dias" and not rest.strip():
        return Proposal("dias", proposer=proposer)
    letters = set()
    for part in (p for p in rest.split(",") if p.strip()):
        try:
            letters.add(power_letter(part))
        except ValueError:  # power_letter's own line, said in the reader's language
            raise VoteRefused(said("form {form}: {power} is not a power (one of {letters})",
                                   form=repr(text), power=repr(part),
                                   letters=" ".join(LETTERS))) from None
    chosen = frozenset(letters)
    if word == "draw" and chosen:
        return Proposal("draw", chosen, proposer)
    if word == "concede" and len(chosen) == 1:
        return Proposal("concede", chosen, proposer)
    raise VoteRefused(said("form {form}: dias, draw:POWERS (like draw:A,E) or concede:POWER "
                           "(like concede:F)", form=repr(text)))


@dataclass(frozen=True)
class Board:
    """The table's game as the vote sees it. ``centres``: the centre chart as it stands,
    every power; ``absent``: powers whose player has left the game (civil disorder, or
    perpetual orders); ``previous``: the year before's chart, where the vote needs it
    (wdc2003's two-way draw: "for two consecutive game-years")."""

    centres: Mapping[str, int]
    absent: frozenset[str] = frozenset()
    previous: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        for chart, what in ((self.centres, said("centres")),
                            (self.previous, said("previous centres"))):
            if chart is not None:
                _check_chart(chart, what)
        odd = sorted(self.absent - set(POWERS))
        if odd:
            raise VoteRefused(said("{power} is not a power (one of {letters})",
                                   power=repr(odd[0]), letters=" ".join(LETTERS)))

    @property
    def survivors(self) -> tuple[str, ...]:
        """Powers holding a centre, in the order AEFGIRT: the players still in the game."""
        return tuple(p for p in LETTERS if self.centres[p] > 0)


def _check_chart(chart: Mapping[str, int], what: Said) -> None:
    missing = [p for p in LETTERS if p not in chart]
    if missing:
        raise VoteRefused(said("{what}: every power's centres are needed: {powers} missing",
                               what=what, powers=powers(missing)))
    for p in LETTERS:
        if not 0 <= chart[p] <= TOTAL_CENTRES:
            raise VoteRefused(said("{what}: {power} has {n}: from 0 to {total}", what=what,
                                   power=power(p), n=chart[p], total=TOTAL_CENTRES))
    total = sum(chart[p] for p in LETTERS)
    if total > TOTAL_CENTRES:
        raise VoteRefused(said("{what} add up to {n}: the board has {total}", what=what,
                               n=total, total=TOTAL_CENTRES))
    alive = [p for p in LETTERS if chart[p] > 0]
    if alive[1:]:
        return
    if alive:
        raise VoteRefused(said("{what}: only {power} holds centres: the game is over, with "
                               "no vote", what=what, power=power(alive[0])))
    raise VoteRefused(said("{what}: only no power holds centres: the game is over, with no "
                           "vote", what=what))


@dataclass(frozen=True)
class PastVote:
    """A proposal already made in this game, for the limits on how often: its moment, its
    result's ``key``, who proposed it, and whether a vote was held (a veto ends a proposal
    before any vote)."""

    moment: Moment
    key: str
    proposer: str | None = None
    held: bool = True


__all__ = [
    "Board",
    "Form",
    "Moment",
    "PastVote",
    "Proposal",
    "Season",
    "VoteRefused",
    "parse_form",
]

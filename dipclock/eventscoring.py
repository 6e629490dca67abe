"""A game's result under its event's own rules: how its games may end, the last year they
reach, and the scores. The one door for an event's sheet: ``dipclock score`` and the hub's
results desk both call ``score_result``, so a sheet one refuses the other refuses too.

``dipclock.scoring`` holds the systems and what any sheet must hold; this module adds what
each rule text says of its own games: which draws exist (wdc2003 names them), whether a
game may be conceded (wdc2003 and graduated20 say so, wdc2018 "Solos may not be
conceded"), from which year a vote can end one, the year games stop (wdc2006 1909, wdc2019
1907, graduated20 by round) and whether a victory needs the leader to have grown (wdc2003).
Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.scoring import SYSTEMS, GameResult, ResultError, score_game
from dipclock.scoring.rules import DrawRule, ScoringRules
from dipclock.scoring.victory import as_ended
from dipclock.sentences import phase, powers


@dataclass(frozen=True)
class Endings:
    """How an event's games can end, for a sheet to offer only those.

    A solo is always possible. ``draws``: ``all_survivors``, ``two_leaders`` (that or the
    two-way draw of two leaders level at the year's victory threshold: wdc2003) or ``any``
    (any two or more survivors). ``concession``: a game may be conceded to one power.
    ``leader_growth``: a victory needs the largest power to have grown in the final year
    (wdc2003): the sheet asks whether it did. ``votes_from``: the first year whose count a
    game ended by vote (a draw or a concession) can score; None: any. ``last_year``: the
    last year whose Fall can count; None: no fixed end.
    """

    draws: DrawRule
    concession: bool
    leader_growth: bool
    votes_from: int | None
    last_year: int | None

    def votes_in(self, year: int) -> bool:
        """Whether a vote (a draw or a concession) can end a game in ``year``: before
        ``votes_from`` only a solo or the clock ends one (a game the clock ended then
        counts its centres, as a draw of all survivors)."""
        return self.votes_from is None or year >= self.votes_from

    @property
    def text(self) -> str:
        """The endings in words, as the result sheet's page says them under the form."""
        return self.in_(ENGLISH)

    def in_(self, words: Words) -> str:
        """``text`` in ``words``' language (the phone's)."""
        return " ".join(line for line in (
            words("A vote can end a game from {year}.", year=self.votes_from)
            if self.votes_from else "",
            words("Games end with {phase}.", phase=words.phase(self.last_year, "fall"))
            if self.last_year else "",
            words("A draw is of all survivors, or of two leaders level at the year's victory "
                  "threshold.") if self.draws == "two_leaders" else "",
        ) if line)


@dataclass(frozen=True)
class Scored:
    """A sheet as scored. ``result``: the game as it ended (a board a power has won is its
    solo, whatever the sheet said); ``notes``: where that differs from the sheet, to show
    beside the scores (sentences, said in the reader's language)."""

    result: GameResult
    scores: dict[str, float]
    notes: tuple[Said, ...]


def rules_of(profile: EventProfile) -> ScoringRules:
    """The event's ``[scoring]`` table; a ``ResultError`` when it names no system."""
    if profile.scoring is None:
        raise ResultError(said("{event} names no scoring system: add [scoring] system = one "
                               "of {systems} to its file", event=profile.id,
                               systems=", ".join(SYSTEMS)))
    return profile.scoring


def last_year(profile: EventProfile, round_no: int | None = None,
              round_last_year: int | None = None) -> int | None:
    """The last year whose Fall can count: ``round_last_year`` (the round's, as the TD set
    it up), else round ``round_no``'s published one, else the event's; without a round, the
    latest any round of the event reaches. None: no fixed end."""
    if round_last_year is not None:
        return round_last_year
    if round_no is not None:
        info = next((r for r in profile.rounds if r.number == round_no), None)
        return info.last_year or profile.last_year if info else profile.last_year
    years = [r.last_year or profile.last_year for r in profile.rounds] or [profile.last_year]
    return None if None in years else max(y for y in years if y is not None)


def endings(profile: EventProfile, round_no: int | None = None,
            round_last_year: int | None = None) -> Endings:
    """How the event's games (round ``round_no``'s, where given) can end."""
    rules = rules_of(profile)
    return Endings(draws=rules.draw_rule, concession=rules.concessions,
                   leader_growth=profile.victory_needs_growth, votes_from=rules.votes_from,
                   last_year=last_year(profile, round_no, round_last_year))


def score_result(profile: EventProfile, result: GameResult, round_no: int | None = None,
                 round_last_year: int | None = None, clock_year: int | None = None) -> Scored:
    """``result`` scored under the event's rules, or a ``ResultError`` saying what the
    event's text does not allow. ``round_no`` and ``round_last_year`` as for
    ``last_year``. ``clock_year``: the Fall the table's clock ended the game with (the
    round's last year, or the TD's call by the event's call rule): a game counted at that
    Fall ended by the clock, not by a vote, so the first year a vote may end a game does
    not apply to it (a round called in 1903 scores its 1902 count as a draw)."""
    rules = rules_of(profile)
    allowed = endings(profile, round_no, round_last_year)
    _check_allowed(profile, allowed, result)
    threshold = profile.solo_centres(result.year)
    ended, note = as_ended(result, threshold)
    voted = ended.conceded_to is not None or ended.year != clock_year
    if ended.solo is None and voted:  # a draw or a concession: a vote ended the game
        if not allowed.votes_in(ended.year):
            raise ResultError(
                said("{event}'s games end by vote from {first}: a concession in {year} is "
                     "not one of them", event=profile.id, first=allowed.votes_from,
                     year=ended.year) if ended.conceded_to else
                said("{event}'s games end by vote from {first}: a draw in {year} is not one "
                     "of them", event=profile.id, first=allowed.votes_from, year=ended.year))
    if ended.solo is None and allowed.draws == "two_leaders" and ended.conceded_to is None:
        _check_two_leaders(profile, ended, threshold)
    scores = score_game(rules.system, ended, threshold)
    return Scored(ended, scores, (note,) if note else ())


def unagreed_end(profile: EventProfile, result: GameResult,
                 clock_year: int | None) -> Said | None:
    """Where the event scores a game end not agreed by a vote as zero for everyone (wdc2006,
    graduated20 rule 16: "Game-ends which have not been agreed using the above procedure
    will be treated as abandoned games, and all the players involved will score zero"), a
    draw or a concession before the clock's end (``clock_year``; None: not known) is said,
    for a sheet with no vote recorded: the TD may have run it by hand, so it is the TD's
    to record, not the software's to zero. A sentence: the TD's phone says it in its
    language."""
    votes = profile.votes
    early = result.conceded_to is not None or (
        result.solo is None and (clock_year is None or result.year < clock_year))
    if votes.unagreed_end != "zero" or not early:
        return None
    if votes.rule:
        return said("no vote passed at this table: {event} ({rule}) scores a game end not "
                    "agreed by a vote zero for every player; record the vote on the Votes "
                    "card if there was one", event=profile.id, rule=votes.rule)
    return said("no vote passed at this table: {event} scores a game end not agreed by a "
                "vote zero for every player; record the vote on the Votes card if there "
                "was one", event=profile.id)


def _check_allowed(profile: EventProfile, allowed: Endings, result: GameResult) -> None:
    if allowed.last_year is not None and result.year > allowed.last_year:
        raise ResultError(said("{event}'s games end with {phase}: {year} cannot count",
                               event=profile.id, phase=phase(allowed.last_year, "fall"),
                               year=result.year))
    if result.conceded_to is not None and not allowed.concession:
        raise ResultError(said("{event} has no concessions: a game ends in a solo or a draw",
                               event=profile.id))
    if not result.leader_grew and not allowed.leader_growth:
        raise ResultError(said("{event}'s victory does not ask whether the leader grew: "
                               "leave that out", event=profile.id))


def _check_two_leaders(profile: EventProfile, result: GameResult, threshold: int) -> None:
    """wdc2003: the draw of all survivors, or the two-way draw of two leaders level at the
    year's threshold ("both owned more supply centers than all other powers")."""
    drawing = result.drawing
    if drawing == result.survivors:
        return
    counts = [result.centres[p] for p in drawing]
    rest = [c for p, c in result.centres.items() if p not in drawing]
    if len(drawing) == 2 and counts[0] == counts[1] >= threshold and max(rest) < counts[0]:
        return
    raise ResultError(said("{event}'s draws include all survivors, or are two leaders level "
                           "at {threshold}+ centres in {year}: not {powers}",
                           event=profile.id, threshold=threshold, year=result.year,
                           powers=powers(drawing)))


def check_rounds(profile: EventProfile, rounds: Iterable[int]) -> None:
    """Refuse a round the event does not have (an ``EventError`` naming those it has), where
    it lists its rounds."""
    if profile.rounds:
        for number in sorted(set(rounds)):
            profile.round(number)


__all__ = [
    "Endings",
    "Scored",
    "check_rounds",
    "endings",
    "last_year",
    "rules_of",
    "score_result",
    "unagreed_end",
]

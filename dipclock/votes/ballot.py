"""A game-end vote from proposal to result, under the event's own rules. Pure: the hub keeps
a table's ``Ballot`` and the command line counts one; both call these functions, so a vote
one refuses the other refuses too.

``propose`` checks a proposal (its moment, its form, the limits on how often) and names the
voters; ``veto`` and ``cast`` take each player's word, secret until all are in; ``outcome``
is the result once every voter has voted, or at once on a veto. The result never tells the
figures unless the event says so, and keeps no one's vote: a ``Ballot`` holds the votes
while it runs, its ``Outcome`` only what may be told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from dipclock.events import EventProfile
from dipclock.eventscoring import Endings, endings
from dipclock.i18n import Said, Words, said
from dipclock.powers import LETTERS, POWERS
from dipclock.scoring.result import FIRST_YEAR
from dipclock.sentences import clauses, phase, plural, power, powers
from dipclock.votes.proposal import Board, Moment, PastVote, Proposal, VoteRefused
from dipclock.votes.rules import VoteRules

#: A player's word: ``veto`` is public and ends the proposal at once; the rest are secret.
Choice = Literal["yes", "no", "abstain", "veto"]
CHOICES: tuple[Choice, ...] = ("yes", "no", "abstain", "veto")


@dataclass(frozen=True)
class Ballot:
    """A vote under way at one table. ``voters``: the powers whose vote counts, in the
    order AEFGIRT (an absent player's counts by the event's rule, without waiting for
    it); ``votes``: the secret votes cast so far; ``vetoed_by``: the power that vetoed."""

    event: str
    rules: VoteRules
    proposal: Proposal
    moment: Moment
    board: Board
    voters: tuple[str, ...]
    votes: Mapping[str, Choice] = field(default_factory=dict)
    vetoed_by: str | None = None

    @property
    def tag(self) -> str:
        """The event and its rule's section, as every refusal names them."""
        return f"{self.event} ({self.rules.rule})" if self.rules.rule else self.event

    @property
    def waiting(self) -> tuple[str, ...]:
        """The voters still to vote (not those absent, whose vote the rule gives)."""
        if self.vetoed_by is not None:
            return ()
        return tuple(p for p in self.voters if p not in self.votes
                     and p not in self.board.absent)

    @property
    def voted(self) -> tuple[str, ...]:
        """Who has voted, all a screen may show while the vote runs."""
        return tuple(p for p in self.voters if p in self.votes)


@dataclass(frozen=True)
class Outcome:
    """A vote's result, as it may be told. ``chart_year``: the centre chart the game ends
    on (None when it did not pass); ``voters``: the powers whose votes counted (none after
    a veto); ``why``: one line saying why, naming the rule, never a player's vote, in
    English as the hub keeps it and ``--json`` prints it; ``said``: the same line for its
    reader's language (``why_in``), where the outcome was counted here, not rebuilt from
    a stored ``why``."""

    passes: bool
    why: str
    chart_year: int | None
    voters: tuple[str, ...]
    proposal: Proposal
    moment: Moment
    vetoed_by: str | None = None
    said: Said | None = field(default=None, compare=False, repr=False)

    def why_in(self, words: Words) -> str:
        """``why`` in ``words``' language (as stored, English, when there is no ``said``)."""
        return self.said.in_(words) if self.said is not None else self.why

    @property
    def headline(self) -> str:
        """The result as the table's screen says it: "Draw agreed, Fall 1905: the 1904
        centre chart counts"."""
        what = ("Draw" if self.proposal.form != "concede"
                else f"Concession to {POWERS[self.proposal.conceded_to or 'A']}")
        if self.passes:
            return (f"{what} agreed, {self.moment.period_words}: the {self.chart_year} "
                    "centre chart counts")
        if self.vetoed_by is not None:
            return f"{what} vetoed by {POWERS[self.vetoed_by]}: the game goes on"
        return f"{what} not agreed: the game goes on"

    def sheet(self) -> dict[str, object]:
        """What the table's result sheet starts from when the vote passed: the ending, its
        powers and the year whose chart counts (the players fill in the centres)."""
        if not self.passes:
            return {}
        if self.proposal.form == "concede":
            return {"ending": "concession", "conceded_to": self.proposal.conceded_to,
                    "year": self.chart_year}
        return {"ending": "draw", "year": self.chart_year,
                "draw": [p for p in LETTERS if p in self.proposal.powers]}


def rules_for(profile: EventProfile) -> tuple[VoteRules, Endings]:
    """The event's vote rules and how its games may end (an event with no ``[scoring]``:
    a draw of all survivors, from any year)."""
    if profile.scoring is None:
        return profile.votes, Endings(draws="all_survivors", concession=False,
                                      leader_growth=False, votes_from=None,
                                      last_year=profile.last_year)
    return profile.votes, endings(profile)


def forms_of(profile: EventProfile) -> tuple[str, ...]:
    """What the event lets a table propose: a draw of all survivors always; a named draw
    where its draws are not all survivors' (wdc2003's two leaders, an event's ``any``); a
    concession where it has them."""
    _, allowed = rules_for(profile)
    return ("dias", *(("draw",) if allowed.draws != "all_survivors" else ()),
            *(("concede",) if allowed.concession else ()))


def propose(profile: EventProfile, proposal: Proposal, moment: Moment, board: Board,
            history: Iterable[PastVote] = (), *, last_year: int | None = None) -> Ballot:
    """A ballot for ``proposal`` at ``moment``, or a ``VoteRefused`` naming the rule.
    ``history``: this game's earlier proposals; ``last_year``: the round's last year,
    where it has its own."""
    rules, allowed = rules_for(profile)
    if last_year is not None:
        allowed = replace(allowed, last_year=last_year)
    tag = f"{profile.id} ({rules.rule})" if rules.rule else profile.id
    _check_moment(profile.id, tag, allowed, moment)
    _check_proposer(tag, rules, proposal, board)
    proposal, voters = _form(profile, tag, allowed, proposal, moment, board)
    _check_limits(tag, rules, proposal, moment, history)
    if not rules.proposer_votes:
        voters = tuple(p for p in voters if p != proposal.proposer)
    return Ballot(profile.id, rules, proposal, moment, board, voters)


def veto(ballot: Ballot, letter: str) -> Ballot:
    """``letter``'s power vetoes: the proposal ends at once, and the game goes on."""
    rules, tag = ballot.rules, ballot.tag
    _open(ballot)
    if rules.veto == "none":
        raise VoteRefused(said("{tag}: there is no veto: vote no in the secret vote", tag=tag))
    if rules.veto == "with_centres" and ballot.board.centres[letter] == 0:
        raise VoteRefused(said("{tag}: only a player with centres may veto: {power} has none",
                               tag=tag, power=power(letter)))
    if ballot.votes and not rules.revealed_is_veto:
        raise VoteRefused(said("{tag}: the vote has begun: a veto comes before it", tag=tag))
    return replace(ballot, vetoed_by=letter)


def cast(ballot: Ballot, letter: str, choice: Choice) -> Ballot:
    """``letter``'s power's vote, or a ``VoteRefused`` saying why it cannot vote so."""
    if choice == "veto":
        return veto(ballot, letter)
    rules, tag = ballot.rules, ballot.tag
    _open(ballot)
    name = power(letter)
    if letter not in ballot.voters:
        if letter == ballot.proposal.proposer and not rules.proposer_votes:
            raise VoteRefused(said("{tag}: {power} proposed and counts as in favour: the "
                                   "proposer does not vote", tag=tag, power=name))
        if ballot.board.centres[letter] == 0:
            raise VoteRefused(said("{tag}: only a player with a centre votes: {power} has "
                                   "none", tag=tag, power=name))
        raise VoteRefused(said("{tag}: only {powers} vote on {proposal}", tag=tag,
                               powers=powers(ballot.voters), proposal=ballot.proposal.said))
    if letter in ballot.board.absent:
        raise VoteRefused(
            said("{tag}: {power}'s player has left the game: its vote counts as yes", tag=tag,
                 power=name) if _absent_vote(ballot, letter) == "yes" else
            said("{tag}: {power}'s player has left the game: its vote counts as no", tag=tag,
                 power=name))
    if letter in ballot.votes:
        raise VoteRefused(said("{power} has voted: one vote each", power=name))
    if choice == "abstain" and rules.abstention == "refused":
        raise VoteRefused(said("{tag}: every player with a centre must vote yes or no", tag=tag))
    if choice not in CHOICES:
        raise VoteRefused(said("{choice}: yes, no, abstain or veto", choice=repr(choice)))
    return replace(ballot, votes={**ballot.votes, letter: choice})


def outcome(ballot: Ballot) -> Outcome | None:
    """The result: at once after a veto, else once every voter has voted; None while
    the vote runs."""
    tag = ballot.tag
    if ballot.vetoed_by is not None:
        why = said("vetoed by {power} ({tag}): the game goes on",
                   power=power(ballot.vetoed_by), tag=tag)
        return Outcome(False, str(why), None, (), ballot.proposal, ballot.moment,
                       ballot.vetoed_by, why)
    if ballot.waiting:
        return None
    counted_as = {p: _counts_as(ballot, p) for p in ballot.voters}
    ayes = sum(1 for v in counted_as.values() if v == "yes")
    passes = ayes == len(counted_as)
    notes = _rule_notes(ballot)
    voters = powers(ballot.voters)
    if passes:
        chart = ballot.moment.chart_year
        why = clauses(said("passes ({tag}): none against among {powers}", tag=tag,
                           powers=voters) if ballot.rules.abstention == "yes" else
                      said("passes ({tag}): unanimous among {powers}", tag=tag, powers=voters),
                      *notes, said("the {year} centre chart counts", year=chart))
        return Outcome(True, str(why), chart, ballot.voters, ballot.proposal, ballot.moment,
                       said=why)
    figures = (said("fails ({tag}): {ayes} for, {noes} against", tag=tag, ayes=ayes,
                    noes=len(counted_as) - ayes) if ballot.rules.figures_shown else
               said("fails ({tag}): not unanimous; the figures are not told", tag=tag))
    why = clauses(figures, *notes, said("the game goes on"))
    return Outcome(False, str(why), None, ballot.voters, ballot.proposal, ballot.moment,
                   said=why)


def count(profile: EventProfile, proposal: Proposal, moment: Moment, board: Board,
          votes: Mapping[str, Choice], history: Iterable[PastVote] = (), *,
          last_year: int | None = None) -> Outcome:
    """A whole vote at once (``dipclock vote``, a TD's vote by hand): a veto first, then
    every vote; each voter must be given (an abstention is said, not assumed)."""
    return counted(cast_all(propose(profile, proposal, moment, board, history,
                                    last_year=last_year), votes))


def counted(ballot: Ballot) -> Outcome:
    """The result of a vote given whole (``cast_all``): a voter left out is refused, as an
    abstention is said, not assumed."""
    result = outcome(ballot)
    if result is None:
        waiting = powers(ballot.waiting)
        raise VoteRefused(
            said("no vote from {powers}: give each voter's yes, no or abstain", powers=waiting)
            if "abstain" in ballot.rules.choices else
            said("no vote from {powers}: give each voter's yes or no", powers=waiting))
    return result


def cast_all(ballot: Ballot, votes: Mapping[str, Choice]) -> Ballot:
    """Every vote given at once (a count by hand): a veto ends it first; else each power's
    vote, in the powers' order."""
    vetoes = [p for p in LETTERS if votes.get(p) == "veto"]
    if vetoes:
        return veto(ballot, vetoes[0])
    for letter in LETTERS:
        if letter in votes:
            ballot = cast(ballot, letter, votes[letter])
    return ballot


def running_order(rules: VoteRules, proposals: Sequence[Proposal],
                  centres: Mapping[str, int]) -> list[Proposal]:
    """The order proposals made at once are voted in: graduated20 rule 16, "the concession
    proposals will be voted on first (starting with the power with the most centres if
    there is more than one, tie-broken by alphabetical order of power name), then The
    Draw"; elsewhere, the order they were made in."""
    if not rules.concessions_first:
        return list(proposals)
    concessions = sorted((p for p in proposals if p.form == "concede"),
                         key=lambda p: (-centres[p.conceded_to or "A"],
                                        POWERS[p.conceded_to or "A"]))
    return concessions + [p for p in proposals if p.form != "concede"]


def _open(ballot: Ballot) -> None:
    if outcome(ballot) is not None:
        raise VoteRefused(said("the vote on {proposal} is over", proposal=ballot.proposal.said))


def _check_moment(event: str, tag: str, allowed: Endings, moment: Moment) -> None:
    first = allowed.votes_from or FIRST_YEAR
    if moment.chart_year < first:
        raise VoteRefused(said("{tag}: no proposal before the {year} centre chart (from "
                               "{period})", tag=tag, year=first,
                               period=Moment(first, "fall").period_said))
    if allowed.last_year is not None and moment.index >= Moment(allowed.last_year, "fall").index:
        raise VoteRefused(said("{event}'s games end with {phase}: no vote after it",
                               event=event, phase=phase(allowed.last_year, "fall")))


def _check_proposer(tag: str, rules: VoteRules, proposal: Proposal, board: Board) -> None:
    who = proposal.proposer
    if who is None:
        if rules.limit == "player_per_year":
            raise VoteRefused(said("{tag}: name the power that proposes: one request per "
                                   "player per year", tag=tag))
        if not rules.proposer_votes:
            raise VoteRefused(said("{tag}: name the power that proposes: the proposer does "
                                   "not vote and counts as in favour", tag=tag))
        return
    if who not in POWERS:
        raise VoteRefused(said("{power} is not a power (one of {letters})", power=repr(who),
                               letters=" ".join(LETTERS)))
    if board.centres[who] == 0 or who in board.absent:
        raise VoteRefused(said("{power} is out of the game: only a player in it proposes",
                               power=power(who)))


def _form(profile: EventProfile, tag: str, allowed: Endings, proposal: Proposal,
          moment: Moment, board: Board) -> tuple[Proposal, tuple[str, ...]]:
    """The proposal with its powers filled in, and who votes on it."""
    survivors = board.survivors
    if proposal.form == "concede":
        if not allowed.concession:
            raise VoteRefused(said("{tag}: no concessions: a vote ends a game in a draw",
                                   tag=tag))
        to = proposal.conceded_to or ""
        if to not in survivors:
            raise VoteRefused(said("{power} holds no centre: a game is conceded to a power in "
                                   "it", power=power(to) if to in POWERS else to))
        return proposal, survivors
    if proposal.form == "draw":
        out = [p for p in LETTERS if p in proposal.powers and p not in survivors]
        if out:
            raise VoteRefused(said("{power} holds no centre: it cannot be in a draw",
                                   power=power(out[0])))
        if len(proposal.powers) < 2:
            raise VoteRefused(said("a draw has at least two powers (one power alone is a "
                                   "concession)"))
        if set(proposal.powers) != set(survivors):
            if allowed.draws == "all_survivors":
                raise VoteRefused(said("{tag}: a draw includes all survivors ({powers}): "
                                       "propose dias", tag=tag, powers=powers(survivors)))
            if allowed.draws == "two_leaders":
                pair = tuple(p for p in LETTERS if p in proposal.powers)
                _check_two_leaders(profile, tag, pair, moment, board)
                return proposal, pair
            return proposal, survivors
    return Proposal("dias", frozenset(survivors), proposal.proposer), survivors


def _check_two_leaders(profile: EventProfile, tag: str, pair: tuple[str, ...],
                       moment: Moment, board: Board) -> None:
    """wdc2003 II.A: "A two-way draw vote can be called for if for two consecutive
    game-years, both players satisfied victory criteria 2 and 3 [grew in the year, held
    the year's threshold] and (while not satisfying criteria 1, because their supply
    center counts were tied) both owned more supply centers than all other powers"."""
    if len(pair) != 2:
        raise VoteRefused(said("{tag}: a draw includes all survivors, or is the two-way draw "
                               "of two level leaders", tag=tag))
    if board.previous is None:
        raise VoteRefused(said("{tag}: a two-way draw needs two game-years of level leaders: "
                               "give {year}'s centres too", tag=tag,
                               year=moment.chart_year - 1))
    year = moment.chart_year
    for chart, when in ((board.centres, year), (board.previous, year - 1)):
        threshold = profile.solo_centres(when)
        a, b = (chart[p] for p in pair)
        rest = max(c for p, c in chart.items() if p not in pair)
        if not a == b >= threshold or rest >= a:
            raise VoteRefused(said("{tag}: in {year} {powers} held {a} and {b}: a two-way "
                                   "draw needs them level at {threshold}+ and ahead of every "
                                   "other power, two game-years running", tag=tag, year=when,
                                   powers=powers(pair), a=a, b=b, threshold=threshold))
    grew = [p for p in pair if board.centres[p] <= board.previous[p]]
    if grew:
        raise VoteRefused(said("{tag}: {power} did not grow in {year}: a two-way draw needs "
                               "both leaders to have grown", tag=tag, power=power(grew[0]),
                               year=year))


def _check_limits(tag: str, rules: VoteRules, proposal: Proposal, moment: Moment,
                  history: Iterable[PastVote]) -> None:
    period = moment.period_said
    for past in history:
        same = past.moment.period == moment.period
        if rules.limit == "result_per_season" and same and past.held \
                and past.key == proposal.key:
            raise VoteRefused(said("{tag}: {proposal} was voted on in {period}: revotes are "
                                   "not allowed", tag=tag, proposal=proposal.said,
                                   period=period))
        if rules.limit == "phase" and same and past.held:
            raise VoteRefused(said("{tag}: one vote per Spring or Fall phase, and {period} "
                                   "has had its vote", tag=tag, period=period))
        if rules.limit == "player_per_year" and past.proposer == proposal.proposer \
                and past.moment.period[0] == moment.period[0]:
            raise VoteRefused(said("{tag}: {power} has requested a vote in {year}: one "
                                   "request per player per year", tag=tag,
                                   power=power(proposal.proposer or "A"),
                                   year=moment.period[0]))


def _absent_vote(ballot: Ballot, power: str) -> Literal["yes", "no"]:
    """An absent player's vote: the event's rule; wdc2003's absent player votes against a
    concession "to another player", so for one to itself."""
    rule = ballot.rules.absent
    if rule == "abstains":
        return "no" if ballot.rules.abstention != "yes" else "yes"
    if rule == "no" and ballot.proposal.conceded_to == power:
        return "yes"
    return rule


def _counts_as(ballot: Ballot, power: str) -> Literal["yes", "no"]:
    if power in ballot.board.absent:
        return _absent_vote(ballot, power)
    said = ballot.votes[power]
    if said == "abstain":
        return "yes" if ballot.rules.abstention == "yes" else "no"
    return "yes" if said == "yes" else "no"


def _rule_notes(ballot: Ballot) -> list[Said]:
    """What the rule adds to a count, told whatever the votes were (so it leaks none)."""
    rules, notes = ballot.rules, []
    if ballot.proposal.proposer is not None and not rules.proposer_votes:
        notes.append(said("{power} proposed and counts as in favour",
                          power=power(ballot.proposal.proposer)))
    if rules.abstention == "yes":
        notes.append(said("abstentions count as yes"))
    absent = [p for p in ballot.voters if p in ballot.board.absent]
    if absent:
        notes.append(plural("{powers} left the game and votes by the rule",
                            "{powers} left the game and vote by the rule", len(absent),
                            powers=powers(absent)))
    return notes


__all__ = [
    "CHOICES",
    "Ballot",
    "Choice",
    "Outcome",
    "cast",
    "cast_all",
    "count",
    "counted",
    "forms_of",
    "outcome",
    "propose",
    "rules_for",
    "running_order",
    "veto",
]

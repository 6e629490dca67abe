"""``dipclock vote``: whether a game-end vote passes under an event's rules, why, and which
centre chart counts.

The launcher only reads and prints: what may be proposed, who votes and how the votes
count are the core's (``dipclock.votes``), the same functions the hub's tables use. A
proposal the rules refuse ends with exit 2 and one line naming the rule.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from dipclock.arguments import UsageError
from dipclock.eventfiles import load_event
from dipclock.eventscoring import check_rounds, last_year
from dipclock.i18n import POWER_NAMES, Words, said
from dipclock.launcher.language import Note, add_lang, words_for
from dipclock.powers import POWERS, power_letter
from dipclock.scoring.result import parse_centres
from dipclock.votes.ballot import CHOICES, Choice, count
from dipclock.votes.proposal import Board, Moment, parse_form
from dipclock.votescreen import proposal_words
from dipclock.votewords import headline_words

#: ``--votes``' word for a power whose player has left the game: it votes as the rule says.
ABSENT = "absent"


def add_vote_parser(sub: Any) -> None:
    vote = sub.add_parser("vote", help="count a game-end vote under an event's rules")
    vote.add_argument("event", help="built-in id (see `dipclock events`) or a .toml file")
    vote.add_argument("--form", required=True, metavar="dias|draw:A,E|concede:F",
                      help="the proposal: a draw of all survivors, a draw of the named "
                           "powers, or a concession to one power")
    vote.add_argument("--year", type=int, required=True,
                      help="the year of the movement phase just adjudicated")
    vote.add_argument("--phase", required=True, choices=("spring", "fall"),
                      help="the movement phase just adjudicated")
    vote.add_argument("--centres", required=True, metavar='"A=5,E=4,..."',
                      help="the centre chart as it stands, every power")
    vote.add_argument("--centres-before", metavar='"A=5,E=4,..."',
                      help="the year before's chart (wdc2003's two-way draw needs two years)")
    vote.add_argument("--proposer", metavar="POWER", help="the power that proposed it")
    vote.add_argument("--votes", required=True, metavar='"A=yes,E=no,F=abstain,..."',
                      help="each voter's yes, no or abstain; veto for a public veto; "
                           "absent for a player who has left the game")
    vote.add_argument("--round", type=int, help="the round, where its last year differs")
    vote.add_argument("--json", action="store_true", help="print JSON")
    add_lang(vote)


def run_vote(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """The result to print (text or one JSON object); no notes."""
    profile = load_event(args.event)
    final = None
    if args.round is not None:
        check_rounds(profile, [args.round])
        final = last_year(profile, args.round)
    proposal = parse_form(args.form, _power(args.proposer) if args.proposer else None)
    moment = Moment(args.year, args.phase)
    votes, absent = parse_votes(args.votes)
    board = Board(parse_centres(args.centres), frozenset(absent),
                  parse_centres(args.centres_before) if args.centres_before else None)
    result = count(profile, proposal, moment, board, votes, last_year=final)
    if args.json:
        return json.dumps({"event": profile.id, "form": result.proposal.key,
                           "passes": result.passes, "why": result.why,
                           "chart_year": result.chart_year,
                           "voters": [POWERS[p] for p in result.voters]}), []
    words = words_for(args)
    period = words.phase(*moment.period)
    after = words.phase(moment.year, moment.season)
    lines = [words("{event}: {proposal}, voted in {period} (after {phase})", event=profile.id,
                   proposal=_proposal(result.proposal.key, result.proposal.words, words),
                   period=period,
                   phase=after),
             "  " + (words("passes: {headline}", headline=headline_words(result.headline,
                                                                           words))
                     if result.passes else
                     words("fails: {headline}", headline=headline_words(result.headline,
                                                                         words))),
             "  " + words("why: {why}", why=result.why_in(words))]
    return "\n".join(lines), []


def _proposal(key: str, english: str, words: Words) -> str:
    """The proposal in the command's words: English as the core says it ("a draw of all
    survivors"), another language as the table's screen does."""
    if words.lang == "en" and not words.terms:
        return english
    return proposal_words(key, english, words)


def parse_votes(text: str) -> tuple[dict[str, Choice], list[str]]:
    """``"A=yes,E=no,F=abstain,G=absent"`` -> the votes, and the powers whose player has
    left; each power once."""
    votes: dict[str, Choice] = {}
    absent: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, word = part.partition("=")
        if not sep:
            raise UsageError(said("votes: {part} is not POWER=VOTE (like A=yes)",
                                  part=repr(part)))
        letter, word = _power(name), word.strip().casefold()
        if letter in votes or letter in absent:
            raise UsageError(said("votes: {power} is given twice: give it once",
                                  power=said(POWER_NAMES[letter])))
        if word == ABSENT:
            absent.append(letter)
        elif word in CHOICES:
            votes[letter] = word
        else:
            raise UsageError(said("votes: {part}: say yes, no, abstain, veto or absent",
                                  part=repr(part)))
    return votes, absent


def _power(text: str) -> str:
    try:
        return power_letter(text)
    except ValueError as exc:
        raise UsageError(exc) from None


__all__ = ["add_vote_parser", "parse_votes", "run_vote"]

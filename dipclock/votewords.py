"""A vote's words as the hub says them, said again in the hall's language.

The hub words a vote's period ("Fall 1905") and its result ("Draw vetoed by France: the
game goes on", ``dipclock.votes.ballot.Outcome.headline``) in English, as the JSON of its
API keeps them; a table's screen says them in the event's language. Kept apart from the
screens so the clock's game-over screen (``dipclock.screen``) and the vote's panel
(``dipclock.votescreen``) both use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dipclock.i18n import ENGLISH, Said, Words
from dipclock.powers import POWERS

#: A vote's period as the hub says it ("Fall 1905"), and the results its headline says
#: (``dipclock.votes.ballot.Result.headline``), read back to be said in the hall's language
_PERIOD = re.compile(r"(Spring|Fall) (\d{4})")
_CONCESSION = re.compile(r"Concession to (\w+)")
_PASSED = re.compile(r"(?P<what>.+) agreed, (?P<period>.+): the (?P<year>\d+) centre chart "
                     r"counts")
_VETOED = re.compile(r"(?P<what>.+) vetoed by (?P<power>\w+): the game goes on")
_FAILED = re.compile(r"(?P<what>.+) not agreed: the game goes on")
_LETTER = {name: letter for letter, name in POWERS.items()}
#: The headlines the hub gives a vote that closed without a result of its own
#: (``server.votedesk``): undone, dropped for another that passed, cancelled, never opened
_UNDONE = re.compile(r"Undone by the TD: (?P<rest>.+)")
_NOT_VOTED = re.compile(r"Not voted: (?P<rest>.+)")
_CANCELLED = "Cancelled by the TD: the game goes on"
_NOT_PROPOSED_TWO = re.compile(r"Not proposed: two phones chose for (?P<power>\w+)")
_NOT_PROPOSED_LATE = re.compile(r"Not proposed: (?P<power>\w+|the proposer)'s button was not "
                                r"pressed within (?P<n>\d+) minutes")


def period_words(period: str, words: Words = ENGLISH) -> str:
    """The hub's "Fall 1905" in ``words``' language (else as it came)."""
    found = _PERIOD.fullmatch(period.strip())
    if found is None:
        return period
    return words.phase(int(found[2]), found[1].lower())


def headline_words(headline: str, words: Words = ENGLISH) -> str:
    """A vote's result as the hub words it ("Draw vetoed by France: the game goes on", the
    passed one on the game-over screen too) in ``words``' language; a headline of another
    shape as it came. English is the hub's own."""
    if words.lang == "en" and not words.terms:
        return headline
    if found := _PASSED.fullmatch(headline):
        return words("{what} agreed, {period}: the {year} centre chart counts",
                     what=_result_what(found["what"], words),
                     period=period_words(found["period"], words), year=found["year"])
    if (found := _VETOED.fullmatch(headline)) and found["power"] in _LETTER:
        return words("{what} vetoed by {power}: the game goes on",
                     what=_result_what(found["what"], words),
                     power=words.power(_LETTER[found["power"]]))
    if found := _FAILED.fullmatch(headline):
        return words("{what} not agreed: the game goes on",
                     what=_result_what(found["what"], words))
    return _closed_words(headline, words)


def _closed_words(headline: str, words: Words) -> str:
    """A headline of a vote that closed without a result of its own, in ``words``."""
    if found := _UNDONE.fullmatch(headline):
        return words("Undone by the TD: {headline}",
                     headline=headline_words(found["rest"], words))
    if found := _NOT_VOTED.fullmatch(headline):
        return words("Not voted: {headline}", headline=headline_words(found["rest"], words))
    if headline == _CANCELLED:
        return words("Cancelled by the TD: the game goes on")
    if (found := _NOT_PROPOSED_TWO.fullmatch(headline)) and found["power"] in _LETTER:
        return words("Not proposed: two phones chose for {power}",
                     power=words.power(_LETTER[found["power"]]))
    if found := _NOT_PROPOSED_LATE.fullmatch(headline):
        who = found["power"]
        if who in _LETTER:
            return words.plural("Not proposed: {power}'s button was not pressed within {n} "
                                "minute", "Not proposed: {power}'s button was not pressed "
                                "within {n} minutes", int(found["n"]),
                                power=words.power(_LETTER[who]))
        if who == "the proposer":
            return words.plural("Not proposed: the proposer's button was not pressed within "
                                "{n} minute", "Not proposed: the proposer's button was not "
                                "pressed within {n} minutes", int(found["n"]))
    return headline


@dataclass(frozen=True)
class _Headline(Said):
    """A headline as the hub keeps it (English), said again in its reader's language
    (``headline_words``) inside another sentence (a refusal: "the vote on a draw is over:
    ..."); kept as JSON it is its English text."""

    def in_(self, words: Words) -> str:
        return headline_words(self.text, words)


def headline_said(headline: str) -> Said:
    """The hub's English headline as a sentence's value, said in the reader's language."""
    return _Headline(headline)


def _result_what(what: str, words: Words) -> str:
    """A result's subject, "Draw" or "Concession to France", in ``words``' language."""
    if what == "Draw":
        return words("Draw")
    found = _CONCESSION.fullmatch(what)
    if found and found[1] in _LETTER:
        return words("Concession to {power}", power=words.power(_LETTER[found[1]]))
    return what


__all__ = ["headline_said", "headline_words", "period_words"]

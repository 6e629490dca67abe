"""What a table's screen says of its game-end vote (``dipclock.snapshot.TableVote``) at one
moment: the proposal and its period, each power's part in it, what the table waits for, and
the result for a few minutes after it closed. Pure: the kiosk draws it, no screen decides
again.

The screen shows who has voted, never how, and the result without figures: "Voting figures
will not be revealed" (wdc2006 and graduated20, rule 16), "The vote will be secret"
(wdc2019). A veto is public ("Any player may publicly veto the proposal", rule 16), so its
result names who vetoed. The countdown goes on beside the vote: "The clock DOES NOT STOP
for draw votes" (wdc2018), so this is a panel and marks on the powers' chips, never a
screen of its own.

A phone's choice for a power counts once that power's button is pressed on the clock
(``TableVote.waiting_button``): the screen asks for the button by the power's name, marks
the power "PRESS", and, once the clock has sent a press, "SENT" until the hub answers. A
passed vote ends the game: the clock's own game-over screen then carries the headline
(``dipclock.phaseview.PhaseView.voted``), so nothing is shown here for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from dipclock.i18n import ENGLISH, N_, Words
from dipclock.powers import LETTERS, POWERS
from dipclock.screen import BANNER_SECONDS, who
from dipclock.sheetlines import SentState
from dipclock.snapshot import TableVote
from dipclock.votewords import headline_words, period_words

#: How long a closed vote's result stays on the table's screen after it closed: long enough
#: for a player back from the bar to read it, short enough not to crowd the next phase.
RESULT_SECONDS = 300.0
#: How long the vote page's QR code shows when asked for without a vote open: the key
#: ``v`` on the clock's keyboard, or the TD's dashboard (issue 37: a proposal "is started
#: from the table (a TD-chosen way that does not disturb the clock: a key, a long press on
#: a spare button, or the TD's dashboard)"); ``Esc`` hides it sooner. The hub's request
#: lasts as long (``server.votedesk``).
VOTE_CODE_SECONDS = 120.0
#: How long the screen says the hub refused a vote press (from the press): longer than a
#: press's own banner, as the hub's answer may come a few seconds after it.
REFUSED_SECONDS = 30.0

#: A power's part in the open vote: its vote is in; its phone chose and the clock waits for
#: its button; this clock sent its press and waits for the hub; it has still to vote on its
#: phone; its player has left the game (the rule gives its vote); it proposed and does not
#: vote (wdc2019: "the player who proposed ... is considered to be favorable").
MarkState = Literal["voted", "press", "sent", "waiting", "absent", "proposer"]
#: Each state's word on the power's chip: a word, so no one needs the colour to read it.
MARK_WORDS: dict[MarkState, str] = {
    "voted": N_("VOTED"), "press": N_("PRESS"), "sent": N_("SENT"), "waiting": N_("To vote"),
    "absent": N_("Absent"), "proposer": N_("Proposed"),
}


class Sent(Protocol):
    """A vote press this clock made (``kiosk.outbox.StoredVotePress``)."""

    @property
    def power(self) -> str: ...
    @property
    def vote(self) -> int: ...
    @property
    def at(self) -> datetime: ...
    @property
    def state(self) -> SentState: ...
    @property
    def reason(self) -> str: ...


@dataclass(frozen=True)
class Mark:
    """One power's part in the open vote, drawn on its chip."""

    letter: str
    state: MarkState

    @property
    def word(self) -> str:
        return MARK_WORDS[self.state]

    def said(self, words: Words = ENGLISH) -> str:
        """The chip's word in ``words``' language."""
        return words(self.word)


@dataclass(frozen=True)
class VoteView:
    """The vote as the table's screen shows it at one moment. ``headline``: what is
    proposed and when, or the result; ``status``: what the table waits for; ``marks``: each
    power's part while the vote is open (none once it closed); ``banner``: what this clock's
    last vote press did; ``valid_for``: seconds until the view changes with time alone
    (None: it does not)."""

    state: str
    headline: str
    status: str
    marks: tuple[Mark, ...] = ()
    banner: str = ""
    valid_for: float | None = None

    def mark(self, letter: str) -> Mark | None:
        return next((m for m in self.marks if m.letter == letter), None)


def proposed(vote: TableVote, words: Words = ENGLISH) -> str:
    """"Draw of all survivors proposed, Fall 1905" (from the vote's form, or its words, and
    its period)."""
    what = _what(vote, words)
    if vote.period:
        return words("{what} proposed, {period}", what=what,
                     period=period_words(vote.period, words))
    return words("{what} proposed", what=what)


def _what(vote: TableVote, words: Words) -> str:
    return proposal_words(vote.form, vote.words, words)


def proposal_words(key: str, english: str, words: Words = ENGLISH) -> str:
    """"Draw of all survivors", "Concession to France": in English the proposal's words as
    the core gives them (``english``), in another language from its form (``key``:
    ``dias``, ``draw:A,E``, ``concede:F``)."""
    form, _, powers = key.partition(":")
    letters = [p for p in powers.split(",") if p in POWERS]
    if words.lang == "en" and not words.terms:
        form = ""
    if form == "dias":
        return words("Draw of all survivors")
    if form == "draw" and letters:
        return words("Draw of {powers}", powers=names(letters, words))
    if form == "concede" and len(letters) == 1:
        return words("Concession to {power}", power=words.power(letters[0]))
    said = english.strip()
    for article in ("a ", "an ", "the "):
        if said.lower().startswith(article):
            said = said[len(article):]
            break
    return said[:1].upper() + said[1:] if said else words("A game end")


def names(letters: Iterable[str], words: Words = ENGLISH) -> str:
    """"France", "France and Italy", "Austria, France and Italy"."""
    shown = [words.power(p) for p in LETTERS if p in set(letters)]
    if len(shown) <= 1:
        return "".join(shown)
    return words("{first} and {second}", first=", ".join(shown[:-1]), second=shown[-1])


def _possessive(letters: Sequence[str], words: Words) -> str:
    """"France's button", "the buttons of France and Italy"."""
    if len(letters) == 1:
        return words("{power}'s button", power=words.power(letters[0]))
    return words("the buttons of {powers}", powers=names(letters, words))


def _queued(n: int, words: Words) -> str:
    if n <= 0:
        return ""
    return words.plural("{n} more proposal waits", "{n} more proposals wait", n)


def _closed_headline(vote: TableVote, words: Words) -> str:
    if vote.headline:
        return headline_words(vote.headline, words)
    what = _what(vote, words)
    return {"cancelled": words("{what}: vote cancelled by the TD", what=what),
            "vetoed": words("{what} vetoed: the game goes on", what=what),
            "failed": words("{what} not agreed: the game goes on", what=what),
            "passed": words("{what} agreed", what=what)}.get(vote.state, what)


def view(vote: TableVote | None, now: datetime, sent: Sequence[Sent] = (),
         players: Mapping[str, str] | None = None, later: Iterable[datetime] = (),
         banner_seconds: float = BANNER_SECONDS, words: Words = ENGLISH) -> VoteView | None:
    """The vote at ``now`` (hub time, naive UTC as the snapshot's), or None: no vote, a
    closed one whose result has been shown ``RESULT_SECONDS``, or one that passed (the game
    is over: the clock's game-over screen says it). ``sent``: this clock's vote presses;
    ``players`` (letter -> name) names a player beside the power in the banner; ``later``:
    the moments of the table's other presses (orders): one after the last vote press has
    the banner, as the screen says what the last press did. ``words``: the language the
    table's screen speaks (``dipclock.i18n.words_of`` the event)."""
    if vote is None or vote.state == "passed":
        return None
    seated = players or {}
    mine = [s for s in sent if s.vote == vote.id]
    banner, banner_for = _banner(mine, now, seated, banner_seconds, words)
    if banner and any(max(s.at for s in mine) < t <= now for t in later):
        banner, banner_for = "", None
    if vote.state != "open":
        closed = vote.closed_at or vote.at
        left = (closed + timedelta(seconds=RESULT_SECONDS) - now).total_seconds()
        if left <= 0:
            return None
        return VoteView(vote.state, _closed_headline(vote, words), "", (), banner,
                        _soonest(left, banner_for))
    pending = {s.power for s in mine if s.state == "pending"}
    marks = _marks(vote, pending)
    waiting = [p for p in LETTERS if p in vote.waiting_button and p not in pending]
    if not vote.voters:  # a phone's proposal: the ballot opens on its proposer's button
        who_proposes = vote.proposer or next(iter(vote.waiting_button), "")
        if who_proposes and who_proposes in pending:
            status = words("{power}'s proposal sent", power=words.power(who_proposes))
        elif who_proposes:
            status = words("{power}: press your button to propose it",
                           power=words.power(who_proposes))
        else:
            status = words("Waiting for the proposer's button")
    elif waiting:
        status = words("Waiting for {buttons}", buttons=_possessive(waiting, words))
    else:
        still = [m for m in marks if m.state == "waiting"]
        status = (words("Vote on your phone: {n} still to vote", n=len(still)) if still
                  else words("Every vote is in: counting"))
    queued = _queued(vote.queued, words)
    if queued:
        status = f"{status} · {queued}"
    return VoteView("open", proposed(vote, words), status, marks, banner, banner_for)


def _marks(vote: TableVote, pending: set[str]) -> tuple[Mark, ...]:
    """Each power's part, in the order AEFGIRT: the voters, the proposer who does not vote,
    and the proposer whose button opens the ballot. A power with no part has no mark."""
    out: list[Mark] = []
    for p in LETTERS:
        state: MarkState | None = None
        if p in vote.voted:
            state = "voted"
        elif p in pending:
            state = "sent"
        elif p in vote.waiting_button:
            state = "press"
        elif p in vote.absent:
            state = "absent"
        elif p in vote.voters:
            state = "waiting"
        elif p == vote.proposer and vote.voters:
            state = "proposer"
        if state is not None:
            out.append(Mark(p, state))
    return tuple(out)


def _banner(mine: Sequence[Sent], now: datetime, players: Mapping[str, str],
            banner_seconds: float, words: Words = ENGLISH) -> tuple[str, float | None]:
    """What this clock's last vote press did, and for how many seconds it stays said."""
    if not mine:
        return "", None
    last = max(mine, key=lambda s: s.at)
    age = (now - last.at).total_seconds()
    name = who(last.power, players, words)
    shown = REFUSED_SECONDS if last.state == "refused" else banner_seconds
    if not 0 <= age < shown:
        return "", None
    if last.state == "refused":
        reason = last.reason.strip().rstrip(".")
        return (words("{power}: vote not taken: {reason}", power=name, reason=reason)
                if reason else words("{power}: vote not taken", power=name)), shown - age
    if last.state == "taken":
        return words("{power}: vote counted", power=name), shown - age
    return words("{power}: vote sent", power=name), shown - age


def _soonest(*seconds: float | None) -> float | None:
    known = [s for s in seconds if s is not None]
    return max(0.001, min(known)) if known else None


__all__ = ["MARK_WORDS", "REFUSED_SECONDS", "RESULT_SECONDS", "Mark", "MarkState", "Sent",
           "VoteView", "headline_words", "names", "period_words", "proposed", "view"]

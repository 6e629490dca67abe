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

from dipclock.powers import LETTERS, POWERS
from dipclock.screen import BANNER_SECONDS, who
from dipclock.sheetlines import SentState
from dipclock.snapshot import TableVote

#: How long a closed vote's result stays on the table's screen after it closed: long enough
#: for a player back from the bar to read it, short enough not to crowd the next phase.
RESULT_SECONDS = 300.0
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
    "voted": "VOTED", "press": "PRESS", "sent": "SENT", "waiting": "To vote",
    "absent": "Absent", "proposer": "Proposed",
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


def proposed(vote: TableVote) -> str:
    """"Draw of all survivors proposed, Fall 1905" (from the vote's words and period)."""
    words = vote.words.strip()
    for article in ("a ", "an ", "the "):
        if words.lower().startswith(article):
            words = words[len(article):]
            break
    what = words[:1].upper() + words[1:] if words else "A game end"
    return f"{what} proposed, {vote.period}" if vote.period else f"{what} proposed"


def names(letters: Iterable[str]) -> str:
    """"France", "France and Italy", "Austria, France and Italy"."""
    shown = [POWERS[p] for p in LETTERS if p in set(letters)]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def _possessive(letters: Sequence[str]) -> str:
    """"France's button", "the buttons of France and Italy"."""
    if len(letters) == 1:
        return f"{POWERS[letters[0]]}'s button"
    return f"the buttons of {names(letters)}"


def _queued(n: int) -> str:
    if n <= 0:
        return ""
    return "1 more proposal waits" if n == 1 else f"{n} more proposals wait"


def _closed_headline(vote: TableVote) -> str:
    if vote.headline:
        return vote.headline
    what = proposed(vote).split(" proposed", 1)[0]
    return {"cancelled": f"{what}: vote cancelled by the TD",
            "vetoed": f"{what} vetoed: the game goes on",
            "failed": f"{what} not agreed: the game goes on",
            "passed": f"{what} agreed"}.get(vote.state, what)


def view(vote: TableVote | None, now: datetime, sent: Sequence[Sent] = (),
         players: Mapping[str, str] | None = None, later: Iterable[datetime] = (),
         banner_seconds: float = BANNER_SECONDS) -> VoteView | None:
    """The vote at ``now`` (hub time, naive UTC as the snapshot's), or None: no vote, a
    closed one whose result has been shown ``RESULT_SECONDS``, or one that passed (the game
    is over: the clock's game-over screen says it). ``sent``: this clock's vote presses;
    ``players`` (letter -> name) names a player beside the power in the banner; ``later``:
    the moments of the table's other presses (orders): one after the last vote press has
    the banner, as the screen says what the last press did."""
    if vote is None or vote.state == "passed":
        return None
    seated = players or {}
    mine = [s for s in sent if s.vote == vote.id]
    banner, banner_for = _banner(mine, now, seated, banner_seconds)
    if banner and any(max(s.at for s in mine) < t <= now for t in later):
        banner, banner_for = "", None
    if vote.state != "open":
        closed = vote.closed_at or vote.at
        left = (closed + timedelta(seconds=RESULT_SECONDS) - now).total_seconds()
        if left <= 0:
            return None
        return VoteView(vote.state, _closed_headline(vote), "", (), banner,
                        _soonest(left, banner_for))
    pending = {s.power for s in mine if s.state == "pending"}
    marks = _marks(vote, pending)
    waiting = [p for p in LETTERS if p in vote.waiting_button and p not in pending]
    if not vote.voters:  # a phone's proposal: the ballot opens on its proposer's button
        who_proposes = vote.proposer or next(iter(vote.waiting_button), "")
        if who_proposes and who_proposes in pending:
            status = f"{POWERS[who_proposes]}'s proposal sent"
        elif who_proposes:
            status = f"{POWERS[who_proposes]}: press your button to propose it"
        else:
            status = "Waiting for the proposer's button"
    elif waiting:
        status = f"Waiting for {_possessive(waiting)}"
    else:
        still = [m for m in marks if m.state == "waiting"]
        status = (f"Vote on your phone: {len(still)} still to vote" if still
                  else "Every vote is in: counting")
    queued = _queued(vote.queued)
    if queued:
        status = f"{status} · {queued}"
    return VoteView("open", proposed(vote), status, marks, banner, banner_for)


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
            banner_seconds: float) -> tuple[str, float | None]:
    """What this clock's last vote press did, and for how many seconds it stays said."""
    if not mine:
        return "", None
    last = max(mine, key=lambda s: s.at)
    age = (now - last.at).total_seconds()
    name = who(last.power, players)
    shown = REFUSED_SECONDS if last.state == "refused" else banner_seconds
    if not 0 <= age < shown:
        return "", None
    if last.state == "refused":
        reason = last.reason.strip().rstrip(".")
        return (f"{name}: vote not taken: {reason}" if reason
                else f"{name}: vote not taken"), shown - age
    if last.state == "taken":
        return f"{name}: vote counted", shown - age
    return f"{name}: vote sent", shown - age


def _soonest(*seconds: float | None) -> float | None:
    known = [s for s in seconds if s is not None]
    return max(0.001, min(known)) if known else None


__all__ = ["MARK_WORDS", "REFUSED_SECONDS", "RESULT_SECONDS", "Mark", "MarkState", "Sent",
           "VoteView", "names", "proposed", "view"]

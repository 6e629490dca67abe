"""What a table's screen says of its game-end vote (``dipclock.votescreen``): who has voted,
never how; what the table waits for; the result for a few minutes, without figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest

from dipclock.screen import BANNER_SECONDS
from dipclock.sheetlines import SentState
from dipclock.snapshot import TableVote
from dipclock.votescreen import RESULT_SECONDS, proposed, view

AT = datetime(2019, 9, 6, 12, 45)


def vote(**fields: Any) -> TableVote:
    base: dict[str, Any] = {
        "id": 4, "state": "open", "form": "dias", "words": "a draw of all survivors",
        "period": "Fall 1905", "proposer": "A", "voters": tuple("AEFIRT"), "at": AT}
    return TableVote.model_validate(base | fields)


@dataclass(frozen=True)
class Sent:
    power: str
    at: datetime
    state: SentState = "pending"
    reason: str = ""
    vote: int = 4


def later(seconds: float) -> datetime:
    return AT + timedelta(seconds=seconds)


def test_an_open_vote_says_what_is_proposed_and_who_has_voted_never_how() -> None:
    shown = view(vote(voted=("A", "E"), absent=("T",)), later(60))
    assert shown is not None
    assert shown.headline == "Draw of all survivors proposed, Fall 1905"
    assert [(m.letter, m.word) for m in shown.marks] == [
        ("A", "VOTED"), ("E", "VOTED"), ("F", "To vote"), ("I", "To vote"), ("R", "To vote"),
        ("T", "Absent")]  # Germany votes not (no centres): no mark
    assert shown.status == "Vote on your phone: 3 still to vote"
    text = " ".join([shown.headline, shown.status, *(m.word for m in shown.marks)]).lower()
    assert "yes" not in text and " no " not in f" {text} "  # never how anyone voted
    assert shown.valid_for is None  # nothing changes by time alone


@pytest.mark.parametrize(("words", "headline"), [
    ("a concession to France", "Concession to France proposed, Fall 1905"),
    ("a draw of Austria and England", "Draw of Austria and England proposed, Fall 1905"),
])
def test_the_proposal_in_words(words: str, headline: str) -> None:
    assert proposed(vote(words=words)) == headline


def test_a_phone_s_choice_waits_for_its_power_s_button_by_name() -> None:
    one = view(vote(voted=("A",), waiting_button=("F",)), later(60))
    assert one is not None and one.status == "Waiting for France's button"
    assert one.mark("F") is not None and one.mark("F").word == "PRESS"  # type: ignore[union-attr]
    two = view(vote(waiting_button=("I", "F")), later(60))
    assert two is not None and two.status == "Waiting for the buttons of France and Italy"


def test_before_the_ballot_opens_the_proposer_s_button_is_asked_for() -> None:
    shown = view(vote(voters=(), waiting_button=("A",)), later(5))
    assert shown is not None and shown.status == "Austria: press your button to propose it"
    assert [(m.letter, m.word) for m in shown.marks] == [("A", "PRESS")]
    sent = view(vote(voters=(), waiting_button=("A",)), later(5), [Sent("A", later(4))])
    assert sent is not None and sent.status == "Austria's proposal sent"


def test_a_proposer_who_does_not_vote_is_marked_so() -> None:
    """wdc2019 II.4g: the proposer "does not vote, because he is considered to be
    favorable"."""
    shown = view(vote(voters=tuple("EFIRT")), later(5))
    assert shown is not None and shown.mark("A") is not None
    assert shown.mark("A").word == "Proposed"  # type: ignore[union-attr]


def test_graduated20_s_queue_is_counted() -> None:
    shown = view(vote(queued=2), later(5))
    assert shown is not None and shown.status.endswith(" · 2 more proposals wait")
    one = view(vote(queued=1), later(5))
    assert one is not None and one.status.endswith(" · 1 more proposal waits")


def test_this_clock_s_press_is_said_at_once_then_answered() -> None:
    shown = view(vote(waiting_button=("F",)), later(10), [Sent("F", later(9))],
                 players={"F": "Claire Dubois"})
    assert shown is not None
    assert shown.banner == "France (Claire Dubois): vote sent"
    assert shown.mark("F").word == "SENT"  # type: ignore[union-attr]
    assert shown.status == "Vote on your phone: 5 still to vote"  # no longer waits for F
    assert shown.valid_for == pytest.approx(BANNER_SECONDS - 1)
    taken = view(vote(voted=("F",)), later(10), [Sent("F", later(9), "taken")])
    assert taken is not None and taken.banner == "France: vote counted"
    assert view(vote(), later(9 + BANNER_SECONDS), [Sent("F", later(9), "taken")]
                ).banner == ""  # type: ignore[union-attr]


def test_a_refused_press_is_told_with_the_hub_s_reason_for_longer() -> None:
    no = [Sent("I", later(9), "refused", "the vote is over.")]
    shown = view(vote(), later(9 + BANNER_SECONDS + 5), no)
    assert shown is not None and shown.banner == "Italy: vote not taken: the vote is over"


def test_an_orders_press_after_the_vote_press_has_the_banner() -> None:
    sent = [Sent("F", later(5))]
    assert view(vote(), later(7), sent, later=[later(6)]).banner == ""  # type: ignore[union-attr]
    assert view(vote(), later(7), sent, later=[later(4)]).banner != ""  # type: ignore[union-attr]


def test_another_vote_s_presses_are_not_this_one_s() -> None:
    shown = view(vote(waiting_button=("F",)), later(10), [Sent("F", later(9), vote=3)])
    assert shown is not None and shown.banner == "" and shown.mark("F").word == "PRESS"  # type: ignore[union-attr]


def test_a_veto_names_who_vetoed_for_a_few_minutes_then_goes() -> None:
    """A veto is public (wdc2006 rule 16: "Any player may publicly veto the proposal")."""
    closed = later(120)
    v = vote(state="vetoed", closed_at=closed, voted=("A",),
             headline="Draw vetoed by France: the game goes on")
    shown = view(v, closed + timedelta(seconds=60))
    assert shown is not None and shown.headline == "Draw vetoed by France: the game goes on"
    assert shown.marks == () and shown.status == ""
    assert shown.valid_for == pytest.approx(RESULT_SECONDS - 60)
    assert view(v, closed + timedelta(seconds=RESULT_SECONDS)) is None


def test_a_failed_vote_says_not_agreed_without_figures() -> None:
    """"Voting figures will not be revealed" (wdc2006 and graduated20, rule 16)."""
    shown = view(vote(state="failed", closed_at=later(60), headline=""), later(90))
    assert shown is not None
    assert shown.headline == "Draw of all survivors not agreed: the game goes on"
    assert not any(c.isdigit() for c in shown.headline.replace("1905", ""))


def test_a_cancelled_vote_says_so() -> None:
    shown = view(vote(state="cancelled", closed_at=later(60)), later(90))
    assert shown is not None and shown.headline == (
        "Draw of all survivors: vote cancelled by the TD")


def test_a_passed_vote_is_the_game_over_screen_s_and_no_vote_is_nothing() -> None:
    """A passed vote ends the game: the clock's game-over screen carries its headline
    (``PhaseView.voted``), so the vote's own panel goes."""
    assert view(vote(state="passed", closed_at=later(60), headline="Draw agreed"),
                later(61)) is None
    assert view(None, AT) is None

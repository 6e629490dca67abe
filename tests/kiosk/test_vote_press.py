"""A power's button while the table's vote waits for it (its phone chose) is that vote's
press: kept in the outbox, sent to the hub (a fake one: ``httpx.MockTransport``), said on the
screen at once, and never orders in. The buttons are gpiozero's ``MockFactory`` pins and a
pyserial ``loop://`` box, as the other button tests."""

from __future__ import annotations

import json
import queue
import random
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from gpiozero.pins.mock import MockFactory

from dipclock.snapshot import VotePressBatch
from dipclock.votescreen import RESULT_SECONDS
from hardware.events import ButtonEvent
from hardware.gpio import DEFAULT_PINS, GpioButtons
from hardware.serialbox import SerialButtonBox
from kiosk.app import Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import SCHEMA_VERSION, Outbox, StoredPress, StoredVotePress
from kiosk.round import Round
from tests.kiosk.test_hubclient import HUB_SHIFT, START, FakeHub, snapshot

#: France's phone voted and Italy's vetoed: both wait for their buttons; Austria, England
#: and Russia have voted; Germany has no centres (not a voter)
OPEN = {"id": 7, "state": "open", "form": "dias", "words": "a draw of all survivors",
        "period": "Spring 1901", "proposer": "A", "voters": list("AEFIRT"),
        "voted": list("AER"), "waiting_button": ["F", "I"], "at": "2019-09-06T09:59:00"}


class VotingHub(FakeHub):
    """The fake hub, with a vote at table 3 and the kiosk's vote press route: it takes a
    press of a power whose claim waits, and refuses any other with the hub's one line."""

    def __init__(self) -> None:
        super().__init__()
        self.vote: dict[str, Any] | None = dict(OPEN)
        self.snap = self.snapshot(1)
        self.presses: list[dict[str, Any]] = []  # as posted
        self.refuse_votes: int | None = None  # answer vote presses with this status instead

    def snapshot(self, seq: int) -> dict[str, Any]:
        return snapshot(seq) | {"hub": "h1", "vote": self.vote}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path != "/api/tables/3/votes/presses" or not self.up:
            return super().__call__(request)
        if self.refuse_votes is not None:
            return httpx.Response(self.refuse_votes, json={"detail": "not now"})
        batch = VotePressBatch.model_validate(json.loads(request.content))
        self.presses += [json.loads(request.content)["presses"][i]
                         for i in range(len(batch.presses))]
        taken, refused = [], []
        waiting = (self.vote or {}).get("waiting_button", [])
        for p in batch.presses:
            if p.power in waiting and p.vote == (self.vote or {}).get("id"):
                taken.append(p.id)
            else:
                refused.append({"id": p.id, "reason": f"no vote waits for {p.power}'s button"})
        return httpx.Response(200, json={"taken": taken, "refused": refused})


@dataclass
class Table:
    """Table 3's kiosk on the fake hub, its monotonic clock the hub's."""

    hub: VotingHub
    client: HubClient
    kiosk: Kiosk
    outbox: Outbox
    said: list[str] = field(default_factory=list)

    def press(self, power: str, kind: str = "press", source: str = "test"
              ) -> StoredPress | StoredVotePress:
        return self.kiosk.handle(ButtonEvent(power, kind, self.hub.mono, source))  # type: ignore[arg-type, return-value]

    def screen(self):  # noqa: ANN201
        return self.kiosk.frame(self.hub.mono).screen

    def after(self, seconds: float) -> None:
        self.hub.mono += seconds


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    fake = VotingHub()
    outbox = Outbox(tmp_path / "o.sqlite")

    def mono() -> float:
        return fake.mono

    client = HubClient("http://hub:8000", 3, "KEY", outbox, mono=mono,
                       wall=lambda: fake.mono + HUB_SHIFT,
                       transport=httpx.MockTransport(fake), rng=random.Random(1))
    said: list[str] = []
    kiosk = Kiosk(client, outbox, client, log=said.append)
    assert client.sync_once() and client.fetch_snapshot()
    yield Table(fake, client, kiosk, outbox, said)
    client.close()
    outbox.close()


def chip_vote(screen: Any, letter: str) -> str | None:
    mark = screen.vote.mark(letter) if screen.vote is not None else None
    return mark.word if mark is not None else None


def test_a_waiting_power_s_press_is_the_vote_s_not_orders_in(table: Table) -> None:
    screen = table.screen()
    assert screen.vote.headline == "Draw of all survivors proposed, Spring 1901"
    assert screen.vote.status == "Waiting for the buttons of France and Italy"
    assert chip_vote(screen, "F") == "PRESS" and chip_vote(screen, "A") == "VOTED"
    made = table.press("F")
    assert isinstance(made, StoredVotePress) and (made.vote, made.power) == (7, "F")
    assert table.outbox.presses() == []  # not orders in
    assert [(v.power, v.state, v.hub) for v in table.outbox.vote_presses()] == [
        ("F", "pending", "h1")]
    assert any(line.startswith(f"VOTE {made.id} F vote 7") for line in table.said)
    screen = table.screen()  # at once, before the hub has it
    assert screen.banner == "France: vote sent"
    assert chip_vote(screen, "F") == "SENT"
    assert screen.vote.status == "Waiting for Italy's button"
    assert next(c for c in screen.chips if c.letter == "F").note == ""  # no "IN"
    assert table.client.upload_once()
    assert table.hub.presses == [{"id": made.id, "vote": 7, "power": "F",
                                  "at": made.at.isoformat()}]
    assert abs((made.at - START).total_seconds()) < 1  # stamped by the hub's time
    assert [v.state for v in table.outbox.vote_presses()] == ["taken"]
    assert table.screen().banner == "France: vote counted"
    assert table.client.upload_once() and len(table.hub.presses) == 1  # sent once


def test_a_refused_press_is_told_and_kept(table: Table) -> None:
    table.hub.vote = dict(OPEN, waiting_button=["F"])  # Italy's claim lapsed at the hub
    made = table.press("I")  # the screen still had Italy waiting
    assert isinstance(made, StoredVotePress)
    assert table.client.upload_once()
    [kept] = table.outbox.vote_presses()
    assert (kept.state, kept.reason) == ("refused", "no vote waits for I's button")
    assert table.screen().banner == "Italy: vote not taken: no vote waits for I's button"
    assert table.client.upload_once() and len(table.hub.presses) == 1  # never resent
    table.after(RESULT_SECONDS)  # long after: said no more
    assert table.screen().banner == ""


def test_other_powers_and_holds_are_orders_as_ever(table: Table) -> None:
    assert isinstance(table.press("G"), StoredPress)  # Germany's phone chose nothing
    assert isinstance(table.press("F", kind="hold"), StoredPress)  # 3 s: a player leaving
    assert table.outbox.vote_presses() == []
    assert [(p.power, p.kind) for p in table.outbox.presses()] == [("G", "press"),
                                                                   ("F", "hold")]


def test_a_closed_vote_takes_no_press(table: Table) -> None:
    table.hub.vote = dict(OPEN, state="vetoed", closed_at="2019-09-06T09:59:50",
                          headline="Draw vetoed by England: the game goes on")
    table.hub.snap = table.hub.snapshot(2)
    assert table.client.fetch_snapshot()
    assert isinstance(table.press("F"), StoredPress)
    screen = table.screen()
    assert screen.vote.headline == "Draw vetoed by England: the game goes on"
    assert screen.vote.marks == ()


def test_a_second_press_while_the_first_is_on_its_way_is_the_same(table: Table) -> None:
    first = table.press("F")
    table.after(0.5)
    assert table.press("F") == first
    assert len(table.outbox.vote_presses()) == 1


@pytest.mark.parametrize("status", [404, 500])
def test_a_batch_the_hub_did_not_take_is_sent_again(table: Table, status: int) -> None:
    table.press("F")
    table.hub.refuse_votes = status
    assert not table.client.upload_once()
    assert [v.state for v in table.outbox.vote_presses()] == ["pending"]
    table.hub.refuse_votes = None
    assert table.client.upload_once()
    assert [v.state for v in table.outbox.vote_presses()] == ["taken"]


def test_a_full_card_says_the_vote_press_was_not_kept(table: Table,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(table.outbox, "vote_press", full)
    made = table.press("F")
    assert isinstance(made, StoredVotePress) and made.state == "refused"
    assert table.outbox.presses() == []  # not orders in either
    assert table.screen().banner.startswith("France: vote not taken: this clock's card is full")


def test_a_gpio_button_casts_the_waiting_vote(table: Table) -> None:
    inputs: queue.Queue[object] = queue.Queue()
    factory = MockFactory()
    pins = DEFAULT_PINS  # power -> BCM pin
    buttons = GpioButtons(DEFAULT_PINS, inputs, pin_factory=factory,
                          clock=lambda: table.hub.mono)
    try:
        factory.pin(pins["F"]).drive_low()
        table.after(0.2)
        factory.pin(pins["F"]).drive_high()
        event = inputs.get(timeout=3)
        assert isinstance(table.kiosk.handle(event), StoredVotePress)  # type: ignore[arg-type]
    finally:
        buttons.close()
    assert table.screen().banner == "France: vote sent"


def test_a_serial_box_button_casts_the_waiting_vote(table: Table) -> None:
    inputs: queue.Queue[object] = queue.Queue()
    box = SerialButtonBox("loop://", inputs, clock=lambda: table.hub.mono)
    try:
        assert box.port is not None
        box.port.write(b"HELLO dipclock-box 1\nP I 0\n")
        deadline = time.monotonic() + 10  # a bound on a hang, not a margin
        while True:
            assert time.monotonic() < deadline, "the box's press did not arrive"
            try:
                event = inputs.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(event, ButtonEvent):
                break
        made = table.kiosk.handle(event)
    finally:
        box.close()
    assert isinstance(made, StoredVotePress) and made.source == "serial"
    assert table.client.upload_once()
    assert table.screen().banner == "Italy: vote counted"


def test_an_older_hub_without_votes_changes_nothing(table: Table) -> None:
    table.hub.vote = None
    table.hub.snap = table.hub.snapshot(2) | {"hub": "h1"}
    del table.hub.snap["vote"]
    assert table.client.fetch_snapshot()
    current = table.client.current()
    assert isinstance(current, Round) and current.vote is None
    assert isinstance(table.press("F"), StoredPress)
    assert table.screen().vote is None


def test_an_older_outbox_file_gets_the_vote_presses_table(tmp_path: Path) -> None:
    path = tmp_path / "0.3.sqlite"
    box = Outbox(path)
    box.close()
    db = sqlite3.connect(path)  # as 0.3 left it: no vote presses
    db.execute("DROP TABLE vote_presses")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    box, again = Outbox(path), Outbox(path)
    made = box.vote_press("F", 7, "h1", START)
    assert [v.id for v in again.unsent_vote_presses("h1")] == [made.id]
    assert again.unsent_vote_presses("another hub") == []
    box.close()
    again.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_a_passed_vote_ends_the_game_on_the_screen_with_the_sheet_s_code(table: Table) -> None:
    """The hub puts a passed vote's ``VotedEnd`` in the schedule: the clock says game over
    with the vote's result, and shows the result sheet's code for the players to fill in."""
    headline = "Draw agreed, Spring 1901: the 1900 centre chart counts"
    table.hub.vote = dict(OPEN, state="passed", voted=list("AEFIRT"), waiting_button=[],
                          headline=headline, closed_at="2019-09-06T10:00:00")
    snap = table.hub.snapshot(2)
    snap["schedule"] = dict(snap["schedule"], ends=[
        {"at": "2019-09-06T10:00:00", "table": 3, "headline": headline}])
    table.hub.snap = snap | {"sheet": "/sheet/2/3#k7qm2x4pdzralz3n"}
    assert table.client.fetch_snapshot()
    table.kiosk.hub_url = "http://hub:8000"
    table.after(5)
    screen = table.screen()
    assert (screen.look, screen.label, screen.big) == ("game_over", headline, "Game over")
    assert screen.qr == "http://hub:8000/sheet/2/3#k7qm2x4pdzralz3n"
    assert screen.vote is None  # the result is the screen's own label
    assert isinstance(table.press("F"), StoredPress)  # the vote is over: no vote press


def test_a_full_card_s_reason_is_said_in_the_screen_s_language(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The press is kept in memory only: its reason is said as it is made, in the words the
    screen speaks (the event's, once a snapshot said them)."""
    from dipclock.i18n import Words
    from kiosk.app import VOTE_NOT_KEPT

    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(table.outbox, "vote_press", full)
    table.kiosk.words = Words("fr")
    made = table.press("F")
    assert isinstance(made, StoredVotePress)
    assert made.reason == Words("fr")(VOTE_NOT_KEPT) != VOTE_NOT_KEPT  # passes after merge

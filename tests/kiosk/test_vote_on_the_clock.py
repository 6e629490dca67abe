"""A game-end vote from the players' phones to the table's clock, on a real hub (uvicorn in
this process, its clock set by the test) and a kiosk whose button box is pyserial's
``loop://``: the proposal waits for its proposer's button, each phone's vote for its
power's, and the passed vote ends the game on the clock's screen with the sheet's code."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx

from dipclock.sync import to_seconds
from hardware.serialbox import SerialButtonBox
from kiosk.app import Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox, StoredConfirmation, StoredPress, StoredVotePress
from kiosk.state import Screen
from tests.doubles import FakeClock
from tests.kiosk.boxpress import press
from tests.server.live import ThreadHub

DAY = "2024-05-04"  # wdc2006 from 09:00: Spring 1906 is negotiated from 11:40 to 11:57
TABLE = 2
#: Germany is out: six survivors vote
CHART = {"A": 5, "E": 5, "F": 5, "G": 0, "I": 5, "R": 5, "T": 9}


def moment(hms: str) -> float:
    return to_seconds(datetime.fromisoformat(f"{DAY}T{hms}"))


@dataclass
class Table:
    """The hub, table 2's clock with its button box, and the key its players' phones hold."""

    hub: ThreadHub
    clock: FakeClock
    client: HubClient
    kiosk: Kiosk
    outbox: Outbox
    box: SerialButtonBox
    inputs: queue.Queue[object]
    key: str

    def phone(self, power: str) -> httpx.Client:
        """A player's phone: the sheet's key, and an id of its own."""
        return httpx.Client(base_url=self.hub.url, timeout=60, headers={
            "X-Sheet-Key": self.key, "X-Dipclock-Device": f"phone{power}0000"})

    def press(self, powers: str) -> list[StoredPress | StoredConfirmation | StoredVotePress]:
        """Press each power's button once on the box; what the kiosk made of each."""
        return press(self.box, self.inputs, self.kiosk, powers)  # type: ignore[return-value]

    def sent(self) -> Screen:
        """The presses uploaded, the hub's snapshot taken (as its push would bring it)."""
        assert self.client.upload_once()
        assert self.client.fetch_snapshot()
        return self.screen()

    def screen(self) -> Screen:
        return self.kiosk.frame(self.clock.t).screen


@contextmanager
def table(tmp_path: Path) -> Iterator[Table]:
    clock = FakeClock(moment("08:00:00"))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as live:
        td = live.td()
        for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                           ("/api/td/round", {"number": 1, "start": f"{DAY}T09:00:00"}),
                           ("/api/td/tables", {"count": 3})):
            td.put(path, json=body).raise_for_status()
        outbox = Outbox(tmp_path / "o.sqlite")
        client = HubClient(live.url, TABLE, live.token(td, TABLE), outbox, mono=clock.mono)
        kiosk = Kiosk(client, outbox, client, log=lambda line: None, hub_url=live.url)
        inputs: queue.Queue[object] = queue.Queue()
        box = SerialButtonBox("loop://", inputs, clock=clock.mono)  # type: ignore[arg-type]
        try:
            assert box.port is not None
            box.port.write(b"HELLO dipclock-box 1\n")
            clock.t = moment("11:45:00")
            assert client.sync_once() and client.fetch_snapshot()
            link = client.http.get(f"/api/tables/{TABLE}/snapshot").json()["sheet"]
            yield Table(live, clock, client, kiosk, outbox, box, inputs, link.partition("#")[2])
        finally:
            box.close()
            client.close()
            outbox.close()
            td.close()


def test_a_draw_proposed_and_voted_on_phones_and_buttons_ends_the_game(
        tmp_path: Path) -> None:
    with table(tmp_path) as t:
        austria = t.phone("A")
        r = austria.post(f"/api/votes/1/{TABLE}", json={
            "form": "dias", "centres": CHART, "proposer": "A"})
        assert r.status_code == 200, r.text
        assert t.client.fetch_snapshot()
        screen = t.screen()
        assert screen.big == "12:00"  # the clock runs on (its powers late since Fall 1905)
        assert screen.vote is not None
        assert screen.vote.headline == "Draw of all survivors proposed, Spring 1906"
        assert screen.vote.status == "Austria: press your button to propose it"

        [made] = t.press("A")  # the proposal is Austria's: the ballot opens
        assert isinstance(made, StoredVotePress)
        assert t.screen().banner == "Austria: vote sent"
        screen = t.sent()
        assert screen.vote is not None
        assert {m.letter: m.word for m in screen.vote.marks} == dict.fromkeys("AEFIRT",
                                                                              "To vote")
        vid = t.client.current().vote.id  # type: ignore[union-attr]

        phones = {p: t.phone(p) for p in "EFIRT"} | {"A": austria}
        for power, phone in phones.items():
            r = phone.post(f"/api/votes/1/{TABLE}/{vid}/claims",
                           json={"power": power, "choice": "yes"})
            assert r.status_code == 200, r.text
        t.clock.t = moment("11:46:00")
        assert t.client.fetch_snapshot()
        screen = t.screen()
        assert screen.vote is not None and screen.vote.status == (
            "Waiting for the buttons of Austria, England, France, Italy, Russia and Turkey")
        assert t.outbox.presses() == []  # no button so far was orders in

        t.press("AEFIR")
        screen = t.sent()
        assert screen.vote is not None
        assert [m.word for m in screen.vote.marks] == ["VOTED"] * 5 + ["PRESS"]
        assert screen.vote.status == "Waiting for Turkey's button"

        t.press("T")  # the last vote: the draw passes, the game is over
        screen = t.sent()
        headline = "Draw agreed, Spring 1906: the 1905 centre chart counts"
        assert (screen.look, screen.label, screen.big) == ("game_over", headline,
                                                           "Game over")
        assert screen.qr.startswith(t.hub.url + f"/sheet/1/{TABLE}#")
        assert t.outbox.presses() == []
        assert [v.state for v in t.outbox.vote_presses()] == ["taken"] * 7
        for phone in phones.values():
            phone.close()

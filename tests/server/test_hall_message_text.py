"""What a hall message may say, on a real hub (uvicorn in this process, its clock the
test's) and a real table's clock (its hub client, outbox and screen): a message of
invisible characters is refused with one line and never reaches a table (no blank banner,
no chime); emoji joined by zero-width joiners reach every table as typed, with their chime.
The rule itself is ``dipclock.hallmessage`` (tests/core/test_hallmessage.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from dipclock.sync import to_seconds
from kiosk.app import Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from tests.doubles import FakeClock
from tests.server.live import ThreadHub
from tests.server.test_live import set_up

START = datetime(2024, 5, 4, 9, 0)
NOTHING = "text: the message has nothing to show: it is only spaces and invisible characters"
FAMILY = "Family 👨\u200d👩\u200d👧 photo at the bar, 🏴\U000e0067\U000e0062\U000e0065\U000e006e" \
         "\U000e0067\U000e007f fans ❤️\u200d🔥 👩🏽\u200d🔬"


class Chimes:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, cue: str) -> None:
        self.played.append(cue)


@dataclass
class Hall:
    td: httpx.Client
    client: HubClient
    kiosk: Kiosk
    chimes: Chimes
    clock: FakeClock

    def table_sees(self) -> str:
        """Table 1's clock takes the hub's snapshot and draws a frame: the banner's words."""
        assert self.client.fetch_snapshot()
        return self.kiosk.frame(self.clock.t).screen.message


@contextmanager
def hall(tmp_path: Path) -> Iterator[Hall]:
    clock = FakeClock(to_seconds(START + timedelta(minutes=5)))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as hub:
        td = hub.td()
        set_up(td, START, tables=2)
        outbox = Outbox(tmp_path / "outbox.sqlite")
        client = HubClient(hub.url, 1, hub.token(td, 1), outbox, mono=clock.mono)
        chimes = Chimes()
        kiosk = Kiosk(client, outbox, client, log=lambda line: None, sounds=chimes,  # type: ignore[arg-type]
                      message=client.message)
        try:
            assert client.sync_once()
            h = Hall(td, client, kiosk, chimes, clock)
            assert h.table_sees() == ""  # the clock has started: a new message is news
            yield h
        finally:
            client.close()
            outbox.close()
            td.close()


@pytest.mark.parametrize("text", [
    "\u200b\u200b\u200b",  # zero width spaces
    " \u2060\u200e\u200f ",  # a word joiner and bidi marks between spaces
    "\ufe0f\ufe0f\ufe0f",  # variation selectors
    "\u3164\u2800\u00a0\u200d",  # a Hangul filler, a blank braille cell, a joiner
])
def test_an_invisible_message_is_refused_and_no_table_shows_a_blank_banner(
        tmp_path: Path, text: str) -> None:
    with hall(tmp_path) as h:
        r = h.td.put("/api/td/message", json={"text": text})
        assert (r.status_code, r.json()) == (422, {"detail": NOTHING})
        assert h.td.get("/api/hall").json()["message"] is None
        assert h.table_sees() == "" and h.chimes.played == []
        assert not any(line["action"] == "message"
                       for line in h.td.get("/api/td/state").json()["audit"])


def test_joined_emoji_reach_every_table_as_typed_with_their_chime(tmp_path: Path) -> None:
    with hall(tmp_path) as h:
        r = h.td.put("/api/td/message", json={"text": f" {FAMILY} ", "minutes": 30})
        assert r.status_code == 200, r.text
        assert r.json()["message"]["text"] == FAMILY
        assert h.td.get("/api/hall").json()["message"]["text"] == FAMILY
        assert h.table_sees() == FAMILY  # the table's clock took the snapshot: not refused
        assert h.chimes.played == ["message"]
        # a joiner joining nothing is still refused, with the character named
        r = h.td.put("/api/td/message", json={"text": "Lunch \u200d"})
        assert (r.status_code, r.json()) == (
            422, {"detail": "text: a hall message cannot show U+200D (zero width joiner)"})
        assert h.table_sees() == FAMILY and h.chimes.played == ["message"]

"""A press on a clock whose card is full, on a real hub (uvicorn in this process, its clock
the test's) and a real button box (pyserial's ``loop://``): it counts and is sent to the
hub, but is not acknowledged as kept until it is. The screen says the card is full and to
tell the TD, and the power's chip says "NOT SAVED" (amber, not the green "IN") while a
power cut would lose the press; the ``PRESS`` acknowledgement comes once the card has taken
it. Issue 33: the clock said "IN" and printed ``PRESS`` for a press in memory only."""

from __future__ import annotations

import queue
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pygame

from dipclock.sync import to_seconds
from hardware.serialbox import SerialButtonBox
from kiosk.app import CARD_FULL_ALERT, FLUSH_EVERY, Kiosk
from kiosk.draw import CHIP_STATES, UNSAVED_CHIP, Painter, render
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox, StoredPress
from kiosk.state import UNSAVED, Screen
from tests.doubles import FakeClock
from tests.kiosk.test_card_full import fill, room
from tests.server.live import ThreadHub

START = datetime(2024, 5, 4, 9, 0)  # wdc2006: Spring 1901's deadline 09:17
TABLE = 2


def chip(screen: Screen, power: str) -> tuple[str, str]:
    found = next(c for c in screen.chips if c.letter == power)
    return found.state, found.note


def chip_colour(screen: Screen, power: str, shot: Path | None = None
                ) -> tuple[int, int, int]:
    """The colour the chip's state is drawn on, read off a drawn 800x480 frame."""
    surface = pygame.Surface((800, 480))
    drawn = render(surface, screen, Painter())
    if shot is not None:
        pygame.image.save(surface, str(shot))
    note = next(d for d in drawn if d.role == f"chip-{power}-note")
    return tuple(surface.get_at((note.rect.left - 2, note.rect.centery)))[:3]  # type: ignore[return-value]


def test_a_press_the_card_cannot_keep_counts_but_is_not_acknowledged_as_kept(
        tmp_path: Path) -> None:
    pygame.font.init()
    clock = FakeClock(to_seconds(START + timedelta(minutes=5)))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as hub:
        td = hub.td()
        for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                           ("/api/td/round", {"number": 1, "start": START.isoformat()}),
                           ("/api/td/tables", {"count": 3})):
            td.put(path, json=body).raise_for_status()
        outbox = Outbox(tmp_path / "outbox.sqlite")
        client = HubClient(hub.url, TABLE, hub.token(td, TABLE), outbox, mono=clock.mono)
        said: list[str] = []
        kiosk = Kiosk(client, outbox, client, log=said.append)
        inputs: queue.Queue[object] = queue.Queue()
        box = SerialButtonBox("loop://", inputs, clock=clock.mono)  # type: ignore[arg-type]
        try:
            assert client.sync_once() and client.fetch_snapshot()
            assert box.port is not None
            box.port.write(b"HELLO dipclock-box 1\nP F 0\n")  # France, on a card with room
            france = kiosk.handle(inputs.get(timeout=10))  # type: ignore[arg-type]
            assert said[-1].startswith(f"PRESS {france.id} F press ")
            fill(outbox)  # the card is full

            box.port.write(b"P E 0\n")  # England's orders are in
            england = kiosk.handle(inputs.get(timeout=10))  # type: ignore[arg-type]
            assert isinstance(england, StoredPress) and outbox.full
            assert said[-1] == (f"UNSAVED {england.id} E press {england.at.isoformat()} "
                                "(this clock's card is full: kept in memory only)")
            assert not any(line.startswith(f"PRESS {england.id}") for line in said)
            screen = kiosk.frame(clock.t).screen
            assert CARD_FULL_ALERT in screen.alerts
            assert CARD_FULL_ALERT == ("This clock cannot save presses: its card is full: "
                                       "tell the TD")
            assert chip(screen, "E") == ("in", UNSAVED)  # it counts, but is not kept
            assert chip(screen, "F") == ("in", "IN")  # France's is on the card
            assert chip_colour(screen, "E", tmp_path / "unsaved.png") == UNSAVED_CHIP[0]
            assert chip_colour(screen, "F") == CHIP_STATES["in"][0]

            # sent to the hub as soon as it can be: the hub keeps it, so it is safe there
            assert client.upload_once()
            snap = httpx.get(f"{hub.url}/api/tables/{TABLE}/snapshot",
                             headers=hub.auth(td, TABLE)).json()
            assert england.id in [p["id"] for p in snap["presses"]]
            screen = kiosk.frame(clock.t + 1).screen
            assert chip(screen, "E") == ("in", "IN")  # the hub has it: "IN" again
            assert CARD_FULL_ALERT in screen.alerts  # the card is still full: tell the TD
            assert not any(line.startswith(f"PRESS {england.id}") for line in said)

            room(outbox)  # the TD frees space on the card
            screen = kiosk.frame(clock.t + 2 + FLUSH_EVERY).screen
            assert CARD_FULL_ALERT not in screen.alerts and not outbox.full
            assert said[-1] == f"PRESS {england.id} E press {england.at.isoformat()}"
            again = Outbox(tmp_path / "outbox.sqlite")  # on the card, as after a power cut
            assert england.id in [p.id for p in again.presses()]
            again.close()
        finally:
            box.close()
            client.close()
            outbox.close()
            td.close()

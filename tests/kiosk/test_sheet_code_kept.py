"""The result sheet's QR code on a table's clock stays the round the table played until the
next round starts, on a real hub (uvicorn in this process, its clock the test's) and a real
kiosk (its hub client, outbox and screen). Issue 33: the TD setting up round 2 in advance
took round 1's code off every table while its players were still entering their sheets;
the code is now beside round 2's board call, named, and read by a phone (zbar), until
round 2 starts; at round 2's game over the code is round 2's own."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pygame

from dipclock.sync import to_seconds
from kiosk.draw import Painter, render
from kiosk.state import Screen
from tests.kiosk.qrread import zbar
from tests.kiosk.test_sheet_on_the_clock import DAY, TABLE, table

SEATS = "".join(f"2,{TABLE},{p},Player {p}\n" for p in "AEFGIRT")
BOARD = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}, "year": 1901}


def moment(hms: str) -> float:
    return to_seconds(datetime.fromisoformat(f"{DAY}T{hms}"))


def read_code(screen: Screen, size: tuple[int, int], png: Path) -> str:
    """The QR code on the drawn frame, as a phone's camera reads it (zbar)."""
    surface = pygame.Surface(size)
    drawn = render(surface, screen, Painter())
    assert [d.text for d in drawn if d.role == "qr"] == [screen.qr]
    return zbar(surface, png)


def test_the_code_stays_the_round_played_until_the_next_round_starts(tmp_path: Path) -> None:
    pygame.font.init()
    with table(tmp_path) as t:  # round 1 of wdc2006 at 09:00, three tables, a real kiosk

        def screen(hms: str) -> Screen:
            t.clock.t = moment(hms)
            assert t.client.sync_once() and t.client.fetch_snapshot()
            return t.kiosk.frame(t.clock.t).screen

        over = screen("09:40:00")  # round 1's game is over: its code
        assert over.look == "game_over" and "/sheet/1/2#" in over.qr
        first = over.qr
        key = {"X-Sheet-Key": first.partition("#")[2]}

        # the TD sets up round 2 (and seats it) in advance, for 11:00
        t.td.put("/api/td/round", json={"number": 2, "start": f"{DAY}T11:00:00",
                                        "last_year": 1901}).raise_for_status()
        t.td.put("/api/td/seating", json={"csv": SEATS}).raise_for_status()
        waiting = screen("09:45:00")
        assert waiting.look == "before_start" and waiting.board_call  # round 2's call
        assert waiting.qr == first  # round 1's code, not round 2's
        assert waiting.qr_caption == "Round 1 sheet: scan"
        for size in ((800, 480), (1280, 720)):
            assert read_code(waiting, size, tmp_path / f"{size[0]}.png") == first
        # a player scanning it now still enters round 1's sheet
        r = t.phone.put(f"/api/sheets/1/{TABLE}", json=BOARD,
                        headers=key | {"If-Match": '"0"'})
        assert r.status_code == 200, r.text

        playing = screen("11:00:00")  # round 2 has started: no code while it plays
        assert playing.look != "before_start" and playing.qr == ""
        ended = screen("11:40:00")  # round 2's game over: round 2's own code
        assert ended.look == "game_over" and "/sheet/2/2#" in ended.qr
        assert read_code(ended, (800, 480), tmp_path / "ended.png") == ended.qr

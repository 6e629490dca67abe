"""The TD's hall message on a table's clock: a band across the top while it shows by the
clock's own hub time (even cut off from the hub), never at the cost of the countdown, and
a chime once for each new message where sound is on.

Time is the test's: the kiosk's monotonic clock jumps to the instant that matters."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pygame
import pytest

from dipclock.events import BUILTIN
from dipclock.hallmessage import MAX_LENGTH, HallMessage, new
from dipclock.sync import to_seconds
from kiosk import state
from kiosk.app import Kiosk
from kiosk.draw import MESSAGE_BAND, Painter, render, word_pieces
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from kiosk.screenshots import SCENES, draw
from tests.doubles import FixedTime
from tests.kiosk.test_draw import (
    READ_FROM_THE_TABLE,
    SIZES,
    assert_on_screen_and_apart,
    ink_height,
    readable,
)

from .conftest import Table

LUNCH = "Lunch in the bar until 14:00"
LONGEST = ("Round 3 board call on the projector at 14:00 sharp. Lunch is in the bar until "
           "then: hand in all your score sheets first.")
SET = datetime(2019, 9, 6, 10, 5)  # the table's round (wdc2019) started at 10:00


@pytest.fixture
def painter() -> Painter:
    """A painter with fonts of its own: a test of the display in the same process may have
    closed pygame (``Display.close``), and a font made before that cannot draw."""
    pygame.font.init()
    return Painter()


class Recorder:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, cue: str) -> None:
        self.played.append(cue)


def telling(table: Table, message: HallMessage | None) -> list[HallMessage | None]:
    """The hub's last snapshot says ``message`` (a test changes it by the list's item)."""
    said = [message]
    table.kiosk.message = lambda: said[0]
    return said


def test_the_banner_shows_until_its_time_by_the_clocks_own_hub_time(table: Table) -> None:
    telling(table, new(LUNCH, SET, 30))
    until = SET + timedelta(minutes=30)
    assert table.screen(SET).message == LUNCH
    assert table.screen(until - timedelta(milliseconds=1)).message == LUNCH
    # the frame is drawn again no later than the moment the message goes
    table.at(until - timedelta(seconds=0.25))
    assert table.kiosk.frame(table.mono).valid_for <= 0.25 + 1e-6
    assert table.screen(until).message == ""
    assert table.screen(until + timedelta(hours=2)).message == ""
    assert table.screen(SET - timedelta(minutes=5)).label  # the round drawn all the same


def test_without_until_it_stays_and_a_cleared_one_goes(table: Table) -> None:
    said = telling(table, new(LUNCH, SET))
    assert table.screen(SET + timedelta(hours=5)).message == LUNCH
    said[0] = None  # the TD cleared it: the next snapshot has none
    assert table.screen().message == ""


def test_the_banner_is_drawn_across_the_top_and_the_countdown_stays_large(
        table: Table, painter: Painter) -> None:
    telling(table, new(LUNCH, SET))
    screen = table.screen(SET + timedelta(minutes=1))
    for size in ((1920, 1080), (800, 480)):
        surface = pygame.Surface(size)
        drawn = render(surface, screen, painter)
        assert_on_screen_and_apart(surface, drawn)
        message = [d for d in drawn if d.role == "message"]
        assert [d.text for d in message] == [LUNCH]
        big = next(d for d in drawn if d.role == "big")
        assert big.text == screen.big and big.rect.h >= min(size) * 0.25
        assert all(d.rect.bottom <= min(x.rect.top for x in drawn if x.role != "message")
                   for d in message), "the band is the top row"
        # the frame's pixels: the band's colour around the words, and the words inked on it
        band = message[0].rect.inflate(message[0].rect.h // 2, 0)
        assert surface.get_at((band.left, message[0].rect.centery))[:3] == MESSAGE_BAND
        assert ink_height(surface, message[0].rect) >= 1.5 * readable(size)
        assert ink_height(surface, message[0].rect) < big.rect.h / 3  # never louder


def test_the_longest_message_is_drawn_whole_and_readable_at_every_size(
        painter: Painter) -> None:
    assert len(LONGEST) == 120
    scene = dataclasses.replace(next(s for s in SCENES if s.name == "late-orders"),
                                message=LONGEST)
    for size in SIZES:
        surface, drawn, screen = draw(scene, size, painter)
        assert_on_screen_and_apart(surface, drawn)
        lines = [d for d in drawn if d.role == "message"]
        assert " ".join(d.text for d in lines) == LONGEST, size  # every word, none cut
        # one size for every line: the tallest ink is its capitals' (a line may have none)
        assert max(ink_height(surface, d.rect) for d in lines) >= readable(size), size


#: The longest messages the core allows, the widest there are: capitals in words, and one
#: unbroken line (an address, a script written without spaces).
WIDEST = {"capitals": " ".join(["W" * 11] * 10) + "W", "unbroken": "M" * MAX_LENGTH}
#: The table's screen (1280x720, 1280x800: the card's panel) and the official 7-inch one.
TABLE_SIZES = [(1280, 720), (1280, 800), (800, 480)]


@pytest.mark.parametrize("size", TABLE_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_widest_longest_message_stays_in_its_band_and_the_countdown_whole(
        size: tuple[int, int], painter: Painter, tmp_path: Path) -> None:
    """Issue 33: the message wraps (inside a word too wide for a line, too) or shrinks
    within its band at the top; the countdown stays whole on the screen, below it. A word
    wider than a line was drawn on one line, in letters a quarter as tall."""
    scene = next(s for s in SCENES if s.name == "late-orders")
    inked = {}
    for name, text in (("words", LONGEST), *WIDEST.items()):
        assert len(text) == MAX_LENGTH, name
        surface, drawn, _ = draw(dataclasses.replace(scene, message=text), size, painter)
        pygame.image.save(surface, str(tmp_path / f"{name}-{size[0]}x{size[1]}.png"))
        assert_on_screen_and_apart(surface, drawn)
        lines = [d for d in drawn if d.role == "message"]
        big = next(d for d in drawn if d.role == "big")
        assert surface.get_rect().contains(big.rect), (name, "the countdown is cut off")
        assert big.rect.h >= min(size) * 0.25, (name, "the countdown stays large")
        band = lines[0].rect.unionall([d.rect for d in lines])
        assert not band.colliderect(big.rect) and band.bottom <= big.rect.top, name
        assert band.h <= size[1] * 0.12, (name, "the band keeps its share", band)
        assert "".join(d.text for d in lines).replace(" ", "") == text.replace(" ", ""), name
        assert not any(d.text.endswith("...") for d in lines), name
        inked[name] = max(ink_height(surface, d.rect) for d in lines)
    # a word too wide for a line is broken, not shrunk to fit one line
    assert inked["unbroken"] >= 0.8 * inked["capitals"], inked


def test_a_word_is_broken_between_the_characters_drawn_never_inside_one(
        painter: Painter) -> None:
    font = painter.font(40)
    word = ("Ae\u0301👨\u200d👩\u200d👧🇫🇷👍🏽🏴\U000e0067\U000e0062\U000e0077\U000e006c"
            "\U000e0073\U000e007f") * 6
    pieces = word_pieces(font, word, font.size(word)[0] // 5)
    assert "".join(pieces) == word and len(pieces) >= 5
    for piece in pieces:
        assert font.size(piece)[0] <= font.size(word)[0] // 5
        assert not piece.startswith(("\u0301", "\u200d", "👩", "👧", "\U0001f3fd", "\U000e0067"))
        assert not piece.endswith(("\u200d", "🏴", "👨"))
        assert sum(0x1F1E6 <= ord(c) <= 0x1F1FF for c in piece) % 2 == 0  # whole flags


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_stage_with_a_message_is_on_screen_apart_and_read_from_two_metres(
        size: tuple[int, int], painter: Painter) -> None:
    """Every stage of the screenshots with the message over it: nothing cut off or over
    another, every word a player reads as tall as ever, the countdown still a quarter of
    the screen's short side (a fifth beside three alerts, the rarest screen)."""
    for scene in SCENES:
        if scene.name in ("looking-for-the-hub", "wifi-wrong-password", "pairing",
                          "cannot-start"):
            continue  # no hub (or not paired yet), so no message: no clock started yet
        surface, drawn, screen = draw(dataclasses.replace(scene, message=LUNCH), size,
                                      painter)
        assert screen.message == LUNCH, scene.name
        assert_on_screen_and_apart(surface, drawn)
        assert [d.text for d in drawn if d.role == "message"] == [LUNCH], scene.name
        for d in drawn:
            assert not d.text.endswith("..."), f"{scene.name}: {d.text!r} shortened"
            if d.role.rsplit("-", 1)[-1] in READ_FROM_THE_TABLE | {"message"}:
                ink = ink_height(surface, d.rect)
                assert ink >= readable(size), f"{scene.name}: {d.role} {d.text!r} {ink} px"
        big = next((d for d in drawn if d.role == "big"), None)
        if big is not None and any(c.isdigit() for c in screen.big) and not screen.board_call:
            least = 0.2 if screen.alerts else 0.25
            assert big.rect.h >= min(size) * least, f"{scene.name}: the countdown is small"


def test_before_the_td_sets_up_a_round_the_waiting_screen_shows_it(tmp_path: Path) -> None:
    class NoRound:  # a hub that has no round yet (``kiosk.app.Source``)
        def current(self) -> None:
            return None

        def hub_lost(self) -> bool:
            return False

        def sent(self) -> None:
            pass

    outbox = Outbox(tmp_path / "outbox.sqlite")
    try:
        kiosk = Kiosk(NoRound(), outbox, FixedTime(to_seconds(SET) - 1000.0),
                      log=lambda line: None, message=lambda: new("Welcome! Round 1 at 10:00",
                                                                 SET, 5))
        screen = kiosk.frame(1000.0).screen
        assert (screen.look, screen.message) == ("connecting", "Welcome! Round 1 at 10:00")
        assert kiosk.frame(1000.0 + 5 * 60).screen.message == ""
    finally:
        outbox.close()


def test_no_band_on_a_start_up_problem() -> None:
    frame = state.problem("kiosk.toml line 3: tabel: unknown key", "spell it table")
    assert state.with_message(frame, new(LUNCH, SET), SET).screen.message == ""


# --- the chime ---------------------------------------------------------------------------

def test_a_new_message_chimes_once_where_sound_is_on(table: Table) -> None:
    rec = Recorder()
    table.kiosk.sounds = rec  # type: ignore[assignment]
    said = telling(table, None)
    table.screen(SET)
    said[0] = new(LUNCH, SET)
    for second in range(30):  # one frame a second, then a burst of the keyboard's wakes
        table.screen(SET + timedelta(seconds=second))
        table.screen()
    assert rec.played == ["message"]
    said[0] = new(LUNCH, SET + timedelta(minutes=1))  # the same words set again: news
    table.screen(SET + timedelta(minutes=1))
    said[0] = new("Round 3 board call", SET + timedelta(minutes=2), 1)
    table.screen(SET + timedelta(minutes=2))
    table.screen(SET + timedelta(minutes=3))  # it ran out: no sound for that
    assert rec.played == ["message"] * 3


def test_no_chime_for_a_message_already_up_when_the_clock_starts(table: Table) -> None:
    rec = Recorder()
    table.kiosk.sounds = rec  # type: ignore[assignment]
    telling(table, new(LUNCH, SET))
    for minute in range(3):
        assert table.screen(SET + timedelta(minutes=minute)).message == LUNCH
    assert rec.played == []


def test_with_sound_off_a_message_is_drawn_and_nothing_plays(table: Table) -> None:
    assert table.kiosk.sounds is None  # sound = false, the default
    said = telling(table, None)
    table.screen(SET)
    said[0] = new(LUNCH, SET)
    assert table.screen().message == LUNCH


# --- from the hub's snapshot, and without the hub ------------------------------------------

START = datetime(2019, 9, 6, 10, 0)
SHIFT = to_seconds(START) - 1000.0  # hub time = monotonic + this


def _snapshot(seq: int, message: HallMessage | None) -> dict[str, Any]:
    return {"seq": seq, "hub": "h1", "table": 3,
            "event": BUILTIN["wdc2019"].model_dump(mode="json"),
            "schedule": {"start": START.isoformat(), "title": "Round 2"},
            "hub_time": 0.0, "message": message.model_dump(mode="json") if message else None}


def test_a_clock_cut_off_from_the_hub_takes_the_message_down_on_time(tmp_path: Path) -> None:
    up, mono = [True], [1000.0 + 5 * 60]  # 10:05 hub time
    snap = [_snapshot(7, new(LUNCH, SET, 20))]

    def answer(request: httpx.Request) -> httpx.Response:
        if not up[0]:
            raise httpx.ConnectError("hub down", request=request)
        if request.url.path == "/api/time":
            t = mono[0] + SHIFT
            return httpx.Response(200, json={"t1": t, "t2": t})
        if request.url.path == "/api/tables/3/snapshot":
            return httpx.Response(200, json=snap[0])
        return httpx.Response(404)

    outbox = Outbox(tmp_path / "outbox.sqlite")
    client = HubClient("http://hub:8000", 3, "KEY", outbox, mono=lambda: mono[0],
                       wall=lambda: mono[0] + SHIFT, transport=httpx.MockTransport(answer))
    try:
        assert client.sync_once() and client.fetch_snapshot()
        kiosk = Kiosk(client, outbox, client, log=lambda line: None, message=client.message)
        assert kiosk.frame(mono[0]).screen.message == LUNCH
        up[0] = False  # the hall's Wi-Fi drops: no snapshot will say it is over
        assert not client.fetch_snapshot()
        mono[0] += 20 * 60 - 0.001
        assert kiosk.frame(mono[0]).screen.message == LUNCH
        mono[0] += 0.001  # 10:25, by the time the clock kept
        frame = kiosk.frame(mono[0])
        assert frame.screen.message == "" and frame.screen.hub_lost
        # a clock restarted meanwhile shows the stored snapshot's message until its time
        mono[0] -= 60
        again = HubClient("http://hub:8000", 3, "KEY", outbox, mono=lambda: mono[0],
                          wall=lambda: mono[0] + SHIFT, transport=httpx.MockTransport(answer))
        restarted = Kiosk(again, outbox, again, log=lambda line: None, message=again.message)
        assert restarted.frame(mono[0]).screen.message == LUNCH
        again.close()
        # the hub back, the TD's new message taken from the next snapshot
        up[0], snap[0] = True, _snapshot(8, new("Round 3 board call", SET))
        assert client.fetch_snapshot()
        assert kiosk.frame(mono[0]).screen.message == "Round 3 board call"
        assert json.loads(json.dumps(outbox.get("hub_snapshot")))["message"]["text"] == (
            "Round 3 board call")
    finally:
        client.close()
        outbox.close()

"""The vote page's QR code on the table's clock (issue 37: a proposal "is started from the
table (a TD-chosen way that does not disturb the clock: a key, a long press on a spare
button, or the TD's dashboard)"): while a vote is open each voter scans it ("Vote: scan");
the key ``v`` or the TD's dashboard shows it for 2 minutes to propose ("Propose a game end:
scan"), ``Esc`` hides it. Drawn small at the right of the vote's panel at every screen size
the layout tests cover, nothing cut off, the countdown as large as the vote tests require
(wdc2018: "The clock DOES NOT STOP for draw votes"), and read back by zbar as the URL.
Time is a parameter: the kiosk's clock is jumped, nothing sleeps."""

from __future__ import annotations

import dataclasses
import queue
from datetime import datetime, timedelta
from pathlib import Path

import pygame
import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import PSEUDO
from dipclock.schedule import Schedule
from dipclock.snapshot import Snapshot, TableVote
from dipclock.sync import to_seconds
from kiosk import state
from kiosk.app import FixedRound, Kiosk, run
from kiosk.display import Display
from kiosk.draw import Painter, render
from kiosk.outbox import Outbox
from kiosk.round import Round, from_snapshot, round_key
from kiosk.screenshots import SCENES, Scene, draw
from tests.doubles import FixedTime

from .qrread import zbar
from .test_draw import SIZES, assert_on_screen_and_apart, ink_height, readable
from .test_vote_on_the_clock import TABLE
from .test_vote_on_the_clock import table as live_table

painter = Painter()
OPEN = next(s for s in SCENES if s.name == "vote-code")
#: the same table with no vote: the key ``v`` pressed a minute ago, to propose
PROPOSE = dataclasses.replace(OPEN, name="vote-code-propose", vote=None,
                              vote_code_until=OPEN.at + timedelta(minutes=1))
HUB = "https://10.0.0.1:8000"
SHEET = "/sheet/2/3#k7qm2x4pdzralz3n"
LINK = HUB + "/vote/2/3#k7qm2x4pdzralz3n"
START = datetime(2024, 5, 4, 9, 0)  # wdc2006: Spring 1906 is negotiated from 11:40 to 11:57
NEGOTIATING = datetime(2024, 5, 4, 11, 45)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", [OPEN, PROPOSE], ids=lambda s: s.name)
def test_the_code_is_drawn_whole_beside_the_panel_and_reads_back(
        scene: Scene, size: tuple[int, int], tmp_path: Path) -> None:
    surface, drawn, screen = draw(scene, size, painter)
    assert_on_screen_and_apart(surface, drawn)
    assert not [d.text for d in drawn if d.text.endswith("...")], "a text was shortened"
    code = next(d for d in drawn if d.role == "vote_qr")
    caption = [d for d in drawn if d.role == "vote_qr_caption"]
    words = "Vote: scan" if scene.vote is not None else "Propose a game end: scan"
    assert (code.text, " ".join(c.text for c in caption)) == (screen.vote_code, words)
    assert zbar(surface, tmp_path / f"{scene.name}.png") == scene.vote_code
    big = next(d for d in drawn if d.role == "big")
    panel = [d for d in drawn if d.role in ("vote", "vote_status")]
    chips = [d for d in drawn if d.role.startswith("chip-")]
    assert big.rect.h >= min(size) * 0.25, "the countdown is small"
    assert code.rect.w <= min(size) * 0.3, "the code is not small"
    assert all(c.rect.bottom <= min(chip.rect.top for chip in chips) for c in caption)
    assert all(p.rect.right <= code.rect.left for p in panel), "the panel runs under the code"
    assert all(ink_height(surface, p.rect) >= readable(size) for p in panel)
    if scene.vote is None:  # no vote open: the panel says what to do with the code
        assert [d.text for d in drawn if d.role == "vote"]


@pytest.mark.parametrize("lang", ["fr", "de", "it", "nl", PSEUDO])
@pytest.mark.parametrize("size", [s for s in SIZES if s[1] > s[0]], ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_portrait_screen_the_panel_beside_the_code_is_read_in_every_language(
        size: tuple[int, int], lang: str) -> None:
    """A narrow screen: the panel beside the code takes more lines (a taller row, from the
    digits' spare height and the chips'), and a longer language's words stay readable."""
    for scene in (OPEN, PROPOSE):
        surface, drawn, _ = draw(dataclasses.replace(scene, language=lang), size, painter)
        assert_on_screen_and_apart(surface, drawn)
        big = next(d for d in drawn if d.role == "big")
        assert big.rect.h >= min(size) * 0.25, "the countdown is small"
        for d in drawn:
            if d.role in ("vote", "vote_status"):
                ink = ink_height(surface, d.rect)
                assert ink >= readable(size), f"{scene.name}: {d.text!r} {ink} px"


def test_the_panel_without_a_vote_tells_the_players_what_to_do() -> None:
    _, drawn, _ = draw(PROPOSE, (800, 480), painter)
    said = " ".join(d.text for d in drawn if d.role in ("vote", "vote_status"))
    assert said == f"{state.PROPOSE_HEADLINE} {state.PROPOSE_STATUS}"


def test_no_code_at_game_over_nor_before_the_round() -> None:
    for name in ("game-over", "before-start", "board-call"):
        scene = next(s for s in SCENES if s.name == name)
        asked = dataclasses.replace(scene, vote_code=LINK,
                                    vote_code_until=scene.at + timedelta(minutes=1))
        screen = asked.frame().screen
        assert screen.vote_code == "", name


def test_the_vote_page_is_the_sheet_s_link_with_its_key() -> None:
    assert state.vote_link(SHEET) == "/vote/2/3#k7qm2x4pdzralz3n"
    assert state.vote_link(HUB + SHEET) == LINK


def test_the_snapshot_carries_the_td_s_ask_to_the_round() -> None:
    until = datetime(2024, 5, 4, 11, 47)
    base = {"seq": 3, "table": 3, "event": BUILTIN["wdc2006"].model_dump(mode="json"),
            "schedule": Schedule(start=START).model_dump(mode="json"), "hub_time": 1.0}
    snap = Snapshot.model_validate(base | {"vote_code_until": until.isoformat()})
    assert snap.vote_code_until == until
    rnd = from_snapshot(snap, 3)
    assert rnd is not None and rnd.vote_code_until == until
    older = Snapshot.model_validate(base)  # a hub without the field
    assert older.vote_code_until is None


# --- the kiosk: the key, the lapse, Esc, the TD's ask, an open vote -----------------------


def kiosk(tmp_path: Path, vote: TableVote | None = None,
          asked: datetime | None = None) -> tuple[Kiosk, Outbox]:
    """A clock on a hub's round of wdc2006 (its sheet's link known), mono = hub seconds."""
    profile = BUILTIN["wdc2006"]
    schedule = Schedule(start=START)
    rnd = Round(profile, schedule, 3, round_key(profile, schedule, 3), sheet=SHEET,
                vote=vote, vote_code_until=asked)
    outbox = Outbox(tmp_path / "outbox.sqlite")
    return Kiosk(FixedRound(rnd), outbox, FixedTime(0.0), log=lambda line: None,
                 hub_url=HUB + "/"), outbox


def mono(moment: datetime) -> float:
    return to_seconds(moment)


def test_the_key_shows_the_code_for_two_minutes_then_it_lapses(tmp_path: Path) -> None:
    k, outbox = kiosk(tmp_path)
    t = mono(NEGOTIATING)
    assert k.frame(t).screen.vote_code == ""
    k.show_vote_code(t)
    fr = k.frame(t)  # at once: not a frame kept from before the key
    assert (fr.screen.vote_code, fr.screen.vote_code_caption) == (
        LINK, "Propose a game end: scan")
    assert fr.screen.big == "12:00"  # the clock runs on
    assert k.frame(t + 119.9).screen.vote_code == LINK
    assert k.frame(t + 119).valid_for <= 1.0
    assert k.frame(t + 120).screen.vote_code == ""  # two minutes: gone by itself
    outbox.close()


def test_the_frame_is_redrawn_when_the_code_lapses(tmp_path: Path) -> None:
    k, outbox = kiosk(tmp_path)
    t = mono(NEGOTIATING) + 0.75  # the lapse falls half a second before the next second
    k.show_vote_code(t)
    fr = k.frame(t + 119.5)
    assert fr.screen.vote_code == LINK and fr.valid_for == pytest.approx(0.5)
    outbox.close()


def test_escape_hides_the_code_and_v_shows_it_again(tmp_path: Path) -> None:
    k, outbox = kiosk(tmp_path)
    t = mono(NEGOTIATING)
    k.show_vote_code(t)
    assert k.frame(t).screen.vote_code == LINK
    k.hide_vote_code()
    assert k.frame(t).screen.vote_code == ""  # at once
    k.show_vote_code(t + 2)
    assert k.frame(t + 2).screen.vote_code == LINK
    outbox.close()


def test_the_td_s_ask_shows_until_its_time_and_escape_hides_it(tmp_path: Path) -> None:
    until = NEGOTIATING + timedelta(minutes=2)
    k, outbox = kiosk(tmp_path, asked=until)
    assert k.frame(mono(NEGOTIATING)).screen.vote_code_caption == "Propose a game end: scan"
    assert k.frame(mono(until)).screen.vote_code == ""
    k.hide_vote_code()
    assert k.frame(mono(NEGOTIATING) + 1).screen.vote_code == ""
    k.show_vote_code(mono(NEGOTIATING) + 2)  # the key still works
    assert k.frame(mono(NEGOTIATING) + 2).screen.vote_code == LINK
    outbox.close()


def test_an_open_vote_shows_the_code_without_a_key_and_keeps_it(tmp_path: Path) -> None:
    proposed = TableVote(id=1, state="open", words="a draw of all survivors", form="dias",
                         period="Spring 1906", proposer="A", waiting_button=("A",),
                         at=NEGOTIATING)
    k, outbox = kiosk(tmp_path, vote=proposed)
    t = mono(NEGOTIATING) + 5
    screen = k.frame(t).screen
    assert (screen.vote_code, screen.vote_code_caption) == (LINK, "Vote: scan")
    k.hide_vote_code()  # Esc: the voters still need it
    assert k.frame(t + 1).screen.vote_code == LINK
    assert k.frame(t + 600).screen.vote_code == LINK  # as long as the vote is open
    outbox.close()


def test_no_code_without_a_hub(tmp_path: Path) -> None:
    k, outbox = kiosk(tmp_path)
    k.hub_url = ""  # standalone: no vote page to reach
    k.show_vote_code(mono(NEGOTIATING))
    assert k.frame(mono(NEGOTIATING)).screen.vote_code == ""
    outbox.close()


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                         scancode=0))


def test_the_live_loop_takes_v_and_escape_from_any_keyboard(tmp_path: Path) -> None:
    k, outbox = kiosk(tmp_path)
    display = Display(headless=True)
    display.use((800, 480), False)
    inputs: queue.Queue[object] = queue.Queue()
    clock = [mono(NEGOTIATING)]

    def now() -> float:  # 10 ms a reading, no real waiting
        inputs.put(object())
        clock[0] += 0.01
        return clock[0]

    pygame.event.clear()
    post_key(pygame.K_v)
    assert run(k, display, inputs, mono=now, run_for=0.2) == 0  # no keyboard buttons
    assert k.frame(clock[0]).screen.vote_code == LINK
    post_key(pygame.K_ESCAPE)
    run(k, display, inputs, mono=now, run_for=0.2)
    assert k.frame(clock[0]).screen.vote_code == ""
    outbox.close()


# --- end to end: the TD's dashboard asks, the table's clock shows the code ----------------


def test_the_td_s_button_shows_the_vote_page_on_the_table_s_clock(tmp_path: Path) -> None:
    with live_table(tmp_path) as t:
        assert t.screen().vote_code == ""
        td = t.hub.td()
        try:
            r = td.post("/api/td/votes/show-code", json={"round": 1, "table": TABLE})
            assert r.status_code == 200, r.text
        finally:
            td.close()
        assert t.client.fetch_snapshot()
        screen = t.screen()
        url = f"{t.hub.url}/vote/1/{TABLE}#{t.key}"
        assert (screen.vote_code, screen.vote_code_caption) == (url,
                                                                "Propose a game end: scan")
        surface = pygame.Surface((800, 480))
        render(surface, screen, painter)
        assert zbar(surface, tmp_path / "clock.png") == url
        t.clock.t += 120  # two minutes on the hub's clock and the clock's: gone
        assert t.screen().vote_code == ""

"""A table with no hub tells its network's state: a wrong Wi-Fi password, no Wi-Fi, no address
are said with the fix that works on a card, not "set hub = ADDRESS"; a working network shows
its address and name, then the hub advice (issue 35, item 4)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from kiosk import state
from kiosk.app import Kiosk
from kiosk.draw import Painter, render
from kiosk.options import build_parser, read_settings
from kiosk.outbox import Outbox
from kiosk.round import Round
from kiosk.startup import run
from machine.network import NetworkState
from tests.doubles import FixedTime
from tests.kiosk.test_draw import SIZES, assert_on_screen_and_apart

WRONG = NetworkState("wifi_wrong_password", (), "dipclock-table-5", "Hall B", "wlan0")
UP = NetworkState("connected", ("10.0.0.23",), "dipclock-table-5", "Hall B", "wlan0")
painter = Painter()


def drawn_texts(screen: state.Screen, size: tuple[int, int]) -> list[str]:
    if not pygame.font.get_init():  # a kiosk run before this one closed its display
        pygame.font.init()
    surface = pygame.Surface(size)
    drawn = render(surface, screen, painter)
    assert_on_screen_and_apart(surface, drawn)
    assert not any(d.text.endswith("...") for d in drawn), "a text had to be shortened"
    return [d.text for d in drawn]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_wrong_password_is_told_with_its_fix_not_the_hub_advice(size: tuple[int, int]) -> None:
    screen = state.looking_for_hub(5, network=WRONG).screen
    assert screen.label == "Wi-Fi 'Hall B': the password was refused"
    assert screen.notes == (f"Fix: {WRONG.fix()}",)
    texts = " ".join(drawn_texts(screen, size))
    assert "Wi-Fi 'Hall B': the password was refused" in texts
    assert "wifi_password" in texts and "DIPCLOCK" in texts
    assert "set hub" not in texts and "hub =" not in texts and "Looking for the hub" not in texts


def test_connected_shows_the_address_and_name_then_the_hub_advice() -> None:
    screen = state.looking_for_hub(5, network=UP).screen
    assert screen.label == state.LOOKING
    assert screen.notes == (f"Network: 10.0.0.23, dipclock-table-5. {state.HUB_ADVICE}",)
    assert "hub card on this same network" in state.HUB_ADVICE
    texts = drawn_texts(screen, (800, 480))
    assert "10.0.0.23, dipclock-table-5" in " ".join(texts), texts
    # not read yet: the hub advice alone
    assert state.looking_for_hub(5).screen.notes == (state.HUB_ADVICE,)


@pytest.fixture
def settings_files(tmp_path: Path) -> Iterator[list[str]]:
    (tmp_path / "dipclock.txt").write_text("table = 5\n")
    (tmp_path / "kiosk.toml").write_text("")
    yield ["--headless", "--run-for", "0", "--boot-file", str(tmp_path / "dipclock.txt"),
           "--config", str(tmp_path / "kiosk.toml"), "--outbox", str(tmp_path / "o.sqlite"),
           "--status-file", str(tmp_path / "screen.json")]


def test_the_kiosk_looking_for_its_hub_says_the_password_was_refused(
        tmp_path: Path, settings_files: list[str]) -> None:
    """The kiosk itself, from its settings to its screen, its network read as refused."""
    args = build_parser().parse_args(settings_files)
    assert run(args, read_settings, network=lambda: WRONG) == 0
    screen = json.loads((tmp_path / "screen.json").read_text())
    assert (screen["heading"], screen["label"]) == (
        "Table 5", "Wi-Fi 'Hall B': the password was refused")
    assert screen["notes"] == [f"Fix: {WRONG.fix()}"]
    assert not any("set hub" in n for n in screen["notes"])


def test_the_kiosk_asking_a_typed_hub_for_its_code_says_the_password_was_refused(
        tmp_path: Path, settings_files: list[str]) -> None:
    """A typed address, no code yet: the network's words and fix, the hub named."""
    args = build_parser().parse_args([*settings_files, "--hub", "http://127.0.0.1:9"])
    assert run(args, read_settings, network=lambda: WRONG) == 0
    screen = json.loads((tmp_path / "screen.json").read_text())
    assert screen["label"] == "Wi-Fi 'Hall B': the password was refused"
    assert screen["notes"] == ["Hub 127.0.0.1:9", f"Fix: {WRONG.fix()}"]


def test_a_typed_hub_that_does_not_answer_tells_the_network_too() -> None:
    """A paired table whose hub is silent: "Waiting for the hub" becomes the network's
    words and fix; once the network works, the wait for the hub again."""
    frame = state.introduce(state.connecting("", True), 5, "Hub 10.0.0.1:8000")
    told = state.with_network(frame, WRONG).screen
    assert (told.label, told.notes) == (WRONG.words(), ("Hub 10.0.0.1:8000", f"Fix: {WRONG.fix()}"))
    assert state.with_network(frame, UP) is frame
    # the hub answered (the TD has not set up the round): nothing about the network
    waiting = state.connecting("", False)
    assert state.with_network(waiting, WRONG) is waiting
    # asking a typed address for a pairing code, the network down
    asking = state.pairing(5, None, "Hub 10.0.0.1:8000", None, "the hub does not answer")
    told = state.with_network(asking, WRONG).screen
    assert told.label == WRONG.words() and told.notes[-1] == f"Fix: {WRONG.fix()}"
    code = state.pairing(5, "K7Q 2XD", "Hub 10.0.0.1:8000", None)
    assert state.with_network(code, WRONG) is code


def test_the_kiosk_waiting_for_its_silent_hub_says_the_network_is_down(tmp_path: Path) -> None:
    class Silent:
        """A hub that has never answered: no round, lost."""

        def current(self) -> Round | None:
            return None

        def hub_lost(self) -> bool:
            return True

        def sent(self) -> None:
            pass

    source = Silent()
    readings: list[NetworkState | None] = [WRONG]
    kiosk = Kiosk(source, Outbox(tmp_path / "o.sqlite"), FixedTime(0.0), table=5,
                  hub_text="Hub 10.0.0.1:8000", network=lambda: readings[-1])
    screen = kiosk.frame(1000.0).screen
    assert screen.label == WRONG.words() and f"Fix: {WRONG.fix()}" in screen.notes
    readings.append(UP)
    assert kiosk.frame(1001.0).screen.label == state.WAITING_FOR_HUB

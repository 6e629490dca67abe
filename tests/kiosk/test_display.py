"""A screen that is off at boot (a TV switched on after the Pi, or slow to wake): the kiosk
waits for it, runs on meanwhile and draws once a connector says connected; no DRM device at
all, or a connected screen SDL cannot open, is still the failure it was."""

from __future__ import annotations

import json
import logging
import os
import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from hardware.events import ButtonEvent
from kiosk.app import run as run_loop
from kiosk.display import (
    FRAMEBUFFER_HINT,
    SCREEN_RECHECK,
    Display,
    Screens,
    console_hints,
    console_screens,
)
from kiosk.draw import LOOKS
from kiosk.options import build_parser, read_settings
from kiosk.problems import DisplayUnavailable
from kiosk.startup import PUMP, Clock, Watch, hold, run
from kiosk.state import problem

from .conftest import make_table
from .test_draw import dominant
from .test_startup import Steps

OFF = (("HDMI-A-1", "disconnected"), ("HDMI-A-2", "disconnected"))


def drm(root: Path, *connectors: tuple[str, str]) -> Path:
    """A /sys/class/drm of a Pi 4 (vc4: card1 and its two HDMI connectors) under ``root``."""
    (root / "card1").mkdir(parents=True, exist_ok=True)
    for name, status in connectors:
        (root / f"card1-{name}").mkdir(exist_ok=True)
        (root / f"card1-{name}" / "status").write_text(status + "\n")
    return root


def switch_on(root: Path, name: str = "HDMI-A-1") -> None:
    (root / f"card1-{name}" / "status").write_text("connected\n")


@pytest.fixture
def dummy_again() -> Iterator[None]:
    """The session's pygame display, back on the dummy driver after a test that closed it."""
    yield
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()


def waiting_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "no screen connected" in r.getMessage()]


def test_the_connectors_say_whether_a_screen_is_on(tmp_path: Path) -> None:
    assert Screens(drm(tmp_path / "a", *OFF)).look() == (
        "off", "HDMI-A-1: disconnected, HDMI-A-2: disconnected")
    assert Screens(drm(tmp_path / "b", ("HDMI-A-1", "disconnected"),
                       ("HDMI-A-2", "connected"))).look() == ("connected", "HDMI-A-2")
    assert Screens(drm(tmp_path / "c", ("Composite-1", "unknown"))).look()[0] == "unsure"
    assert Screens(drm(tmp_path / "d")).look()[0] == "none"  # a card with no connector
    assert Screens(tmp_path / "no-sysfs").look()[0] == "none"


def test_only_the_console_driver_waits_for_a_connector() -> None:
    assert console_screens({"SDL_VIDEODRIVER": "kmsdrm"}) == Screens()
    assert console_screens({}) == Screens()  # SDL's own choice on a console: kmsdrm
    assert console_screens({"DISPLAY": ":0"}) is None  # a window on a desktop
    assert console_screens({"SDL_VIDEODRIVER": "dummy"}) is None


# --- what presents the frames on the console ----------------------------------------------

def test_on_the_console_the_display_surface_is_presented_by_opengles2() -> None:
    """The card's black screen: on kmsdrm SDL presents pygame's display surface with its first
    render driver, "opengl", which draws no texture where only the GLES libraries are
    installed (on the card under virtio-gpu every flip was black, and a renderer's clear
    showed). The console names opengles2; a renderer already named is kept."""
    assert console_hints({"SDL_VIDEODRIVER": "kmsdrm"}) == {FRAMEBUFFER_HINT: "opengles2"}
    assert console_hints({"SDL_VIDEODRIVER": "KMSDRM", FRAMEBUFFER_HINT: ""}) == {
        FRAMEBUFFER_HINT: "opengles2"}
    assert console_hints({"SDL_VIDEODRIVER": "kmsdrm", FRAMEBUFFER_HINT: "opengl"}) == {}
    assert console_hints({"DISPLAY": ":0"}) == {}  # a window on a desktop: SDL's own choice
    assert console_hints({"SDL_VIDEODRIVER": "dummy"}) == {}


def test_the_console_names_its_renderer_before_sdl_opens_the_display(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL reads the hint when the display surface is first made: it must be in the
    environment when the display opens (and stays there for a screen that comes on later)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    monkeypatch.setenv(FRAMEBUFFER_HINT, "")  # put back as it was (unset) after the test
    monkeypatch.delenv(FRAMEBUFFER_HINT)
    seen: list[str | None] = []

    def init() -> None:  # SDL asked to open the console: what it would read, and no device
        seen.append(os.environ.get(FRAMEBUFFER_HINT))
        raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(pygame.display, "init", init)
    with pytest.raises(DisplayUnavailable, match="cannot open the display with kmsdrm"):
        Display(headless=False, screens=Screens(drm(tmp_path, ("HDMI-A-1", "connected"))))
    assert seen == ["opengles2"]


def test_a_screen_switched_on_late_gets_the_frame_within_a_look(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, dummy_again: None) -> None:
    caplog.set_level(logging.INFO)
    root = drm(tmp_path, *OFF)
    steps = Steps({})
    display = Display(headless=True, screens=Screens(root), mono=steps.mono)
    display.use((800, 480), False)
    assert display.waiting == "HDMI-A-1: disconnected, HDMI-A-2: disconnected"
    seen: list[tuple[float, int]] = []  # (time, frames drawn) at each wait

    def at_each_wait() -> None:
        seen.append((steps.t, display.drawn))

    on_at = 100.0 + 40 * PUMP  # the TV comes on after 40 waits (10 s)
    steps.at = {n: at_each_wait for n in range(1, 400)}
    steps.at[40] = lambda: (switch_on(root), at_each_wait())
    frame = problem("what", "fix")
    outcome = hold(display, lambda: frame, Watch([tmp_path / "x"]),
                   Clock(steps.mono, steps.wait, end=200.0), ready=lambda: display.drawn > 0)
    assert outcome == "ready"
    assert all(drawn == 0 for t, drawn in seen if t <= on_at)  # nothing drawn while off
    assert display.waiting is None and display.drawn == 1
    assert steps.t - on_at <= SCREEN_RECHECK + PUMP  # drawn at the first look after
    assert dominant(pygame.display.get_surface()) == LOOKS["problem"].background
    # the first look was SCREEN_RECHECK after the start, then one every SCREEN_RECHECK
    assert len(waiting_lines(caplog)) == 1, "the wait is logged once, not once per look"
    assert "a screen is connected (HDMI-A-1): drawing" in caplog.text


def test_presses_are_recorded_while_no_screen_is_on(tmp_path: Path, dummy_again: None) -> None:
    tb = make_table(tmp_path)
    root = drm(tmp_path / "drm", *OFF)
    clock = [1000.0]

    def mono() -> float:  # no real waiting: every reading is 0.4 s on, the queue never blocks
        inputs.put(object())
        clock[0] += 0.4
        return clock[0]

    inputs: queue.Queue[object] = queue.Queue()
    display = Display(headless=True, screens=Screens(root), mono=lambda: clock[0])
    display.use((800, 480), False)
    inputs.put(ButtonEvent("I", "press", 1000.2, "gpio"))
    run_loop(tb.kiosk, display, inputs, mono=mono, run_for=10.0)
    assert [p.power for p in tb.outbox.presses()] == ["I"]  # the outbox needs no screen
    assert display.drawn == 0 and display.waiting is not None
    switch_on(root)
    run_loop(tb.kiosk, display, inputs, mono=mono, run_for=SCREEN_RECHECK + 1)
    assert display.waiting is None and display.drawn >= 1
    assert dominant(pygame.display.get_surface()) == LOOKS["before_start"].background


def test_a_kiosk_whose_screen_is_off_at_boot_does_not_exit_and_draws_when_it_comes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
        dummy_again: None) -> None:
    """The whole start, in this process: settings, outbox, buttons and the live loop run
    with every connector off; the first frame is drawn once one says connected."""
    import kiosk.startup

    caplog.set_level(logging.INFO)
    root = drm(tmp_path / "drm", *OFF)
    opened: list[Display] = []

    class Kept(Display):
        def close(self) -> None:  # keep what was drawn to look at, then close
            self.picture = pygame.display.get_surface().copy() if self.drawn else None
            opened.append(self)
            super().close()

    monkeypatch.setattr(kiosk.startup, "Display", Kept)
    status = tmp_path / "screen.json"
    argv = ["--headless", "--event", "wdc2019", "--start", "2019-09-06T10:00",
            "--outbox", str(tmp_path / "o.sqlite"), "--boot-file", str(tmp_path / "none"),
            "--config", str(tmp_path / "kiosk.toml"), "--status-file", str(status)]
    (tmp_path / "kiosk.toml").write_text("")

    # the TV stays off: the clock runs (its screen in the status file) and nothing is drawn
    rc = run(build_parser().parse_args([*argv, "--run-for", "0.3"]), read_settings,
             screens=Screens(root))
    assert rc == 0  # not 78: no start limit spent on a screen that is off
    assert json.loads(status.read_text())["look"] == "game_over"
    assert opened[-1].drawn == 0 and opened[-1].waiting is not None
    assert len(waiting_lines(caplog)) == 1

    # the TV comes on while the kiosk reads its settings: drawn at the next look
    jump = [0.0]

    def switched_on_while_reading(args: object) -> object:
        switch_on(root)
        jump[0] = SCREEN_RECHECK  # the time of one look passes
        return read_settings(args)  # type: ignore[arg-type]

    clock = Clock(mono=lambda: time.monotonic() + jump[0])
    rc = run(build_parser().parse_args([*argv, "--run-for", str(SCREEN_RECHECK + 0.3)]),
             switched_on_while_reading, clock=clock, screens=Screens(root))  # type: ignore[arg-type]
    assert rc == 0
    last = opened[-1]
    assert last.waiting is None and last.drawn >= 1
    assert dominant(last.picture) == LOOKS["game_over"].background
    assert "a screen is connected (HDMI-A-1): drawing" in caplog.text


# --- what is still a failure --------------------------------------------------------------

@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch, dummy_again: None) -> None:
    """SDL on the console (kmsdrm), on a machine with no DRM device: it cannot open."""
    if Path("/dev/dri").exists():
        pytest.skip("this machine has a DRM device: kmsdrm may open")
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")


def test_no_connector_at_all_is_a_failure_as_before(tmp_path: Path, console: None) -> None:
    with pytest.raises(DisplayUnavailable, match="cannot open the display with kmsdrm"):
        Display(headless=False, screens=Screens(tmp_path / "no-sysfs"))


def test_a_connected_screen_sdl_cannot_open_is_a_failure(tmp_path: Path, console: None) -> None:
    root = drm(tmp_path, ("HDMI-A-1", "connected"))
    with pytest.raises(DisplayUnavailable, match="cannot open the display with kmsdrm"):
        Display(headless=False, screens=Screens(root))


def test_a_screen_that_cannot_say_is_waited_for_until_sdl_or_a_connector_tells(
        tmp_path: Path, console: None, caplog: pytest.LogCaptureFixture) -> None:
    root = drm(tmp_path, ("Composite-1", "unknown"), ("HDMI-A-1", "disconnected"))
    now = [0.0]
    display = Display(headless=False, screens=Screens(root), mono=lambda: now[0])
    assert display.waiting is not None and "Composite-1: unknown" in display.waiting
    assert len(waiting_lines(caplog)) == 1
    now[0] += SCREEN_RECHECK
    assert display.look() is False  # SDL still finds nothing: wait on
    assert os.environ["SDL_VIDEODRIVER"] == "kmsdrm"  # the next look tries the console again
    switch_on(root)
    now[0] += SCREEN_RECHECK
    with pytest.raises(DisplayUnavailable, match="cannot open the display with kmsdrm"):
        display.look()  # a screen says connected and still SDL cannot: no waiting then


def test_on_the_console_a_screen_that_is_off_is_no_exit_78(
        tmp_path: Path, console: None, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: the TV off at boot made kmsdrm fail, the kiosk exit 78 five times in 20 s
    and the table stay dark until a reboot. Now it runs, waiting; no DRM device at all is
    still status 78 with its one line."""
    (tmp_path / "kiosk.toml").write_text("")
    argv = ["--event", "wdc2019", "--start", "2019-09-06T10:00", "--run-for", "0.3",
            "--outbox", str(tmp_path / "o.sqlite"), "--boot-file", str(tmp_path / "none"),
            "--config", str(tmp_path / "kiosk.toml")]
    off = Screens(drm(tmp_path / "drm", *OFF))
    assert run(build_parser().parse_args(argv), read_settings, screens=off) == 0
    assert "cannot open the display" not in capsys.readouterr().err
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    none = Screens(tmp_path / "no-sysfs")
    assert run(build_parser().parse_args(argv), read_settings, screens=none) == 78
    err = capsys.readouterr().err
    assert err.startswith("dipclock kiosk: cannot open the display with kmsdrm: ")


def test_a_problem_shown_when_the_screen_comes_on_keeps_the_settings_rotation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dummy_again: None) -> None:
    """The settings were read (rotate = 90) and the buttons failed while the TV was off: the
    problem is drawn turned, as the settings ask, once the TV comes on."""
    import kiosk.startup

    root = drm(tmp_path / "drm", *OFF)
    opened: list[Display] = []

    class Kept(Display):
        def close(self) -> None:
            self.picture = pygame.display.get_surface().copy() if self.drawn else None
            opened.append(self)
            super().close()

    monkeypatch.setattr(kiosk.startup, "Display", Kept)
    (tmp_path / "kiosk.toml").write_text("")
    (tmp_path / "dipclock.txt").write_text("rotate = 90\n")
    jump = [0.0]

    def switched_on_while_reading(args: object) -> object:
        loaded = read_settings(args)  # type: ignore[arg-type]
        switch_on(root)
        jump[0] = SCREEN_RECHECK
        return loaded

    argv = ["--headless", "--event", "wdc2019", "--start", "2019-09-06T10:00",
            "--serial", "bogus://box", "--size", "800x480", "--run-for",
            str(SCREEN_RECHECK + 0.3), "--outbox", str(tmp_path / "o.sqlite"),
            "--boot-file", str(tmp_path / "dipclock.txt"), "--config", str(tmp_path / "kiosk.toml")]
    rc = run(build_parser().parse_args(argv), switched_on_while_reading,
             clock=Clock(mono=lambda: time.monotonic() + jump[0]), screens=Screens(root))
    assert rc == 2  # --run-for ended on a problem
    shown = opened[-1]
    assert shown.drawn >= 1 and shown.rotate == 90
    assert shown.picture.get_size() == (800, 480)
    assert dominant(shown.picture) == LOOKS["problem"].background

"""Presses from all three button sources reach the outbox and the screen."""

from __future__ import annotations

import queue
import time
from datetime import datetime
from pathlib import Path

import pygame
from gpiozero.pins.mock import MockFactory

from hardware.gpio import DEFAULT_PINS, GpioButtons
from hardware.keyboard import KeyboardButtons
from hardware.serialbox import SerialButtonBox
from kiosk.app import run
from kiosk.display import Display
from tests.doubles import FixedTime

from .conftest import Table, make_table

PINS = DEFAULT_PINS


def t(hms: str) -> datetime:
    return datetime.fromisoformat(f"2019-09-06T{hms}")


def drain(table: Table, inputs: queue.Queue, wait: float = 0.0) -> int:  # type: ignore[type-arg]
    n = 0
    try:
        while True:
            ev = inputs.get(timeout=wait) if wait and n == 0 else inputs.get_nowait()
            table.kiosk.handle(ev)
            n += 1
    except queue.Empty:
        return n


def chip(table: Table, letter: str):  # noqa: ANN201
    return next(c for c in table.screen().chips if c.letter == letter)


def test_gpio_press_is_stamped_when_the_button_went_down(table: Table) -> None:
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    factory = MockFactory()
    buttons = GpioButtons(PINS, inputs, pin_factory=factory, clock=lambda: table.mono)
    try:
        table.at(t("10:18:09.500"))
        factory.pin(26).drive_low()
        table.mono += 0.3
        factory.pin(26).drive_high()
        factory.pin(5).drive_low()  # Austria holds 3.5 s: out of the game, not a press
        table.mono += 3.5
        factory.pin(5).drive_high()
        assert drain(table, inputs, wait=1.0) == 2
        rows = {r.power: r for r in table.outbox.presses()}
        assert rows["I"].kind == "press" and rows["I"].at == t("10:18:09.500")
        assert rows["A"].kind == "hold"
        assert chip(table, "I").note == "IN +10 s"
        assert chip(table, "A").state == "out"
    finally:
        buttons.close()


def test_serial_box_on_a_loop_port(table: Table) -> None:
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    box = SerialButtonBox("loop://", inputs, clock=lambda: table.mono)
    try:
        table.at(t("10:10:00"))
        box.port.write(b"HELLO dipclock-box 1\nP F 250\nH T\n")  # type: ignore[union-attr]
        deadline = time.monotonic() + 3
        got = 0
        while got < 2 and time.monotonic() < deadline:
            got += drain(table, inputs, wait=0.2)
        assert got == 2
        assert chip(table, "F").state == "in"
        assert chip(table, "T").state == "out"
        rows = table.outbox.presses()
        assert [(r.power, r.kind, r.source) for r in rows] == [
            ("F", "press", "serial"), ("T", "hold", "serial")]
        assert rows[0].at == t("10:09:59.750")  # 250 ms before the line arrived
    finally:
        box.close()


def test_keyboard_buttons_press_and_hold(table: Table) -> None:
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    keys = KeyboardButtons(inputs, clock=lambda: table.mono)
    table.at(t("10:12:00"))
    keys.key_down("r", table.mono)
    keys.key_up("r", table.mono + 0.1)
    keys.key_down("g", table.mono)
    table.mono += 3.01
    keys.poll(table.mono)  # the hold shows while the key is still down
    assert drain(table, inputs) == 2
    assert chip(table, "R").state == "in"
    assert chip(table, "G").state == "out"


def screen() -> Display:
    """An 800x480 window on SDL's dummy driver."""
    display = Display(headless=True)
    display.use((800, 480), False)
    return display


def post_key(kind: int, letter: str) -> None:
    """A key event as SDL would queue it for the window."""
    pygame.event.post(pygame.event.Event(kind, key=pygame.key.key_code(letter), mod=0,
                                         unicode=letter, scancode=0))


def test_the_live_loop_takes_pygame_key_events(tmp_path: Path) -> None:
    tb = make_table(tmp_path)
    tb.kiosk.timebase = FixedTime(tb.kiosk.timebase.offset + 600)  # type: ignore[attr-defined]
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]  # mono 1000: the round starts
    keys = KeyboardButtons(inputs)
    display = screen()
    pygame.event.clear()
    post_key(pygame.KEYDOWN, "e")
    post_key(pygame.KEYUP, "e")
    clock = [1000.3]

    def mono() -> float:  # 10 ms a reading, and no real waiting: the clock runs, not the machine
        inputs.put(object())
        clock[0] += 0.01
        return clock[0]

    assert run(tb.kiosk, display, inputs, mono=mono, run_for=0.2, keyboard=keys) == 0
    rows = tb.outbox.presses()
    assert [(r.power, r.kind, r.source) for r in rows] == [("E", "press", "keyboard")]
    assert display.drawn == 2  # the first frame, then England in; no second boundary in 0.2 s
    assert next(c for c in tb.kiosk.frame(clock[0]).screen.chips if c.letter == "E").state == "in"


def test_a_key_held_when_the_window_loses_focus_is_not_a_hold(tmp_path: Path) -> None:
    tb = make_table(tmp_path)
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    keys = KeyboardButtons(inputs)
    display = screen()
    pygame.event.clear()
    post_key(pygame.KEYDOWN, "i")
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))  # its key up goes elsewhere
    run(tb.kiosk, display, inputs, run_for=0.2, keyboard=keys)
    keys.poll(time.monotonic() + 10)  # long past the 3 s a hold takes
    assert inputs.empty() and tb.outbox.presses() == []


def test_the_loop_redraws_when_the_second_changes_and_only_then(tmp_path: Path) -> None:
    tb = make_table(tmp_path)  # at mono 1000 the round starts in exactly 600 s
    inputs: queue.Queue = queue.Queue()  # type: ignore[type-arg]
    display = screen()
    ticks = iter([1000.0, 1000.5, 1001.0, 1001.5, 1002.0, 1002.5, 1003.0])

    def mono() -> float:
        inputs.put(object())  # ends the loop's wait at once: the clock, not the machine, runs
        return next(ticks)

    shown: list[tuple[float, str]] = []
    run(tb.kiosk, display, inputs, mono=mono, run_for=3.0,
        on_screen=lambda fr, now: shown.append((now, fr.screen.big)))
    # the first frame, then one at each new second; none at 1001.5 or 1002.5
    assert shown == [(1000.5, "10:00"), (1001.0, "9:59"), (1002.0, "9:58")]
    assert display.drawn == 3

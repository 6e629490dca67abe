"""The button box check against real ptys (``os.openpty()``: real tty devices) and pyserial."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware import boxfinder
from machine import box


class PtyBox:
    """A box on the far end of a real pty: it sends ``line`` over and over until stopped,
    as the firmware sends its heartbeat (a line written before the port is opened would be
    flushed by the open, so it keeps sending)."""

    def __init__(self, line: bytes) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self._line, self._stop = line, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            try:
                os.write(self.master, self._line)
            except OSError:
                return

    def send(self, line: bytes) -> None:
        """One line from the box now (a press: ``P A 120``)."""
        os.write(self.master, line)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty_box() -> Iterator:
    made: list[PtyBox] = []

    def make(line: bytes) -> PtyBox:
        made.append(PtyBox(line))
        return made[-1]

    yield make
    for b in made:
        b.close()


def test_no_box_configured_is_fine():
    check, url = box.check_box(None)
    assert check.verdict == "ok" and url is None


@pytest.mark.parametrize("line", [b"K\n", b"HELLO dipclock-box 1\r\n"])
def test_a_box_that_sends_its_heartbeat_or_hello_answers(pty_box, line):
    b = pty_box(line)
    check, url = box.check_box(b.path, wait=30)  # returns at the first good line
    assert check.verdict == "ok" and check.detail == f"{b.path} answers" and url == b.path


def test_a_device_speaking_something_else_fails_with_the_firmware_as_fix(pty_box):
    b = pty_box(b"\xf8\x80\x00garbage at the wrong baud rate\n")
    check, url = box.check_box(b.path, wait=0.5)
    assert check.verdict == "fail" and url is None
    assert "says nothing of the box's protocol in 0.5 s" in check.detail
    assert "firmware" in check.fix


def test_a_box_that_is_not_plugged_in_fails_naming_the_port(tmp_path: Path):
    gone = str(tmp_path / "ttyACM0")
    check, _ = box.check_box(gone, wait=0.5)
    assert check.verdict == "fail"
    assert check.detail == f"{gone} does not exist: the box is unplugged or elsewhere"
    assert "/dev/serial/by-id" in check.fix


def test_a_port_that_is_not_a_serial_device_fails_with_pyserials_reason(tmp_path: Path):
    not_a_tty = tmp_path / "ttyACM0"
    not_a_tty.write_text("")
    check, _ = box.check_box(str(not_a_tty), wait=0.5)
    assert check.verdict == "fail" and check.detail.startswith(f"cannot open {not_a_tty}: ")


def test_auto_finds_the_port_that_speaks_the_boxs_protocol(pty_box):
    modem = pty_box(b"+CREG: 0,1\r\n")  # another USB serial device: never says hello
    ours = pty_box(b"K\n")
    # the search ends when the box speaks, so a long limit costs nothing on a quiet machine
    check, url = box.check_box("auto", wait=60,
                               find=lambda wait: boxfinder.find_box(wait, [modem.path, ours.path]))
    assert check.verdict == "ok" and check.detail == f"found at {ours.path} (it answers)"
    assert url == ours.path


def test_auto_with_no_box_anywhere_fails_with_the_cable_as_fix(pty_box):
    modem = pty_box(b"+CREG: 0,1\r\n")
    check, url = box.check_box("auto", wait=0.3,
                               find=lambda wait: boxfinder.find_box(wait, [modem.path]))
    assert url is None
    assert check.verdict == "fail" and "no box answers" in check.detail
    assert "data USB cable" in check.fix


def test_each_box_button_pressed_when_asked_is_seen(pty_box):
    b = pty_box(b"K\n")
    said: list[str] = []

    def person() -> None:  # reads the prompt, presses all seven (Italy twice, then holds)
        for power in "AEFGII":
            b.send(f"P {power} 180\n".encode())
        b.send(b"H R\nP T 90\n")

    check = box.watch_presses(b.path, 60, said.append, ready=person)  # ends at the seventh
    assert check.verdict == "ok" and said == list("AEFGIRT")


def test_a_box_button_never_pressed_is_named(pty_box):
    b = pty_box(b"K\n")
    check = box.watch_presses(b.path, 0.5, ready=lambda: b.send(b"P A 100\nP E 100\n"))
    assert check.verdict == "fail"
    assert check.detail == "no press of France, Germany, Italy, Russia, Turkey in 0.5 s"

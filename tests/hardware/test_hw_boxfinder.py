"""Finding the button box by what it says, on real tty devices (pseudo-terminals).

Each "box" is the master side of a pty from ``os.openpty()``: its slave is a real tty the
kiosk opens with pyserial like a USB port, and a thread writes what a box (or another serial
device) writes there. Unplugging is closing the master: the kiosk's reads then fail as they
do when a USB cable is pulled.
"""

from __future__ import annotations

import os
import queue
import threading
import tty
from collections.abc import Iterator

import pytest

from hardware.boxfinder import find_box, probe, serial_ports
from hardware.events import ButtonEvent
from hardware.serialbox import SerialButtonBox

HELLO = b"HELLO dipclock-box 1\n"
HEARTBEAT = b"K\n"
GPS = b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"


class Device:
    """A serial device on a pty: says ``first`` once, then ``repeat`` every 0.05 s."""

    def __init__(self, first: bytes = b"", repeat: bytes = b"") -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # as a USB CDC port: no echo, no line editing
        os.set_blocking(self.master, False)  # a full buffer drops bytes, as a box would
        self.path = os.ttyname(self.slave)
        self.first, self.repeat = first, repeat
        self.outbox: queue.Queue[bytes] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._talk, daemon=True)
        self._thread.start()

    def _talk(self) -> None:
        if self.first:
            self._write(self.first)
        while not self._stop.wait(0.05):
            while not self.outbox.empty():
                self._write(self.outbox.get())
            if self.repeat:
                self._write(self.repeat)

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:  # unplugged, or the buffer is full while nobody reads: a real box too
            pass

    def send(self, line: bytes) -> None:
        self.outbox.put(line)

    def unplug(self) -> None:
        self._stop.set()
        self._thread.join()
        for fd in (self.master, self.slave):
            os.close(fd)


@pytest.fixture
def devices() -> Iterator[list[Device]]:
    made: list[Device] = []
    yield made
    for d in made:
        if not d._stop.is_set():
            d.unplug()


def device(devices: list[Device], first: bytes = b"", repeat: bytes = b"") -> Device:
    d = Device(first, repeat)
    devices.append(d)
    return d


def test_a_box_answers_with_its_heartbeat(devices: list[Device]) -> None:
    assert probe(device(devices, HELLO, HEARTBEAT).path, wait=10)


def test_silence_and_other_devices_are_not_a_box(devices: list[Device]) -> None:
    assert not probe(device(devices).path, wait=0.5)
    assert not probe(device(devices, b"", GPS).path, wait=0.5)
    assert not probe(device(devices, b"", b"HELLO other-box 1\n").path, wait=0.5)


def test_a_port_that_is_not_there_raises(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(OSError):  # serial.SerialException is an OSError
        probe(str(tmp_path / "ttyACM9"), wait=0.1)


def test_find_box_takes_the_port_that_speaks_the_protocol(devices: list[Device], tmp_path) -> None:  # noqa: ANN001
    gps, silent, box = device(devices, b"", GPS), device(devices), device(devices, HELLO, HEARTBEAT)
    missing = str(tmp_path / "ttyUSB7")
    assert find_box(60, [missing, gps.path, silent.path, box.path]) == box.path  # ends at the hello
    assert find_box(0.5, [missing, gps.path, silent.path]) is None
    assert find_box(0.5, []) is None


def test_by_id_links_and_their_targets_are_one_port(tmp_path) -> None:  # noqa: ANN001
    tty_dir, by_id = tmp_path / "dev", tmp_path / "dev" / "serial" / "by-id"
    by_id.mkdir(parents=True)
    (tty_dir / "ttyACM0").touch()
    (tty_dir / "ttyUSB0").touch()
    (by_id / "usb-Arduino_Uno_123-if00").symlink_to(tty_dir / "ttyACM0")
    patterns = (f"{by_id}/*", f"{tty_dir}/ttyACM*", f"{tty_dir}/ttyUSB*")
    assert serial_ports(patterns) == [str(by_id / "usb-Arduino_Uno_123-if00"),
                                      str(tty_dir / "ttyUSB0")]


def test_auto_finds_the_box_again_after_an_unplug(devices: list[Device], wait_for) -> None:  # noqa: ANN001
    ports: list[str] = []
    events: queue.Queue[ButtonEvent] = queue.Queue()
    reader = SerialButtonBox("auto", events, locate=lambda: find_box(0.5, list(ports)),
                             retry_seconds=0.05, max_retry_seconds=0.2)
    try:
        assert not reader.connected  # no box yet: the screen says "Button box unplugged"
        first = device(devices, HELLO, HEARTBEAT)
        ports.append(first.path)
        wait_for(lambda: reader.connected and reader.url == first.path, 20, "the box")
        first.send(b"P A 240\n")
        assert events.get(timeout=10).power == "A"

        first.unplug()
        ports.clear()
        wait_for(lambda: not reader.connected, 20, "the unplug to be seen")
        second = device(devices, HELLO, HEARTBEAT)  # plugged into another socket: a new name
        ports.append(second.path)
        wait_for(lambda: reader.connected and reader.url == second.path, 20, "the box again")
        second.send(b"H T\n")
        event = events.get(timeout=10)
        assert (event.power, event.kind, event.source) == ("T", "hold", "serial")
    finally:
        reader.close()

"""Find the dipclock button box among the USB serial ports by what it says.

A box's port name depends on the order things were plugged in (``/dev/ttyACM0`` today,
``ttyACM1`` tomorrow) and its ``/dev/serial/by-id`` name on the board's USB chip and serial
number, different on every clone. So ``buttons.serial = "auto"`` takes the port that speaks
the box's protocol: its hello line ``HELLO dipclock-box N`` (sent at start-up, and an
Arduino restarts when the port is opened) or its heartbeat ``K`` (once a second). Other
serial devices (a GPS, a modem) never say either, and nothing is ever written to them.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor
from concurrent.futures import wait as first_of

import serial

from .serialbox import Heartbeat, Hello, LineAssembler, parse_line

log = logging.getLogger(__name__)

BAUD = 115200
#: Seconds to listen on a port: the heartbeat comes once a second, an Uno restarts in ~1.6 s.
WAIT = 2.5
#: Where USB serial adapters appear, stable names first.
PATTERNS = ("/dev/serial/by-id/*", "/dev/ttyACM*", "/dev/ttyUSB*")


def probe(url: str, wait: float = WAIT, clock: Callable[[], float] = time.monotonic,
          stop: threading.Event | None = None) -> bool:
    """True when a dipclock box answers at ``url`` (a hello or a heartbeat) within ``wait``
    seconds; False for silence, another protocol, or ``stop`` set (the box was found
    elsewhere). A port that cannot be opened raises (serial.SerialException, OSError,
    ValueError for a malformed URL)."""
    with serial.serial_for_url(url, baudrate=BAUD, timeout=0.1) as port:
        lines = LineAssembler()
        deadline = clock() + wait
        while clock() < deadline and not (stop and stop.is_set()):
            for line in lines.feed(port.read(port.in_waiting or 1)):
                if isinstance(line, bytes) and isinstance(parse_line(line), Hello | Heartbeat):
                    return True
    return False


def serial_ports(patterns: Sequence[str] = PATTERNS) -> list[str]:
    """The USB serial ports, each once: a by-id link and the ttyACM it points to are one."""
    seen: set[str] = set()
    out = []
    for pattern in patterns:
        for path in sorted(glob.glob(pattern)):
            real = os.path.realpath(path)
            if real not in seen:
                seen.add(real)
                out.append(path)
    return out


def _answers(url: str, wait: float, stop: threading.Event) -> bool:
    try:
        return probe(url, wait, stop=stop)
    except (serial.SerialException, OSError, ValueError) as exc:  # busy, gone, not a tty
        log.debug("button box search: %s: %s", url, exc)
        return False


def find_box(wait: float = WAIT, candidates: list[str] | None = None) -> str | None:
    """The first port to answer as a box within ``wait`` seconds (among ``candidates``,
    default the USB serial ports), or None. Ports are listened to side by side and the
    search ends at the first answer, so a box is found as soon as it speaks however many
    silent devices share the hub; only a search that finds none takes the whole ``wait``.
    Of two boxes answering in the same instant, the earlier in ``candidates`` wins."""
    ports = serial_ports() if candidates is None else list(candidates)
    if not ports:
        return None
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=min(8, len(ports)),
                            thread_name_prefix="boxfinder") as pool:
        pending = {pool.submit(_answers, url, wait, stop): url for url in ports}
        while pending:
            done, _ = first_of(pending, return_when=FIRST_COMPLETED)
            found = [pending.pop(f) for f in done if f.result()]
            for f in done:
                pending.pop(f, None)
            if found:
                stop.set()  # the others stop listening: the pool's exit waits for them
                return min(found, key=ports.index)
    return None


__all__ = ["PATTERNS", "WAIT", "find_box", "probe", "serial_ports"]

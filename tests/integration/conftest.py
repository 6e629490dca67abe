"""A real hall: ``dipclock hub`` and three ``dipclock kiosk --hub`` processes on loopback.

The hub serves HTTPS with the certificate it made, as in a hall; each kiosk shows a pairing
code at its start, and the test approves it as the TD does (``approve``). Each kiosk runs
headless with ``--status-file`` (what its screen shows, as JSON) and a ``--serial socket://``
button box served by the test, so a test can press a button and read the screen. Every
wait is a bounded poll; every child process is killed at the end.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from dipclock.sync import to_moment
from tests.server.live import ROOT, Clocks, LiveHub
from tests.waits import wait_for

TABLES = (1, 2, 3)
T = TypeVar("T")


@dataclass
class KioskProc:
    table: int
    outbox: Path
    status: Path
    stdout: Path
    proc: subprocess.Popen[bytes]
    box: socket.socket | None = None  # the kiosk's end of the button box, once connected
    server: socket.socket | None = field(default=None, repr=False)

    def screen(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.status.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def open_box(self) -> KioskProc:
        """Wait (the server socket's 120 s at most) for the kiosk to open its button box,
        then say hello as a box does."""
        assert self.server is not None
        try:
            self.box, _ = self.server.accept()
        except TimeoutError:
            raise AssertionError(f"table {self.table}'s kiosk did not open its button box "
                                 f"within {self.server.gettimeout()} s") from None
        self.box.sendall(b"HELLO dipclock-box 1\n")
        return self

    def press(self, power: str) -> None:
        """Press a power's button on the box (down 0 ms before the line)."""
        assert self.box is not None
        self.box.sendall(f"P {power} 0\n".encode())

    def printed(self) -> str:
        return self.stdout.read_text()

    def log(self) -> str:
        return self.stdout.with_suffix(".err").read_text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        for s in (self.box, self.server):
            if s is not None:
                s.close()


@dataclass
class Hall:
    hub: LiveHub
    #: the test's own clocks, one per table (the kiosks hold theirs)
    clocks: Clocks
    kiosks: dict[int, KioskProc]
    start: datetime

    def td(self) -> httpx.Client:
        return self.hub.td()

    def token(self, table: int) -> str:
        return self.clocks[table]["Authorization"].removeprefix("Bearer ")

    def snapshot(self, table: int) -> dict[str, Any]:
        r = self.hub.get(f"/api/tables/{table}/snapshot", headers=self.clocks[table],
                         timeout=5)
        r.raise_for_status()
        return r.json()

    def screens(self) -> dict[int, dict[str, Any] | None]:
        return {n: k.screen() for n, k in self.kiosks.items()}


def approve(td: httpx.Client, table: int, count: int = 1) -> list[str]:
    """As the TD on the dashboard: pair the ``count`` clocks asking for ``table`` (each shows
    its code); their codes."""
    def asking() -> list[dict[str, Any]]:
        return [w for w in td.get("/api/td/clocks").json()["waiting"] if w["wished"] == table]

    def enough() -> list[dict[str, Any]] | None:
        found = asking()
        return found if len(found) >= count else None

    found = wait_for(f"table {table}'s clock asks to be paired", enough)
    for w in found:
        assert not w["other_certificate"], w  # nothing between the clock and the hub
        td.post("/api/td/clocks", json={"code": w["code"], "table": table}).raise_for_status()
    return [w["code"] for w in found]


def start_kiosk(hub: LiveHub, table: int, tmp: Path, td: httpx.Client | None = None
                ) -> KioskProc:
    """A kiosk for ``table``; paired by ``td`` once it asks (None: the caller pairs it)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(120)  # three kiosks starting on a busy machine
    port = server.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONUNBUFFERED="1")
    out = tmp / f"k{table}.out"
    with out.open("wb") as stdout, out.with_suffix(".err").open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dipclock", "kiosk", "--hub", hub.url, "--table", str(table),
             "--headless", "--no-keyboard",
             "--outbox", str(tmp / f"k{table}.sqlite"),
             "--status-file", str(tmp / f"k{table}.json"), "--serial", f"socket://127.0.0.1:{port}",
             "--run-for", "300"],  # a safety net: it ends by itself even if nobody kills it
            cwd=ROOT, env=env, stdout=stdout, stderr=stderr,
        )
    kiosk = KioskProc(table, tmp / f"k{table}.sqlite", tmp / f"k{table}.json", out, proc,
                      server=server)
    if td is not None:
        approve(td, table)
    return kiosk


def set_up_round(
    td: httpx.Client,
    start: datetime,
    event: dict[str, str] | None = None,
    tables: tuple[int, ...] = TABLES,
) -> None:
    for method, path, body in (
        ("PUT", "/api/td/event", event or {"builtin": "wdc2006"}),
        ("PUT", "/api/td/round", {"number": 1, "start": start.isoformat(timespec="seconds")}),
        ("PUT", "/api/td/tables", {"tables": list(tables)}),
    ):
        td.request(method, path, json=body).raise_for_status()


@contextmanager
def running_hall(
    tmp: Path,
    minutes_in: float = 1,
    event: dict[str, str] | None = None,
    tables: tuple[int, ...] = TABLES,
    stage: str = "negotiating",
) -> Iterator[Hall]:
    """A hub with ``event`` (wdc2006) whose round began ``minutes_in`` ago, and a kiosk with
    a button box at each of ``tables``, each shown at ``stage`` and connected; all killed
    at the end."""
    hub = LiveHub(tmp / "hub", https=True)
    kiosks: dict[int, KioskProc] = {}
    try:
        hub.start()
        td = hub.td()
        now = to_moment(hub.get("/api/time").json()["t1"])
        start = (now - timedelta(minutes=minutes_in)).replace(microsecond=0)
        set_up_round(td, start, event, tables)
        for n in tables:
            kiosks[n] = start_kiosk(hub, n, tmp)
        for k in kiosks.values():
            k.open_box()
        for n in tables:
            approve(td, n)  # the TD walks the hall, pairing each table's clock
        h = Hall(hub, Clocks(td), kiosks, start)
        for k in kiosks.values():
            wait_for(f"table {k.table} shows the round at {stage}, connected",
                     lambda k=k: (s := k.screen()) and s["stage"] == stage
                     and not s["hub_lost"], timeout=60)
        yield h
    finally:
        for k in kiosks.values():
            k.kill()
        hub.stop()
        hub.kill()


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with running_hall(tmp_path_factory.mktemp("hall")) as h:  # S1901, 16 min to go
        yield h

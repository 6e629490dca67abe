"""The button box unplugged reaches the TD's grid at once, not at the next periodic report.

A kiosk session (``HubClient``, ``About``, ``Kiosk``) against a real hub (uvicorn in this
process, its clock set by the test and shared with the kiosk), with a real pyserial box on
``loop://``, unplugged as a USB cable is pulled: the port goes, and opening it again fails.
The periodic report is made an hour away, so only the box's change can bring the news.
"""

from __future__ import annotations

import queue
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import serial

import hardware.serialbox as sb
import kiosk.clocksync
from dipclock.sync import to_seconds
from hardware.serialbox import SerialButtonBox
from kiosk.about import BOX_UNPLUGGED, About
from kiosk.app import Kiosk
from kiosk.hubclient import FAST_SAMPLES, HubClient
from kiosk.outbox import Outbox
from tests.doubles import FakeClock
from tests.integration.conftest import set_up_round, wait_for
from tests.server.live import ThreadHub

DAY = "2024-05-04"
#: a bound on a hang (a sync thread woken, one exchange and one report), not a margin: with
#: the periodic report an hour away, nothing else can bring the news in this time
WAIT = 30.0


def at(hms: str) -> float:
    return to_seconds(datetime.fromisoformat(f"{DAY}T{hms}"))


def test_the_grid_hears_of_the_box_unplugged_and_back_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kiosk.clocksync, "SLOW_SYNC", 3600.0)
    cable = {"in": True}
    real_open = serial.serial_for_url

    def usb(url: str, **kwargs: Any) -> serial.SerialBase:
        if not cable["in"]:
            raise serial.SerialException("[Errno 2] could not open port /dev/ttyACM0")
        return real_open(url, **kwargs)

    monkeypatch.setattr(sb.serial, "serial_for_url", usb)
    clock = FakeClock(at("09:10:00"))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as live:
        td = live.td()
        set_up_round(td, datetime.fromisoformat(f"{DAY}T09:00:00"))  # wdc2006, tables 1-3

        def tile() -> dict[str, Any]:
            tables = td.get("/api/td/state").json()["tables"]
            return next(t for t in tables if t["table"] == 2)["kiosk"] or {}

        outbox = Outbox(tmp_path / "o.sqlite")
        box = SerialButtonBox("loop://", queue.Queue(), clock=clock.mono,
                              retry_seconds=0.01, max_retry_seconds=0.05)
        about = About("card-2", 2, ["serial"], box=box, mono=clock.mono,
                      started=clock.mono(), power=lambda: None, synchronised=lambda: True)
        client = HubClient(live.url, 2, live.token(td, 2), outbox, mono=clock.mono,
                           about=about, verify=live.verify)
        about.hub = client
        box.on_change = client.box_changed  # as kiosk.startup wires them
        table = Kiosk(client, outbox, client, log=lambda line: None, alerts=about.alerts)
        try:
            assert client.fetch_snapshot()
            for _ in range(FAST_SAMPLES):  # past the fast syncs: the next one is an hour away
                assert client.sync_once()
            assert tile()["box"] == "connected"
            clock.t = at("09:10:30")
            client.start()
            wait_for("the sync loop's first report, then its hour's wait",
                     lambda: tile()["reported_ago"] == 0)

            clock.t = at("09:11:00")  # the cable is pulled
            cable["in"] = False
            port = box.port
            assert port is not None
            port.close()  # what the reader sees when the USB device goes
            wait_for("the table's own screen says so", lambda: BOX_UNPLUGGED in
                     table.frame(clock.mono()).screen.alerts, timeout=WAIT)
            gone = wait_for("the grid says disconnected",
                            lambda: (k := tile())["box"] == "disconnected" and k, timeout=WAIT)
            assert gone["reported_ago"] == 0  # reported at 09:11:00, not 09:10:30 + 1 h

            clock.t = at("09:12:00")  # plugged back
            cable["in"] = True
            back = wait_for("the grid says connected again",
                            lambda: (k := tile())["box"] == "connected" and k, timeout=WAIT)
            assert back["reported_ago"] == 0
            assert BOX_UNPLUGGED not in table.frame(clock.mono()).screen.alerts
        finally:
            client.close()
            box.close()
            outbox.close()
            td.close()

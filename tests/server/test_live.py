"""The real thing: uvicorn in a subprocess over HTTPS, kiosks on WebSockets, the hub SIGKILLed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import ExitStack
from datetime import datetime, timedelta

import httpx
import pytest
from websockets.sync.client import connect

from dipclock.sync import to_moment
from machine.fingerprint import of_pem
from tests.server.live import ROOT, Clocks, LiveHub


@pytest.fixture
def live(tmp_path):
    h = LiveHub(tmp_path / "hub", https=True).start()
    yield h
    h.stop()


def set_up(td: httpx.Client, start: datetime, tables: int = 6) -> None:
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "wdc2006"}),
        ("PUT", "/api/td/round", {"number": 1, "start": start.isoformat(timespec="seconds")}),
        ("PUT", "/api/td/tables", {"count": tables}),
    ):
        td.request(method, path, json=body).raise_for_status()


def test_kiosks_follow_a_pause_and_a_killed_hub_comes_back_intact(live: LiveHub):
    td = live.td()
    printed = live.printed()
    fingerprint = of_pem(live.certificate)
    assert f"Certificate: SHA-256 {fingerprint}" in printed
    assert f"Dashboard:  {live.url}/dashboard" in printed and live.url.startswith("https://")
    https = {"verify": live.verify}  # pinned, as a clock pins it at pairing
    now = to_moment(httpx.get(live.url + "/api/time", **https).json()["t1"])
    start = (now - timedelta(minutes=17, seconds=30)).replace(microsecond=0)  # S1901 just ended
    set_up(td, start)
    assert td.get("/api/td/state").json()["clocks"]["fingerprint"] == fingerprint
    clocks = Clocks(td)
    auth = clocks[3]
    late = {"id": "0f4ad3b8-live-press", "power": "E", "kind": "press",
            "at": (start + timedelta(minutes=17, seconds=9)).isoformat()}
    r = httpx.post(f"{live.url}/api/tables/3/presses", json={"presses": [late]}, headers=auth,
                   **https)
    assert r.json() == {"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}

    ws_url = live.url.replace("http", "ws")
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{ws_url}/api/tables/{n}/ws", open_timeout=30,
                                        additional_headers=clocks[n], ssl=live.verify))
            for n in (1, 3, 5)
        ]
        firsts = [json.loads(ws.recv(timeout=30)) for ws in sockets]
        assert [f["table"] for f in firsts] == [1, 3, 5]
        assert firsts[1]["presses"][0]["id"] == late["id"]
        td.post("/api/td/pauses", json={"reason": "Lunch"}).raise_for_status()
        for ws, first in zip(sockets, firsts, strict=True):
            snap = json.loads(ws.recv(timeout=30))
            assert snap["seq"] > first["seq"]
            assert snap["schedule"]["pauses"][0]["reason"] == "Lunch"
    before = httpx.get(f"{live.url}/api/tables/3/snapshot", headers=auth, **https).json()

    live.kill()
    live.start()  # same data dir, same port, same certificate: the clocks' pins hold
    after = httpx.get(f"{live.url}/api/tables/3/snapshot", headers=auth, **https).json()
    assert {k: after[k] for k in ("event", "schedule", "presses", "out")} == \
        {k: before[k] for k in ("event", "schedule", "presses", "out")}
    assert after["seq"] == before["seq"]
    # no clock's token ever goes to the log: the journal keeps a unit's output
    token = auth["Authorization"].removeprefix("Bearer ")
    assert token not in live.printed() and live.printed().count(fingerprint) == 2
    td = live.td()  # the password from the first start still works
    assert td.get("/api/td/state").json()["hall"]["stage"] == "paused"
    td.post("/api/td/resume", json={}).raise_for_status()
    with connect(f"{ws_url}/api/tables/3/ws", open_timeout=30, additional_headers=auth,
                 ssl=live.verify) as ws:
        snap = json.loads(ws.recv(timeout=30))
        assert snap["seq"] > before["seq"] and snap["schedule"]["pauses"][0]["ended"]
    pens = td.get("/api/td/penalties").json()
    assert [(p["table"], p["power"], p["started_second"]) for p in pens] == [(3, "E", 9)]


def test_no_password_and_no_terminal_exits_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DIPCLOCK_TD_PASSWORD"}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run(
        [sys.executable, "-m", "dipclock", "hub", "--data", str(tmp_path / "d"), "--port", "0"],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, cwd=ROOT,
    )
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "dipclock hub: error: no TD password: set DIPCLOCK_TD_PASSWORD, use "
        "--td-password-file FILE, or run on a terminal to be asked"
    ]

"""``python -m benchmarks.hub``: a hall of 100 tables on one hub. Figures, not a test.

A real hub (``dipclock hub`` on 127.0.0.1) with one WebSocket per table, as 100 kiosks
would hold. The TD pauses the hall; we time how long until every table has the new
snapshot, then resume, several times. Also: the TD dashboard's state call with 100 tables,
and the kiosks' time-sync round trip. The clients run in this process on one event loop,
so the figures include their own share of the 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from dipclock.sync import to_local

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "benchmark-td-password"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_hub(data: Path, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD}
    proc = subprocess.Popen(
        [sys.executable, "-m", "dipclock", "hub", "--data", str(data), "--host", "127.0.0.1",
         "--port", str(port), "--wait-for-sync", "0", "--no-mdns"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
    )
    ends = time.monotonic() + 30
    while time.monotonic() < ends:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/time", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the hub did not start")


def _pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


async def _fan_out(url: str, key: str, td: httpx.Client, tables: int, rounds: int) -> list[float]:
    """Seconds from the TD's pause/resume request to the last table's new snapshot."""
    ws_url = url.replace("http", "ws")
    sockets = [
        await websockets.connect(f"{ws_url}/api/tables/{n}/ws?key={key}", max_size=2**22)
        for n in range(1, tables + 1)
    ]
    try:
        seqs = [json.loads(await ws.recv())["seq"] for ws in sockets]
        spreads = []
        for i in range(rounds):
            sent = time.perf_counter()
            path, body = ("/api/td/pauses", {"reason": "Lunch"}) if i % 2 == 0 else (
                "/api/td/resume", {})
            await asyncio.to_thread(lambda p=path, b=body: td.post(p, json=b).raise_for_status())

            async def newer(ws: websockets.ClientConnection, seen: int) -> tuple[int, float]:
                while True:
                    snap = json.loads(await ws.recv())
                    if snap["seq"] > seen:
                        return snap["seq"], time.perf_counter()

            waits = (newer(ws, s) for ws, s in zip(sockets, seqs, strict=True))
            got = await asyncio.gather(*waits)
            seqs = [s for s, _ in got]
            spreads.append(max(t for _, t in got) - sent)
        return spreads
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        hub = _start_hub(Path(tmp) / "hub", port)
        try:
            td = httpx.Client(base_url=url, timeout=30)
            login = td.post("/api/login", json={"password": PASSWORD})
            td.headers["X-CSRF-Token"] = login.json()["csrf"]
            now = to_local(httpx.get(url + "/api/time").json()["t1"]).replace(microsecond=0)
            td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
            td.put("/api/td/round", json={"number": 1, "start": now.isoformat()}
                   ).raise_for_status()
            td.put("/api/td/tables", json={"count": args.tables}).raise_for_status()
            key = td.get("/api/td/state").json()["kiosk_key"]

            spreads = asyncio.run(_fan_out(url, key, td, args.tables, args.rounds))
            state_ms = []
            for _ in range(20):
                t = time.perf_counter()
                td.get("/api/td/state").raise_for_status()
                state_ms.append((time.perf_counter() - t) * 1000)
            rtt_ms = []
            with httpx.Client() as kiosk:
                for _ in range(50):
                    t = time.perf_counter()
                    kiosk.get(url + "/api/time").raise_for_status()
                    rtt_ms.append((time.perf_counter() - t) * 1000)
        finally:
            hub.terminate()
            hub.wait(timeout=10)
    ms = [s * 1000 for s in spreads]
    rows = [
        (f"TD pause/resume until all {args.tables} tables have it", ms),
        (f"TD dashboard state, {args.tables} tables", state_ms),
        ("kiosk time-sync round trip", rtt_ms),
    ]
    print(f"hub with {args.tables} tables, one WebSocket each, on 127.0.0.1:")
    for name, values in rows:
        print(f"  {name:<45} median {statistics.median(values):6.1f} ms"
              f"   p95 {_pct(values, 0.95):6.1f} ms   max {max(values):6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

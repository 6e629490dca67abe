"""``python -m benchmarks.hub``: a hall of 100 tables on one hub. Figures, not a test.

A real hub (``dipclock hub`` on 127.0.0.1) with one WebSocket per table, as 100 kiosks
would hold. The TD pauses the hall; we time how long until every table has the new
snapshot, then resume, several times. Also: the TD dashboard's state call with 100 tables,
and the kiosks' time-sync round trip, alone and while the TD's heaviest requests (dashboard
state and the penalties CSV over 20,000 stored presses) run in a loop: a hub that does
blocking work on its event loop makes every kiosk's sync wait behind them. The clients run
in this process, so the figures include their own share of the 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import os
import secrets
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import websockets

from dipclock.eventfiles import machine_zone
from dipclock.sync import to_moment
from dipclock.venuetime import venue_naive, zone
from server.pairing import token_hash

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "benchmark-td-password"


def pair_by_td(client: Any, table: int, kiosk: str | None = None,
               headers: dict[str, str] | None = None) -> str:
    """Pair a new token for ``table`` over HTTP in one go: ask as a clock, approve as the TD
    (``client`` is signed in as the TD: an httpx or a test client; ``headers`` carries the
    CSRF token if the client does not). What the benchmarks and the tests' simulated
    clocks do; a real clock asks and waits (``kiosk.pairing``). Returns the token."""
    token = secrets.token_urlsafe(32)
    asked = client.post("/api/pair", json={
        "kiosk": kiosk or f"simulated-{table}-{token[:6]}", "token_hash": token_hash(token),
        "table": table})
    if asked.status_code != 201:
        raise RuntimeError(f"POST /api/pair: HTTP {asked.status_code} {asked.text[:200]}")
    done = client.post("/api/td/clocks", json={"code": asked.json()["code"], "table": table},
                       headers=headers or {})
    if done.status_code != 200:
        raise RuntimeError(f"POST /api/td/clocks: HTTP {done.status_code} {done.text[:200]}")
    return token


def td_client(url: str, data: Path, source: str | None = None) -> httpx.Client:
    """An httpx client signed in as the TD on the hub at ``url`` (its data ``data``), from
    the address ``source`` (None: the system's choice), its CSRF header set."""
    return signed_in(url, pinned_to(data), source=source)


def signed_in(url: str, verify: ssl.SSLContext | bool | str, password: str = PASSWORD,
              source: str | None = None) -> httpx.Client:
    """An httpx client signed in as the TD at ``url`` (one action: the password), its CSRF
    header set; ``verify`` as httpx takes it (the hub's pinned certificate)."""
    transport = httpx.HTTPTransport(local_address=source, verify=verify)
    c = httpx.Client(base_url=url, transport=transport, timeout=60)
    r = c.post("/api/login", json={"password": password})
    r.raise_for_status()
    c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return c


def round_with_clocks(td: httpx.Client, tables: int) -> dict[int, dict[str, str]]:
    """A round under way and a paired clock per table; each clock's Authorization header."""
    now = datetime.fromtimestamp(td.get("/api/time").json()["t1"])
    start = (now - timedelta(minutes=3)).replace(microsecond=0)
    for method, path, body in (("PUT", "/api/td/event", {"builtin": "wdc2006"}),
                               ("PUT", "/api/td/round", {"number": 1,
                                                         "start": start.isoformat()}),
                               ("PUT", "/api/td/tables", {"count": tables})):
        td.request(method, path, json=body).raise_for_status()
    return {t: {"Authorization": f"Bearer {pair_by_td(td, t)}"} for t in range(1, tables + 1)}


def hub_socket(port: int = 0, within: float = 10.0, host: str = "127.0.0.1") -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (IPv4), not listening, to hand to a hub
    (``handing_over``): no port number travels anywhere for another process to take first.

    Port 0: a free port the system picks, bound without SO_REUSEADDR, so no other socket can
    share it while this one holds it (the hub sets it once it serves). Until someone listens
    on it, a connection to it is refused, as by a hub that is down: held, it is also the
    address where nothing listens, for a test.

    A given port: a hub started again where its clocks look for it, bound right after the
    last one was reaped, with SO_REUSEADDR (that hub's connections may linger in TIME_WAIT);
    while another socket still holds the port it is tried again, for ``within`` seconds."""
    ends = time.monotonic() + within
    while True:
        sock = socket.socket()
        try:
            if port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            return sock
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE or not port or time.monotonic() > ends:
                tried = f", tried for {within:g} s" if port else ""
                raise RuntimeError(f"cannot bind {host} port {port} for a hub{tried}: "
                                   f"{exc.strerror}") from exc
        time.sleep(0.01)


def handing_over(sock: socket.socket, command: Sequence[str],
                 **popen: Any) -> subprocess.Popen[Any]:
    """``command --fd N`` (a ``dipclock hub`` command line) started with ``sock`` as its
    file descriptor N. Our own copy is closed as soon as the process has it: when the hub
    dies, nothing holds the port, and connections are refused as in a hall."""
    fd = sock.fileno()
    try:
        return subprocess.Popen([*command, "--fd", str(fd)], pass_fds=(fd,), **popen)
    finally:
        sock.close()


#: ``python -c SHIFTED SECONDS BOOT hub ...``: the hub with its machine's wall clock off by
#: SECONDS (a clock stepped while it was down), read through ``server.clock.wall_seconds``;
#: BOOT, unless empty, the boot id it sees (``machine.timesync.boot_id``): another one is
#: a restart after a reboot, when the hub cannot take its time back from the monotonic
#: clock (``server.hubtime``) and listens for the time its tables kept instead
SHIFTED = ("import sys, time, server.clock as c, machine.timesync as b; "
           "shift = float(sys.argv.pop(1)); boot = sys.argv.pop(1); "
           "c.wall_seconds = lambda: time.time() + shift; "
           "b.boot_id = (lambda path=None: boot) if boot else b.boot_id; "
           "from dipclock.launcher.cli import entry; entry()")


def launcher(wall_shift: float = 0.0, boot: str | None = None) -> list[str]:
    """What follows ``python`` to start ``dipclock`` on a wall clock ``wall_shift`` s off,
    in boot ``boot`` (None: this machine's own)."""
    if not wall_shift and boot is None:
        return ["-m", "dipclock"]
    return ["-c", SHIFTED, repr(wall_shift), boot or ""]


def stop_hub(proc: subprocess.Popen[Any]) -> None:
    """Stop a hub started here: SIGTERM, and SIGKILL if it has not gone in 15 s."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def pinned_to(data: Path) -> ssl.SSLContext:
    """The hub's certificate in ``data`` (made now if it has none, as the hub makes it at its
    first start), pinned as a clock pins it: what every client here verifies the hub with."""
    from kiosk.pairing import pinned
    from server.certificate import ensure

    verify = pinned(ensure(data)[0].read_text())
    assert isinstance(verify, ssl.SSLContext)
    return verify


def _start_hub(data: Path, before: Sequence[str] = (),
               stderr: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """``dipclock hub`` on https://127.0.0.1 on a free port, once it answers, and that
    port; ``before``: a command it runs under (``prlimit ...``)."""
    verify = pinned_to(data)
    env = os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD}
    sock = hub_socket()
    port = sock.getsockname()[1]
    proc = handing_over(
        sock, [*before, sys.executable, "-m", "dipclock", "hub", "--data", str(data),
               "--wait-for-sync", "0", "--no-mdns"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr,
    )
    ends = time.monotonic() + 30
    try:
        while time.monotonic() < ends:
            try:
                if httpx.get(f"https://127.0.0.1:{port}/api/time", timeout=1,
                             verify=verify).status_code == 200:
                    return proc, port
            except httpx.TransportError:
                time.sleep(0.1)
    except BaseException:  # interrupted while it starts: no hub left behind
        proc.kill()
        raise
    proc.kill()
    raise SystemExit("the hub did not start")


def source(n: int) -> str:
    """Kiosk ``n``'s own loopback address (127.0.1.1, ...): a hall's Pis each have one,
    and the hub caps the connections one address holds."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def _pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def _post(td: httpx.Client, path: str, body: dict[str, str]) -> None:
    td.post(path, json=body).raise_for_status()


async def _fan_out(url: str, tokens: dict[int, str], td: httpx.Client, tables: int,
                   rounds: int, verify: ssl.SSLContext) -> list[float]:
    """Seconds from the TD's pause/resume request to the last table's new snapshot."""
    ws_url = url.replace("http", "ws")
    sockets = [
        await websockets.connect(f"{ws_url}/api/tables/{n}/ws", max_size=2**22, ssl=verify,
                                 local_addr=(source(n), 0),
                                 additional_headers={"Authorization": f"Bearer {tokens[n]}"})
        for n in range(1, tables + 1)
    ]
    try:
        seqs = [json.loads(await ws.recv())["seq"] for ws in sockets]
        spreads = []
        for i in range(rounds):
            sent = time.perf_counter()
            path, body = ("/api/td/pauses", {"reason": "Lunch"}) if i % 2 == 0 else (
                "/api/td/resume", {})
            await asyncio.to_thread(_post, td, path, body)

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


def _load_presses(url: str, tokens: dict[int, str], tables: int, count: int, start: datetime,
                  now: datetime, verify: ssl.SSLContext) -> None:
    """``count`` presses spread over the tables and the round so far, in batches of 500."""
    span = (now - start).total_seconds()
    per_table = max(1, count // tables)
    powers = "AEFGIRT"
    with httpx.Client(base_url=url, timeout=60, verify=verify) as kiosk:
        for n in range(1, tables + 1):
            kiosk.headers["Authorization"] = f"Bearer {tokens[n]}"
            items = [
                {"id": f"b-{n}-{i}", "power": powers[i % 7], "kind": "press",
                 "at": (start + timedelta(seconds=span * (i + 0.5) / per_table)).isoformat()}
                for i in range(per_table)
            ]
            for k in range(0, len(items), 500):
                kiosk.post(f"/api/tables/{n}/presses", json={"presses": items[k:k + 500]}
                           ).raise_for_status()


def _sync_rtts(url: str, samples: int, verify: ssl.SSLContext) -> list[float]:
    """Milliseconds per ``/api/time`` round trip, one connection, back to back."""
    out = []
    with httpx.Client(base_url=url, timeout=60, verify=verify) as kiosk:
        for _ in range(samples):
            t = time.perf_counter()
            kiosk.get("/api/time").raise_for_status()
            out.append((time.perf_counter() - t) * 1000)
    return out


def _sync_under_load(url: str, td: httpx.Client, samples: int, verify: ssl.SSLContext
                     ) -> tuple[list[float], list[float]]:
    """Time-sync round trips while two TD clients ask for the dashboard state and the CSV
    in a loop (milliseconds), and each TD request's own duration."""
    stop = threading.Event()
    td_ms: list[float] = []

    def hammer(path: str) -> None:
        with httpx.Client(base_url=url, timeout=120, cookies=td.cookies, verify=verify) as c:
            while not stop.is_set():
                t = time.perf_counter()
                c.get(path).raise_for_status()
                td_ms.append((time.perf_counter() - t) * 1000)

    workers = [threading.Thread(target=hammer, args=(p,), daemon=True)
               for p in ("/api/td/state", "/api/penalties.csv")]
    for w in workers:
        w.start()
    rtts: list[float] = []
    try:
        while not td_ms:  # the load is on once one heavy request has been answered
            time.sleep(0.05)
        start = len(td_ms)
        # at least ``samples`` syncs, spread over at least 20 of the TD's requests
        while len(rtts) < samples or len(td_ms) - start < 20:
            rtts += _sync_rtts(url, 10, verify)
    finally:
        stop.set()
        for w in workers:
            w.join(timeout=120)
    return rtts, td_ms


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--presses", type=int, default=20_000, help="stored for the load test")
    p.add_argument("--sync-samples", type=int, default=300)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hub, port = _start_hub(Path(tmp) / "hub")
        url = f"https://127.0.0.1:{port}"
        verify = pinned_to(Path(tmp) / "hub")
        try:
            td = httpx.Client(base_url=url, timeout=30, verify=verify)
            login = td.post("/api/login", json={"password": PASSWORD})
            td.headers["X-CSRF-Token"] = login.json()["csrf"]
            now = to_moment(td.get("/api/time").json()["t1"]).replace(microsecond=0)
            start = now - timedelta(hours=2)  # deadlines passed, for the review's work
            td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
            local = venue_naive(start, zone(machine_zone()))  # the dashboard's venue time
            td.put("/api/td/round", json={"number": 1, "start": local.isoformat()}
                   ).raise_for_status()
            td.put("/api/td/tables", json={"count": args.tables}).raise_for_status()
            tokens = {n: pair_by_td(td, n) for n in range(1, args.tables + 1)}

            spreads = asyncio.run(_fan_out(url, tokens, td, args.tables, args.rounds, verify))
            state_ms = []
            for _ in range(20):
                t = time.perf_counter()
                td.get("/api/td/state").raise_for_status()
                state_ms.append((time.perf_counter() - t) * 1000)
            rtt_ms = _sync_rtts(url, 50, verify)
            _load_presses(url, tokens, args.tables, args.presses, start, now, verify)
            heavy_ms = []
            for path in ("/api/td/state", "/api/penalties.csv"):
                t = time.perf_counter()
                td.get(path).raise_for_status()
                heavy_ms.append((time.perf_counter() - t) * 1000)
            quiet_ms = _sync_rtts(url, args.sync_samples, verify)
            loaded_ms, td_ms = _sync_under_load(url, td, args.sync_samples, verify)
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
    print(f"with {args.presses} presses stored: dashboard state {heavy_ms[0]:.0f} ms, "
          f"penalties CSV {heavy_ms[1]:.0f} ms (one each, nothing else running)")
    print("time sync p99 while the TD's state is requested in a loop:")
    for name, values in (("time sync, hub idle", quiet_ms),
                         ("time sync, TD state + CSV in a loop", loaded_ms),
                         ("  (the TD's state/CSV requests meanwhile)", td_ms)):
        print(f"  {name:<45} p50 {_pct(values, 0.5):7.1f} ms   p99 {_pct(values, 0.99):7.1f} ms"
              f"   max {max(values):7.1f} ms   n={len(values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

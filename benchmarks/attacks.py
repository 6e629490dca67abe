"""``python -m benchmarks.attacks``: the hall under attack from one clock, one phone, one
laptop (issue 24), each figure beside a quiet baseline measured in the same run. Figures,
not a test. The last line is JSON; ``make bench`` adds its keys to the hall's line.

- ``hall_moved_by_one_clock_s``: how far the hub's time moved when one paired clock said
  it had kept a time an hour away (claiming a round trip of 0), on a hub long up and on a
  hub just restarted as after a reboot beside three honest tables (target 0), to 10 ms:
  reading the hub's time against this machine's wall clock has a noise of a millisecond;
- ``sync_p99_ms_slow_body``, ``sync_p99_ms_slow_keepalive``: a paired kiosk's time sync
  while 1,100 sockets from 249 addresses dawdle after their request head, on a hub held to
  1,024 files (``benchmarks.slowloris``; target ≤ 100 ms);
- ``press_upload_p99_ms_signin_flood``: a table's press upload while 40 addresses send
  wrong passwords as fast as the hub answers (target ≤ 500 ms);
- ``pair_code_s_under_flood``: a real new clock's time to its code while 80 addresses ask
  to be paired as fast as the hub answers (target ≤ 5 s);
- ``press_p99_ms_public_read_flood``: a table's press upload while 40 keep-alive
  connections from 20 addresses read the board call (999 tables seated) and the hall clock
  as fast as the hub answers (target ≤ 500 ms);
- ``td_signin_ok_under_flood``: the fraction of the TD's sign-ins, from a phone that
  signed in before, that succeed while 100 addresses send wrong passwords as fast as the
  hub answers (target 1.0);
- ``sync_p99_ms_validation_flood``: a paired clock's time sync while 10 addresses send a
  sheet 62 KB of 8,000 unknown keys with no credentials, in a loop (target ≤ 100 ms).

Each hub is a real ``dipclock hub`` over HTTPS on 127.0.0.1, the attackers on their own
127.0.x.y addresses, the measured client on another.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from benchmarks.hub import (
    PASSWORD,
    ROOT,
    _pct,
    handing_over,
    hub_socket,
    launcher,
    pinned_to,
    round_with_clocks,
    stop_hub,
    td_client,
)
from server.clock import GATHER_SECONDS, LISTEN_SECONDS
from server.pairing import token_hash


@contextmanager
def hub(data: Path, boot: str | None = None) -> Iterator[str]:
    """A real hub on ``data`` (in boot ``boot``, None: this machine's); its URL."""
    sock = hub_socket()
    port = sock.getsockname()[1]
    proc = handing_over(
        sock, [sys.executable, *launcher(0.0, boot), "hub", "--data", str(data),
               "--wait-for-sync", "0", "--no-mdns"],
        cwd=ROOT, env=os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"https://127.0.0.1:{port}"
    verify = pinned_to(data)
    try:
        ends = time.monotonic() + 60
        while time.monotonic() < ends:
            try:
                if httpx.get(url + "/api/time", verify=verify, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the hub did not answer within 60 s")
        yield url
    finally:
        stop_hub(proc)


def hub_minus_wall(url: str, data: Path) -> float:
    """The hub's time minus this machine's wall clock, the best of 5 exchanges."""
    best = (float("inf"), 0.0)
    with httpx.Client(verify=pinned_to(data), timeout=10) as c:
        for _ in range(5):
            t0 = time.time()
            t1 = c.get(url + "/api/time").json()["t1"]
            t3 = time.time()
            best = min(best, (t3 - t0, t1 - (t0 + t3) / 2))
    return best[1]


def status(url: str, data: Path, key: dict[str, str], table: int, offset: float,
           rtt: float, source: str) -> None:
    transport = httpx.HTTPTransport(local_address=source, verify=pinned_to(data))
    with httpx.Client(transport=transport, timeout=10) as c:
        c.post(f"{url}/api/tables/{table}/status", headers=key,
               json={"offset": offset, "rtt": rtt, "kept": True}).raise_for_status()


def hall_time(tmp: Path) -> dict[str, float]:
    """One clock's kept-time claim, on a hub long up and on one just restarted as after a
    reboot (three honest tables at 10 ms beside it); the hub's move in each, and in a quiet
    restart with the honest tables alone."""
    data = tmp / "hall-time"
    with hub(data, boot="boot-1") as url:
        td = td_client(url, data)
        keys = round_with_clocks(td, 4)
        time.sleep(LISTEN_SECONDS + 1)  # a hub long up: its listening is over
        before = hub_minus_wall(url, data)
        status(url, data, keys[1], 1, 3600.0, 0.0, "127.0.3.66")
        time.sleep(GATHER_SECONDS + 1)
        long_up = abs(hub_minus_wall(url, data) - before)
    out = {"long_up_moved_s": round(long_up, 2)}
    for name, liar in (("quiet_restart_moved_s", False), ("restart_moved_s", True)):
        with hub(data, boot=f"boot-{name}") as url:  # a reboot: the hub listens
            before = hub_minus_wall(url, data)
            if liar:
                status(url, data, keys[1], 1, 3600.0, 0.0, "127.0.3.66")
            for table in (2, 3, 4):
                status(url, data, keys[table], table, before, 0.01, "127.0.0.1")
            time.sleep(GATHER_SECONDS + 1)
            td = td_client(url, data)
            td.get("/api/td/state")  # the poll settles it, if the timer has not
            out[name] = round(abs(hub_minus_wall(url, data) - before), 2)
    return out


def _loop(stop: threading.Event, work: Callable[[int], Any], workers: int) -> ThreadPoolExecutor:
    """``workers`` threads each calling ``work(n)`` until ``stop``."""
    pool = ThreadPoolExecutor(workers)

    def forever(n: int) -> None:
        while not stop.is_set():
            try:
                work(n)
            except httpx.HTTPError:
                time.sleep(0.05)

    for n in range(workers):
        pool.submit(forever, n)
    return pool


def press_uploads(url: str, data: Path, key: dict[str, str], seconds: float) -> list[float]:
    """A table's clock uploading one new press every 200 ms for ``seconds``: each upload's
    time, ms."""
    spent: list[float] = []
    transport = httpx.HTTPTransport(local_address="127.0.1.1", verify=pinned_to(data))
    with httpx.Client(transport=transport, timeout=30) as c:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            press = {"id": secrets.token_hex(8), "power": "AEFGIRT"[len(spent) % 7],
                     "kind": "press",  # a power's presses 1.4 s apart: none a bounce
                     "at": datetime.now().replace(microsecond=0).isoformat()}
            t0 = time.perf_counter()
            c.post(f"{url}/api/tables/1/presses", headers=key,
                   json={"presses": [press]}).raise_for_status()
            spent.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.2)
    return spent


def wrong_passwords(url: str, data: Path, addresses: int) -> Callable[[int], None]:
    """An attacker's worker ``n``: one wrong password from 127.0.2.(n % addresses + 1)."""
    def wrong(n: int) -> None:
        transport = httpx.HTTPTransport(local_address=f"127.0.2.{n % addresses + 1}",
                                        verify=pinned_to(data))
        with httpx.Client(transport=transport, timeout=30) as c:
            c.post(url + "/api/login", json={"password": f"guess {secrets.token_hex(4)}"})
    return wrong


def signin_flood(tmp: Path, seconds: float) -> dict[str, float]:
    data = tmp / "signins"
    with hub(data) as url:
        keys = round_with_clocks(td_client(url, data), 1)
        quiet = press_uploads(url, data, keys[1], seconds)
        stop = threading.Event()

        pool = _loop(stop, wrong_passwords(url, data, 40), 40)
        try:
            flooded = press_uploads(url, data, keys[1], seconds)
        finally:
            stop.set()
            pool.shutdown(wait=True)
    return {"quiet_p99_ms": round(_pct(quiet, 0.99), 1),
            "flood_p99_ms": round(_pct(flooded, 0.99), 1),
            "flood_max_ms": round(max(flooded), 1), "uploads": len(flooded)}


def ask_code(url: str, data: Path) -> float:
    """A real new clock asks to be paired: seconds to its code."""
    transport = httpx.HTTPTransport(local_address="127.0.1.2", verify=pinned_to(data))
    with httpx.Client(transport=transport, timeout=60) as c:
        t0 = time.perf_counter()
        r = c.post(url + "/api/pair", json={"kiosk": f"real-{secrets.token_hex(4)}",
                                            "token_hash": token_hash(secrets.token_hex(16)),
                                            "table": 7})
        r.raise_for_status()
        return time.perf_counter() - t0


def pairing_flood(tmp: Path, asks: int = 10) -> dict[str, float]:
    data = tmp / "pairing"
    with hub(data) as url:
        quiet = [ask_code(url, data) for _ in range(asks)]
        stop = threading.Event()

        def flood(n: int) -> None:
            transport = httpx.HTTPTransport(local_address=f"127.0.4.{n % 80 + 1}",
                                            verify=pinned_to(data))
            with httpx.Client(transport=transport, timeout=30) as c:
                c.post(url + "/api/pair", json={
                    "kiosk": f"flood-{n}", "token_hash": token_hash(secrets.token_hex(16)),
                    "table": 7})

        pool = _loop(stop, flood, 80)
        try:
            time.sleep(5)  # the flood in full swing (its 500 places full) before the clock
            flooded = []
            for _ in range(asks):
                flooded.append(ask_code(url, data))
                time.sleep(0.5)
        finally:
            stop.set()
            pool.shutdown(wait=True)
    return {"quiet_s": round(max(quiet), 3), "flood_s": round(max(flooded), 3),
            "flood_median_s": round(statistics.median(flooded), 3)}


def seat_all(td: httpx.Client, tables: int) -> None:
    """Round 1 seated: seven players at each of ``tables`` tables (the board call's size)."""
    seats = [{"round": 1, "table": t, "power": p, "player": f"Player {t:03d}{p}"}
             for t in range(1, tables + 1) for p in "AEFGIRT"]
    td.put("/api/td/seating", json={"seats": seats}).raise_for_status()


def public_read_flood(tmp: Path, seconds: float, tables: int = 999) -> dict[str, Any]:
    """A table's press uploads, quiet and while 20 addresses (two keep-alive connections
    each) read ``/api/boardcall`` and ``/api/hall`` in turn as fast as they are answered."""
    data = tmp / "public-reads"
    with hub(data) as url:
        td = td_client(url, data)
        keys = round_with_clocks(td, 1)
        seat_all(td, tables)
        quiet = press_uploads(url, data, keys[1], seconds)
        stop = threading.Event()
        answers: dict[int, int] = {}
        clients: dict[int, httpx.Client] = {}
        counting = threading.Lock()

        def read(n: int) -> None:
            if n not in clients:
                transport = httpx.HTTPTransport(local_address=f"127.0.5.{n % 20 + 1}",
                                                verify=pinned_to(data))
                # an attacker takes the replies unzipped: the most bytes for the hub to send
                clients[n] = httpx.Client(transport=transport, timeout=30,
                                          headers={"Accept-Encoding": "identity"})
            for path in ("/api/boardcall", "/api/hall"):
                status = clients[n].get(url + path).status_code
                with counting:
                    answers[status] = answers.get(status, 0) + 1

        pool = _loop(stop, read, 40)
        try:
            time.sleep(2)  # the flood in full swing before the table
            flooded = press_uploads(url, data, keys[1], seconds)
        finally:
            stop.set()
            pool.shutdown(wait=True)
            for c in clients.values():
                c.close()
        size = len(td.get("/api/boardcall").content)
    return {"quiet_p99_ms": round(_pct(quiet, 0.99), 1),
            "flood_p99_ms": round(_pct(flooded, 0.99), 1),
            "flood_max_ms": round(max(flooded), 1), "uploads": len(flooded),
            "tables": tables, "boardcall_bytes": size,
            "reads_per_s": {str(k): round(v / (seconds + 2), 1)
                            for k, v in sorted(answers.items())}}


def td_signins_under_flood(tmp: Path, tries: int = 10) -> dict[str, Any]:
    """The TD's phone (signed in once before, from its own address) signs in ``tries``
    times, a second apart, while 100 addresses send wrong passwords as fast as the hub
    answers; how many went through, and their times."""
    data = tmp / "td-signins"
    with hub(data) as url:
        phone = td_client(url, data, source="127.0.1.3")  # its device cookie, from now on
        stop = threading.Event()

        pool = _loop(stop, wrong_passwords(url, data, 100), 100)
        statuses, spent = [], []
        try:
            time.sleep(2)  # the flood in full swing (the strangers' queue full)
            for _ in range(tries):
                t0 = time.perf_counter()
                statuses.append(phone.post("/api/login", json={"password": PASSWORD}
                                           ).status_code)
                spent.append((time.perf_counter() - t0) * 1000)
                time.sleep(1)
        finally:
            stop.set()
            pool.shutdown(wait=True)
            phone.close()
    return {"ok": statuses.count(200), "tries": tries, "statuses": statuses,
            "max_ms": round(max(spent), 1)}


def syncs(url: str, data: Path, seconds: float, source: str = "127.0.1.1") -> list[float]:
    """A paired clock's time sync (``/api/time``) every 100 ms for ``seconds``: each
    exchange's round trip, ms."""
    spent = []
    transport = httpx.HTTPTransport(local_address=source, verify=pinned_to(data))
    with httpx.Client(transport=transport, timeout=30) as c:
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            t0 = time.perf_counter()
            c.get(url + "/api/time").raise_for_status()
            spent.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.1)
    return spent


#: issue 33's body: 62 KB of 8,000 unknown keys, sent to a sheet with no credentials
UNKNOWN_KEYS = (json.dumps({f"k{i}": i for i in range(8000)})[:62_000].rpartition(",")[0]
                + "}").encode()


def validation_flood(tmp: Path, seconds: float) -> dict[str, float]:
    """A clock's time sync while 10 addresses send ``UNKNOWN_KEYS`` to a sheet in a loop."""
    data = tmp / "validation"
    with hub(data) as url:
        round_with_clocks(td_client(url, data), 1)
        quiet = syncs(url, data, seconds)
        stop = threading.Event()
        answers: list[int] = []

        def junk(n: int) -> None:
            transport = httpx.HTTPTransport(local_address=f"127.0.5.{n % 10 + 1}",
                                            verify=pinned_to(data))
            with httpx.Client(transport=transport, timeout=30) as c:
                answers.append(c.put(url + "/api/sheets/1/1", content=UNKNOWN_KEYS, headers={
                    "Content-Type": "application/json"}).status_code)

        pool = _loop(stop, junk, 10)
        try:
            flooded = syncs(url, data, seconds)
        finally:
            stop.set()
            pool.shutdown(wait=True)
    return {"quiet_p99_ms": round(_pct(quiet, 0.99), 1),
            "flood_p99_ms": round(_pct(flooded, 0.99), 1),
            "bodies_sent": len(answers),
            "refused_401": sum(a == 401 for a in answers)}


def run(seconds: float = 20.0) -> dict[str, Any]:
    from benchmarks.slowloris import past_the_head

    with tempfile.TemporaryDirectory(prefix="dipclock-attacks-") as tmp:
        moved = hall_time(Path(tmp))
        signins = signin_flood(Path(tmp), seconds)
        pairing = pairing_flood(Path(tmp))
        reads = public_read_flood(Path(tmp), seconds)
        td_signins = td_signins_under_flood(Path(tmp))
        junk = validation_flood(Path(tmp), seconds)
    late = past_the_head(seconds)
    return {
        "hall_moved_by_one_clock_s": max(moved["long_up_moved_s"], moved["restart_moved_s"]),
        "sync_p99_ms_slow_body": late["slow_body"]["sync_p99_ms"],
        "sync_p99_ms_slow_keepalive": late["slow_keepalive"]["sync_p99_ms"],
        "press_upload_p99_ms_signin_flood": signins["flood_p99_ms"],
        "pair_code_s_under_flood": pairing["flood_s"],
        "press_p99_ms_public_read_flood": reads["flood_p99_ms"],
        "td_signin_ok_under_flood": round(td_signins["ok"] / td_signins["tries"], 2),
        "sync_p99_ms_validation_flood": junk["flood_p99_ms"],
        "attacks": {"hall_time": moved, "past_the_head": late, "signins": signins,
                    "pairing": pairing, "public_reads": reads, "td_signins": td_signins,
                    "validation_flood": junk},
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0,
                   help="how long each flood and each slow-client attack lasts")
    args = p.parse_args()
    print(json.dumps(run(args.seconds)))


if __name__ == "__main__":
    main()

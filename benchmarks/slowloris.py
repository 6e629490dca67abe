"""``python -m benchmarks.slowloris``: the hub's time sync while slow clients attack it.
Figures, not a test.

A real ``dipclock hub`` over HTTPS, under ``prlimit``, started with systemd's default soft
limit of 1,024 files (the one that failed a hall once): with the hard limit 1,024 too, so
the hub cannot raise it, and with the hard limit left as it is, so it raises it
(``raise_file_limit``: what a hub run by hand does; its unit sets 65,536). 1,100 sockets,
half of them stalled in the TLS handshake (they send nothing), half through it and sending
the start of a request line, then a byte every 10 s; each opens again at once when the hub
closes it: first all from one address, then spread over 127.0.0.2-250 (beyond the
per-address cap's reach: the head timeout and the file limit must hold). Meanwhile a kiosk
on its own address (127.0.1.1), paired for table 1 and heard from as every table's clock is
(``server.regulars``), syncs every 100 ms, each time on a new connection (the hard case: it
must be accepted); and a stranger (127.0.1.2: a phone opening ``/hall``, a clock not yet
paired) syncs every 500 ms, its TLS handshake queued behind the attack's. The attacker is a
process of its own, so its work does not delay the probes' loop. Each phase is bounded
(``--seconds`` plus a minute at most), and the hub and the attacker are ended however the
run ends. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.hub import ROOT, _pct, _start_hub, pinned_to, round_with_clocks, stop_hub, td_client

SLOW = 1100
#: the kiosk's address, one of the hall's; a stranger's
KIOSK, STRANGER = "127.0.1.1", "127.0.1.2"
DRIP = 10.0  # seconds between two bytes of a slow socket


def _unverified() -> ssl.SSLContext:
    """An attacker checks no certificate."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


#: how a slow socket dawdles: ``stall`` in the TLS handshake (it sends nothing), ``head``
#: through it and slow with its request line, ``body`` with a whole head and a slow body,
#: ``keepalive`` with a first request whole and answered and a slow second one
MODES = ("stall", "head", "body", "keepalive")
FIRST = {
    "head": b"GET /api/ti",
    "body": (b"POST /api/login HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
             b"Content-Length: 4000\r\n\r\n{\"pass"),
    "keepalive": b"GET /api/time HTTP/1.1\r\nHost: hub\r\n\r\n",
}


async def slow_client(port: int, source: str, stop: asyncio.Event, opened: list[int],
                      mode: str) -> None:
    """One slow socket dawdling as ``mode`` says (``MODES``), opened again whenever the hub
    closes it."""
    tls = None if mode == "stall" else _unverified()
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0), ssl=tls,
                ssl_handshake_timeout=30 if tls else None)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.5)
            continue
        opened[0] += 1
        try:
            if mode in FIRST:
                writer.write(FIRST[mode])
                await writer.drain()
            if mode == "keepalive":  # its answer read, then the next request, slowly
                await asyncio.wait_for(reader.readuntil(b"}"), 30)
                writer.write(b"GET /api/ti")
                await writer.drain()
            while not stop.is_set():
                try:
                    if await asyncio.wait_for(reader.read(1), DRIP) == b"":
                        break  # closed by the hub
                except TimeoutError:
                    if mode != "stall":  # a byte more; a stalled handshake sends none
                        writer.write(b"m")
                        await writer.drain()
        except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.1)


def a_regular(url: str, data: Path) -> None:
    """``KIOSK`` made one of the hall's addresses as a table's clock is: a clock paired for
    table 1 has made a signed request from it (each does after every sync)."""
    td = td_client(url, data, source=KIOSK)
    try:
        key = round_with_clocks(td, 1)[1]
        td.get("/api/tables/1/snapshot", headers=key).raise_for_status()
    finally:
        td.close()


async def probe(url: str, stop: asyncio.Event, every: float, verify: ssl.SSLContext,
                source: str = KIOSK) -> tuple[list[float], int]:
    """A sync from ``source`` on a fresh connection every ``every`` s (its TLS handshake
    included): (latencies ms, failures)."""
    transport = httpx.AsyncHTTPTransport(local_address=source, verify=verify)
    spent: list[float] = []
    failed = 0
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            async with httpx.AsyncClient(transport=transport, timeout=5) as c:
                (await c.get(url + "/api/time")).raise_for_status()
            spent.append((time.perf_counter() - t0) * 1000)
        except httpx.HTTPError:
            failed += 1
        await asyncio.sleep(max(0.0, every - (time.perf_counter() - t0)))
    return spent, failed


async def attack(port: int, sources: list[str], seconds: float,
                 modes: tuple[str, ...] = ("stall", "head")) -> int:
    """The attacker (its own process): SLOW slow sockets for ``seconds``, their ``modes``
    taken in turn; how many it opened in all."""
    stop = asyncio.Event()
    opened = [0]
    slow = [asyncio.create_task(slow_client(port, sources[k % len(sources)], stop, opened,
                                            modes[k % len(modes)]))
            for k in range(SLOW)]
    await asyncio.sleep(seconds)
    stop.set()
    for task in slow:
        task.cancel()
    await asyncio.gather(*slow, return_exceptions=True)
    return opened[0]


def measure(port: int, data: Path, sources: list[str], seconds: float,
            modes: tuple[str, ...] = ("stall", "head")) -> dict[str, float]:
    """Probe the sync of the hub on ``port`` (its data ``data``) for ``seconds`` while
    another process attacks it (no attack: ``modes`` empty, the quiet baseline)."""
    url, verify = f"https://127.0.0.1:{port}", pinned_to(data)
    a_regular(url, data)
    attacker = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.slowloris", "--attack", str(port),
         "--sources", ",".join(sources), "--seconds", str(seconds + 5),
         "--modes", ",".join(modes)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True) if modes else None
    try:
        if attacker is not None:
            time.sleep(3)  # the attack in place before the kiosk looks
        stop = asyncio.Event()

        async def probing() -> list[tuple[list[float], int]]:
            tasks = [asyncio.create_task(probe(url, stop, 0.1, verify)),
                     asyncio.create_task(probe(url, stop, 0.5, verify, STRANGER))]
            await asyncio.sleep(seconds)
            stop.set()
            return list(await asyncio.gather(*tasks))

        (spent, failed), (stranger, stranger_failed) = asyncio.run(probing())
        opened = int((attacker.communicate(timeout=seconds + 60)[0] or "0").split()[-1]
                     ) if attacker is not None else 0
    finally:
        if attacker is not None:
            attacker.kill()
            attacker.wait()
    return {
        "sync_p50_ms": round(statistics.median(spent), 1) if spent else -1,
        "sync_p99_ms": round(_pct(spent, 0.99), 1) if spent else -1,
        "sync_max_ms": round(max(spent), 1) if spent else -1,
        "probes": len(spent) + failed,
        "failed": failed,
        "stranger_p50_ms": round(statistics.median(stranger), 1) if stranger else -1,
        "stranger_max_ms": round(max(stranger), 1) if stranger else -1,
        "stranger_failed": stranger_failed,
        "slow_connections_opened": opened,
    }


#: the four setups, in the order they run
SETUPS = ("one_address_1024_fixed", "one_address_1024_raised", "spread_1024_raised",
          "spread_1024_fixed")


def run(seconds: float, only: str | None = None) -> dict[str, dict[str, float]]:
    """The attack from one address, then from 249, on a fresh hub each, soft file limit
    1,024: hard limit 1,024 (``_fixed``) or as this machine has it (``_raised``, the hub
    raises its soft limit itself); their figures."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    most = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    spread = [f"127.0.0.{n}" for n in range(2, 251)]
    out = {}
    for name, sources, limits in (
            ("one_address_1024_fixed", ["127.0.0.1"], "1024:1024"),
            ("one_address_1024_raised", ["127.0.0.1"], f"1024:{most}"),
            ("spread_1024_raised", spread, f"1024:{most}"),
            ("spread_1024_fixed", spread, "1024:1024")):
        if only is not None and name != only:
            continue
        with tempfile.TemporaryDirectory(prefix="dipclock-slowloris-") as tmp:
            hub, port = _start_hub(Path(tmp) / "hub", ("prlimit", f"--nofile={limits}"),
                                   stderr=subprocess.PIPE)
            err = b""
            try:
                files = _soft_files(hub.pid)
                out[name] = measure(port, Path(tmp) / "hub", sources, seconds)
            finally:
                hub.terminate()
                try:
                    _, err = hub.communicate(timeout=15)
                except subprocess.TimeoutExpired:
                    hub.kill()
                    _, err = hub.communicate()
            lines = err.decode(errors="replace").splitlines()
            out[name] |= {"hub_soft_file_limit": files, "hub_log_lines": len(lines),
                          "hub_refusal_lines": sum("refusing connections" in line
                                                   for line in lines)}
    return out


#: the attacks past the request head (issue 24), each beside the quiet baseline
PHASES = {"quiet": (), "slow_body": ("body",), "slow_keepalive": ("keepalive",)}


def past_the_head(seconds: float) -> dict[str, dict[str, float]]:
    """Sockets that dawdle after their head (a slow body, a slow second request on a kept
    alive connection) from 249 addresses, against a hub held to systemd's default 1,024
    files (soft and hard: it cannot raise them), and the same hub left alone: the kiosk's
    sync under each, on a fresh hub each."""
    spread = [f"127.0.0.{n}" for n in range(2, 251)]
    out = {}
    for name, modes in PHASES.items():
        with tempfile.TemporaryDirectory(prefix="dipclock-slowloris-") as tmp:
            hub, port = _start_hub(Path(tmp) / "hub", ("prlimit", "--nofile=1024:1024"),
                                   stderr=subprocess.DEVNULL)
            try:
                out[name] = measure(port, Path(tmp) / "hub", spread, seconds, modes)
            finally:
                stop_hub(hub)
    return out


def _soft_files(pid: int) -> int:
    """A process's soft open-file limit, as ``/proc/PID/limits`` says (-1: unlimited)."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft = line.split()[3]
            return -1 if soft == "unlimited" else int(soft)
    return -1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=60.0, help="how long each attack lasts")
    p.add_argument("--attack", type=int, metavar="PORT", help=argparse.SUPPRESS)
    p.add_argument("--sources", default="127.0.0.1", help=argparse.SUPPRESS)
    p.add_argument("--modes", default="stall,head", help=argparse.SUPPRESS)
    p.add_argument("--only", choices=SETUPS, help="run this setup alone")
    p.add_argument("--past-the-head", action="store_true",
                   help="slow bodies and slow second requests beside a quiet baseline")
    args = p.parse_args()
    if args.attack:  # the attacker's own process
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        print(asyncio.run(attack(args.attack, args.sources.split(","), args.seconds,
                                 tuple(args.modes.split(",")))))
        return
    if args.past_the_head:
        late = past_the_head(args.seconds)
        for name, f in late.items():
            print(f"{name}: {f}")
        print(json.dumps({"sync_p99_ms_quiet": late["quiet"]["sync_p99_ms"],
                          "sync_p99_ms_slow_body": late["slow_body"]["sync_p99_ms"],
                          "sync_p99_ms_slow_keepalive": late["slow_keepalive"]["sync_p99_ms"],
                          "past_the_head": late}))
        return
    signal.signal(signal.SIGTERM, _interrupt)  # as Ctrl-C: the hub and attacker are ended
    figures = run(args.seconds, args.only)
    for name, f in figures.items():
        print(f"{name}: {f}")
    worst = max(f["sync_p99_ms"] for f in figures.values())
    print(json.dumps({"sync_p99_ms_under_slowloris": worst,
                      "sync_failures_under_slowloris": sum(f["failed"] for f in figures.values()),
                      "slowloris": figures}))


if __name__ == "__main__":
    main()

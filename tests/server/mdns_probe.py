"""``python -m tests.server.mdns_probe DATA HOST``: start a real hub with mDNS on, browse for
``_dipclock._tcp`` as a kiosk would, stop the hub, and print what was seen as JSON, with the
mDNS sockets (UDP port 5353) open in this network namespace while the hub served.
``... DATA HOST quiet``: only those sockets, no browsing (a hub that should announce
nothing: it is the only process here that could open one). ``... DATA HOST resolve NAME``:
browse, and ask for NAME's IPv4 address as a phone does (``resolved``: an mDNS querier's
A question; ``one_shot``: a plain DNS question sent from a passing port to the mDNS group,
as ``dig -p 5353 @224.0.0.251 NAME`` asks).

Run by ``test_mdns`` inside a private network namespace (``unshare -n``), where the only
interface is a loopback with multicast on, so nothing reaches any real network.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
from zeroconf import (
    AddressResolverIPv4,
    DNSAddress,
    DNSIncoming,
    DNSOutgoing,
    DNSQuestion,
    IPVersion,
    ServiceStateChange,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf
from zeroconf.const import _CLASS_IN, _FLAGS_QR_QUERY, _MDNS_ADDR, _MDNS_PORT, _TYPE_A

from benchmarks.hub import handing_over, hub_socket
from server.mdns import SERVICE

ROOT = Path(__file__).resolve().parents[2]


def start_hub(data: Path, host: str) -> tuple[subprocess.Popen[bytes], int]:
    """The hub on ``host`` and a free port, handed the socket bound here (``--fd``), once
    it answers; and that port."""
    env = os.environ | {"DIPCLOCK_TD_PASSWORD": "mdns probe password", "PYTHONPATH": str(ROOT)}
    log = data.with_suffix(".log").open("wb")
    sock = hub_socket(host=host)
    port = sock.getsockname()[1]
    proc = handing_over(
        sock, [sys.executable, "-m", "dipclock", "hub", "--data", str(data),
               "--wait-for-sync", "0"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(data.with_suffix(".log").read_text())
        try:
            if httpx.get(f"https://127.0.0.1:{port}/api/time", timeout=0.5,
                         verify=False).status_code == 200:  # only: is it up yet?
                return proc, port
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the hub did not answer within 20 s")


def one_shot(name: str, via: str = "127.0.0.1", timeout: float = 3.0) -> list[str]:
    """NAME's IPv4 addresses as a plain resolver gets them: one DNS question to the mDNS
    group from a passing port, the answer sent back to that port (RFC 6762 section 6.7);
    [] when none came within ``timeout`` seconds."""
    out = DNSOutgoing(_FLAGS_QR_QUERY)
    out.add_question(DNSQuestion(name, _TYPE_A, _CLASS_IN))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(via))
        sock.settimeout(timeout)
        sock.sendto(out.packets()[0], (_MDNS_ADDR, _MDNS_PORT))
        try:
            data, _ = sock.recvfrom(9000)
        except TimeoutError:
            return []
    return sorted(socket.inet_ntoa(a.address) for a in DNSIncoming(data).answers()
                  if isinstance(a, DNSAddress) and a.type == _TYPE_A
                  and a.name.lower() == name.lower())


async def browse(proc: subprocess.Popen[bytes], interfaces: list[str] | None,
                 resolve: str | None = None) -> dict:
    zc = AsyncZeroconf(ip_version=IPVersion.V4Only,
                       **({"interfaces": interfaces} if interfaces else {}))
    seen: dict[str, list[str]] = {}
    added, removed = asyncio.Event(), asyncio.Event()

    def on_change(zeroconf, service_type, name, state_change) -> None:
        seen.setdefault(name, []).append(state_change.name)
        (removed if state_change is ServiceStateChange.Removed else added).set()

    browser = AsyncServiceBrowser(zc.zeroconf, SERVICE, handlers=[on_change])
    out: dict = {"seen": seen, "services": []}
    try:
        await asyncio.wait_for(added.wait(), 15)
        for name in list(seen):
            info = AsyncServiceInfo(SERVICE, name)
            if await info.async_request(zc.zeroconf, 3000):
                out["services"].append({
                    "name": name, "port": info.port, "addresses": info.parsed_addresses(),
                    "server": info.server,
                    "txt": {k.decode(): (v or b"").decode() for k, v in info.properties.items()},
                })
        if resolve is not None:
            asked = AddressResolverIPv4(resolve)
            await asked.async_request(zc.zeroconf, 3000)
            out["resolved"] = asked.parsed_addresses()
            out["one_shot"] = await asyncio.to_thread(one_shot, resolve)
        proc.terminate()  # the hub says goodbye: a kiosk forgets it at once
        await asyncio.wait_for(removed.wait(), 10)
    except TimeoutError:
        out["timeout"] = True
    finally:
        await browser.async_cancel()
        await zc.async_close()
    return out


def mdns_sockets() -> int:
    """The UDP sockets on port 5353 (mDNS) in this network namespace: ``/proc/net`` is the
    reading process's namespace's."""
    count = 0
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        with open(table) as f:
            next(f)  # the header
            count += sum(1 for line in f if line.split()[1].endswith(":14E9"))
    return count


def main() -> int:
    data, host = Path(sys.argv[1]), sys.argv[2]
    quiet = sys.argv[3:] == ["quiet"]
    resolve = sys.argv[4] if sys.argv[3:4] == ["resolve"] else None
    proc, port = start_hub(data, host)
    try:
        sockets = mdns_sockets()  # the hub answers: its announcement has started, if any
        found = {"seen": {}, "services": []} if quiet else asyncio.run(
            browse(proc, None if host == "0.0.0.0" else [host], resolve))
        found["mdns_sockets"] = sockets
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(timeout=15)
    db = sqlite3.connect(data / "hub.sqlite3")
    found |= dict(db.execute("SELECT key, value FROM meta WHERE key = 'hub_id'"))
    db.close()
    print(json.dumps(found | {"port": port}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

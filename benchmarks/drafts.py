"""``python -m benchmarks.drafts``: a table's time sync and press uploads while the TD drafts
seatings back to back, beside a quiet baseline measured in the same run (issue 33 item 6).
Figures, not a test. The last line is JSON; ``make bench`` adds its keys to the hall's line.

- ``sync_p99_ms_during_draft``: the p99 of a paired clock's ``/api/time`` exchanges while
  140-player drafts of round 5 (after four rounds seated and called) run one after another
  (target <= 100 ms); ``drafts.quiet_sync_p99_ms`` is the same clock with no draft;
- ``drafts.*_press_p99_ms``: the same for its press uploads.

One real ``dipclock hub`` over HTTPS on 127.0.0.1, 100 simulated clocks syncing, pushing
and uploading as in the hall harness (``benchmarks.simkiosks``), each from its own address;
the measured clock on another. A draft runs in the hub's back room (``server.backroom``),
a process of its own, so the event loop that answers the clocks only waits for it.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from benchmarks.attacks import hub
from benchmarks.hub import _pct, pinned_to, round_with_clocks, source, td_client
from benchmarks.simkiosks import kiosk_groups
from dipclock.powers import LETTERS
from server.certificate import ensure

#: the measured clock's own address (the simulated ones take 127.0.1.x)
PROBE = "127.0.3.1"


def seat_rounds(td: httpx.Client, players: list[str], rounds: int) -> None:
    """Rounds 1 to ``rounds`` drafted and called, as a TD seats an event's first rounds."""
    for number in range(1, rounds + 1):
        r = td.post("/api/td/seating/draft", json={"round": number, "players": players,
                                                   "seed": number}, timeout=300)
        r.raise_for_status()
        td.put("/api/td/seating/round", json={"round": number, "tables": r.json()["tables"]}
               ).raise_for_status()


def timed(url: str, data: Path, seconds: float, every: float,
          call: Callable[[httpx.Client, int], httpx.Response]) -> list[float]:
    """``call(client, n)`` every ``every`` s for ``seconds`` from the probe's address: each
    answer's time, ms (an error answer counts as its time all the same)."""
    spent: list[float] = []
    transport = httpx.HTTPTransport(local_address=PROBE, verify=pinned_to(data))
    with httpx.Client(base_url=url, transport=transport, timeout=60) as c:
        ends = time.monotonic() + seconds
        n = 0
        while time.monotonic() < ends:
            t0 = time.perf_counter()
            call(c, n)
            spent.append((time.perf_counter() - t0) * 1000)
            n += 1
            time.sleep(every)
    return spent


def probe(url: str, data: Path, key: dict[str, str], table: int,
          seconds: float) -> tuple[list[float], list[float]]:
    """The measured clock for ``seconds``: its syncs (every 100 ms) and its presses (every
    200 ms, a power in turn), side by side."""
    presses: list[float] = []

    def press(c: httpx.Client, n: int) -> httpx.Response:
        at = datetime.now().replace(microsecond=0).isoformat()
        body = {"presses": [{"id": secrets.token_hex(8), "power": LETTERS[n % 7],
                             "kind": "press", "at": at}]}
        return c.post(f"/api/tables/{table}/presses", json=body, headers=key)

    pressing = threading.Thread(target=lambda: presses.extend(
        timed(url, data, seconds, 0.2, press)), daemon=True)
    pressing.start()
    syncs = timed(url, data, seconds, 0.1, lambda c, n: c.get("/api/time"))
    pressing.join()
    return syncs, presses


def drafting(url: str, data: Path, players: list[str], stop: threading.Event,
             spent: list[float]) -> None:
    """Round 5 drafted again and again (a new seed each time) until ``stop``: each draft's
    seconds in ``spent``."""
    td = td_client(url, data)
    try:
        seed = 100
        while not stop.is_set():
            t0 = time.monotonic()
            r = td.post("/api/td/seating/draft", json={"round": 5, "players": players,
                                                       "seed": seed}, timeout=300)
            r.raise_for_status()
            spent.append(time.monotonic() - t0)
            seed += 1
    finally:
        td.close()


def run(seconds: float = 30.0, kiosks: int = 100, players: int = 140,
        groups: int = 4) -> dict[str, Any]:
    names = [f"Player {n:03d}" for n in range(1, players + 1)]
    with tempfile.TemporaryDirectory(prefix="dipclock-drafts-") as tmp:
        data = Path(tmp) / "hub"
        with hub(data) as url:
            port = urlsplit(url).port
            assert port is not None
            td = td_client(url, data)
            keys = round_with_clocks(td, kiosks + 1)  # the last table's is the measured one
            seat_rounds(td, names, 4)
            with kiosk_groups(groups, ensure(data)[0].read_text()) as sims:
                for n in range(kiosks):
                    token = keys[n + 1]["Authorization"].removeprefix("Bearer ")
                    sims.add(n + 1, token, Path(tmp), n, n % 2 == 1, ("127.0.0.1", port),
                             source(n))
                ends = time.monotonic() + 120
                while not sims.trusted():
                    if time.monotonic() > ends:
                        raise SystemExit("drafts: the simulated clocks did not sync in 120 s")
                    time.sleep(0.2)
                quiet_syncs, quiet_presses = probe(url, data, keys[kiosks + 1], kiosks + 1,
                                                   seconds)
                stop = threading.Event()
                spent: list[float] = []
                drafts = threading.Thread(target=drafting,
                                          args=(url, data, names, stop, spent), daemon=True)
                drafts.start()
                try:
                    syncs, presses = probe(url, data, keys[kiosks + 1], kiosks + 1, seconds)
                finally:
                    stop.set()
                    drafts.join(300)
                if not spent:
                    raise SystemExit("drafts: no draft was answered while measured")
            td.close()
    return {
        "sync_p99_ms_during_draft": round(_pct(syncs, 0.99), 1),
        "drafts": {
            "quiet_sync_p99_ms": round(_pct(quiet_syncs, 0.99), 1),
            "draft_sync_p99_ms": round(_pct(syncs, 0.99), 1),
            "draft_sync_max_ms": round(max(syncs), 1),
            "quiet_press_p99_ms": round(_pct(quiet_presses, 0.99), 1),
            "draft_press_p99_ms": round(_pct(presses, 0.99), 1),
            "draft_press_median_ms": round(statistics.median(presses), 1),
            "drafts_done": len(spent),
            "draft_seconds": [round(s, 2) for s in spent],
            "players": players, "clocks_simulated": kiosks, "seconds_each": seconds,
        },
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=30.0,
                   help="how long the quiet baseline and the drafts are each measured")
    p.add_argument("--kiosks", type=int, default=100, help="simulated clocks")
    p.add_argument("--players", type=int, default=140, help="players in each draft")
    args = p.parse_args()
    print(json.dumps(run(args.seconds, args.kiosks, args.players)))


if __name__ == "__main__":
    main()

"""``python -m benchmarks.history``: what the TD's reads and a kiosk's press cost as the
event's history grows. Figures, not a test.

One hub app (in this process, a fixed clock, SQLite on disk) with 100 tables and seven
rounds of wdc2006, set up through the TD's API. Presses go straight into the store: each
power of each table presses once per phase, a few seconds to minutes before the deadline,
one in twenty late. The current round is the last, half played. We time the dashboard's
state, the penalties CSV (the whole event's, and one round's), a table's snapshot and a
kiosk's press upload (each through the app, as a request), first with about 100 presses
stored, then with 100,000, the TD polling as a phone does: every request after the first
finds the work of the one before (``server.history``). The very first judges the whole
history once; the first after a hub restart finds the past rounds' judgments stored.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from benchmarks.hub import pair_by_td
from dipclock.events import BUILTIN
from dipclock.powers import LETTERS
from dipclock.schedule import Schedule
from dipclock.sync import to_moment, to_seconds
from dipclock.timeline import timetable
from machine.passwords import hash_password
from server.app import create_app
from server.settings import Settings
from server.store import PressRow

PASSWORD = "benchmark-td-password"
FIRST = datetime(2026, 6, 5, 9, 0)
#: rounds a day apart: each one's whole timetable is history before the next starts
GAP = timedelta(days=1)
EVENT = "wdc2006"


class _Clock:
    """Hub time set by hand (``server.clock.Clock``)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def moment(self) -> datetime:
        return to_moment(self.t)

    def mono(self) -> float:
        return self.t

    def wall(self) -> float:
        return self.t

    def set_to(self, seconds: float) -> None:
        self.t = seconds


def _presses(rounds: int, tables: int, limit: int, now: datetime,
             rng: random.Random) -> Iterator[PressRow]:
    """Each power's press per phase, round by round, until ``limit`` or ``now``."""
    count = 0
    for r in range(1, rounds + 1):
        start = FIRST + (r - 1) * GAP
        for ph in timetable(BUILTIN[EVENT], Schedule(start=start)).phases:
            for n in range(1, tables + 1):
                for power in LETTERS:
                    late = rng.random() < 0.05
                    at = ph.deadline + timedelta(
                        seconds=rng.uniform(0.5, 40) if late else -rng.uniform(1, 600))
                    if at > now:
                        continue
                    yield PressRow(f"r{r}-t{n}-{ph.ref.code}-{power}", r, n, power, "press", at)
                    count += 1
                    if count >= limit:
                        return


def _median_ms(fn: Callable[[], Any], times: int) -> float:
    spent = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        spent.append((time.perf_counter() - t0) * 1000)
    return statistics.median(spent)


def measure(presses: int, rounds: int, tables: int, times: int) -> dict[str, float]:
    """Median milliseconds of each read, with ``presses`` stored over ``rounds`` rounds."""
    now = FIRST + (rounds - 1) * GAP + timedelta(hours=2)
    clock = _Clock(to_seconds(now))
    with tempfile.TemporaryDirectory(prefix="dipclock-history-") as tmp:
        settings = Settings(data_dir=Path(tmp), td_password_hash=hash_password(PASSWORD),
                            mdns=False)
        app = create_app(settings, clock=clock, synced=lambda: True, boot=lambda: "bench")
        with TestClient(app) as client:
            csrf = {"X-CSRF-Token": client.post(
                "/api/login", json={"password": PASSWORD}).json()["csrf"]}
            client.put("/api/td/event", json={"builtin": EVENT}, headers=csrf)
            client.put("/api/td/tables", json={"count": tables}, headers=csrf)
            for r in range(1, rounds + 1):
                start = FIRST + (r - 1) * GAP
                client.put("/api/td/round", json={"number": r, "start": start.isoformat()},
                           headers=csrf).raise_for_status()
            store = app.state.hub.store
            rows = list(_presses(rounds, tables, presses, now, random.Random(7)))
            for k in range(0, len(rows), 5000):
                store.add_presses(rows[k:k + 5000], now)
            key = {"Authorization": f"Bearer {pair_by_td(client, 5, headers=csrf)}"}
            sent = iter(range(10**9))

            def upload() -> None:
                # two seconds apart on a clock that stands still: each a press of its own,
                # stored and judged, not a bounce the hub merges (``dipclock.debounce``)
                at = to_moment(clock.t - 300 + 2 * next(sent)).isoformat()
                client.post("/api/tables/5/presses", headers=key, json={"presses": [
                    {"id": f"bench-{at}", "power": "A", "kind": "press", "at": at}]},
                ).raise_for_status()

            def poll_after_press() -> None:
                upload()  # the busy moment: presses arrive between the TD's polls
                client.get("/api/td/state").raise_for_status()

            t0 = time.perf_counter()
            client.get("/api/td/state").raise_for_status()
            cold = (time.perf_counter() - t0) * 1000
            figures = {
                "stored": len(rows),
                "first_td_state_ms": cold,
                "td_state_ms": _median_ms(
                    lambda: client.get("/api/td/state").raise_for_status(), times),
                "td_state_after_press_ms": _median_ms(poll_after_press, times),
                "csv_ms": _median_ms(
                    lambda: client.get("/api/penalties.csv").raise_for_status(), times),
                "round_csv_ms": _median_ms(lambda: client.get(
                    "/api/penalties.csv", params={"round": rounds}).raise_for_status(), times),
                "snapshot_ms": _median_ms(
                    lambda: client.get("/api/tables/5/snapshot", headers=key
                                       ).raise_for_status(), times),
                "press_ms": _median_ms(upload, times),
            }
        # the same hall after a hub restart: its first poll finds the past rounds judged
        with TestClient(create_app(settings, clock=clock, synced=lambda: True,
                                   boot=lambda: "bench")) as client:
            client.post("/api/login", json={"password": PASSWORD}).raise_for_status()
            t0 = time.perf_counter()
            client.get("/api/td/state").raise_for_status()
            figures["restart_first_td_state_ms"] = (time.perf_counter() - t0) * 1000
        return figures


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--presses", type=int, default=100_000)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--times", type=int, default=15, help="requests timed per figure")
    args = p.parse_args()
    small = measure(100, args.rounds, args.tables, args.times)
    large = measure(args.presses, args.rounds, args.tables, args.times)
    for figures in (small, large):
        print(f"{figures['stored']:>7} presses: " + ", ".join(
            f"{k} {v:.1f}" for k, v in figures.items() if k != "stored"))
    summary = {}
    for key, name in (("td_state_after_press_ms", "td_state"), ("csv_ms", "csv"),
                      ("round_csv_ms", "round_csv"), ("snapshot_ms", "snapshot"),
                      ("press_ms", "press")):
        summary[f"{name}_ms_100_presses"] = round(small[key], 1)
        summary[f"{name}_ms_100k_presses"] = round(large[key], 1)
    for key in ("first_td_state_ms", "restart_first_td_state_ms"):
        summary[f"{key}_100k_presses"] = round(large[key], 1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

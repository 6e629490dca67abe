"""The hall remembers the time, as processes: a hub killed, then started on a wall clock an
hour ahead, takes the time its three kiosks kept, and no screen moves meanwhile."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.conftest import TABLES, Hall, running_hall, wait_for

#: The float noise and the slewed screen's rounding; every other margin is measured.
SLACK = 0.01


class Rtts:
    """The longest round trip each kiosk reported (its status file's ``sync``): a sample's
    offset is off by at most half its round trip, so the kiosks' screens and the hub's kept
    time are bounded by these, whatever the machine's load. A followed wrong clock would
    move a screen 3600 s."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}

    def note(self, table: int, screen: dict[str, Any]) -> None:
        if screen.get("sync"):
            self.seen[table] = max(self.seen.get(table, 0.0), screen["sync"]["rtt"])

    def bound(self) -> float:
        """How far a screen may move across the restart: its estimate before (half a round
        trip), the hub's kept time (each table's estimate and its vote's sample, the median
        of them) and its estimate after; four half round trips at the longest seen."""
        return 2 * max(self.seen.values()) + SLACK


def test_a_hub_restarted_an_hour_ahead_takes_the_time_the_kiosks_kept(tmp_path: Path) -> None:
    rtts = Rtts()
    with running_hall(tmp_path) as hall:
        def synced(n: int) -> float | None:
            s = hall.kiosks[n].screen()
            if s is None or s["sync"] is None:
                return None
            rtts.note(n, s)
            return s["hub_time"] - s["mono"]

        kept = {n: wait_for(f"table {n} synced", lambda n=n: synced(n)) for n in TABLES}

        def screens_still() -> None:
            for n, k in hall.kiosks.items():
                s = k.screen()
                if s is not None:  # between two writes of the file
                    rtts.note(n, s)
                    moved = s["hub_time"] - s["mono"] - kept[n]
                    assert abs(moved) <= rtts.bound(), (n, moved, rtts.seen, s)

        hall.hub.kill()
        hall.hub.wall_shift = 3600.0  # the hub machine rebooted on a clock an hour ahead
        hall.hub.boot = "rebooted"
        hall.hub.start()
        clock = wait_for("the hub took the kiosks' time", lambda: (
            screens_still(),
            c := hall.td().get("/api/td/state").json()["clock"])[1]["kept_change"] is not None
            and c, timeout=90)
        assert abs(clock["kept_change"] + 3600.0) <= rtts.bound(), (clock, rtts.seen)
        assert clock["kept_tables"] == len(TABLES)
        assert clock["standing"] == "kept by the tables"
        for n, k in hall.kiosks.items():
            wait_for(f"table {n} back on the hub", lambda k=k: (
                screens_still(), s := k.screen())[1] and not s["hub_lost"] and s)
        # the hub runs on the kept time: kiosks and hub share this machine's monotonic clock
        offset, rtt = hub_offset(hall)
        assert all(abs(offset - k) <= rtts.bound() + rtt / 2 for k in kept.values()), (
            offset, rtt, kept, rtts.seen)
        screens_still()
        audit = [a["summary"] for a in hall.td().get("/api/td/state").json()["audit"]]
        assert audit[0].startswith("hub time taken from the 3 tables that kept it"), audit


def hub_offset(hall: Hall) -> tuple[float, float]:
    """Hub time minus this machine's monotonic clock, by the fastest of 20 exchanges, and
    that exchange's round trip: the offset is off by at most half of it."""
    best = (float("inf"), 0.0)
    for _ in range(20):
        m0 = time.monotonic()
        t1 = hall.hub.get("/api/time").json()["t1"]
        m1 = time.monotonic()
        best = min(best, (m1 - m0, t1 - (m0 + m1) / 2))
    return best[1], best[0]


def test_a_hub_restarted_in_the_same_boot_an_hour_behind_keeps_its_time_exactly(
    tmp_path: Path,
) -> None:
    """A restart of the hub's process alone (a crash, an upgrade) with the machine's clock
    stepped meanwhile: the hub takes its time back from the monotonic clock it shares with
    every process of this boot, at once and exactly; no table has to vote."""
    with running_hall(tmp_path) as hall:
        before, rtt_before = hub_offset(hall)
        hall.hub.kill()
        hall.hub.wall_shift = -3600.0
        hall.hub.start()
        after, rtt_after = hub_offset(hall)
        assert abs(after - before) <= (rtt_before + rtt_after) / 2 + 1e-6, (before, after)
        clock = hall.td().get("/api/td/state").json()["clock"]
        assert not clock["provisional"] and clock["kept_change"] is None
        assert "kept across the restart on this boot's monotonic clock" in hall.hub.printed()

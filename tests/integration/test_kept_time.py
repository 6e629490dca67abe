"""The hall remembers the time, as processes: a hub killed, then started on a wall clock an
hour ahead, takes the time its three kiosks kept, and no screen moves meanwhile."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.integration.conftest import TABLES, Hall, running_hall, wait_for

#: The float noise and the slewed screen's rounding; every other margin is measured.
SLACK = 0.01


class HallTime:
    """What the test measured of the hall's time before the hub was killed, as hub time
    minus this machine's monotonic clock (kiosks and hub share it): the kiosks' screens,
    and the test's own best-of-20 measurement of the hub; and the longest round trip each
    kiosk reported (its status file's ``sync``), before and after.

    Each is the true hall time give or take half a round trip, but a screen rests on a
    sample the test may not have seen (its first, taken while the machine was loaded), and
    it slews from there towards better ones. So the test asserts against the span of all it
    measured, widened by the round trips it saw: a screen that followed the restarted hub's
    wrong clock would be 3600 s out of it, and the hub's kept time (the median of the
    tables' votes) lies inside it."""

    def __init__(self) -> None:
        self.rtt: dict[int, float] = {}
        self.low = float("inf")
        self.high = float("-inf")

    def note(self, table: int, screen: dict[str, Any]) -> float:
        """A kiosk's screen: the round trip it reported; its offset, returned."""
        if screen.get("sync"):
            self.rtt[table] = max(self.rtt.get(table, 0.0), screen["sync"]["rtt"])
        offset: float = screen["hub_time"] - screen["mono"]
        return offset

    def include(self, offset: float, rtt: float) -> None:
        self.low = min(self.low, offset - rtt / 2)
        self.high = max(self.high, offset + rtt / 2)

    def margin(self) -> float:
        """Beyond the span: a screen's estimate and the sample under it, each off by half
        the longest round trip seen, and float noise."""
        return 2 * max(self.rtt.values()) + SLACK

    def holds(self, offset: float, rtt: float = 0.0) -> bool:
        m = self.margin() + rtt / 2
        return self.low - m <= offset <= self.high + m

    def __repr__(self) -> str:
        return f"span [{self.low:.6f}, {self.high:.6f}] (+-{self.margin():.6f}), rtts {self.rtt}"


def test_a_hub_restarted_an_hour_ahead_takes_the_time_the_kiosks_kept(tmp_path: Path) -> None:
    seen = HallTime()
    with running_hall(tmp_path) as hall:
        def synced(n: int) -> bool:
            s = hall.kiosks[n].screen()
            if s is None or s["sync"] is None:
                return False
            seen.include(seen.note(n, s), 0.0)
            return True

        for n in TABLES:
            wait_for(f"table {n} synced", lambda n=n: synced(n))
        seen.include(*hub_offset(hall))
        for n in TABLES:
            assert synced(n), n

        def screens_still() -> None:
            for n, k in hall.kiosks.items():
                s = k.screen()
                if s is not None:  # between two writes of the file
                    offset = seen.note(n, s)
                    assert seen.holds(offset), (n, offset, seen, s)

        hall.hub.kill()
        hall.hub.wall_shift = 3600.0  # the hub machine rebooted on a clock an hour ahead
        hall.hub.boot = "rebooted"
        hall.hub.start()
        clock = wait_for("the hub took the kiosks' time", lambda: (
            screens_still(),
            c := hall.td().get("/api/td/state").json()["clock"])[1]["kept_change"] is not None
            and c, timeout=90)
        assert abs(clock["kept_change"] + 3600.0) <= seen.high - seen.low + seen.margin(), (
            clock, seen)
        assert clock["kept_tables"] == len(TABLES)
        assert clock["standing"] == "kept by the tables"
        for n, k in hall.kiosks.items():
            wait_for(f"table {n} back on the hub", lambda k=k: (
                screens_still(), s := k.screen())[1] and not s["hub_lost"] and s)
        # the hub runs on the kept time: kiosks and hub share this machine's monotonic clock
        offset, rtt = hub_offset(hall)
        assert seen.holds(offset, rtt), (offset, rtt, seen)
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

"""The hall remembers the time, as processes: a hub killed, then started on a wall clock an
hour ahead, takes the time its three kiosks kept, and no screen moves meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

from tests.integration.conftest import TABLES, running_hall, wait_for

#: How far a kiosk's shown hub time may move across the restart: its own samples' error on
#: one machine, with room for a loaded one. A followed wrong clock would move it 3600 s.
STILL = 0.25


def test_a_hub_restarted_an_hour_ahead_takes_the_time_the_kiosks_kept(tmp_path: Path) -> None:
    with running_hall(tmp_path) as hall:
        kept = {n: wait_for(f"table {n} synced", lambda k=k: (
            s := k.screen()) and s["sync"] is not None and s["hub_time"] - s["mono"])
            for n, k in hall.kiosks.items()}

        def screens_still() -> None:
            for n, k in hall.kiosks.items():
                s = k.screen()
                if s is not None:  # between two writes of the file
                    assert abs(s["hub_time"] - s["mono"] - kept[n]) < STILL, (n, s)

        hall.hub.kill()
        hall.hub.wall_shift = 3600.0  # the hub machine rebooted on a clock an hour ahead
        hall.hub.boot = "rebooted"
        hall.hub.start()
        clock = wait_for("the hub took the kiosks' time", lambda: (
            screens_still(),
            c := hall.td().get("/api/td/state").json()["clock"])[1]["kept_change"] is not None
            and c, timeout=90)
        assert abs(clock["kept_change"] + 3600.0) < 1.0 and clock["kept_tables"] == len(TABLES)
        assert clock["standing"] == "kept by the tables"
        for n, k in hall.kiosks.items():
            wait_for(f"table {n} back on the hub", lambda k=k: (
                screens_still(), s := k.screen())[1] and not s["hub_lost"] and s)
        # the hub runs on the kept time: kiosks and hub share this machine's monotonic clock
        m0 = time.monotonic()
        t1 = hall.hub.get("/api/time").json()["t1"]
        hub_offset = t1 - (m0 + time.monotonic()) / 2
        assert all(abs(hub_offset - k) < STILL for k in kept.values()), (hub_offset, kept)
        screens_still()
        audit = [a["summary"] for a in hall.td().get("/api/td/state").json()["audit"]]
        assert audit[0].startswith("hub time taken from the 3 tables that kept it"), audit


def hub_offset(hall) -> tuple[float, float]:
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

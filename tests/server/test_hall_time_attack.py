"""One paired clock cannot move the hall's time (``dipclock.keptvote``, ``server.kepttime``):
attacks from a clock on its own 127.0.0.0/8 address against a real hub (uvicorn in this
process, its monotonic and wall clocks held by the test), each restart a reboot."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from dipclock.sync import to_seconds
from server.clock import GATHER_SECONDS, LISTEN_SECONDS, HubClock
from tests.server.live import LiveHub, ThreadHub

T0 = datetime(2024, 5, 4, 9, 30)
ATTACKER = "127.0.0.66"


class Hall:
    """Hub starts on one data dir, each after a reboot (a new boot id), with a monotonic
    and a wall clock moved by hand; the tables' clocks stay paired across them."""

    def __init__(self, data: Path, start: float = to_seconds(T0), running: bool = False
                 ) -> None:
        """``start``: the wall clock's time at the first start (POSIX seconds);
        ``running``: both clocks also run on as this machine's does (for a page a person
        looks at), else they move only by hand."""
        self.data, self.mono, self.wall, self.boots = data, [1000.0], [start], 0
        self.keys: dict[int, dict[str, str]] = {}
        since = time.monotonic()
        self.ran = (lambda: time.monotonic() - since) if running else (lambda: 0.0)

    @contextmanager
    def hub(self) -> Iterator[tuple[ThreadHub, httpx.Client]]:
        self.boots += 1
        clock = HubClock(mono=lambda: self.mono[0] + self.ran(),
                         wall=lambda: self.wall[0] + self.ran())
        with ThreadHub(self.data, clock=clock, boot=f"boot-{self.boots}") as hub:
            td = hub.td()
            try:
                yield hub, td
            finally:
                td.close()

    def later(self, seconds: float, wall_step: float = 0.0) -> None:
        self.mono[0] += seconds
        self.wall[0] += seconds + wall_step

    def status(self, hub: ThreadHub, table: int, offset: float, rtt: float,
               source: str = "127.0.0.1") -> int:
        """Table ``table``'s clock reports that it kept the time, ``offset`` s from the hub's,
        from ``source``."""
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(base_url=hub.url, transport=transport, timeout=30) as c:
            r = c.post(f"/api/tables/{table}/status", headers=self.keys[table],
                       json={"offset": offset, "rtt": rtt, "kept": True})
        return r.status_code


def hub_time(hub: ThreadHub) -> float:
    return float(httpx.get(hub.url + "/api/time", timeout=30).json()["t1"])


def set_up(hall: Hall, td: httpx.Client, tables: int) -> None:
    for method, path, body in (("PUT", "/api/td/event", {"builtin": "wdc2006"}),
                               ("PUT", "/api/td/round", {"number": 1,
                                                         "start": T0.isoformat()}),
                               ("PUT", "/api/td/tables", {"count": tables})):
        td.request(method, path, json=body).raise_for_status()
    hall.keys = {t: LiveHub.auth(td, t) for t in range(1, tables + 1)}


@pytest.mark.parametrize("claim", [3600.0, 1e9])
def test_a_clock_on_a_hub_that_started_long_ago_moves_nothing(tmp_path, claim):
    hall = Hall(tmp_path / "hub")
    with hall.hub() as (hub, td):
        set_up(hall, td, 4)
        hall.later(LISTEN_SECONDS + GATHER_SECONDS + 600)  # a hub long up
        assert httpx.get(hub.url + "/api/time", timeout=30).json()["provisional"] is False
        before = hub_time(hub)
        assert hall.status(hub, 1, claim, 0.0, ATTACKER) == 204
        hall.later(GATHER_SECONDS + 1)
        assert td.post("/api/td/pauses", json={"reason": "Lunch"}).status_code == 200
        assert hub_time(hub) == pytest.approx(before + GATHER_SECONDS + 1, abs=1e-6)
        audit = [a["summary"] for a in td.get("/api/td/state").json()["audit"]]
        assert not any("hub time" in line for line in audit), audit


def test_one_clock_claiming_a_zero_round_trip_does_not_outvote_three_honest_tables(
    tmp_path,
):
    hall = Hall(tmp_path / "hub")
    with hall.hub() as (_hub, td):
        set_up(hall, td, 4)
        hall.later(LISTEN_SECONDS + 1)
    hall.later(60)  # a power cut of a minute; the machine's clock comes back right
    with hall.hub() as (hub, td):
        before = hub_time(hub)
        assert hall.status(hub, 1, 3600.0, 0.0, ATTACKER) == 204
        for table in (2, 3, 4):
            assert hall.status(hub, table, 0.004, 0.010) == 204
        hall.later(GATHER_SECONDS)
        state = td.get("/api/td/state").json()  # the poll settles it
        assert hub_time(hub) == pytest.approx(before + GATHER_SECONDS, abs=1e-6)
        assert state["clock"]["kept_change"] is None
        assert state["audit"][0]["summary"] == (
            "hub time kept: the tables that kept the time agree with it but table 1 "
            "(table 1 +3600.00 s, table 2 +0.00 s, table 3 +0.00 s, table 4 +0.00 s)")
        assert state["clock"]["kept_note"] == state["audit"][0]["summary"]


def test_the_tables_move_a_rebooted_hub_and_the_td_can_undo_it(tmp_path):
    """Three honest tables out of four carry the move whatever the fourth claims; the TD
    sees every vote and may put the time back on the hub machine's clock."""
    hall = Hall(tmp_path / "hub")
    with hall.hub() as (_hub, td):
        set_up(hall, td, 4)
        hall.later(LISTEN_SECONDS + 1)
    hall.later(60, wall_step=3600.0)  # rebooted an hour ahead (fake-hwclock, a bad NTP)
    with hall.hub() as (hub, td):
        before = hub_time(hub)
        assert hall.status(hub, 1, 0.0, 0.0, ATTACKER) == 204  # a liar who says "stay"
        for table, vote in ((2, 3600.01), (3, 3599.99), (4, 3600.0)):
            assert hall.status(hub, table, vote, 0.01) == 204
        hall.later(GATHER_SECONDS)
        clock = td.get("/api/td/state").json()["clock"]
        assert hub_time(hub) == pytest.approx(before + GATHER_SECONDS - 3600.0, abs=1e-6)
        assert clock["kept_change"] == -3600.0 and clock["kept_tables"] == 3
        assert clock["offer_machine"] is True
        assert clock["kept_note"] == ("table 1 +0.00 s, table 2 +3600.01 s, "
                                      "table 3 +3599.99 s, table 4 +3600.00 s")
        r = td.post("/api/clock", json={"source": "machine"})
        assert r.status_code == 200, r.text
        assert r.json()["summary"].startswith(
            "hub time put back on the hub machine's own clock (the TD undid the time the "
            "tables kept),")
        assert hub_time(hub) == pytest.approx(hall.wall[0], abs=1e-6)
        again = td.post("/api/clock", json={"source": "machine"})
        assert again.status_code == 409 and "nothing to undo" in again.json()["detail"]


@pytest.mark.parametrize(("claim", "why"), [
    (7 * 86400.0, "before the hub's last record"),  # the hall's time: a week earlier
    (-30 * 86400.0, "more than 18 h after the hub's last record"),
])
def test_all_the_tables_together_cannot_move_it_beyond_the_hubs_own_record(
    tmp_path, claim, why
):
    """Even every paired clock agreeing moves the hub only to a time after its own last
    record and within 18 h of it."""
    hall = Hall(tmp_path / "hub")
    with hall.hub() as (_hub, td):
        set_up(hall, td, 3)
        hall.later(LISTEN_SECONDS + 1)
    hall.later(60)
    with hall.hub() as (hub, td):
        before = hub_time(hub)
        for table in (1, 2, 3):
            assert hall.status(hub, table, claim, 0.01, ATTACKER) == 204
        hall.later(GATHER_SECONDS)
        state = td.get("/api/td/state").json()
        assert hub_time(hub) == pytest.approx(before + GATHER_SECONDS, abs=1e-6)
        assert why in state["clock"]["kept_note"]


def test_what_a_rebooted_hub_writes_before_the_count_is_no_record_against_it(tmp_path):
    """The hub's last record is read as it starts: presses received meanwhile, stamped an
    hour ahead on the machine's clock, do not make the tables' true time look like time
    gone back. A hub that was long up wrote its time down as it stopped."""
    hall = Hall(tmp_path / "hub")
    with hall.hub() as (_hub, td):
        set_up(hall, td, 3)
        hall.later(LISTEN_SECONDS + 20 * 3600)  # a quiet night, the hub up: no log, no press
    hall.later(60, wall_step=3600.0)
    with hall.hub() as (hub, td):
        before = hub_time(hub)
        press = {"id": "p1", "power": "A", "kind": "press", "at": "2024-05-05T06:31:00"}
        r = httpx.post(f"{hub.url}/api/tables/1/presses", headers=hall.keys[1],
                       json={"presses": [press]}, timeout=30)
        assert r.status_code == 200, r.text
        for table in (1, 2, 3):
            assert hall.status(hub, table, 3600.0, 0.01) == 204
        hall.later(GATHER_SECONDS)
        clock = td.get("/api/td/state").json()["clock"]
        assert clock["kept_change"] == -3600.0, clock
        assert hub_time(hub) == pytest.approx(before + GATHER_SECONDS - 3600.0, abs=1e-6)

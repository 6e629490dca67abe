"""The hall remembers the time: a hub restarted on a wrong wall clock takes the time its
tables kept (``server.kepttime``), and the TD sees that it did."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from math import ceil

import pytest
from fastapi.testclient import TestClient

from dipclock.sync import to_moment, to_seconds
from server.app import create_app
from server.clock import GATHER_SECONDS, LISTEN_SECONDS, HubClock
from server.settings import Settings
from tests.server.conftest import PASSWORD
from tests.server.live import Clocks

T0 = datetime(2024, 5, 4, 9, 30)


class Hall:
    """A hub on the real clock class; its monotonic and wall clocks move by hand. Each
    ``hub()`` is a start after a reboot (a new boot id: its monotonic clock is another),
    unless ``same_boot``: then the hub takes its own time back (``server.hubtime``)."""

    def __init__(self, data, password_hash: str) -> None:
        self.data, self.password_hash = data, password_hash
        self.mono, self.wall = [500.0], [to_seconds(T0)]
        self.boots = 0

    @contextmanager
    def hub(self, same_boot: bool = False) -> Iterator[TestClient]:
        clock = HubClock(mono=lambda: self.mono[0], wall=lambda: self.wall[0])
        settings = Settings(data_dir=self.data, td_password_hash=self.password_hash)
        self.boots += 0 if same_boot else 1
        boot = f"boot-{self.boots}"
        with TestClient(create_app(settings, clock=clock, synced=lambda: False,
                                   boot=lambda: boot)) as c:
            r = c.post("/api/login", json={"password": PASSWORD})
            c.headers["X-CSRF-Token"] = r.json()["csrf"]
            yield c


def set_up(c: TestClient, tables: int = 5) -> str:
    for method, path, body in (("PUT", "/api/td/event", {"builtin": "wdc2006"}),
                               ("PUT", "/api/td/round", {"number": 1, "start": T0.isoformat()}),
                               ("PUT", "/api/td/tables", {"count": tables})):
        c.request(method, path, json=body).raise_for_status()
    clocks = Clocks(c)
    for table in range(1, tables + 1):  # paired now: the pairings outlive the hub's restart
        clocks[table]
    return clocks


def report(c: TestClient, key: Clocks, table: int, offset: float, kept: bool = True,
           rtt: float = 0.01) -> None:
    body = {"offset": offset, "rtt": rtt} | ({"kept": True} if kept else {})
    r = c.post(f"/api/tables/{table}/status", json=body,
               headers=key[table])
    assert r.status_code == 204, r.text


def hub_time(c: TestClient) -> tuple[float, bool]:
    reply = c.get("/api/time").json()
    return reply["t1"], reply["provisional"]


VOTES = "table 1 +3600.02 s, table 2 +3599.98 s, table 3 +3600.00 s, table 4 +0.10 s"


def test_a_hub_restarted_an_hour_ahead_takes_the_time_its_tables_kept(tmp_path, password_hash):
    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
        hall.mono[0] += LISTEN_SECONDS + 1
        hall.wall[0] += LISTEN_SECONDS + 1
        assert hub_time(c)[1] is False  # no table kept a time for a first start
        deadline = c.get("/api/td/state").json()["deadlines"][0]
    hall.mono[0] += 60  # a minute's outage; the machine's clock is stepped an hour on
    hall.wall[0] += 60 + 3600
    with hall.hub() as c:
        t1, provisional = hub_time(c)
        assert provisional and to_moment(t1) == datetime(2024, 5, 4, 10, 31, 41)  # an hour out
        for table, kept in ((1, 3600.02), (2, 3599.98), (3, 3600.0), (4, 0.1)):
            report(c, key, table, kept)  # table 4's own Pi restarted on a bad guess
        report(c, key, 1, 3700.0, rtt=0.5)  # a later, worse-measured sample: not its vote
        assert hub_time(c)[1]  # still gathering: more tables may come
        hall.mono[0] += GATHER_SECONDS
        assert hub_time(c)[1]  # gathered, not settled: a kiosk must not follow it yet
        report(c, key, 5, 3600.0)  # after the count: it settles it, but is no vote
        t1, provisional = hub_time(c)
        assert not provisional and to_moment(t1) == datetime(2024, 5, 4, 9, 31, 51)
        state = c.get("/api/td/state").json()
        assert state["deadlines"][0] == deadline  # every deadline where it was
        assert state["clock"] | {"system_synchronised": None} == {
            "standing": "kept by the tables", "epoch": 0, "system_synchronised": None,
            "offer_system": False, "system_change": None, "provisional": False,
            "kept_change": -3600.0, "kept_tables": 3, "offer_machine": True,
            "kept_note": VOTES}
        assert state["audit"][0]["summary"] == (
            "hub time taken from the 3 tables that kept it across the hub's restart, "
            "from 10:31:51 to 09:31:51, -3600 s: the hub machine's clock was ahead "
            f"({VOTES})")
        snap = c.get("/api/tables/1/snapshot", headers=key[1])
        assert snap.json()["clock"] == 0  # for the hall its time did not move
    hall.mono[0] += 10
    hall.wall[0] += 10
    with hall.hub(same_boot=True) as c:  # a second restart in this boot: the kept time
        t1, provisional = hub_time(c)
        assert to_moment(t1) == datetime(2024, 5, 4, 9, 32, 1) and not provisional
        assert c.get("/api/td/state").json()["clock"]["standing"] == "kept by the tables"


@pytest.mark.parametrize("step", [3600.0, -3600.0, 0.0])
def test_a_hub_restarted_in_the_same_boot_takes_its_own_time_back_exactly(
    tmp_path, password_hash, step
):
    """The monotonic clock runs on across a restart of the hub's process: what the hub kept
    on it is exact, whatever the wall clock did, and no table needs to vote."""
    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
        hall.mono[0] += 0.123456
        before, _ = hub_time(c)
        deadline = c.get("/api/td/state").json()["deadlines"][0]
    hall.mono[0] += 7.5  # seven and a half seconds down; the wall clock stepped meanwhile
    hall.wall[0] += 7.5 + step
    with hall.hub(same_boot=True) as c:
        t1, provisional = hub_time(c)
        assert t1 == before + 7.5 and not provisional  # to the float's last bit
        report(c, key, 1, -step)  # a table's vote changes nothing: nothing to decide
        state = c.get("/api/td/state").json()
        assert state["deadlines"][0] == deadline
        assert state["clock"]["standing"] == "not synchronised"  # as it was
        assert state["clock"]["kept_change"] is None
        assert hub_time(c)[0] == before + 7.5
    with hall.hub() as c:  # a reboot: the monotonic clock is another, the wall clock rules
        t1, provisional = hub_time(c)
        assert t1 == hall.wall[0] and provisional


def test_tables_that_agree_with_the_restarted_hub_keep_its_time(tmp_path, password_hash):
    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
        before = hub_time(c)[0]
        report(c, key, 1, 0.01)
        report(c, key, 2, 3600.0)  # one table kept a wrong time: outvoted
        report(c, key, 3, -0.02)
        hall.mono[0] += GATHER_SECONDS
        c.get("/api/td/state")  # the dashboard's poll settles it too
        t1, provisional = hub_time(c)
        assert not provisional and t1 == pytest.approx(before + GATHER_SECONDS)
        clock = c.get("/api/td/state").json()["clock"]
        assert clock["kept_change"] is None and clock["epoch"] == 0


def test_the_tds_time_wins_over_the_tables(tmp_path, password_hash):
    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
        report(c, key, 1, 3600.0)
        c.post("/api/clock", json={"time": "2024-05-04T09:45:00"}).raise_for_status()
        hall.mono[0] += GATHER_SECONDS
        report(c, key, 2, 3600.0)
        t1, provisional = hub_time(c)
        assert not provisional and to_moment(t1) == datetime(2024, 5, 4, 9, 45, 10)


def test_the_hall_time_is_taken_exactly_however_long_the_store_takes(
    tmp_path, password_hash, monkeypatch
):
    """The change is made from the moment the store has written it: a clock set to a time
    read before that write would lag the tables by as long as it took (6 ms once, on a busy
    machine, measured by the hall harness)."""
    from server.store import Store

    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
    hall.wall[0] += 3600.0  # rebooted an hour ahead
    with hall.hub() as c:
        provisional = c.app.state.hub.clock.now() - hall.mono[0]  # hub time - monotonic
        write = Store.set_clock

        def slow_write(self, *args, **kwargs):
            hall.mono[0] += 0.006  # the write's fsync on a busy SD card
            return write(self, *args, **kwargs)

        monkeypatch.setattr(Store, "set_clock", slow_write)
        for table in range(1, 6):
            report(c, key, table, 3600.0)
        hall.mono[0] += GATHER_SECONDS
        c.get("/api/td/state")  # settles
        assert c.app.state.hub.clock.now() - hall.mono[0] == pytest.approx(
            provisional - 3600.0, abs=1e-9)


def test_the_td_waits_while_the_tables_time_is_counted_but_may_set_the_time(
    tmp_path, password_hash
):
    """A pause stamped with a rebooted hub's time, about to move by an hour, would sit an
    hour from where the tables show it: TD changes wait the few seconds of the count (one
    clear line); setting the hub's time does not (the TD's time wins)."""
    hall = Hall(tmp_path, password_hash)
    with hall.hub() as c:
        key = set_up(c)
        report(c, key, 1, 0.01)  # a table that agrees with a first start holds nothing up
        assert c.post("/api/td/pauses", json={"reason": "Set up"}).status_code == 200
        assert c.post("/api/td/resume", json={}).status_code == 200
    hall.wall[0] += 3600.0
    with hall.hub() as c:
        for table in (1, 2, 3):
            report(c, key, table, 3600.0)
        hall.mono[0] += 3.2
        r = c.post("/api/td/pauses", json={"reason": "Lunch"})
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == ("the hub is taking the time its tables kept across its "
                                      f"restart: try again in {ceil(GATHER_SECONDS - 3.2)} s")
        hall.mono[0] += GATHER_SECONDS
        c.get("/api/td/state")  # settles
        assert c.post("/api/td/pauses", json={"reason": "Lunch"}).status_code == 200
    hall.wall[0] += 3600.0
    with hall.hub() as c:  # rebooted again, an hour further ahead: the TD sets the time
        report(c, key, 1, 3600.0)
        r = c.post("/api/clock", json={"time": "2024-05-04T09:40:00"})
        assert r.status_code == 200, r.text
        assert c.post("/api/td/resume", json={}).status_code == 200

"""The hub in the venue's zone: times stored in UTC, typed and shown in local time, the
same deadlines across a daylight-saving change and after a restart under another zone."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import tzlocal

from dipclock.sync import to_seconds
from server.rounds import hub_zone, in_venue
from server.store import MIGRATIONS, Store

# The night Europe springs forward in 2024: 02:00 CET becomes 03:00 CEST.
BERLIN = """
name = "Berlin Open"
timezone = "Europe/Berlin"
last_year = 1902
[[phase_lengths]]
spring = 17
fall = 15
[penalty]
model = "yellow_red"
"""


@pytest.fixture
def machine_zone_is() -> Iterator[object]:
    """Set this process's zone (and the hub's cached reading of it) for one test."""

    def set_zone(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()
        tzlocal.reload_localzone()  # tzlocal keeps its first reading
        hub_zone.cache_clear()
        in_venue.cache_clear()

    yield set_zone
    set_zone("UTC")


def test_a_round_typed_in_berlin_keeps_real_minutes_across_the_change_and_a_restart(
    hub, td, machine_zone_is
) -> None:
    c = hub.client
    assert c.put("/api/td/event", json={"toml": BERLIN}, headers=td).status_code == 200
    r = c.put("/api/td/round", json={"number": 1, "start": "2024-03-31T01:00:00"}, headers=td)
    assert r.status_code == 200, r.text
    hub.at(datetime(2024, 3, 30, 23, 55))  # 00:55 CET, UTC+1
    state = c.get("/api/td/state").json()
    assert state["timezone"] == "Europe/Berlin" and state["now"] == "2024-03-31T00:55:00"
    assert state["round"]["start"] == "2024-03-31T01:00:00"
    # 17 + 15 + 17 + 15 = 64 real minutes: Fall 1902 at 03:04 CEST, not 02:04 (no such time)
    assert [d["deadline"][11:16] for d in state["deadlines"]] == ["01:17", "01:32", "01:49",
                                                                   "03:04"]
    snap = c.get("/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).json()
    assert snap["schedule"]["start"] == "2024-03-31T00:00:00"  # the kiosk counts in UTC
    assert snap["event"]["timezone"] == "Europe/Berlin"  # and shows the venue's time
    # the hub is restarted on a machine set to New York: nothing moves
    machine_zone_is("America/New_York")
    hub.restart()
    hub.sign_in()
    again = hub.client.get("/api/td/state").json()
    assert again["deadlines"] == state["deadlines"] and again["round"] == state["round"]


def test_a_time_the_venue_skips_is_refused_and_one_it_repeats_is_the_first(hub, td) -> None:
    c = hub.client
    c.put("/api/td/event", json={"toml": BERLIN}, headers=td).raise_for_status()
    r = c.put("/api/td/round", json={"number": 1, "start": "2024-03-31T02:30:00"}, headers=td)
    assert r.status_code == 422 and r.json()["detail"].startswith("start: ")
    assert "does not exist in Europe/Berlin" in r.json()["detail"]
    r = c.put("/api/td/round", json={"number": 1, "start": "2024-10-27T02:30:00"}, headers=td)
    assert r.status_code == 200
    audit = c.get("/api/td/state").json()["audit"][0]["summary"]
    assert "happens twice" in audit and "the first" in audit


def test_an_event_without_a_zone_is_in_the_hub_machine_s(hub, td, machine_zone_is) -> None:
    machine_zone_is("Europe/Berlin")
    hub.restart()
    hub.sign_in()
    hub.at(datetime(2024, 5, 4, 7, 0))  # 09:00 CEST
    state = hub.client.get("/api/td/state").json()
    assert state["timezone"] == "Europe/Berlin" and state["now"] == "2024-05-04T09:00:00"
    snap = hub.client.get("/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).json()
    assert snap["event"]["timezone"] == "Europe/Berlin"


def test_a_hub_file_from_before_stores_its_times_in_utc_once(tmp_path: Path,
                                                             machine_zone_is) -> None:
    """Version 4 stored the machine's local time: opened on it, version 5 converts."""
    machine_zone_is("Europe/Berlin")
    path = tmp_path / "hub.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:4]:
        assert isinstance(script, str)
        db.executescript(script)
    db.execute("PRAGMA user_version = 4")
    from dipclock.events import BUILTIN
    db.execute("INSERT INTO rounds(number, start, title, profile) VALUES(1, ?, 'R1', ?)",
               ("2024-05-04T09:00:00", BUILTIN["wdc2006"].model_dump_json()))
    db.execute("INSERT INTO presses VALUES('p1', 1, 1, 'A', 'press', ?, ?)",
               ("2024-05-04T09:17:05", "2024-05-04T09:17:06"))
    db.execute("INSERT INTO pauses(round, body) VALUES(1, ?)",
               (json.dumps({"at": "2024-05-04T12:00:00", "minutes": 60}),))
    db.close()
    store = Store(path)
    try:
        [r] = store.rounds()
        assert r.start == datetime(2024, 5, 4, 7, 0)  # 09:00 CEST
        assert r.profile is not None and r.profile.timezone == "Europe/Berlin"
        [p] = store.presses(1)
        assert p.at == datetime(2024, 5, 4, 7, 17, 5)
        [(_, pause)] = store.pauses(1)
        assert pause.at == datetime(2024, 5, 4, 10, 0)
    finally:
        store.close()
    again = Store(path)  # opened again: converted once, not twice
    try:
        assert again.rounds()[0].start == datetime(2024, 5, 4, 7, 0)
    finally:
        again.close()


def test_the_hub_s_clock_is_posix_time() -> None:
    from server.clock import HubClock

    before = time.time()
    clock = HubClock(mono=lambda: 0.0, wall=time.time)  # anchored on the wall clock here
    assert before <= clock.now() <= time.time()  # bounded by two readings, not by a margin
    assert clock.moment() - datetime(1970, 1, 1) == timedelta(seconds=clock.now())
    assert to_seconds(clock.moment()) == pytest.approx(clock.now())

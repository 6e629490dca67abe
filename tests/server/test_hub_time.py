"""Trusted time at the hub: its standing, the TD setting it from a phone or from the system's
clock once NTP has set it, logged, announced to every kiosk, and kept across a restart on
the same boot."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from dipclock.sync import to_moment, to_seconds
from server.app import create_app
from server.clock import HubClock
from server.hubtime import change_text
from server.settings import Settings
from tests.server.conftest import PASSWORD
from tests.waits import received

T0 = datetime(2024, 5, 4, 8, 50)  # the fixture clock's start


def clock_of(hub) -> dict:
    return hub.client.get("/api/td/state").json()["clock"]


def audit(hub) -> list[str]:
    return [a["summary"] for a in hub.client.get("/api/td/state").json()["audit"]]


@pytest.mark.parametrize(("synced", "standing"), [
    (True, "synchronised"), (False, "not synchronised"), (None, "unknown"),
])
def test_the_hub_says_how_far_its_time_can_be_trusted(hub, synced, standing):
    hub.synced = synced
    hub.boot = "boot-2"  # rebooted: the standing is that of the wall clock it anchors on
    hub.restart()
    hub.sign_in()
    assert clock_of(hub) == {"standing": standing, "epoch": 0, "system_synchronised": synced,
                             "offer_system": False, "system_change": None,
                             # just started: listening for the time the tables kept
                             "provisional": True, "kept_change": None, "kept_tables": None,
                             "kept_note": None, "offer_machine": False}


def test_the_td_sets_the_hubs_time_from_the_phone_and_every_kiosk_resyncs(hub, td):
    with hub.client.websocket_connect("/api/tables/2/ws", headers=hub.kiosk_headers(2)) as ws:
        first = received(ws, "table 2's first snapshot")
        assert first["clock"] == 0
        phone = T0 + timedelta(minutes=2, seconds=2, milliseconds=250)
        r = hub.client.post("/api/clock", json={"time": phone.isoformat(timespec="milliseconds")},
                            headers=td)
        assert r.status_code == 200, r.text
        assert r.json()["change"] == pytest.approx(122.25)
        pushed = received(ws, "table 2's snapshot at the new hub time")
    assert pushed["clock"] == 1 and pushed["seq"] > first["seq"]
    assert pushed["hub_time"] == pytest.approx(to_seconds(phone))
    assert hub.client.get("/api/time").json()["t1"] == pytest.approx(to_seconds(phone))
    assert audit(hub)[0] == "hub time set from 08:50:00 to 08:52:02, +122 s"
    assert clock_of(hub)["standing"] == "set by the TD"
    hub.clock.t += 10  # and it runs on from there, on the monotonic clock
    assert to_moment(hub.client.get("/api/time").json()["t1"]) == phone + timedelta(seconds=10)


def test_a_jump_of_days_keeps_the_tds_session(hub, td):
    """Session expiry is in hub time: the hub's clock set three days on must not sign the TD
    out (nor let a session live three days too long when set back)."""
    later = T0 + timedelta(days=3)
    r = hub.client.post("/api/clock", json={"time": later.isoformat()}, headers=td)
    assert r.status_code == 200, r.text
    assert audit(hub)[0] == ("hub time set from 2024-05-04 08:50:00 to 2024-05-07 08:50:00, "
                             "+259200 s")
    assert hub.client.get("/api/session").json()["signed_in"]
    hub.clock.t += 25 * 3600  # a day (the session's length) and an hour later: expired
    assert not hub.client.get("/api/session").json()["signed_in"]


@pytest.mark.parametrize(("body", "says"), [
    ({"time": "2024-05-04T10:04:05+02:00"}, "without a zone"),
    ({"time": "1970-01-01T00:00:05"}, "year must be between 2000 and 2100"),
    ({"time": "10:04"}, "time:"),
    ({"time": "2024-02-30T10:00:00"}, "time:"),
    ({"time": 1e300}, "time:"),
    ({}, "give either time"),
    ({"time": "2024-05-04T10:04:05", "source": "system"}, "give either time"),
    ({"source": "phone"}, "source:"),
    ({"time": "2024-05-04T10:04:05", "offset": 3}, "offset: unknown field"),
    ([1, 2], "expected a JSON object"),
])
def test_odd_times_are_refused_with_one_clear_message(hub, td, body, says):
    r = hub.client.post("/api/clock", json=body, headers=td)
    assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert clock_of(hub)["epoch"] == 0


def test_only_the_signed_in_td_with_the_csrf_token_sets_the_time(hub, td):
    body = {"time": "2024-05-04T10:00:00"}
    assert hub.client.post("/api/clock", json=body).status_code == 403  # no CSRF header
    fresh = TestClient(hub.client.app)  # no session cookie, only a clock's token
    r = fresh.post("/api/clock", json=body, headers=hub.kiosk_headers(1))
    assert r.status_code == 403 and "clock's token cannot" in r.json()["detail"]
    assert clock_of(hub)["epoch"] == 0


def test_once_ntp_has_set_the_system_clock_the_td_can_take_it(hub, td):
    r = hub.client.post("/api/clock", json={"source": "system"}, headers=td)
    assert r.status_code == 409 and "not synchronised" in r.json()["detail"]
    assert clock_of(hub)["offer_system"] is False
    hub.synced = True  # NTP has stepped the system clock 95.5 s on since the hub started
    hub.clock.wall_offset = 95.5
    shown = clock_of(hub)
    assert shown["offer_system"] and shown["system_change"] == 95.5
    assert shown["standing"] == "not synchronised"
    r = hub.client.post("/api/clock", json={"source": "system"}, headers=td)
    assert r.status_code == 200, r.text
    assert hub.clock.now() == hub.clock.wall()
    assert audit(hub)[0] == ("hub time set to the system's synchronised time, "
                             "from 08:50:00 to 08:51:35, +96 s")
    assert clock_of(hub) | {"system_synchronised": None} == {
        "standing": "synchronised", "epoch": 1, "system_synchronised": None,
        "offer_system": False, "system_change": None,
        "provisional": False, "kept_change": None, "kept_tables": None,  # the TD's time won
        "kept_note": None, "offer_machine": False}


def live_app(data, pw_hash: str, wall: list[float], boot: str, synced: bool = False,
             mono: list[float] | None = None) -> TestClient:
    """A hub on the real clock class, with the wall and monotonic clocks and the boot a
    test chooses (``mono``: the boot's monotonic clock, shared by every start in it)."""
    ticks = mono if mono is not None else [500.0]
    clock = HubClock(mono=lambda: ticks[0], wall=lambda: wall[0])
    settings = Settings(data_dir=data, td_password_hash=pw_hash)
    c = TestClient(create_app(settings, clock=clock, synced=lambda: synced, boot=lambda: boot))
    c.__enter__()
    return c


def test_a_restart_in_the_same_boot_keeps_the_tds_time_and_a_reboot_forgets_it(
    tmp_path, password_hash
):
    wall, mono = [to_seconds(T0)], [500.0]  # a Pi an hour behind: the TD sets 09:50
    c = live_app(tmp_path, password_hash, wall, "boot-A", mono=mono)
    csrf = {"X-CSRF-Token": c.post("/api/login", json={"password": PASSWORD}).json()["csrf"]}
    c.post("/api/clock", json={"time": "2024-05-04T09:50:00"}, headers=csrf).raise_for_status()
    c.__exit__(None, None, None)

    wall[0] += 30  # the hub restarts half a minute later, same boot, clock still wrong
    mono[0] += 30
    c = live_app(tmp_path, password_hash, wall, "boot-A", mono=mono)
    assert to_moment(c.get("/api/time").json()["t1"]) == datetime(2024, 5, 4, 9, 50, 30)
    c.post("/api/login", json={"password": PASSWORD})
    assert c.get("/api/td/state").json()["clock"]["standing"] == "set by the TD"
    c.__exit__(None, None, None)

    c = live_app(tmp_path, password_hash, wall, "boot-B")  # rebooted: the wall clock guesses
    assert to_moment(c.get("/api/time").json()["t1"]) == to_moment(wall[0])
    c.__exit__(None, None, None)


def test_a_restart_once_ntp_has_set_the_clock_keeps_the_halls_time_and_offers_ntps(
    tmp_path, password_hash
):
    """NTP set the system clock while the hub ran on the TD's time; a restart in that boot
    keeps the hall's time (every deadline stays where the tables show it) and the
    dashboard offers the system's, for the TD to take or not."""
    wall, mono = [to_seconds(T0)], [500.0]
    c = live_app(tmp_path, password_hash, wall, "boot-A", mono=mono)
    csrf = {"X-CSRF-Token": c.post("/api/login", json={"password": PASSWORD}).json()["csrf"]}
    c.post("/api/clock", json={"time": "2024-05-04T09:50:00"}, headers=csrf).raise_for_status()
    c.__exit__(None, None, None)
    wall[0] += 3600 + 2.5  # NTP stepped it: the TD's phone was 2.5 s behind
    c = live_app(tmp_path, password_hash, wall, "boot-A", synced=True, mono=mono)
    assert to_moment(c.get("/api/time").json()["t1"]) == datetime(2024, 5, 4, 9, 50)
    c.post("/api/login", json={"password": PASSWORD})
    clock = c.get("/api/td/state").json()["clock"]
    assert clock["standing"] == "set by the TD" and clock["offer_system"]
    assert clock["system_change"] == 2.5
    c.__exit__(None, None, None)


def test_hub_clock_set_to_moves_only_the_offset():
    mono = [100.0]
    clock = HubClock(mono=lambda: mono[0], wall=lambda: 5000.0)
    clock.set_to(9000.0)
    assert (clock.now(), clock.mono(), clock.wall()) == (9000.0, 100.0, 5000.0)
    mono[0] += 1.5
    assert clock.now() == 9001.5


@pytest.mark.parametrize(("seconds", "text"), [
    (122.25, "+122 s"), (-3.04, "-3.0 s"), (0.4, "+0.4 s"), (-7200, "-7200 s"),
])
def test_the_change_reads_as_a_td_says_it(seconds, text):
    assert change_text(seconds) == text


def test_the_system_time_is_taken_exactly_however_long_the_store_takes(
    tmp_path, password_hash, monkeypatch
):
    from server.store import Store

    wall, mono = [to_seconds(T0)], [500.0]
    c = live_app(tmp_path, password_hash, wall, "boot-A", synced=True, mono=mono)
    csrf = {"X-CSRF-Token": c.post("/api/login", json={"password": PASSWORD}).json()["csrf"]}
    wall[0] += 95.5  # NTP stepped the system clock on since the hub anchored its time
    write = Store.set_clock

    def slow_write(self, *args, **kwargs):
        mono[0] += 0.006  # and the machine with it: the write took 6 ms
        wall[0] += 0.006
        return write(self, *args, **kwargs)

    monkeypatch.setattr(Store, "set_clock", slow_write)
    c.post("/api/clock", json={"source": "system"}, headers=csrf).raise_for_status()
    assert c.app.state.hub.clock.now() == pytest.approx(wall[0], abs=1e-9)
    c.__exit__(None, None, None)

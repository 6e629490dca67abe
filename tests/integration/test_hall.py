"""The kiosk and the hub together, as processes: sync, push, outage, exactly-once presses."""

from __future__ import annotations

import signal
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.sync import to_moment, to_seconds
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from tests.integration.conftest import TABLES, Hall, KioskProc, wait_for


def outbox_rows(path: Path) -> list[tuple[str, str, int]]:
    db = sqlite3.connect(path, timeout=5)
    try:
        return db.execute("SELECT id, power, sent FROM presses ORDER BY seq").fetchall()
    finally:
        db.close()


#: What the four-timestamp bound leaves out: float rounding and the stamps' own reading time.
SLACK = 0.002


def in_sync(rtt: float) -> float:
    """How far a kiosk on the hub's own machine may be from it once its screen follows a
    sample of round trip ``rtt`` at most: half of it, for that sample's lopsided legs, and as
    much again for the sample a report compares with. Bounded by what the kiosk measured, so
    a loaded machine's slow exchanges widen it; a real fault (a second off) never passes."""
    return 2 * rtt + SLACK


def test_kiosk_clocks_agree_with_the_hub(hall: Hall) -> None:
    """Kiosks and hub read one machine's clock, so the true offset is 0. A screen that
    stepped to its first sample (slow, on a loaded machine) slews to the better ones after
    it: each kiosk is waited for (a minute at most) to be in step by its own round trips."""
    td = hall.td()

    def reports() -> dict[int, dict[str, Any]] | None:
        """Each kiosk's last sync report in the grid, once every one is in step and its
        push channel open (a loaded machine may still be opening it)."""
        rows = {t["table"]: t for t in td.get("/api/td/state").json()["tables"]}
        return rows if all(rows[n]["offset"] is not None and rows[n]["sockets"] == 1
                           and abs(rows[n]["offset"]) <= in_sync(rows[n]["rtt"])
                           for n in TABLES) else None

    tables = wait_for("every kiosk's sync report in the grid, in step by its round trip, "
                      "and its push channel open", reports, timeout=90)
    for n in TABLES:
        assert tables[n]["rtt"] >= 0 and tables[n]["connected"], tables[n]
    # Independently: kiosks and hub share this machine's CLOCK_MONOTONIC, so compare the
    # offsets from it to the hub time each uses.
    with httpx.Client(base_url=hall.hub.url, timeout=5, verify=hall.hub.verify) as c:
        exchanges = []
        for _ in range(5):  # the fastest of five, as the kiosk's own filter does
            m0 = time.monotonic()
            t1 = c.get("/api/time").json()["t1"]
            m1 = time.monotonic()
            exchanges.append((m1 - m0, t1 - (m0 + m1) / 2))
    rtt, hub_offset = min(exchanges)

    def in_step(k: KioskProc) -> dict[str, Any] | None:
        """The kiosk's screen, once the hub time it shows is the hub's, by the round trips
        measured (its own and the test's)."""
        s = k.screen()
        if s is None or s["sync"] is None:
            return None
        bound = in_sync(max(s["sync"]["rtt"], tables[k.table]["rtt"]))
        return s if (abs(s["sync"]["offset"]) <= bound
                     and abs(s["hub_time"] - s["mono"] - hub_offset) <= bound + rtt / 2) else None

    for n, k in hall.kiosks.items():
        wait_for(f"table {n}'s screen in step with the hub", lambda k=k: in_step(k), timeout=90)


def test_a_pause_and_the_resume_reach_every_kiosk(hall: Hall) -> None:
    td = hall.td()
    td.post("/api/td/pauses", json={"reason": "Integration"}).raise_for_status()
    for n, k in hall.kiosks.items():
        screen = wait_for(f"table {n} paused", lambda k=k: (s := k.screen())
                          and s["stage"] == "paused" and s)
        assert screen["look"] == "paused" and not screen["hub_lost"]
    td.post("/api/td/resume", json={}).raise_for_status()
    for n, k in hall.kiosks.items():
        wait_for(f"table {n} negotiating again",
                 lambda k=k: (s := k.screen()) and s["stage"] == "negotiating")


def test_a_press_sent_three_times_is_stored_once(hall: Hall, tmp_path: Path) -> None:
    replies: list[dict[str, int]] = []

    class Recording(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = super().handle_request(request)
            if request.url.path.endswith("/presses"):
                response.read()
                replies.append(response.json())
            return response

    outbox = Outbox(tmp_path / "o.sqlite")
    client = HubClient(hall.hub.url, 2, hall.token(2), outbox,
                       transport=Recording(verify=hall.hub.verify))
    try:
        assert client.sync_once() and client.fetch_snapshot()
        rnd = client.current()
        assert rnd is not None
        at = to_moment(client.local(time.monotonic()))
        press = outbox.record("T", "press", at, rnd.key, "test")
        for _ in range(3):
            assert outbox.unsent() == [press]
            assert client.upload_once()
            assert outbox.unsent() == []
            db = sqlite3.connect(outbox.path)  # as if the hub's reply had been lost
            with db:
                db.execute("UPDATE presses SET sent = 0")
            db.close()
    finally:
        client.close()
        outbox.close()
    assert replies == [{"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}] + [
        {"stored": 0, "duplicates": 1, "merged": 0, "rejected": []}] * 2
    ids = [p["id"] for p in hall.snapshot(2)["presses"]]
    assert ids.count(press.id) == 1


def test_kiosks_count_through_a_killed_hub_and_upload_once_after(hall: Hall) -> None:
    k1, k2 = hall.kiosks[1], hall.kiosks[2]
    before = hall.snapshot(1)["seq"]
    hall.hub.kill()  # SIGKILL: no goodbye to the kiosks
    try:
        for n, k in hall.kiosks.items():
            wait_for(f"table {n} hub lost", lambda k=k: (s := k.screen()) and s["hub_lost"])
        k1.press("I")
        k2.press("R")
        pressed = {}
        for k, power in ((k1, "I"), (k2, "R")):
            line = wait_for(f"table {k.table} acknowledged its press", lambda k=k: next(
                (ln for ln in k.printed().splitlines() if ln.startswith("PRESS ")), None))
            press_id, got_power = line.split()[1:3]
            assert got_power == power
            pressed[k.table] = press_id
            assert (press_id, power, 0) in outbox_rows(k.outbox)  # waiting in the outbox
            wait_for(f"table {k.table} shows {power} in", lambda k=k, p=power: (
                s := k.screen()) and any(c["letter"] == p and c["state"] == "in"
                                         for c in s["chips"]))
        # The clock keeps running without the hub: the screen is still redrawn every second.
        for n, k in hall.kiosks.items():
            first = wait_for(f"table {n} screen", k.screen)
            later = wait_for(f"table {n} still counting", lambda k=k, f=first: (
                s := k.screen()) and s["written"] > f["written"] and s["remaining"] < f["remaining"]
                and s)
            assert later["hub_lost"] and later["stage"] == "negotiating", later
            assert later["hub_time"] > first["hub_time"]
    finally:
        hall.hub.start()  # same --data, same port
    for n, k in hall.kiosks.items():
        wait_for(f"table {n} reconnected", lambda k=k: (s := k.screen()) and not s["hub_lost"],
                 timeout=60)
    for k in (k1, k2):
        wait_for(f"table {k.table} uploaded its outbox",
                 lambda k=k: all(sent for _, _, sent in outbox_rows(k.outbox)), timeout=60)
    for n, press_id in pressed.items():
        snap = hall.snapshot(n)
        assert [p["id"] for p in snap["presses"]].count(press_id) == 1, snap["presses"]
        assert snap["seq"] > before
    # The TD sees them too, and each kiosk's screen counts its press once.
    grid = {t["table"]: t for t in hall.td().get("/api/td/state").json()["tables"]}
    assert [p["power"] for p in grid[1]["powers"] if p["in"]] == ["I"]
    assert "R" in [p["power"] for p in grid[2]["powers"] if p["in"]]
    for k in (k1, k2):
        wait_for(f"table {k.table} back on the hub's snapshot", lambda k=k: (
            s := k.screen()) and not s["hub_lost"] and s["stage"] == "negotiating")
        assert len([ln for ln in k.printed().splitlines() if ln.startswith("PRESS ")]) == 1


def test_a_frozen_hub_is_lost_on_every_table_and_found_again(hall: Hall) -> None:
    """SIGSTOP: the hub's sockets stay open and say nothing, as a hung hub's do. Only the
    push channel's keepalive tells a table (``kiosk.hubclient.PING_TIMEOUT``): 4.5 s at
    most, measured by ``make bench``; the bound here is for a loaded machine, well under
    the 36 s it took before the keepalive."""
    for n, k in hall.kiosks.items():
        wait_for(f"table {n} connected", lambda k=k: (s := k.screen()) and not s["hub_lost"])
    assert hall.hub.proc is not None
    hall.hub.proc.send_signal(signal.SIGSTOP)
    try:
        for n, k in hall.kiosks.items():
            wait_for(f"table {n} sees the frozen hub lost",
                     lambda k=k: (s := k.screen()) and s["hub_lost"], timeout=20)
    finally:
        hall.hub.proc.send_signal(signal.SIGCONT)
    for n, k in hall.kiosks.items():
        wait_for(f"table {n} found the hub again",
                 lambda k=k: (s := k.screen()) and not s["hub_lost"], timeout=60)


def test_a_kiosk_whose_clock_is_off_says_so_then_follows_the_hub(hall: Hall,
                                                                  tmp_path: Path) -> None:
    """The sign of the reported offset: hub time minus what the screen was showing.

    Table 3's own kiosk is stopped meanwhile (SIGSTOP): the grid's row for table 3 is then
    this client's report, not one of the kiosk's sent in between."""
    outbox = Outbox(tmp_path / "o.sqlite")
    wall = lambda: to_seconds(datetime.now()) + 3.0  # noqa: E731 - a wall clock 3 s fast
    client = HubClient(hall.hub.url, 3, hall.token(3), outbox, wall=wall, verify=hall.hub.verify)
    hall.kiosks[3].proc.send_signal(signal.SIGSTOP)
    try:
        assert client.sync_once()  # before it, the screen ran on the (wrong) wall clock
        offset, rtt = client.sync_status() or (None, None)
        # the four-timestamp offset is off by at most half the round trip, however loaded the
        # machine: the margin is the measured one, not a guess of how fast loopback is
        assert offset == pytest.approx(-3.0, abs=rtt / 2 + SLACK)
        row = next(t for t in hall.td().get("/api/td/state").json()["tables"] if t["table"] == 3)
        assert row["offset"] == pytest.approx(offset, abs=1e-6)  # as the kiosk measured it
        assert client.sync_once()  # the screen stepped to hub time: in sync now
        first_rtt = rtt
        offset, rtt = client.sync_status() or (None, None)
        # this sample's error and the first one's, which the screen now shows
        assert abs(offset) <= first_rtt / 2 + rtt / 2 + SLACK
        before = client.local(time.monotonic())
        hub_now = hall.hub.get("/api/time", timeout=5).json()["t1"]
        after = client.local(time.monotonic())
        error = max(first_rtt, rtt) / 2 + SLACK  # the best sample's, which the screen follows
        assert before - error <= hub_now <= after + error
    finally:
        hall.kiosks[3].proc.send_signal(signal.SIGCONT)
        client.close()
        outbox.close()

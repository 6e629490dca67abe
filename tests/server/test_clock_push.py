"""Hub time ignores wall-clock steps; the fan-out never waits for a slow kiosk."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

from server.clock import HubClock, wall_seconds
from server.push import Client, Fanout, Frame
from tests.waits import received


def test_hub_time_does_not_jump_when_the_wall_clock_is_stepped(monkeypatch):
    mono = [1000.0]
    clock = HubClock(mono=lambda: mono[0])  # the real wall clock anchors it, once
    before, wall_before = clock.now(), wall_seconds()
    assert abs(before - wall_before) < 5
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 3600)  # NTP steps an hour
    assert wall_seconds() - wall_before > 3500  # the step is visible to a naive reader ...
    assert clock.now() == before  # ... but not to hub time
    mono[0] += 2.5
    assert clock.now() == before + 2.5


def test_hub_time_is_monotonic_plus_a_fixed_offset():
    clock = HubClock(mono=lambda: 10.0, wall=lambda: 1_700_000_000.0)
    assert clock.now() == 1_700_000_000.0
    assert clock.moment().isoformat() == "2023-11-14T22:13:20"


def test_a_client_queue_keeps_only_the_latest_snapshot():
    async def go() -> None:
        c = Client(table=1)
        for seq in (1, 2, 3):
            c.offer(Frame.of({"seq": seq}))
        c.offer(Frame.of({"seq": 2}))  # an older one, handed over late, is never queued
        assert c.queue.qsize() == 1 and c.queue.get_nowait() == Frame(3, '{"seq": 3}')

    asyncio.run(go())


class FakeSocket:
    def __init__(self, stuck: bool = False) -> None:
        self.stuck, self.sent, self.closed = stuck, [], False

    async def send_text(self, data: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()  # a kiosk whose Wi-Fi froze mid-send
        self.sent.append(data)

    async def receive_text(self) -> str:
        await asyncio.Event().wait()
        return ""

    async def close(self, code: int = 1000) -> None:
        self.closed = True


def test_a_stuck_kiosk_is_dropped_and_never_holds_up_the_others():
    async def go() -> None:
        fan = Fanout(send_timeout=0.2)
        good = [FakeSocket() for _ in range(5)]
        stuck = FakeSocket(stuck=True)
        tasks = [asyncio.create_task(fan.serve(ws, n, {"seq": 1, "table": n}))
                 for n, ws in enumerate([stuck, *good], start=1)]
        await asyncio.sleep(0)  # let every client register
        await asyncio.sleep(0)
        assert len(fan.clients) == 6
        fan.publish(lambda tables: {n: Frame.of({"seq": 2, "table": n}) for n in tables})
        for _ in range(20):  # good clients get both snapshots within a few loop turns
            await asyncio.sleep(0)
        assert all(len(ws.sent) == 2 for ws in good)
        await asyncio.wait_for(tasks[0], timeout=2)  # the stuck one is dropped after 0.2 s
        assert stuck.closed and len(fan.clients) == 5
        for t in tasks[1:]:
            t.cancel()

    asyncio.run(go())


def test_publish_to_some_tables_only():
    async def go() -> None:
        fan = Fanout(send_timeout=1)
        a, b = Client(1), Client(2)
        fan.clients |= {a, b}
        built = []
        fan.publish(lambda t: built.append(t) or {n: Frame.of({"table": n}) for n in t},
                    tables={2})
        assert built == [{2}] and a.queue.empty()
        assert b.queue.get_nowait() == Frame(None, '{"table": 2}')

    asyncio.run(go())


def test_websocket_gets_a_new_snapshot_when_the_td_pauses(hub, td):
    with hub.client.websocket_connect("/api/tables/2/ws", headers=hub.kiosk_headers(2)) as ws:
        first = received(ws, "table 2's first snapshot")
        assert first["table"] == 2 and first["schedule"]["pauses"] == []
        hub.client.post("/api/td/pauses", json={"reason": "Lunch"}, headers=td)
        second = received(ws, "table 2's snapshot after the pause")
        assert second["seq"] > first["seq"]
        assert second["schedule"]["pauses"][0]["reason"] == "Lunch"


def test_a_stored_press_is_pushed_to_its_table_and_to_no_other(hub, td):
    with hub.client.websocket_connect("/api/tables/2/ws", headers=hub.kiosk_headers(2)) as two, \
            hub.client.websocket_connect("/api/tables/3/ws", headers=hub.kiosk_headers(3)) as three:
        first = received(two, "table 2's first snapshot")
        assert first["presses"] == []
        assert received(three, "table 3's first snapshot")["presses"] == []
        press = {"id": "6c1f9a44-0000-4000-8000-000000000001", "power": "I", "kind": "press",
                 "at": "2024-05-04T09:05:00"}
        hub.at(datetime(2024, 5, 4, 9, 5))  # made on the hub's time
        r = hub.client.post("/api/tables/2/presses", json={"presses": [press]},
                            headers=hub.kiosk_headers(2))
        assert r.status_code == 200 and r.json()["stored"] == 1
        # a pause for every table next, so a missing push shows as the wrong snapshot, not a hang
        hub.client.post("/api/td/pauses", json={"reason": "Lunch"}, headers=td)
        pushed = received(two, "table 2's snapshot of its press")
        assert pushed["schedule"]["pauses"] == []  # the press's own snapshot, before the pause
        assert pushed["seq"] > first["seq"]
        assert [p["id"] for p in pushed["presses"]] == [press["id"]]
        paused = received(two, "table 2's snapshot of the pause")
        assert paused["schedule"]["pauses"][0]["reason"] == "Lunch"
        # table 3 got no snapshot for table 2's press: its next one is the pause
        paused = received(three, "table 3's snapshot of the pause")
        assert paused["schedule"]["pauses"][0]["reason"] == "Lunch"


def test_status_reports_show_on_the_grid(hub, td):
    r = hub.client.post("/api/tables/3/status", json={"offset": -0.012, "rtt": 0.034},
                        headers=hub.kiosk_headers(3))
    assert r.status_code == 204
    row = next(t for t in hub.client.get("/api/td/state").json()["tables"] if t["table"] == 3)
    assert row["connected"] and row["offset"] == -0.012 and row["rtt"] == 0.034
    hub.clock.t += 60
    row = next(t for t in hub.client.get("/api/td/state").json()["tables"] if t["table"] == 3)
    assert not row["connected"]

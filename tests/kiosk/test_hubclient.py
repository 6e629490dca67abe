"""The hub client's pieces against a fake hub (httpx.MockTransport, a websockets server)."""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.server import serve

from dipclock.events import BUILTIN
from dipclock.sync import from_local, to_local
from hardware.events import ButtonEvent
from kiosk.app import Kiosk
from kiosk.hubclient import Backoff, HubClient
from kiosk.outbox import Outbox

START = datetime(2019, 9, 6, 10, 0)
HUB_SHIFT = from_local(START) - 1000.0  # hub time = monotonic + this


def snapshot(seq: int, presses: list[dict[str, str]] | None = None, out: list[str] | None = None,
             start: datetime = START) -> dict[str, Any]:
    return {
        "seq": seq, "table": 3,
        "event": BUILTIN["wdc2019"].model_dump(mode="json"),
        "schedule": {"start": start.isoformat(), "title": "Round 2"},
        "out": out or [], "presses": presses or [], "hub_time": 0.0,
    }


class FakeHub:
    def __init__(self) -> None:
        self.up = True
        self.snap = snapshot(1)
        self.stored: dict[str, dict[str, str]] = {}
        self.auth: list[str | None] = []
        self.mono = 1000.0
        self.shift = HUB_SHIFT
        self.lag = 0.0  # extra time a /api/time request takes to reach the hub
        self.posts = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.auth.append(request.headers.get("authorization"))
        if not self.up:
            raise httpx.ConnectError("hub down", request=request)
        if request.url.path == "/api/time":
            self.mono += self.lag
            t = self.mono + self.shift + 0.010  # the request took 10 ms to arrive
            return httpx.Response(200, json={"t1": t, "t2": t + 0.001})
        if request.url.path == "/api/tables/3/snapshot":
            return httpx.Response(200, json=self.snap)
        if request.url.path == "/api/tables/3/presses":
            self.posts += 1
            body = json.loads(request.content)
            bad = [p for p in body["presses"] if not p["at"].startswith("20")]
            good = [p for p in body["presses"] if p not in bad]
            new = [p for p in good if p["id"] not in self.stored]
            self.stored.update({p["id"]: p for p in good})
            return httpx.Response(200, json={
                "stored": len(new), "duplicates": len(good) - len(new),
                "rejected": [{"id": p["id"], "reason": "at: the year must be between 2000 "
                              "and 2100"} for p in bad]})
        return httpx.Response(404)


@pytest.fixture
def hub(tmp_path: Path) -> Any:
    fake = FakeHub()
    outbox = Outbox(tmp_path / "o.sqlite")

    def mono() -> float:
        fake.mono += 0.010  # every reading is 10 ms later: a 20 ms round trip
        return fake.mono

    client = HubClient("http://hub:8000", 3, "KEY", outbox, mono=mono,
                       wall=lambda: fake.mono + HUB_SHIFT + 3600,  # wall clock an hour off
                       transport=httpx.MockTransport(fake), rng=random.Random(1))
    yield fake, client, outbox
    client.close()
    outbox.close()


def test_time_sync_gives_hub_time(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.sync_once()
    # the fake's legs differ by 10 ms, so the estimate is off by half that
    assert client.local(fake.mono) == pytest.approx(fake.mono + HUB_SHIFT, abs=0.01)
    assert fake.auth[-1] == "Bearer KEY"
    assert outbox.get("hub_wall_offset") == pytest.approx(-3600, abs=0.05)


def test_before_any_sync_the_wall_clock_and_stored_offset_are_used(hub: Any,
                                                                   tmp_path: Path) -> None:
    fake, client, outbox = hub
    client.sync_once()
    fake.up = False
    later = HubClient("http://hub:8000", 3, "KEY", outbox, mono=lambda: fake.mono,
                      wall=lambda: fake.mono + HUB_SHIFT + 3600,
                      transport=httpx.MockTransport(fake))
    assert not later.sync_once()
    assert later.local(fake.mono) == pytest.approx(fake.mono + HUB_SHIFT, abs=0.05)
    later.close()


def test_snapshots_only_move_forward_and_are_kept(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.current() is None
    fake.snap = snapshot(5, out=["T"])
    assert client.fetch_snapshot()
    assert client.current().hub_out == {"T"}
    assert not client.accept(snapshot(4))  # older: ignored
    assert client.current().hub_out == {"T"}
    assert client.accept(snapshot(6))
    restored = HubClient("http://hub:8000", 3, "KEY", outbox,
                         transport=httpx.MockTransport(fake))
    assert restored.current().schedule.title == "Round 2"  # shown before the hub answers
    restored.close()
    assert client.accept(snapshot(1, start=datetime(2019, 9, 6, 14, 0)))  # hub restarted


def test_presses_upload_once_and_hub_lost_when_down(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.fetch_snapshot() and client.connected
    kiosk = Kiosk(client, outbox, client, log=lambda line: None)
    client.sync_once()
    fake.up = False
    kiosk.handle(ButtonEvent("I", "press", fake.mono, "test"))
    assert not client.upload_once()
    assert client.hub_lost()
    assert [p.sent for p in outbox.presses()] == [False]
    screen = kiosk.frame(fake.mono).screen
    assert screen.hub_lost and screen.look == "negotiating"  # the clock keeps running
    fake.up = True
    assert client.upload_once()
    assert not client.hub_lost()
    assert [p.sent for p in outbox.presses()] == [True]
    assert list(fake.stored) == [outbox.presses()[0].id]
    # the hub echoes it in its snapshot: shown once, not twice
    fake.snap = snapshot(2, presses=list(fake.stored.values()))
    client.fetch_snapshot()
    frame = kiosk.frame(fake.mono)
    assert frame.screen.banner == "Italy: orders in"


def test_a_refused_press_is_kept_flagged_and_does_not_block_the_rest(
        hub: Any, caplog: pytest.LogCaptureFixture) -> None:
    fake, client, outbox = hub
    key = "wdc2019/3/2019-09-06T10:00:00"
    bad = outbox.record("I", "press", datetime(1970, 1, 1, 0, 3), key)  # clock not yet synced
    good = outbox.record("E", "press", START, key)
    with caplog.at_level("WARNING", logger="kiosk.hubclient"):
        assert client.upload_once()
        assert fake.posts == 1 and list(fake.stored) == [good.id]
        later = outbox.record("F", "press", START, key)
        assert client.upload_once()
        assert fake.posts == 2 and list(fake.stored) == [good.id, later.id]
        assert client.upload_once() and fake.posts == 2  # nothing left to send
    assert outbox.unsent() == []
    assert outbox.rejected() == [bad.id]
    assert [p.id for p in outbox.presses()] == [bad.id, good.id, later.id]  # nothing deleted
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 1 and bad.id in refusals[0] and "year" in refusals[0]


def test_a_hub_started_afresh_is_followed_despite_a_lower_seq(hub: Any) -> None:
    fake, client, outbox = hub
    for _ in range(3):
        assert client.sync_once()
    assert client.accept(snapshot(50) | {"hub": "old"})
    assert not client.accept(snapshot(49) | {"hub": "old"})  # the same hub: stale
    # the hub restarted on an empty data dir: same round, seq from 1, its own clock
    fake.shift += 100.0
    fake.lag = 0.2  # its samples are slower than the old hub's: they'd lose in the filter
    assert client.accept(snapshot(3, out=["T"]) | {"hub": "new"})
    assert client.current().hub_out == {"T"}
    assert outbox.get("hub_snapshot")["hub"] == "new"
    assert client.sync_once()
    assert client.local(fake.mono) == pytest.approx(fake.mono + fake.shift, abs=0.2)
    assert client.accept(snapshot(4) | {"hub": "new"})
    assert not client.accept(snapshot(4) | {"hub": "new"})


def test_a_hub_that_lost_its_data_gets_the_rounds_presses_again(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.accept(snapshot(7) | {"hub": "old"})
    key = client.current().key
    mine = [outbox.record(p, "press", START, key) for p in "AE"]
    other = outbox.record("F", "press", START, "another-round-key")
    assert client.upload_once() and set(fake.stored) == {p.id for p in [*mine, other]}
    fake.stored.clear()  # the hub's disk was lost; it starts again on an empty folder
    assert client.accept(snapshot(1) | {"hub": "new"})
    assert [p.id for p in outbox.unsent()] == [p.id for p in mine]  # this round only
    assert client.upload_once() and set(fake.stored) == {p.id for p in mine}


def test_backoff_is_jittered_and_capped() -> None:
    b = Backoff(1.0, 30.0, random.Random(7))
    delays = [b.next() for _ in range(10)]
    assert 0.5 <= delays[0] <= 1.0
    assert all(15 <= d <= 30 for d in delays[6:])
    b.reset()
    assert b.next() <= 1.0


def test_the_websocket_pushes_snapshots(tmp_path: Path) -> None:
    sent = queue.Queue()  # type: ignore[var-annotated]
    paths: list[str] = []

    def handler(ws: Any) -> None:
        paths.append(ws.request.path)
        ws.send(json.dumps(snapshot(3)))
        ws.send(json.dumps(snapshot(4, out=["A"])))
        sent.get(timeout=5)

    with serve(handler, "127.0.0.1", 0) as server:
        port = server.socket.getsockname()[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        woken = threading.Event()
        outbox = Outbox(tmp_path / "o.sqlite")
        client = HubClient(f"http://127.0.0.1:{port}", 3, "KEY", outbox, wake=woken.set,
                           transport=httpx.MockTransport(FakeHub()))
        client.start()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (client.current() is None
                                               or client.current().hub_out != {"A"}):
            time.sleep(0.02)
        assert client.current().hub_out == {"A"}
        assert woken.is_set() and client.connected
        assert paths == ["/api/tables/3/ws?key=KEY"]
        sent.put(None)
        client.close()
        outbox.close()
        server.shutdown()


def test_hub_time_is_local_time() -> None:
    assert to_local(HUB_SHIFT + 1000.0) == START

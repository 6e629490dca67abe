"""The event loop does only async work: a TD request held up mid-way never holds up the
kiosks' time sync, and snapshots published from worker threads reach the sockets in order.

A real uvicorn on a free 127.0.0.1 port serves the hub; its clock is the real hub clock,
except that the test can stop one reading of ``moment()`` (every TD action and the
dashboard read it; ``/api/time`` reads only ``now()``) on a ``threading.Event`` it holds.
No timing is asserted: the proof is that ``/api/time`` answers while the TD's request is
still stopped, which cannot happen if that request runs on the event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.sync import to_moment
from server.clock import HubClock
from server.push import Fanout, Frame
from tests.server.live import ThreadHub

#: generous bounds on waits for a request (not timing assertions): on a busy machine they
#: only ever matter when the hub is broken, and then the test fails instead of hanging
PATIENCE = 60.0


class GatedClock(HubClock):
    """The hub clock; once armed, the next ``moment()`` stops until the test releases it."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.entered = threading.Event()
        self.release = threading.Event()

    def moment(self) -> datetime:
        if self.armed:
            self.armed = False
            self.entered.set()
            self.release.wait(PATIENCE)
        return super().moment()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ThreadHub]:
    clock = GatedClock()
    with ThreadHub(tmp_path / "data", clock=clock) as hub:
        try:
            yield hub
        finally:
            clock.release.set()  # a failed test must not leave a request waiting on the gate


def _set_up(td: httpx.Client, url: str) -> None:
    now = to_moment(httpx.get(url + "/api/time").json()["t1"]).replace(microsecond=0)
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "wdc2006"}),
        ("PUT", "/api/td/round", {"number": 1, "start": (now - timedelta(minutes=5)).isoformat()}),
        ("PUT", "/api/td/tables", {"count": 3}),
    ):
        td.request(method, path, json=body).raise_for_status()


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/td/state", None),
    ("GET", "/api/penalties.csv", None),
    ("POST", "/api/td/adjustments", {"seconds": 60}),
    ("POST", "/api/td/pauses", {"reason": "Lunch"}),
])
def test_time_sync_answers_while_a_td_request_is_stopped_midway(
    served: ThreadHub, method: str, path: str, body: dict[str, Any] | None
) -> None:
    td = served.td()
    _set_up(td, served.url)
    answer: list[httpx.Response] = []
    served.clock.armed = True
    worker = threading.Thread(
        target=lambda: answer.append(td.request(method, path, json=body)), daemon=True)
    worker.start()
    try:
        assert served.clock.entered.wait(PATIENCE), "the TD request never read the clock"
        with httpx.Client(base_url=served.url, timeout=PATIENCE) as kiosk:
            synced = [kiosk.get("/api/time") for _ in range(3)]
        assert [r.status_code for r in synced] == [200, 200, 200]
        assert all(r.json()["t2"] >= r.json()["t1"] for r in synced)
        assert worker.is_alive() and not answer  # the TD's request is still stopped
    finally:
        served.clock.release.set()
    worker.join(PATIENCE)
    assert answer and answer[0].status_code == 200, answer[0].text if answer else "no answer"


def test_a_pause_made_in_a_worker_thread_reaches_the_kiosks_websocket(served: ThreadHub) -> None:
    from websockets.sync.client import connect

    td = served.td()
    _set_up(td, served.url)
    ws_url = served.url.replace("http", "ws") + "/api/tables/2/ws"
    with connect(ws_url, open_timeout=PATIENCE, additional_headers=served.auth(td, 2)) as ws:
        first = json.loads(ws.recv(timeout=PATIENCE))
        assert first["schedule"]["pauses"] == []
        td.post("/api/td/pauses", json={"reason": "Lunch"}).raise_for_status()
        pushed = json.loads(ws.recv(timeout=PATIENCE))
    assert pushed["seq"] > first["seq"]
    assert [p["reason"] for p in pushed["schedule"]["pauses"]] == ["Lunch"]


class Socket:
    """A kiosk's WebSocket whose sends wait for ``gate``: what is queued meanwhile piles up."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.gate = asyncio.Event()
        self.sending = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.sending.set()
        await self.gate.wait()
        self.sent.append(json.loads(data)["seq"])

    async def receive_text(self) -> str:
        await asyncio.Event().wait()
        return ""

    async def close(self, code: int = 1000) -> None:
        pass


def _build(seq: int) -> Callable[[set[int]], dict[int, Frame]]:
    return lambda tables: {n: Frame.of({"seq": seq, "table": n}) for n in tables}


def test_snapshots_published_from_threads_arrive_and_never_go_backwards() -> None:
    """Two TD requests in two threads may hand their snapshots to the loop in either order:
    the kiosk must get the newer one, not whichever was handed over last."""

    async def go() -> list[int]:
        fan = Fanout(send_timeout=PATIENCE)
        ws = Socket()
        serving = asyncio.create_task(fan.serve(ws, 1, {"seq": 1, "table": 1}))
        await asyncio.wait_for(ws.sending.wait(), PATIENCE)  # seq 1 is on its way
        await asyncio.to_thread(fan.publish, _build(3))  # from worker threads, not the loop
        await asyncio.to_thread(fan.publish, _build(2))  # built earlier, handed over later
        ws.gate.set()

        async def two_sent() -> None:
            while len(ws.sent) < 2:
                await asyncio.sleep(0)

        await asyncio.wait_for(two_sent(), PATIENCE)
        for _ in range(10):  # nothing else is queued: a third send would show here
            await asyncio.sleep(0)
        serving.cancel()
        return ws.sent

    assert asyncio.run(go()) == [1, 3]


def _on_the_loop() -> bool:
    """This code runs on an event loop's thread (a worker thread has no running loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def store_on_loop(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the hub's SQLite calls made on the event loop, as the test goes."""
    from server.store import Store

    seen: list[str] = []

    def spied(name: str) -> Callable[..., Any]:
        original = getattr(Store, name)

        def spy(self: Store, *args: Any, **kwargs: Any) -> Any:
            if _on_the_loop():
                seen.append(name)
            return original(self, *args, **kwargs)
        return spy

    for name in ("_tx", "_one", "_all"):
        monkeypatch.setattr(Store, name, spied(name))
    return seen


def test_a_kiosk_s_channel_closing_checks_its_claims_off_the_event_loop(
    served: ThreadHub, store_on_loop: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The claim check on a closing channel may store and publish (``check_claims``): in a
    worker thread, as every route that touches SQLite."""
    from websockets.sync.client import connect

    from server.routers import kiosk

    checked: list[bool] = []
    real = kiosk.check_claims
    monkeypatch.setattr(kiosk, "check_claims", lambda h, n: (
        real(h, n), checked.append(_on_the_loop()))[0])
    td = served.td()
    _set_up(td, served.url)
    ws_url = served.url.replace("http", "ws") + "/api/tables/2/ws"
    with connect(ws_url, open_timeout=PATIENCE, additional_headers=served.auth(td, 2)) as ws:
        ws.recv(timeout=PATIENCE)
    deadline = time.monotonic() + PATIENCE
    while not checked:
        assert time.monotonic() < deadline, f"no claim check within {PATIENCE} s of the close"
        time.sleep(0.02)
    assert checked == [False] and store_on_loop == []


def test_revoking_a_clock_reads_the_store_off_the_event_loop(
    hub: Any, td: dict[str, str], store_on_loop: list[str],
) -> None:
    hub.kiosk_headers(2)
    [paired] = hub.client.get("/api/td/clocks").json()["paired"]
    r = hub.client.delete(f"/api/td/clocks/{paired['id']}", headers=td)
    assert r.status_code == 200 and r.json()["seq"] > 0
    assert store_on_loop == []

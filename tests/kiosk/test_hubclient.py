"""The hub client's pieces against a fake hub (httpx.MockTransport, a websockets server)."""

from __future__ import annotations

import json
import queue
import random
import socket
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.server import serve

from dipclock.events import BUILTIN
from dipclock.sync import to_moment, to_seconds
from hardware.events import ButtonEvent
from kiosk.app import Kiosk, WallTime
from kiosk.hubclient import Backoff, HubClient
from kiosk.outbox import Outbox
from tests.integration.conftest import wait_for

START = datetime(2019, 9, 6, 10, 0)
HUB_SHIFT = to_seconds(START) - 1000.0  # hub time = monotonic + this


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
        self.statuses: list[dict[str, Any]] = []  # the status reports, as sent
        self.strict = False  # refuse unknown status keys with 422, as a 0.1 hub does
        self.times = 0  # /api/time requests answered
        self.while_answering: Callable[[], None] = lambda: None  # runs as a sync is out
        self.refuse_presses: int | None = None  # answer presses with this status instead

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.auth.append(request.headers.get("authorization"))
        if not self.up:
            raise httpx.ConnectError("hub down", request=request)
        if request.url.path == "/api/time":
            self.times += 1
            self.mono += self.lag
            t = self.mono + self.shift + 0.010  # the request took 10 ms to arrive
            self.while_answering()
            return httpx.Response(200, json={"t1": t, "t2": t + 0.001})
        if request.url.path == "/api/tables/3/status":
            body = json.loads(request.content)
            self.statuses.append(body)
            if self.strict and set(body) - {"offset", "rtt"}:
                return httpx.Response(422, json={"detail": "extra fields not permitted"})
            return httpx.Response(204)
        if request.url.path == "/api/tables/3/snapshot":
            return httpx.Response(200, json=self.snap)
        if request.url.path == "/api/tables/3/presses":
            self.posts += 1
            if self.refuse_presses is not None:
                return httpx.Response(self.refuse_presses, json={"detail": "not now"})
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
    shown = restored.current()
    assert shown is not None and shown.schedule.title == "Round 2"  # before the hub answers
    restored.close()
    assert client.accept(snapshot(1, start=datetime(2019, 9, 6, 14, 0)))  # hub restarted


def test_a_snapshot_wakes_the_screen_before_the_card_keeps_it(tmp_path: Path) -> None:
    """The save is an fsync of the card: the players see a pause before it, not after."""
    outbox = Outbox(tmp_path / "o.sqlite")
    order: list[str] = []
    client = HubClient("http://hub:8000", 3, "KEY", outbox,
                       wake=lambda: order.append("screen"),
                       transport=httpx.MockTransport(FakeHub()))
    put = outbox.put

    def saved(key: str, value: Any) -> None:
        order.append(key)
        put(key, value)

    outbox.put = saved  # type: ignore[method-assign]
    assert client.accept(snapshot(5, out=["T"]))
    assert order == ["screen", "hub_snapshot"]
    assert outbox.get("hub_snapshot")["seq"] == 5  # kept all the same
    client.close()
    outbox.close()


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


@pytest.mark.parametrize("status", [409, 500, 503])
def test_a_batch_the_hub_did_not_take_stays_unsent_until_it_does(hub: Any, status: int) -> None:
    # 409: no round set up yet; 5xx: the hub failed. Neither stored anything.
    fake, client, outbox = hub
    client.sync_once()
    kiosk = Kiosk(client, outbox, client, log=lambda line: None)
    kiosk.handle(ButtonEvent("I", "press", fake.mono, "test"))
    fake.refuse_presses = status
    assert not client.upload_once()
    assert [p.sent for p in outbox.presses()] == [False] and fake.stored == {}
    assert [p.id for p in outbox.unsent()] == [p.id for p in outbox.presses()]
    fake.refuse_presses = None
    assert client.upload_once()
    assert [p.sent for p in outbox.presses()] == [True]
    assert list(fake.stored) == [outbox.presses()[0].id]


def test_a_refused_press_is_kept_flagged_and_does_not_block_the_rest(
        hub: Any, caplog: pytest.LogCaptureFixture) -> None:
    fake, client, outbox = hub
    key = "wdc2019/3/2019-09-06T10:00:00"
    bad = outbox.record("I", "press", datetime(1970, 1, 1, 0, 3), key)  # clock not yet synced
    good = outbox.record("E", "press", START, key)
    with caplog.at_level("WARNING", logger="kiosk.upload"):
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
    sent: queue.Queue[None] = queue.Queue()
    paths: list[str] = []
    auths: list[str | None] = []

    def handler(ws: Any) -> None:
        paths.append(ws.request.path)
        auths.append(ws.request.headers.get("Authorization"))
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
        wait_for("the second pushed snapshot", lambda: (
            (shown := client.current()) is not None and shown.hub_out == {"A"}))
        assert woken.is_set() and client.connected
        # the token in the header, never on the URL, where logs keep it
        assert paths == ["/api/tables/3/ws"] and auths == ["Bearer KEY"]
        sent.put(None)
        client.close()
        outbox.close()
        server.shutdown()


def test_hub_time_is_local_time() -> None:
    assert to_moment(HUB_SHIFT + 1000.0) == START


ABOUT = {"id": "card-7f3a", "version": "0.2.0", "uptime": 12.5, "buttons": ["serial"],
         "pin_factory": None, "box": "connected", "power": "ok", "clock": "hub"}
CLAIMS = [{"id": "card-7f3a", "address": "10.0.0.12"}, {"id": "card-99c1", "address": "10.0.0.31"}]


def client_on(fake: FakeHub, outbox: Outbox, about: Callable[[], dict[str, Any]] = dict,
              base_url: str = "http://hub:8000") -> HubClient:
    def mono() -> float:
        fake.mono += 0.010
        return fake.mono

    return HubClient(base_url, 3, "KEY", outbox, mono=mono, transport=httpx.MockTransport(fake),
                     rng=random.Random(1), about=about)


def test_each_status_report_says_what_the_kiosk_is(tmp_path: Path) -> None:
    fake, outbox = FakeHub(), Outbox(tmp_path / "o.sqlite")
    asked: list[int] = []

    def about() -> dict[str, Any]:
        asked.append(1)
        return dict(ABOUT)

    client = client_on(fake, outbox, about)
    bare = client_on(fake, outbox)  # an older shell: no details
    try:
        assert client.sync_once() and client.sync_once()
        assert [set(s) for s in fake.statuses] == [{"offset", "rtt", "kiosk"}] * 2
        assert fake.statuses[-1]["kiosk"] == ABOUT and len(asked) == 2  # read afresh each time
        assert bare.sync_once()
        assert set(fake.statuses[-1]) == {"offset", "rtt"}
    finally:
        client.close()
        bare.close()
        outbox.close()


def test_a_failing_probe_or_an_older_hub_still_gets_the_offset(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake, outbox = FakeHub(), Outbox(tmp_path / "o.sqlite")

    def broken() -> dict[str, Any]:
        raise OSError("vcgencmd: not found")

    flaky = client_on(fake, outbox, broken)
    client = client_on(fake, outbox, lambda: dict(ABOUT))
    try:
        with caplog.at_level("WARNING", logger="kiosk.hubclient"):
            assert flaky.sync_once()
        assert set(fake.statuses[-1]) == {"offset", "rtt"}
        assert any("vcgencmd" in r.getMessage() for r in caplog.records)
        fake.strict = True  # a hub that does not know the kiosk block
        fake.statuses.clear()
        assert client.sync_once() and client.sync_once()
        assert [set(s) for s in fake.statuses] == [{"offset", "rtt", "kiosk"},
                                                   {"offset", "rtt"}, {"offset", "rtt"}]
    finally:
        flaky.close()
        client.close()
        outbox.close()


def test_claims_name_the_other_kiosks_on_this_table(tmp_path: Path) -> None:
    fake, outbox = FakeHub(), Outbox(tmp_path / "o.sqlite")
    client = client_on(fake, outbox, lambda: dict(ABOUT))
    anonymous = client_on(fake, outbox)
    try:
        assert client.accept(snapshot(1) | {"claims": []}) and client.others() == ()
        assert client.accept(snapshot(2) | {"claims": CLAIMS})
        assert client.others() == ("10.0.0.31",)
        two_others = [{"id": "a", "address": "10.0.0.5"}, {"id": "b", "address": "10.0.0.6"}]
        assert client.accept(snapshot(3) | {"claims": two_others})  # our report not in yet
        assert client.others() == ("10.0.0.5", "10.0.0.6")
        assert not client.accept(snapshot(4) | {"claims": [{"id": 7}]})  # malformed: refused
        assert client.others() == ("10.0.0.5", "10.0.0.6")
        assert anonymous.accept(snapshot(5) | {"claims": CLAIMS})
        assert anonymous.others() == ()  # no id of its own: it cannot tell itself apart
        restarted = client_on(fake, outbox, lambda: dict(ABOUT))
        assert restarted.current() is not None and restarted.others() == ()  # stored: old news
        restarted.close()
    finally:
        client.close()
        anonymous.close()
        outbox.close()


def test_a_new_hub_clock_epoch_drops_the_samples_and_the_trust(hub: Any) -> None:
    fake, client, outbox = hub
    assert not client.trusted()
    for _ in range(3):
        assert client.sync_once()
    assert client.trusted()
    assert client.accept(snapshot(1))  # no "clock" key: an older hub, epoch 0
    assert client.accept(snapshot(2) | {"clock": 0})
    assert client.trusted()
    fake.shift += 120.0  # the TD set the hub's time two minutes on
    fake.lag = 0.2  # its samples are slower than the old ones: they'd lose in the filter
    assert client.accept(snapshot(3) | {"clock": 1})
    assert not client.trusted()
    assert client.local(fake.mono) == pytest.approx(fake.mono + HUB_SHIFT, abs=0.05)  # no jump
    assert client.sync_once() and client.trusted()
    assert client.local(fake.mono) == pytest.approx(fake.mono + fake.shift, abs=0.2)
    assert not client.accept(snapshot(2) | {"clock": 2})  # stale seq: nothing changes
    assert client.trusted()


def test_a_sample_taken_while_the_hub_clock_changed_is_thrown_away(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.sync_once() and client.accept(snapshot(1))

    def td_sets_the_time() -> None:  # the new epoch's snapshot arrives as the reply is out
        fake.shift += 120.0
        client.accept(snapshot(2) | {"clock": 1})

    fake.while_answering = td_sets_the_time
    assert client.sync_once()  # the hub answered, with a time of its old clock
    assert not client.trusted()
    fake.while_answering = lambda: None
    assert client.sync_once() and client.trusted()
    assert client.local(fake.mono) == pytest.approx(fake.mono + fake.shift, abs=0.05)


def test_a_new_clock_epoch_wakes_the_sync_loop_at_once(tmp_path: Path) -> None:
    fake, outbox = FakeHub(), Outbox(tmp_path / "o.sqlite")
    # a port with nothing behind it, held (bound, never listening: refused, and no other
    # process's while the test runs): no push channel, polling only
    nobody = socket.socket()
    nobody.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{nobody.getsockname()[1]}"
    client = client_on(fake, outbox, base_url=url)
    try:
        for _ in range(8):  # past the fast syncs: the loop's next wait is SLOW_SYNC (30 s)
            assert client.sync_once()
        client.accept(snapshot(10 ** 6))  # far ahead of the polled snapshot: ours stays
        client.start()
        wait_for("the loop's first sync", lambda: fake.times >= 9)
        assert client.accept(snapshot(10 ** 6 + 1) | {"clock": 1})
        wait_for("a sync at once, not in 30 s", lambda: fake.times >= 10, timeout=10)
        wait_for("trusted again", client.trusted, timeout=10)
    finally:
        client.close()
        outbox.close()
        nobody.close()


def test_a_small_correction_is_slewed_into_the_clock_not_stepped(hub: Any) -> None:
    fake, client, outbox = hub
    assert client.accept(snapshot(1))  # epoch 0
    assert client.sync_once()
    t = fake.mono
    before = client.local(t) - t
    fake.shift += 0.5  # the hub's clock moved half a second (the TD set it, say)
    assert client.accept(snapshot(2) | {"clock": 1})  # a new epoch: the old samples go
    assert client.sync_once()
    t = fake.mono
    # the screen's clock moves at 50 ms per second: a countdown never skips or repeats
    assert abs((client.local(t) - t) - before) < 0.01
    assert (client.local(t + 5) - (t + 5)) - before == pytest.approx(0.25, abs=0.01)
    assert (client.local(t + 30) - (t + 30)) - before == pytest.approx(0.5, abs=0.01)


def test_standalone_the_wall_clock_is_slewed_too() -> None:
    mono = [100.0]
    wall = [5e8]
    clock = WallTime(wall=lambda: wall[0] + mono[0], mono=lambda: mono[0],
                     synchronised=lambda: True)
    first = clock.local(mono[0]) - mono[0]
    wall[0] += 0.5  # NTP nudged the system clock
    mono[0] += 1
    assert (clock.local(mono[0]) - mono[0]) - first == pytest.approx(0.05)
    mono[0] += 20
    assert (clock.local(mono[0]) - mono[0]) - first == pytest.approx(0.5)


def test_a_seated_player_is_named_on_the_table_s_screen_by_a_real_hub(tmp_path: Path) -> None:
    """Players, not just powers (issue 9): the TD seats Ann Smith at Italy on table 2 of a
    real hub (uvicorn, its clock set by the test); the hub pushes the seating to the kiosk
    it already talks to, whose late list and banner name her."""
    from tests.doubles import FakeClock
    from tests.server.live import ThreadHub

    day = "2024-05-04"
    clock = FakeClock(to_seconds(datetime.fromisoformat(f"{day}T08:00:00")))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as live:
        td = live.td()
        td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
        td.put("/api/td/round", json={"number": 1, "start": f"{day}T09:00:00"}
               ).raise_for_status()
        td.put("/api/td/tables", json={"count": 3}).raise_for_status()
        outbox = Outbox(tmp_path / "o.sqlite")
        client = HubClient(live.url, 2, live.token(td, 2), outbox, mono=clock.mono)
        kiosk = Kiosk(client, outbox, client, log=lambda line: None)
        try:
            assert client.sync_once() and client.fetch_snapshot()
            clock.t = to_seconds(datetime.fromisoformat(f"{day}T09:16:00"))
            for letter in "AEFGT":  # all in before the 09:17 deadline but Italy and Russia
                kiosk.handle(ButtonEvent(letter, "press", clock.t, "test"))
            assert client.upload_once()
            client.start()  # the WebSocket: what the TD changes is pushed, not polled
            td.put("/api/td/seating", json={"csv": (
                "round,table,power,player\n2,2,Italy,Not This Round\n"
                "1,2,Italy,Ann Smith\n1,1,Russia,Other Table\n")}).raise_for_status()
            wait_for("the seating pushed to table 2", lambda: (
                (rnd := client.current()) is not None and rnd.players == (("I", "Ann Smith"),)))
            clock.t = to_seconds(datetime.fromisoformat(f"{day}T09:17:20"))
            screen = kiosk.frame(clock.t).screen
            assert screen.look == "late"
            assert screen.notes[0] == "Italy (Ann Smith) and Russia +20 s, yellow card"
            assert [c.name for c in screen.chips if c.state == "late"] == ["Italy", "Russia"]
            kiosk.handle(ButtonEvent("I", "press", clock.t + 1, "test"))
            screen = kiosk.frame(clock.t + 2).screen
            assert screen.banner.startswith("Italy (Ann Smith) +21 s, ")
        finally:
            client.close()
            outbox.close()
            td.close()

"""The hall of Pis: what each kiosk says about itself reaches the TD's grid, and two kiosks
saying they are one table are flagged on the grid and in that table's snapshots."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from server.kiosks import MAX_KIOSKS, REPORT_SECONDS
from tests.server.live import LiveHub


def about(kiosk_id: str = "card-3f9a", **changes) -> dict:
    return {"id": kiosk_id, "version": "0.2.0", "uptime": 3725.0, "buttons": ["gpio", "serial"],
            "pin_factory": "lgpio", "box": "connected", "power": "under-voltage since boot",
            "clock": "hub"} | changes


def kiosk_at(hub, address: str) -> TestClient:
    """Requests to the running app from another machine of the hall."""
    return TestClient(hub.client.app, client=(address, 41000))


def report(client: TestClient, hub, table: int, kiosk: dict | None = None, **body) -> int:
    body = {"offset": 0.004, "rtt": 0.02} | body | ({"kiosk": kiosk} if kiosk else {})
    r = client.post(f"/api/tables/{table}/status", json=body, headers=hub.kiosk_headers(table))
    return r.status_code if r.status_code != 422 else r.json()["detail"]


def tile(hub, table: int) -> dict:
    return next(t for t in hub.client.get("/api/td/state").json()["tables"] if t["table"] == table)


def snap(hub, table: int) -> dict:
    return hub.client.get(f"/api/tables/{table}/snapshot", headers=hub.kiosk_headers(table)).json()


def test_the_grid_shows_what_each_kiosk_says_about_itself(hub, td):
    assert report(kiosk_at(hub, "10.0.0.12"), hub, 3, about()) == 204
    hub.clock.t += 60  # a minute on, still reporting
    assert report(kiosk_at(hub, "10.0.0.12"), hub, 3, about(uptime=3785.0)) == 204
    hub.clock.t += 15
    t = tile(hub, 3)
    assert t["kiosk"] == {
        "id": "card-3f9a", "version": "0.2.0", "address": "10.0.0.12", "uptime": 3800,
        "buttons": ["gpio", "serial"], "pin_factory": "lgpio", "box": "connected",
        "power": "under-voltage since boot", "clock": "hub", "reported_ago": 15.0,
    }
    assert t["claims"] == [] and t["connected"]
    assert tile(hub, 2)["kiosk"] is None  # no kiosk has reported for table 2


def test_an_older_kiosk_without_the_block_still_reports(hub, td):
    assert report(hub.client, hub, 2) == 204
    assert tile(hub, 2)["offset"] == 0.004 and tile(hub, 2)["kiosk"] is None


@pytest.mark.parametrize(("kiosk", "says"), [
    (about(kiosk_id="x" * 65), "kiosk.id: String should have at most 64 characters"),
    (about(kiosk_id=""), "kiosk.id: String should have at least 1 character"),
    (about(kiosk_id="bad\nid"), "kiosk.id: String should match pattern"),
    (about(version="0.2.0-" + "9" * 40), "kiosk.version: String should have at most 32"),
    (about(uptime=-1), "kiosk.uptime: Input should be greater than or equal to 0"),
    (about(buttons=["gpio", "mouse"]), "kiosk.buttons.1: Input should be 'gpio', 'serial'"),
    (about(buttons=["gpio", "gpio"]), "kiosk: buttons: name each input once"),
    (about(box="unplugged"), "kiosk.box: Input should be 'connected' or 'disconnected'"),
    (about(power="brown-out"), "kiosk.power: Input should be 'ok', 'under-voltage now'"),
    (about(clock="ntp"), "kiosk.clock: Input should be 'hub', 'system' or 'unverified'"),
    (about(colour="red"), "kiosk.colour: unknown field"),
    ({k: v for k, v in about().items() if k != "clock"}, "kiosk.clock: required"),
])
def test_a_bad_kiosk_block_gets_one_clear_message_and_changes_nothing(hub, td, kiosk, says):
    detail = report(hub.client, hub, 1, kiosk)
    assert isinstance(detail, str) and detail.startswith(says), detail
    assert tile(hub, 1)["kiosk"] is None and tile(hub, 1)["offset"] is None


def test_two_kiosks_saying_they_are_one_table_are_flagged_until_one_goes(hub, td):
    a, b = kiosk_at(hub, "10.0.0.12"), kiosk_at(hub, "10.0.0.31")
    report(a, hub, 3, about("card-a"))
    seq = snap(hub, 3)["seq"]
    assert snap(hub, 3)["claims"] == []
    report(b, hub, 3, about("card-b"))
    both = [{"id": "card-a", "address": "10.0.0.12"}, {"id": "card-b", "address": "10.0.0.31"}]
    assert snap(hub, 3)["claims"] == both
    assert snap(hub, 3)["seq"] > seq  # a new snapshot: the table's kiosks take it
    assert tile(hub, 3)["claims"] == both
    assert snap(hub, 4)["claims"] == [] and tile(hub, 4)["claims"] == []

    # card-b is unplugged; card-a goes on polling and reporting
    hub.clock.t += 25
    a.get("/api/tables/3/snapshot", headers=hub.kiosk_headers(3))
    assert snap(hub, 3)["claims"] == []
    report(a, hub, 3, about("card-a"))
    assert tile(hub, 3)["claims"] == []


def test_a_kiosk_still_polling_stays_listed_between_its_reports(hub, td):
    """Kiosks report every 30 s, the online window is 20 s: a kiosk whose address still
    polls stays listed, but no longer than REPORT_SECONDS after its last report."""
    a, b = kiosk_at(hub, "10.0.0.12"), kiosk_at(hub, "10.0.0.31")
    report(a, hub, 5, about("card-a"))
    report(b, hub, 5, about("card-b"))
    for _ in range(3):  # 45 s of polling by both, no reports
        hub.clock.t += 15
        a.get("/api/tables/5/snapshot", headers=hub.kiosk_headers(5))
        b.get("/api/tables/5/snapshot", headers=hub.kiosk_headers(5))
    assert len(snap(hub, 5)["claims"]) == 2
    hub.clock.t = hub.clock.t - 45 + REPORT_SECONDS + 1
    a.get("/api/tables/5/snapshot", headers=hub.kiosk_headers(5))
    report(b, hub, 5, about("card-b"))
    assert snap(hub, 5)["claims"] == []  # card-a polls but has not reported for too long


def test_a_flood_of_made_up_ids_is_bounded(hub, td):
    for i in range(MAX_KIOSKS + 20):
        report(kiosk_at(hub, f"10.0.1.{i}"), hub, 2, about(f"card-{i}"))
    claims = snap(hub, 2)["claims"]
    assert len(claims) == MAX_KIOSKS
    assert {c["id"] for c in claims} == {f"card-{i}" for i in range(20, MAX_KIOSKS + 20)}


def test_a_kiosk_on_its_websocket_gets_the_claims_as_they_change(tmp_path):
    """A real hub; two kiosks on their own loopback addresses (127.0.0.12, 127.0.0.31)."""
    live = LiveHub(tmp_path / "hub").start()
    try:
        td = live.td()
        td.put("/api/td/tables", json={"count": 4}).raise_for_status()

        def kiosk(address: str) -> httpx.Client:  # a clock of its own, paired for table 3
            return httpx.Client(base_url=live.url, timeout=10, headers=live.auth(td, 3),
                                transport=httpx.HTTPTransport(local_address=address))

        a, b = kiosk("127.0.0.12"), kiosk("127.0.0.31")
        a.post("/api/tables/3/status", json={"offset": 0, "rtt": 0.01,
                                             "kiosk": about("card-a")}).raise_for_status()
        ws_url = f"{live.url.replace('http', 'ws')}/api/tables/3/ws"
        auth = {"Authorization": a.headers["Authorization"]}
        with connect(ws_url, open_timeout=30, additional_headers=auth) as ws:
            first = json.loads(ws.recv(timeout=30))
            assert first["claims"] == []
            b.post("/api/tables/3/status", json={"offset": 0, "rtt": 0.01,
                                                 "kiosk": about("card-b")}).raise_for_status()
            pushed = json.loads(ws.recv(timeout=30))
        assert pushed["seq"] > first["seq"]
        assert pushed["claims"] == [{"id": "card-a", "address": "127.0.0.12"},
                                    {"id": "card-b", "address": "127.0.0.31"}]
        grid = td.get("/api/td/state").json()["tables"]
        assert [t["claims"] != [] for t in grid] == [False, False, True, False]
    finally:
        live.stop()

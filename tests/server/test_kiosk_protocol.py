"""The kiosk routes speak the shared models of ``dipclock.snapshot``: what the hub serves and
pushes is what the kiosk's session takes, field for field."""

from __future__ import annotations

from datetime import timedelta

from dipclock.snapshot import PressesReply, Snapshot
from kiosk.session import HubSession
from tests.server.conftest import START, Hub
from tests.waits import received


def test_the_polled_and_the_pushed_snapshot_are_one_model_the_kiosk_takes(
        hub: Hub, td: dict[str, str]) -> None:
    at = (START + timedelta(minutes=3)).isoformat()
    hub.at(START + timedelta(minutes=3))  # made on the hub's time
    r = hub.client.post("/api/tables/2/presses", headers=hub.kiosk_headers(2), json={
        "presses": [{"id": "p1", "power": "I", "kind": "hold", "at": at},
                    {"id": "p2", "power": "Q", "kind": "press", "at": at}]})
    reply = PressesReply.model_validate(r.json())
    assert (reply.stored, [x.id for x in reply.rejected]) == (1, ["p2"])
    polled = hub.client.get("/api/tables/2/snapshot", headers=hub.kiosk_headers(2)).json()
    with hub.client.websocket_connect("/api/tables/2/ws", headers=hub.kiosk_headers(2)) as ws:
        pushed = received(ws, "table 2's first snapshot")
        hub.client.post("/api/td/pauses", json={"reason": "Lunch"}, headers=td)
        # published to every table at once, its shared part encoded once (snapshot.frames)
        published = received(ws, "table 2's snapshot after the pause")
    assert pushed == polled
    assert published == hub.client.get("/api/tables/2/snapshot",
                                        headers=hub.kiosk_headers(2)).json()
    assert published["seq"] > pushed["seq"] and published["schedule"]["pauses"]
    snap = Snapshot.model_validate(pushed)
    assert (snap.table, snap.out, [p.id for p in snap.presses]) == (2, ("I",), ["p1"])
    session = HubSession(2)
    assert session.snapshot(pushed).ok
    shown = session.current()
    assert shown is not None and shown.hub_out == {"I"} and shown.schedule.start == START


def test_the_kiosk_routes_declare_their_models(hub: Hub) -> None:
    paths = hub.client.get("/openapi.json").json()["paths"]

    def schema(path: str, method: str) -> str:
        content = paths[path][method]["responses"]["200"]["content"]["application/json"]
        return str(content["schema"].get("$ref", ""))

    assert schema("/api/tables/{n}/snapshot", "get").endswith("/Snapshot")
    assert schema("/api/time", "get").endswith("/TimeReply")
    assert schema("/api/tables/{n}/presses", "post").endswith("/PressesReply")

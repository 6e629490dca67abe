"""The call's routes on the hub (issue 9, item 3): the preview reads, the call and its undo
write (TD session and CSRF header), each logged and pushed to every kiosk's snapshot."""

from __future__ import annotations

from datetime import timedelta

from tests.server import test_security as security
from tests.server.conftest import START


def test_the_preview_is_the_td_s_and_the_undo_is_a_td_write(hub, td) -> None:
    hub.at(START + timedelta(minutes=20))
    assert hub.client.post("/api/td/call", json={}, headers=td).status_code == 200
    security.test_td_writes_refuse_strangers_kiosks_and_missing_csrf(
        hub, td, "DELETE", "/api/td/call", None)
    security.test_td_reads_need_the_session(hub, td, "/api/td/call/preview")


def test_no_preview_without_a_round_and_no_undo_without_a_call(hub) -> None:
    csrf = hub.sign_in()
    r = hub.client.get("/api/td/call/preview")
    assert (r.status_code, r.json()["detail"]) == (409, "set up the event and the round first")
    hub.set_up(csrf)
    r = hub.client.get("/api/td/call/preview", params={"at": START.isoformat()})
    assert (r.status_code, r.json()["detail"]) == (
        422, "at: the call must be after the round's start")
    r = hub.client.delete("/api/td/call", headers=csrf)
    assert (r.status_code, r.json()["detail"]) == (409, "round 1 has not been called")


def test_the_call_and_its_undo_reach_the_kiosks_snapshot_and_the_log(hub, td) -> None:
    hub.at(START + timedelta(minutes=20, microseconds=400_000))
    snapshot = "/api/tables/1/snapshot"
    seq = hub.client.get(snapshot, headers=hub.kiosk_headers(1)).json()["seq"]
    called = hub.client.post("/api/td/call", json={}, headers=td).json()
    assert called["call"] == (START + timedelta(minutes=20)).isoformat()  # a whole second
    snap = hub.client.get(snapshot, headers=hub.kiosk_headers(1)).json()
    assert snap["seq"] > seq and snap["schedule"]["call"] == called["call"]
    undone = hub.client.delete("/api/td/call", headers=td).json()
    assert undone["call"] is None and undone["seq"] > snap["seq"]
    snap = hub.client.get(snapshot, headers=hub.kiosk_headers(1)).json()
    assert snap["schedule"]["call"] is None
    audit = [a["summary"] for a in hub.client.get("/api/td/state").json()["audit"]]
    assert audit[:2] == ["call of round 1 undone (was 09:20:00): games play on",
                         "round 1 called at 09:20:00"]

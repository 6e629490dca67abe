"""A round holding nothing played but a result sheet is a record all the same
(``server.store.RoundRecord``): a board entered by hand on paper day, no clock pressed and
no call, must not have its round's start moved or its seating replaced by one tap. Each
other part of a record has its own tests; this one had none on purpose (issue 34, item 13:
``RoundRecord.__bool__`` without ``sheets`` was caught only by chance)."""

from __future__ import annotations

from datetime import timedelta

from tests.server.conftest import START
from tests.server.test_results_desk import BOARD_1, put, seated

MOVED = {"number": 1, "start": (START + timedelta(minutes=30)).isoformat()}


def _only_a_sheet(hub, td) -> None:
    """Round 1 seated and one board's sheet entered by the TD, before the round starts:
    no press, no ruling, no call."""
    seated(hub, td)
    r = put(hub.client, 1, BOARD_1, td, version=0)
    assert r.status_code == 200, r.text
    state = hub.client.get("/api/td/state").json()
    assert state["round"]["call"] is None


def test_a_round_holding_only_a_result_sheet_is_a_record(hub, td):
    _only_a_sheet(hub, td)
    preview = hub.client.post("/api/td/round/preview", json=MOVED, headers=td).json()
    assert (preview["record"], preview["needs_reopen"]) == ("1 result sheet", True)
    r = hub.client.put("/api/td/round", json=MOVED, headers=td)
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == (
        "round 1 is a record (1 result sheet): its event, start and schedule do not change "
        "unless you reopen it")
    assert hub.client.get("/api/td/state").json()["round"]["start"] == START.isoformat()
    # the TD reopening it on purpose may
    r = hub.client.put("/api/td/round", json=MOVED | {"reopen": True}, headers=td)
    assert r.status_code == 200, r.text


def test_a_round_holding_only_a_result_sheet_keeps_its_seating(hub, td):
    _only_a_sheet(hub, td)
    # the two A players swapped: a seating with no problem of its own
    seats = [{p: f"{p}{t}" for p in "AEFGIRT"} for t in (1, 2)]
    seats[0]["A"], seats[1]["A"] = "A2", "A1"
    tables = [{"table": t, "seats": s} for t, s in zip((1, 2), seats, strict=True)]
    r = hub.client.put("/api/td/seating/round", json={"round": 1, "tables": tables},
                       headers=td)
    assert r.status_code == 409, r.text
    assert "round 1 has been played (1 result sheet)" in r.json()["detail"]
    stored = hub.client.get("/api/td/seating?round=1").json()
    assert {(s["table"], s["power"], s["player"]) for s in stored} >= {(1, "A", "A1"),
                                                                      (2, "A", "A2")}

"""Malformed requests answer 4xx with one clear line, never 500."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BAD = [
    ("POST", "/api/td/adjustments", {"seconds": "ten"}, "seconds: Input should be a valid number"),
    ("POST", "/api/td/adjustments", {"seconds": 0}, "seconds must not be 0"),
    ("POST", "/api/td/adjustments", {"seconds": 5, "tabel": 1}, "tabel: unknown field"),
    ("POST", "/api/td/adjustments", {"seconds": 5, "table": 0}, "table: Input should be greater"),
    ("POST", "/api/td/adjustments", {"seconds": 5, "table": 99}, "table 99 is not in this round"),
    ("POST", "/api/td/pauses", {"until": "13:00"}, "until: Input should be a valid datetime"),
    ("POST", "/api/td/pauses", {"until": "2024-05-04T13:00:00+02:00"}, "without a zone"),
    ("POST", "/api/td/pauses", {"until": "2024-05-04T08:00:00"}, "until: the restart must be"),
    ("POST", "/api/td/pauses", {"deadline": "X1901"}, "deadline: 'X1901' is not a phase"),
    ("POST", "/api/td/pauses", {"deadline": "F1950"}, "F1950 is not a deadline of this round"),
    ("POST", "/api/td/pauses", {"minutes": 5, "until": "2024-05-04T13:00:00"}, "not both"),
    ("PUT", "/api/td/event", {"builtin": "wdc1999"}, "unknown event 'wdc1999'"),
    ("PUT", "/api/td/event", {}, "give either builtin"),
    ("PUT", "/api/td/event", {"toml": "name = 'x'\n[penalty]\nmodel='warning'\n"},
     "phase_lengths: required key is missing"),
    ("PUT", "/api/td/event", {"toml": "= nonsense"}, "not valid TOML"),
    ("PUT", "/api/td/event", {"toml": "a = " + "[" * 5000 + "]" * 5000},
     "arrays or tables nested too deeply"),
    ("PUT", "/api/td/event", {"toml": "a = " + "{b = " * 3000 + "1" + "}" * 3000},
     "arrays or tables nested too deeply"),
    ("PUT", "/api/td/event", {"toml": "a" + ".a" * 20000 + " = 1"},
     "line 1 has a key nested more than 32 levels"),
    ("PUT", "/api/td/round", {"number": 1}, "start: required"),
    ("PUT", "/api/td/round", {"number": 1, "start": "2024-05-04T09:00:00",
                              "call": "2024-05-04T08:00:00"}, "call: must be after the start"),
    ("PUT", "/api/td/tables", {"count": 2, "tables": [1]}, "give either count or tables"),
    ("PUT", "/api/td/tables", {"tables": ["one"]}, "tables.0: Input should be a valid integer"),
    ("POST", "/api/td/penalties", {"round": 1, "table": 1, "power": "X", "phase": "S1901",
                                   "decision": "waive"},
     "power: 'X' is not a power (one of A E F G I R T)"),
    ("POST", "/api/td/penalties", {"round": 1, "table": 1, "power": "A", "phase": "S1901",
                                   "decision": "change"}, "needs final"),
    ("POST", "/api/td/pauses", [1, 2], "body: expected a JSON object"),
]


@pytest.mark.parametrize(("method", "path", "body", "expected"), BAD)
def test_malformed_bodies_get_a_clear_4xx(hub, td, method, path, body, expected):
    r = hub.client.request(method, path, json=body, headers=td)
    assert 400 <= r.status_code < 500, r.text
    assert expected in r.json()["detail"]


def test_broken_json_and_missing_bodies(hub, td):
    r = hub.client.post("/api/td/pauses", content=b"{not json",
                        headers=td | {"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "body: not valid JSON"
    r = hub.client.post("/api/td/adjustments", headers=td)
    assert r.status_code == 422 and "a JSON body is required" in r.json()["detail"]
    r = hub.client.post("/api/tables/abc/presses", json={"presses": []},
                        headers=hub.kiosk_headers(1))
    assert r.status_code == 422 and r.json()["detail"].startswith("n: ")


def test_a_bad_press_is_refused_alone(hub, td):
    """One refused press (here a Pi clock never synced: 1970) must not block the rest."""
    good = {"id": "x1", "power": "A", "kind": "press", "at": "2024-05-04T09:10:00"}
    hub.at(datetime(2024, 5, 4, 9, 10))  # made on the hub's time
    r = hub.client.post("/api/tables/1/presses", headers=hub.kiosk_headers(1), json={"presses": [
        good | {"id": "x0", "at": "1970-01-01T00:03:12"},
        good,
        good | {"id": "x2", "kind": "slap"},
        {"power": "E"},
    ]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["stored"], body["duplicates"]) == (1, 0)
    assert [x["id"] for x in body["rejected"]] == ["x0", "x2", None]
    reasons = [x["reason"] for x in body["rejected"]]
    assert reasons[0].startswith("at: ") and "2000" in reasons[0]
    assert reasons[1].startswith("kind: ")
    assert reasons[2].startswith("id: required")
    assert [p["id"] for p in hub.client.get(
        "/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).json()["presses"]] == ["x1"]


@pytest.mark.parametrize("presses", [[1, 2], "x", [["id", "x1"]], None])
def test_presses_that_are_not_objects_refuse_the_whole_body(hub, td, presses):
    r = hub.client.post("/api/tables/1/presses", headers=hub.kiosk_headers(1),
                        json={"presses": presses})
    assert r.status_code == 422 and r.json()["detail"].startswith("presses")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries({}, optional={
    k: JSON | st.sampled_from(["2024-05-04T09:30:00", "S1902", "A", "press", 1, -5, 1e308])
    for k in ("seconds", "table", "until", "minutes", "deadline", "reason", "presses", "id",
              "power", "kind", "at", "count", "tables", "number", "start", "call", "builtin",
              "toml", "round", "phase", "decision", "final", "note", "offset", "rtt", "password")
})
ROUTES = [(m, p) for m, p, _, _ in BAD] + [
    ("POST", "/api/tables/1/presses"), ("POST", "/api/tables/1/status"),
    ("POST", "/api/td/resume"), ("POST", "/api/td/call"), ("POST", "/api/login"),
]


@settings(
    max_examples=150, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(route=st.sampled_from(sorted(set(ROUTES))), body=JSON | FIELDS, raw=st.booleans())
def test_junk_never_gets_a_500(hub, td, route, body, raw):
    method, path = route
    headers = td | hub.kiosk_headers(1) if "/tables/" in path else dict(td)
    content = json.dumps(body, allow_nan=True).encode()  # NaN/Infinity: not JSON at all
    if raw:
        content = content[::-1]  # mangled bytes
    r = hub.client.request(method, path, content=content,
                           headers=headers | {"Content-Type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)


def test_a_reply_the_hub_cannot_build_is_its_own_fault_not_the_td_s(
    hub, td, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A pydantic error outside the request's own validation is a fault of the hub: a 500
    with its traceback in the log, never a 422 telling the TD their request was wrong."""
    from server.routers import td as routes

    monkeypatch.setattr(routes, "dashboard_state", lambda hub, *_: {"no such key": 1})
    with caplog.at_level("ERROR", logger="uvicorn.error"):
        r = hub.client.get("/api/td/state")
    assert r.status_code == 500 and "fault of the hub" in r.json()["detail"], r.text
    [record] = [x for x in caplog.records if "could not build its reply" in x.getMessage()]
    assert record.exc_info is not None and "GET /api/td/state" in record.getMessage()

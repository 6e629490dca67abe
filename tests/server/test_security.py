"""Who may change what: the TD's session + CSRF header, the kiosk key, sign-in limits."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest

from tests.server.conftest import PASSWORD, START
from tests.waits import received

TD_WRITES = [
    ("PUT", "/api/td/event", {"builtin": "wdc2003"}),
    ("PUT", "/api/td/round", {"number": 2, "start": "2024-05-04T19:00:00"}),
    ("PUT", "/api/td/tables", {"count": 3}),
    ("POST", "/api/td/pauses", {"reason": "Lunch"}),
    ("POST", "/api/td/pauses", {"table": 1}),
    ("POST", "/api/td/resume", {}),
    ("POST", "/api/td/pauses/1/end", None),
    ("POST", "/api/td/adjustments", {"seconds": 60}),
    ("POST", "/api/td/call", {}),
    ("DELETE", "/api/td/call", None),
    ("PUT", "/api/td/seating", {"csv": "1,1,A,Ann"}),
    ("POST", "/api/td/penalties",
     {"round": 1, "table": 1, "power": "A", "phase": "S1901", "decision": "waive"}),
    ("POST", "/api/logout", {}),
]
TD_READS = ["/api/td/state", "/api/td/penalties", "/api/penalties.csv",
            "/api/td/call/preview?at=2024-05-04T10:00:00", "/api/td/seating"]
KIOSK_WRITES = [
    ("POST", "/api/tables/1/presses",
     {"presses": [{"id": "p1", "power": "A", "kind": "press", "at": "2024-05-04T09:10:00"}]}),
    ("POST", "/api/tables/1/status", {"offset": 0.01, "rtt": 0.02}),
]


def _state(hub) -> tuple[int, int]:
    """(seq, audit rows): a refused request must change neither."""
    db = sqlite3.connect(hub.data_dir / "hub.sqlite3")
    try:
        seq = db.execute("SELECT value FROM meta WHERE key = 'seq'").fetchone()
        return int(seq[0]) if seq else 0, db.execute("SELECT count(*) FROM audit").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize(("method", "path", "body"), TD_WRITES)
def test_td_writes_refuse_strangers_kiosks_and_missing_csrf(hub, td, method, path, body):
    kiosk = hub.kiosk_headers(1)  # paired first: a pairing is a change the TD made
    before = _state(hub)
    c = hub.client
    cookies = dict(c.cookies)
    c.cookies.clear()
    assert c.request(method, path, json=body).status_code == 401
    r = c.request(method, path, json=body, headers=kiosk)
    assert r.status_code == 403 and "clock's token" in r.json()["detail"]
    for name, value in cookies.items():
        c.cookies.set(name, value)
    r = c.request(method, path, json=body)  # signed in, but no CSRF header
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    r = c.request(method, path, json=body, headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    assert _state(hub) == before


@pytest.mark.parametrize("path", TD_READS)
def test_td_reads_need_the_session(hub, td, path):
    assert hub.client.get(path).status_code == 200
    hub.client.cookies.clear()
    assert hub.client.get(path).status_code == 401
    assert hub.client.get(path, headers=hub.kiosk_headers(1)).status_code == 403


@pytest.mark.parametrize(("method", "path", "body"), KIOSK_WRITES)
def test_kiosk_routes_need_a_clock_paired_for_that_table(hub, td, method, path, body):
    ours, others = hub.kiosk_headers(1), hub.kiosk_headers(2)
    before = _state(hub)
    c = hub.client  # signed in as the TD: still not a clock
    r = c.request(method, path, json=body, headers=td)
    assert r.status_code == 401 and "not paired" in r.json()["detail"]
    r = c.request(method, path, json=body, headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401 and "pair it again" in r.json()["detail"]
    r = c.request(method, path, json=body, headers=others)  # table 2's clock
    assert r.status_code == 403
    assert r.json()["detail"] == "this clock is paired for table 2, not table 1"
    assert _state(hub) == before
    assert c.request(method, path, json=body, headers=ours).status_code < 300


def test_snapshot_and_websocket_need_the_tables_token_in_a_header(hub, td):
    c = hub.client
    assert c.get("/api/tables/1/snapshot").status_code == 401
    assert c.get("/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).status_code == 200
    from starlette.websockets import WebSocketDisconnect

    for refused in ({"Authorization": "Bearer wrong"}, hub.kiosk_headers(2), {}):
        with pytest.raises(WebSocketDisconnect), c.websocket_connect("/api/tables/1/ws",
                                                                     headers=refused):
            pass
    token = hub.kiosk_headers(1)["Authorization"].removeprefix("Bearer ")
    with pytest.raises(WebSocketDisconnect), c.websocket_connect(
            f"/api/tables/1/ws?key={token}"):  # never on the URL, where logs keep it
        pass
    with c.websocket_connect("/api/tables/1/ws", headers=hub.kiosk_headers(1)) as ws:
        assert received(ws, "table 1's first snapshot")["table"] == 1


def test_session_cookie_is_httponly_and_samesite_strict(hub):
    r = hub.client.post("/api/login", json={"password": PASSWORD})
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert hub.client.get("/api/session").json() == {"signed_in": True, "csrf": r.json()["csrf"]}


def test_logout_ends_the_session(hub, td):
    assert hub.client.post("/api/logout", json={}, headers=td).status_code == 200
    assert hub.client.get("/api/td/state").status_code == 401
    assert hub.client.get("/api/session").json() == {"signed_in": False}


def test_sign_in_is_rate_limited_per_ip(hub):
    c = hub.client
    for _ in range(5):
        assert c.post("/api/login", json={"password": "guess"}).status_code == 401
    r = c.post("/api/login", json={"password": PASSWORD})  # even the right one, for now
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    hub.clock.t += 61
    assert c.post("/api/login", json={"password": PASSWORD}).status_code == 200


def test_the_password_is_stored_only_as_a_salted_hash(hub, td):
    hub.restart()  # make sure everything is on disk
    raw = b"".join(p.read_bytes() for p in hub.data_dir.iterdir())
    assert PASSWORD.encode() not in raw
    db = sqlite3.connect(hub.data_dir / "hub.sqlite3")
    stored = db.execute("SELECT value FROM meta WHERE key = 'td_password_hash'").fetchone()[0]
    db.close()
    assert stored.startswith("scrypt$")


def test_an_expired_session_is_refused(hub, td):
    hub.at(START + timedelta(hours=25))
    assert hub.client.get("/api/td/state").status_code == 401


def test_expired_sessions_are_forgotten_at_the_next_sign_in(hub, td):
    hub.at(START + timedelta(hours=25))  # the first session has expired
    hub.sign_in()
    db = sqlite3.connect(hub.data_dir / "hub.sqlite3")
    expires = [e for (e,) in db.execute("SELECT expires FROM sessions")]
    db.close()
    assert len(expires) == 1 and expires[0] > hub.clock.now()


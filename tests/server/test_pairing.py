"""Each table's clock its own credential: asking, approving, refusing, revoking (the hub)."""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from server import pairing
from server.app import create_app
from server.settings import Settings
from tests.server.conftest import PASSWORD, START
from tests.waits import received

CODE = re.compile(rf"[{pairing.CODE_ALPHABET}]{{3}}-[{pairing.CODE_ALPHABET}]{{3}}")


def ask(client: TestClient, table: int | None = 3, kiosk: str = "card-1",
        token: str | None = None, fingerprint: str | None = None,
        ) -> tuple[str, dict]:
    token = token or secrets.token_urlsafe(32)
    r = client.post("/api/pair", json={
        "kiosk": kiosk, "token_hash": hashlib.sha256(token.encode()).hexdigest(),
        "table": table, "fingerprint": fingerprint})
    return token, {"status": r.status_code} | r.json()


def standing(client: TestClient, token: str) -> dict:
    r = client.get("/api/pair", headers={"Authorization": f"Bearer {token}"})
    return {"status": r.status_code} | r.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_clock_asks_shows_a_code_and_the_td_pairs_it_for_its_table(hub, td):
    c = hub.client
    token, asked = ask(c, table=3)
    assert asked["status"] == 201 and CODE.fullmatch(asked["code"]), asked
    assert asked["expires_in"] == pairing.WAITING_SECONDS
    hub_id = asked["hub"]
    assert standing(c, token) == {"status": 200, "state": "waiting", "code": asked["code"],
                                  "expires_in": pairing.WAITING_SECONDS, "hub": hub_id}
    assert c.get("/api/tables/3/snapshot", headers=bearer(token)).status_code == 401
    listed = c.get("/api/td/state").json()["clocks"]["waiting"]
    assert [(w["code"], w["wished"], w["kiosk"]) for w in listed] == [
        (asked["code"], 3, "card-1")]
    # typed on a phone: any case, without the dash
    typed = asked["code"].replace("-", "").lower()
    r = c.post("/api/td/clocks", json={"code": typed, "table": 3}, headers=td)
    assert r.status_code == 200 and r.json()["table"] == 3, r.text
    assert standing(c, token) == {"status": 200, "state": "paired", "table": 3, "hub": hub_id}
    assert c.get("/api/tables/3/snapshot", headers=bearer(token)).status_code == 200
    r = c.get("/api/tables/2/snapshot", headers=bearer(token))  # its table only
    assert (r.status_code, r.json()["detail"]) == (
        403, "this clock is paired for table 3, not table 2")
    clocks = c.get("/api/td/clocks").json()
    assert clocks["waiting"] == [] and [(p["table"], p["kiosk"]) for p in clocks["paired"]] == [
        (3, "card-1")]
    assert c.get("/api/td/state").json()["audit"][0]["summary"] == (
        "paired clock card-1 (testclient) for table 3")


def test_the_td_chooses_the_table_whatever_the_card_says(hub, td):
    token, asked = ask(hub.client, table=None)
    hub.client.post("/api/td/clocks", json={"code": asked["code"], "table": 4},
                    headers=td).raise_for_status()
    assert standing(hub.client, token)["table"] == 4


def test_asking_again_with_the_same_token_is_the_same_code_and_a_paired_one_is_refused(
        hub, td):
    token, first = ask(hub.client)
    _, again = ask(hub.client, token=token)
    assert again["code"] == first["code"]
    hub.client.post("/api/td/clocks", json={"code": first["code"], "table": 3},
                    headers=td).raise_for_status()
    _, paired = ask(hub.client, token=token)
    assert paired["status"] == 409 and "already paired" in paired["detail"]


def test_a_wrong_code_or_an_expired_one_pairs_nothing(hub, td):
    token, asked = ask(hub.client)
    r = hub.client.post("/api/td/clocks", json={"code": "AAA-AAA", "table": 3}, headers=td)
    assert r.status_code == 404 and "no clock is waiting with the code 'AAA-AAA'" in r.text
    hub.clock.t += pairing.WAITING_SECONDS + 1
    r = hub.client.post("/api/td/clocks", json={"code": asked["code"], "table": 3}, headers=td)
    assert r.status_code == 404 and "a code lasts 15 minutes" in r.json()["detail"]
    assert standing(hub.client, token)["status"] == 404  # the clock asks again
    assert hub.client.get("/api/td/clocks").json()["waiting"] == []


def test_one_address_asking_again_and_again_only_replaces_its_own_requests(hub, td):
    tokens = [ask(hub.client, kiosk=f"c{n}")[0] for n in range(pairing.WAITING_PER_ADDRESS)]
    token, more = ask(hub.client, kiosk="one more")
    assert more["status"] == 201  # a clock that asks always gets its code
    assert standing(hub.client, tokens[0])["status"] == 404  # its own oldest went
    assert all(standing(hub.client, t)["status"] == 200 for t in [*tokens[1:], token])
    assert len(hub.client.get("/api/td/clocks").json()["waiting"]) == 3


def test_a_full_hall_puts_out_the_busiest_addresses_oldest_never_a_lone_clock(
        hub, td, monkeypatch):
    """With the hall full, a new clock's request is stored and the oldest of the address
    holding the most goes: a flood from many addresses never shuts a real clock out."""
    monkeypatch.setattr(pairing, "WAITING_MOST", 4)
    lone, _ = ask(hub.client, kiosk="lone")  # a real clock, from "testclient"
    flood = TestClient(hub.client.app, client=("127.0.3.1", 50000))  # the same hub
    flooded = [ask(flood, kiosk=f"f{n}")[0] for n in range(3)]
    token, asked = ask(hub.client, kiosk="another real clock")
    assert asked["status"] == 201
    assert standing(hub.client, flooded[0])["status"] == 404
    assert all(standing(hub.client, t)["status"] == 200 for t in [lone, token, *flooded[1:]])
    hub.clock.t += pairing.WAITING_SECONDS + 1  # all expire: nothing waits
    assert hub.client.get("/api/td/clocks").json()["waiting"] == []


def test_the_td_refuses_every_waiting_clock_in_one_action(hub, td):
    tokens = [ask(hub.client, kiosk=f"c{n}")[0] for n in range(3)]
    r = hub.client.post("/api/td/clocks/refuse-all", headers=td)
    assert r.status_code == 200, r.text
    assert all(standing(hub.client, t)["status"] == 404 for t in tokens)
    state = hub.client.get("/api/td/state").json()
    assert state["clocks"]["waiting"] == []
    assert state["audit"][0]["summary"] == ("refused all 3 clocks waiting to be paired, from "
                                            "1 address")


def test_a_refused_clock_is_told_so_and_asks_again(hub, td):
    token, asked = ask(hub.client)
    r = hub.client.post("/api/td/clocks/refuse", json={"code": asked["code"]}, headers=td)
    assert r.status_code == 200
    assert standing(hub.client, token)["status"] == 404


@pytest.mark.timeout(120)  # the wait for the close has its own limit, 30 s
def test_a_revoked_clock_is_refused_at_once_and_its_push_channel_closed(hub, td):
    from starlette.websockets import WebSocketDisconnect

    c = hub.client
    token, asked = ask(c, table=2)
    paired = c.post("/api/td/clocks", json={"code": asked["code"], "table": 2},
                    headers=td).json()
    with c.websocket_connect("/api/tables/2/ws", headers=bearer(token)) as ws:
        assert received(ws, "table 2's first snapshot")["table"] == 2
        r = c.delete(f"/api/td/clocks/{paired['id']}", headers=td)
        assert r.status_code == 200
        with pytest.raises(WebSocketDisconnect):
            received(ws, "the revoke to close the clock's push channel", timeout=30)
    r = c.get("/api/tables/2/snapshot", headers=bearer(token))
    assert r.status_code == 401 and "pair it again" in r.json()["detail"]
    assert c.get("/api/td/clocks").json()["paired"] == []
    assert c.get("/api/td/state").json()["audit"][0]["summary"] == (
        "revoked clock card-1 (testclient) of table 2")
    assert c.delete(f"/api/td/clocks/{paired['id']}", headers=td).status_code == 404


def test_a_clock_paired_again_loses_its_old_token(hub, td):
    old, first = ask(hub.client, kiosk="card-7", table=1)
    hub.client.post("/api/td/clocks", json={"code": first["code"], "table": 1},
                    headers=td).raise_for_status()
    new, second = ask(hub.client, kiosk="card-7", table=2)  # the TD moved it
    hub.client.post("/api/td/clocks", json={"code": second["code"], "table": 2},
                    headers=td).raise_for_status()
    assert hub.client.get("/api/tables/1/snapshot", headers=bearer(old)).status_code == 401
    assert hub.client.get("/api/tables/2/snapshot", headers=bearer(new)).status_code == 200
    assert [p["table"] for p in hub.client.get("/api/td/clocks").json()["paired"]] == [2]


def test_pairings_outlive_a_restart_and_the_hub_keeps_no_token(hub, td):
    token, asked = ask(hub.client, table=4)
    hub.client.post("/api/td/clocks", json={"code": asked["code"], "table": 4},
                    headers=td).raise_for_status()
    hub.restart()
    assert hub.client.get("/api/tables/4/snapshot", headers=bearer(token)).status_code == 200
    raw = b"".join(p.read_bytes() for p in hub.data_dir.iterdir())
    assert token.encode() not in raw
    db = sqlite3.connect(hub.data_dir / "hub.sqlite3")
    [(kept,)] = db.execute("SELECT token_hash FROM clocks").fetchall()
    db.close()
    assert kept == hashlib.sha256(token.encode()).hexdigest()


def test_only_the_signed_in_td_pairs_refuses_or_revokes(hub, td):
    token, asked = ask(hub.client)
    body = {"code": asked["code"], "table": 3}
    assert hub.client.post("/api/td/clocks", json=body).status_code == 403  # no CSRF header
    fresh = TestClient(hub.client.app)
    assert fresh.post("/api/td/clocks", json=body).status_code == 401
    r = fresh.post("/api/td/clocks", json=body, headers=hub.kiosk_headers(1))
    assert r.status_code == 403 and "clock's token cannot" in r.json()["detail"]
    assert fresh.post("/api/td/clocks/refuse", json={"code": asked["code"]}).status_code == 401
    assert fresh.delete("/api/td/clocks/1").status_code == 401
    assert fresh.get("/api/td/clocks").status_code == 401
    assert standing(hub.client, token)["state"] == "waiting"


@pytest.mark.parametrize("body", [
    {"kiosk": "c", "token_hash": "not hex"},
    {"kiosk": "c", "token_hash": "A" * 64},  # upper case: not what sha256().hexdigest() gives
    {"kiosk": "", "token_hash": "a" * 64},
    {"kiosk": "c\x01", "token_hash": "a" * 64},
    {"kiosk": "c", "token_hash": "a" * 64, "table": 0},
    {"kiosk": "c", "token_hash": "a" * 64, "fingerprint": "3F:2A"},
    {"kiosk": "c", "token_hash": "a" * 64, "key": "the old hall key"},
])
def test_a_malformed_request_is_one_clear_422(hub, body):
    r = hub.client.post("/api/pair", json=body)
    assert r.status_code == 422 and isinstance(r.json()["detail"], str), r.text


def test_over_https_the_clock_that_sees_another_certificate_is_flagged_and_cookies_are_secure(
        tmp_path, password_hash, clock):
    from machine.fingerprint import of_pem
    from server.certificate import ensure

    cert, key, _ = ensure(tmp_path / "data")
    settings = Settings(data_dir=tmp_path / "data", td_password_hash=password_hash,
                        certificate=cert, private_key=key)
    app = create_app(settings, clock=clock, synced=lambda: True)
    with TestClient(app, base_url="https://testserver") as c:  # a Secure cookie needs https
        login = c.post("/api/login", json={"password": PASSWORD})
        assert "secure" in login.headers["set-cookie"].lower()
        ours = of_pem(cert.read_text())
        ask(c, kiosk="straight", fingerprint=ours)
        ask(c, kiosk="in between", fingerprint="AB:" * 31 + "AB")
        clocks = c.get("/api/td/clocks").json()
        assert clocks["fingerprint"] == ours
        flagged = {w["kiosk"]: w["other_certificate"] for w in clocks["waiting"]}
        assert flagged == {"straight": False, "in between": True}


def test_over_plain_http_the_cookie_is_not_secure_and_no_fingerprint_is_shown(hub):
    login = hub.client.post("/api/login", json={"password": PASSWORD})
    assert "secure" not in login.headers["set-cookie"].lower()
    assert hub.client.get("/api/td/clocks").json()["fingerprint"] is None


def test_a_pairing_is_no_change_a_tables_snapshot_holds(hub, td):
    hub.at(START + timedelta(minutes=1))
    seq = hub.client.get("/api/td/state").json()["seq"]
    hub.kiosk_headers(1)
    assert hub.client.get("/api/td/state").json()["seq"] == seq


def test_a_request_saying_another_clocks_id_revokes_nothing_and_the_td_is_told(hub, td):
    """Anyone may say an id: a request from another address carrying a paired clock's id
    pairs a second clock, the first stays paired, and the list and the log say so."""
    real, first = ask(hub.client, kiosk="card-7", table=3)
    hub.client.post("/api/td/clocks", json={"code": first["code"], "table": 3},
                    headers=td).raise_for_status()
    elsewhere = TestClient(hub.client.app, client=("127.0.5.5", 50000))  # the same hub
    copy, second = ask(elsewhere, kiosk="card-7", table=4)
    [waiting] = hub.client.get("/api/td/clocks").json()["waiting"]
    assert waiting["same_id_as"] == ["table 3 (testclient)"]
    hub.client.post("/api/td/clocks", json={"code": second["code"], "table": 4},
                    headers=td).raise_for_status()
    assert hub.client.get("/api/tables/3/snapshot", headers=bearer(real)).status_code == 200
    assert hub.client.get("/api/tables/4/snapshot", headers=bearer(copy)).status_code == 200
    assert hub.client.get("/api/td/state").json()["audit"][0]["summary"] == (
        "paired clock card-7 (127.0.5.5) for table 4; it says the id of the clock of table 3 "
        "(testclient), which stays paired: revoke one if they are not the same card")

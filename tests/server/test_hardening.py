"""A hub that someone on the hall's Wi-Fi cannot knock over (issue 11, first part): odd
credentials are a refusal, not a 500; sign-in guesses sent at once are limited; a forged
X-Forwarded-For does not reset the limit."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from server.ratelimit import FailureLimit
from tests.server.live import LiveHub, ThreadHub


@pytest.mark.parametrize("value", ["Bearer é-not-the-key", "Bearer \u2603", "Bearer ключ"])
def test_a_non_ascii_kiosk_key_is_a_403_not_a_500(hub, td, value: str) -> None:
    r = hub.client.get("/api/tables/1/snapshot",
                       headers={"Authorization": value.encode("utf-8")})
    assert r.status_code == 403 and r.json()["detail"] == "wrong kiosk key"


def test_a_non_ascii_csrf_token_is_a_403_not_a_500(hub, td) -> None:
    r = hub.client.post("/api/td/pauses", json={},
                        headers={"X-CSRF-Token": "jeton-é".encode()})
    assert r.status_code == 403 and "wrong X-CSRF-Token" in r.json()["detail"]


def test_a_non_ascii_key_on_the_websocket_is_refused_cleanly(hub, td) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with hub.client.websocket_connect("/api/tables/1/ws?key=%C3%A9t%C3%A9") as ws:
            ws.receive_text()


def test_an_attempt_counts_before_it_is_checked() -> None:
    limit = FailureLimit(3, 60.0)
    assert [limit.attempt("ip", 0.0) for _ in range(3)] == [None, None, None]
    assert limit.attempt("ip", 0.0) == 60.0  # the fourth waits, counted or not
    limit.clear("ip")  # one succeeded: the slate is clean
    assert limit.attempt("ip", 1.0) is None


def test_guesses_sent_at_once_are_limited_not_all_hashed(tmp_path: Path) -> None:
    """40 wrong passwords in parallel on a real uvicorn: 5 are checked, 35 refused."""
    with ThreadHub(tmp_path / "hub") as hub:
        def guess(i: int) -> int:
            return httpx.post(f"{hub.url}/api/login", json={"password": f"guess number {i}"},
                              timeout=60).status_code

        with ThreadPoolExecutor(max_workers=20) as pool:
            codes = list(pool.map(guess, range(40)))
    assert codes.count(401) == 5 and codes.count(429) == 35, codes


def test_a_forged_forwarded_for_does_not_reset_the_sign_in_limit(tmp_path: Path) -> None:
    """`dipclock hub` as installed: the client is the socket's address, whatever the header."""
    hub = LiveHub(tmp_path / "hub").start()
    try:
        codes = [
            httpx.post(f"{hub.url}/api/login", json={"password": "not the password"},
                       headers={"X-Forwarded-For": f"10.0.0.{i}"}, timeout=30).status_code
            for i in range(7)
        ]
    finally:
        hub.stop()
    assert codes == [401] * 5 + [429] * 2, codes

"""A hub that someone on the hall's Wi-Fi cannot knock over (issue 11, first part): odd
credentials are a refusal, not a 500; sign-in guesses sent at once are limited; a forged
X-Forwarded-For does not reset the limit."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from server.ratelimit import FailureLimit
from tests.server.conftest import PASSWORD
from tests.server.live import LiveHub, ThreadHub
from tests.waits import received


@pytest.mark.parametrize("value", ["Bearer é-not-the-key", "Bearer \u2603", "Bearer ключ"])
def test_a_non_ascii_token_is_a_401_not_a_500(hub, td, value: str) -> None:
    r = hub.client.get("/api/tables/1/snapshot",
                       headers={"Authorization": value.encode("utf-8")})
    assert r.status_code == 401 and "pair it again" in r.json()["detail"]


def test_a_non_ascii_csrf_token_is_a_403_not_a_500(hub, td) -> None:
    r = hub.client.post("/api/td/pauses", json={},
                        headers={"X-CSRF-Token": "jeton-é".encode()})
    assert r.status_code == 403 and "wrong X-CSRF-Token" in r.json()["detail"]


def test_a_non_ascii_key_on_the_websocket_is_refused_cleanly(hub, td) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with hub.client.websocket_connect("/api/tables/1/ws", headers={
                "Authorization": "Bearer été".encode()}) as ws:
            received(ws, "the refusal of a non-ASCII key", as_json=False)


def test_an_attempt_counts_before_it_is_checked() -> None:
    limit = FailureLimit(3, 60.0)
    assert [limit.attempt("ip", 0.0) for _ in range(3)] == [None, None, None]
    assert limit.attempt("ip", 0.0) == 60.0  # the fourth waits, counted or not
    limit.clear("ip")  # one succeeded: the slate is clean
    assert limit.attempt("ip", 1.0) is None


def test_guesses_sent_at_once_are_limited_not_all_hashed(tmp_path: Path, monkeypatch) -> None:
    """40 wrong passwords in parallel on a real uvicorn: at most 5 are checked, the rest
    refused: over the address's limit (429), or while others are checked (503)."""
    from server import signins

    checked = []
    real = signins.verify_password
    monkeypatch.setattr(signins, "verify_password",
                        lambda *args: checked.append(1) or real(*args))
    with ThreadHub(tmp_path / "hub") as hub:
        def guess(i: int) -> int:
            return httpx.post(f"{hub.url}/api/login", json={"password": f"guess number {i}"},
                              timeout=60).status_code

        with ThreadPoolExecutor(max_workers=20) as pool:
            codes = list(pool.map(guess, range(40)))
        hashed = len(checked)
        after = httpx.post(f"{hub.url}/api/login", json={"password": "one more"}, timeout=60)
    assert 1 <= codes.count(401) == hashed <= 5, codes
    assert codes.count(401) + codes.count(429) + codes.count(503) == 40, codes
    assert after.status_code == (429 if hashed == 5 else 401)  # the address's limit holds


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


def test_a_body_over_its_route_s_limit_is_a_413_before_it_is_parsed(hub, td) -> None:
    big = b'{"password": "' + b"x" * (8 * 1024) + b'"}'
    r = hub.client.post("/api/login", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json() == {"detail": "request body over 4 KB"}
    # no Content-Length (chunked): read up to the limit, then refused all the same
    r = hub.client.post("/api/td/pauses", content=(b"x" * 1024 for _ in range(100)),
                        headers=td | {"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json() == {"detail": "request body over 64 KB"}
    # under the limit, the same body the route would have had
    r = hub.client.post("/api/td/pauses", content=(b"{" + b"}" for _ in range(1)),
                        headers=td | {"Content-Type": "application/json"})
    assert r.status_code == 200, r.text
    r = hub.client.post("/api/login", content=b"12", headers={"Content-Length": "x1"})
    assert r.status_code == 413


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_huge_anonymous_body_does_not_grow_the_hub(tmp_path: Path) -> None:
    """100 MB sent to /api/login, without saying its length, on `dipclock hub` itself."""
    hub = LiveHub(tmp_path / "hub").start()
    try:
        assert hub.proc is not None
        before = _rss_kb(hub.proc.pid)

        def body():  # 100 MB in 1 MB chunks: chunked, so only reading can tell its size
            for _ in range(100):
                yield b"x" * (1024 * 1024)

        try:
            r = httpx.post(f"{hub.url}/api/login", content=body(), timeout=60,
                           headers={"Content-Type": "application/json"})
            assert r.status_code == 413
        except httpx.TransportError:
            pass  # the hub closed the connection while the client still sent: refused
        grown = _rss_kb(hub.proc.pid) - before
        assert httpx.get(f"{hub.url}/api/time", timeout=5).status_code == 200
    finally:
        hub.stop()
    assert grown < 20 * 1024, f"the hub grew by {grown} kB"


def test_the_hub_s_data_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    from server.store import Store

    path = tmp_path / "data" / "hub.sqlite3"
    store = Store(path)
    try:
        store.set_meta_once("a_secret", "a secret")
        modes = {p.name: p.stat().st_mode & 0o777 for p in path.parent.iterdir()}
    finally:
        store.close()
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert modes["hub.sqlite3"] == 0o600
    assert all(mode == 0o600 for mode in modes.values()), modes  # -wal and -shm too
    # a data dir from an older hub (0644 file, 0755 dir) is tightened on the next start
    path.chmod(0o644)
    path.parent.chmod(0o755)
    Store(path).close()
    assert (path.stat().st_mode & 0o777, path.parent.stat().st_mode & 0o777) == (0o600, 0o700)


def test_the_password_leaves_the_hubs_environment_once_read(tmp_path: Path) -> None:
    """``dipclock hub`` started with DIPCLOCK_TD_PASSWORD: what the kernel shows of its
    environment (/proc/PID/environ) no longer holds the password once it serves."""
    hub = LiveHub(tmp_path / "hub").start()
    try:
        assert hub.proc is not None
        shown = Path(f"/proc/{hub.proc.pid}/environ").read_bytes()
        assert PASSWORD.encode() not in shown
        assert b"PYTHONUNBUFFERED=1" in shown  # the rest is as it was
    finally:
        hub.stop()


def test_forgetting_a_variable_overwrites_it_where_the_kernel_shows_it() -> None:
    """In a child Python: the variable gone from os.environ and from /proc/self/environ."""
    import subprocess
    import sys

    code = ("from machine.environ import forget; import os; "
            "assert forget('DIPCLOCK_SECRET'); assert 'DIPCLOCK_SECRET' not in os.environ; "
            "print(open('/proc/self/environ', 'rb').read().count(b's3cret-value'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"DIPCLOCK_SECRET": "s3cret-value", "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"

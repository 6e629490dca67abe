"""A flood of sign-ins from many addresses holds no worker a table or the TD needs
(``server.signins``): against a real uvicorn in this process whose password checks the test
holds, wrong passwords from 40 addresses (127.0.2.x, each under its own failure limit)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import httpx

from server import signins
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub
from tests.server.test_live import set_up
from tests.waits import wait_for

#: a bound on a hang only: every request here is answered at once or never
PATIENCE = 30.0


def wrong_from(url: str, addresses: int) -> Callable[[int], int]:
    """Stranger ``n``'s wrong password, from 127.0.2.(n % addresses + 1): its status."""
    def wrong(n: int) -> int:
        transport = httpx.HTTPTransport(local_address=f"127.0.2.{n % addresses + 1}")
        with httpx.Client(transport=transport, timeout=PATIENCE) as c:
            return c.post(url + "/api/login", json={"password": f"guess{n}"}).status_code
    return wrong


def test_sign_ins_waiting_on_their_checks_hold_no_worker_a_table_or_the_td_needs(
        tmp_path, monkeypatch):
    held = threading.Event()
    checks = []
    real = signins.verify_password

    def held_check(password: str, stored: str) -> bool:
        checks.append(password)
        held.wait(PATIENCE)  # the flood's checks take as long as the test says
        return real(password, stored)

    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        press_key = hub.auth(td, 1)
        monkeypatch.setattr(signins, "verify_password", held_check)

        wrong = wrong_from(hub.url, 40)

        with ThreadPoolExecutor(64) as pool:
            flood = [pool.submit(wrong, n) for n in range(200)]
            # the queue full, the rest refused at once (not left waiting for a worker)
            wait_for("every sign-in but the queue's answered",
                     lambda: sum(f.done() for f in flood) == 200 - signins.QUEUE,
                     timeout=PATIENCE)
            answered = [f.result() for f in flood if f.done()]
            assert answered == [503] * (200 - signins.QUEUE)
            press = {"id": "p1", "power": "A", "kind": "press", "at": "2024-05-04T09:31:00"}
            r = httpx.post(hub.url + "/api/tables/1/presses", json={"presses": [press]},
                           headers=press_key, timeout=PATIENCE)
            assert r.status_code == 200, r.text  # a table's press: served meanwhile
            assert td.post("/api/td/pauses", json={"reason": "Lunch"}).status_code == 200
            assert len(checks) == 1  # one check at a time, on its own thread
            held.set()
            assert [f.result(PATIENCE) for f in flood].count(401) == signins.QUEUE
        assert td.post("/api/login", json={"password": PASSWORD}).status_code == 200
        td.close()


def test_the_td_signs_in_from_a_phone_it_used_before_and_from_the_hub_under_a_flood(
        tmp_path, monkeypatch):
    """Strangers' wrong passwords from 100 addresses fill their queue and wait there (the
    test holds their checks); the TD's right password from a phone that signed in before (its
    device cookie) and from the hub's own screen (127.0.0.1) go through, in their own lane.
    A browser with no device cookie, or a forged one, is a stranger: refused at once."""
    held = threading.Event()
    strangers = []
    real = signins.verify_password

    def held_check(password: str, stored: str) -> bool:
        if password != PASSWORD:  # a stranger's: as long as the test says
            strangers.append(password)
            held.wait(PATIENCE)
        return real(password, stored)

    with ThreadHub(tmp_path / "hub") as hub:
        phone = hub.td(source="127.0.3.7")  # the TD's phone signed in before: its cookie
        [device] = [c for c in phone.cookies.jar if c.name == signins.DEVICE_COOKIE]
        assert device.path == "/api/login" and device.has_nonstandard_attr("HttpOnly")
        monkeypatch.setattr(signins, "verify_password", held_check)

        wrong = wrong_from(hub.url, 100)

        def stranger(cookie: str | None) -> int:
            transport = httpx.HTTPTransport(local_address="127.0.3.8")
            cookies = {signins.DEVICE_COOKIE: cookie} if cookie else None
            with httpx.Client(transport=transport, timeout=PATIENCE, cookies=cookies) as c:
                return c.post(hub.url + "/api/login", json={"password": PASSWORD}).status_code

        try:
            with ThreadPoolExecutor(64) as pool:
                flood = [pool.submit(wrong, n) for n in range(200)]
                wait_for("every sign-in but the strangers' queue answered",
                         lambda: sum(f.done() for f in flood) == 200 - signins.QUEUE,
                         timeout=PATIENCE)
                assert [f.result() for f in flood if f.done()] == [503] * (200 - signins.QUEUE)
                assert stranger(None) == 503  # the right password, but a stranger's browser
                forged = f"{'0' * 32}.{'0' * 64}"
                assert stranger(forged) == 503
                r = phone.post("/api/login", json={"password": PASSWORD})
                assert r.status_code == 200, r.text  # the TD's phone, in its own lane
                assert phone.get("/api/session").json()["csrf"] == r.json()["csrf"]
                local = httpx.post(hub.url + "/api/login", json={"password": PASSWORD},
                                   timeout=PATIENCE)  # the hub's own screen: 127.0.0.1
                assert local.status_code == 200, local.text
                assert len(strangers) == 1  # the flood's checks still held: one at a time
                held.set()
                assert [f.result(PATIENCE) for f in flood].count(401) == signins.QUEUE
        finally:
            held.set()
            phone.close()

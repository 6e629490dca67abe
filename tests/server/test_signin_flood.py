"""A flood of sign-ins from many addresses holds no worker a table or the TD needs
(``server.signins``): against a real uvicorn in this process whose password checks the test
holds, wrong passwords from 40 addresses (127.0.2.x, each under its own failure limit)."""

from __future__ import annotations

import threading
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

        def wrong(n: int) -> int:
            transport = httpx.HTTPTransport(local_address=f"127.0.2.{n % 40 + 1}")
            with httpx.Client(transport=transport, timeout=PATIENCE) as c:
                return c.post(hub.url + "/api/login", json={"password": f"guess{n}"}
                              ).status_code

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

"""Credentials before bodies (``server.gate``): a write whose sender lacks its route's
credential is refused from its headers alone, its body never read, validated or described;
and a body that is described is described in time linear in its problems
(``dipclock.errors.describe``).

On a real uvicorn. "Never read" is shown by a request that announces a body and sends none:
a hub that waited for the body before asking who sent it would answer nothing until the
body's own time limit ran out (then 408), never 401.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import httpx
import pytest

from dipclock.errors import describe
from tests.server.live import ThreadHub
from tests.server.rawhttp import headers_only
from tests.server.test_live import set_up

#: a bound on a hang only: every refusal here comes at once or the hub is broken
PATIENCE = 20.0


@pytest.fixture
def hub(tmp_path) -> Iterator[ThreadHub]:
    with ThreadHub(tmp_path / "hub") as served:
        set_up(served.td(), datetime(2024, 5, 4, 9, 30))
        yield served


def _headers_only(hub: ThreadHub, method: str, path: str, length: int,
                  extra: Mapping[str, str] = {}) -> tuple[int, dict[str, Any]]:
    """Send a request's headers, announcing ``length`` bytes of JSON, and no body: the
    status and JSON of the answer."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{hub.port}",
             "Content-Type: application/json", f"Content-Length: {length}",
             *(f"{k}: {v}" for k, v in extra.items())]
    with socket.create_connection(("127.0.0.1", hub.port), timeout=PATIENCE) as s:
        return headers_only(s, lines, f"{method} {path}", PATIENCE)


@pytest.mark.parametrize(("method", "path", "extra", "status", "detail"), [
    ("PUT", "/api/sheets/1/1", {}, 401,
     "open this sheet from the table's QR code, or sign in as the TD"),
    ("PUT", "/api/sheets/1/1", {"X-Sheet-Key": "not-the-key"}, 403,
     "this link is not this table's sheet: scan the table's QR code"),
    ("PUT", "/api/td/seating", {}, 401, "sign in as the TD first"),
    ("PUT", "/api/td/seating", {"Cookie": "dipclock_td=forged"}, 401,
     "sign in as the TD first"),
    ("POST", "/api/td/seating/draft", {"Authorization": "Bearer a-clock"}, 403,
     "a clock's token cannot do this: sign in as the TD"),
    ("POST", "/api/tables/1/presses", {"Authorization": "Bearer forged"}, 401,
     "this hub does not know this clock (revoked, or paired with another hub): pair it "
     "again"),
])
def test_a_write_without_its_credential_is_refused_before_its_body_comes(
        hub, method, path, extra, status, detail):
    assert _headers_only(hub, method, path, 60_000, extra) == (status, {"detail": detail})


def test_a_clock_of_another_table_is_refused_before_its_body_comes(hub):
    token = hub.auth(hub.td(), 2)["Authorization"]
    assert _headers_only(hub, "POST", "/api/tables/1/presses", 60_000,
                         {"Authorization": token}) == (
        403, {"detail": "this clock is paired for table 2, not table 1"})


def test_a_stranger_s_8000_unknown_keys_are_not_validated(hub):
    """The attack of issue 33: 8,000 unknown keys to a sheet, no credentials. Validated
    first, this was a 422 describing 8,000 problems (16 s on the event loop)."""
    body = json.dumps({f"k{i}": i for i in range(8000)})[:62_000].rpartition(",")[0] + "}"
    r = httpx.put(hub.url + "/api/sheets/1/1", content=body, timeout=PATIENCE,
                  headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()["detail"]) == (
        401, "open this sheet from the table's QR code, or sign in as the TD")


def test_the_td_s_writes_and_the_table_s_key_still_reach_their_routes(hub):
    """The gate lets the right sender through, body and all: the route answers."""
    td = hub.td()
    bad = td.put("/api/td/seating", json={"seats": [
        {"round": 1, "table": 1 + i // 7, "power": "X", "player": f"p{i}"}
        for i in range(6993)]})
    assert (bad.status_code, bad.json()["detail"]) == (
        422, "seats.0.power: 'X' is not a power (one of A E F G I R T)")
    good = td.put("/api/td/seating", json={"csv": "1,1,A,Ann\n1,1,E,Bob"})
    assert good.status_code == 200 and good.json()["seats"] == 2
    clock = hub.auth(td, 1)
    key = httpx.get(hub.url + "/api/tables/1/snapshot", headers=clock,
                    timeout=PATIENCE).json()["sheet"].rpartition("#")[2]
    unknown = httpx.put(hub.url + "/api/sheets/1/1", json={f"k{i}": i for i in range(4000)},
                        headers={"X-Sheet-Key": key, "If-Match": "0"}, timeout=PATIENCE)
    assert (unknown.status_code, unknown.json()["detail"]) == (
        422, "k0: unknown field (and 4001 more)")  # the rest, and two required fields


class _Counted(Sequence[Mapping[str, Any]]):
    """A list of problems that counts how often it is gone through."""

    def __init__(self, items: list[Mapping[str, Any]]) -> None:
        self.items, self.passes = items, 0

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        self.passes += 1
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        return self.items[i]


def test_describing_problems_goes_through_them_a_fixed_number_of_times():
    """Linear, not pairwise: 8,000 problems are gone through twice, not 8,001 times."""
    problems = _Counted([{"loc": (f"k{i}",), "type": "extra_forbidden", "msg": "x"}
                         for i in range(8000)]
                        + [{"loc": ("centres",), "type": "missing", "msg": "Field required"}])
    assert describe(problems) == "k0: unknown key (and 8000 more)"
    assert problems.passes <= 3


def test_the_deepest_problem_still_explains_its_container():
    problems = [{"loc": ("seats",), "type": "too_short", "msg": "too short"},
                {"loc": ("seats", 0, "power"), "type": "value_error",
                 "msg": "Value error, 'X' is not a power"}]
    assert describe(problems) == "seats.0.power: 'X' is not a power"


def test_a_sheet_key_holder_s_bad_body_is_described_off_the_event_loop(hub, monkeypatch):
    """A phone with the table's key passes the gate; its 4,000 unknown fields are then
    validated and described in a worker thread (``server.bodies``): held there, the hub
    still answers a clock's time sync."""
    from server import bodies
    from tests.waits import wait_for

    entered, release = threading.Event(), threading.Event()
    real = bodies.problem

    def held(problems):  # type: ignore[no-untyped-def]
        entered.set()
        release.wait(PATIENCE)
        return real(problems)

    monkeypatch.setattr(bodies, "problem", held)
    key = httpx.get(hub.url + "/api/tables/1/snapshot", headers=hub.auth(hub.td(), 1),
                    timeout=PATIENCE).json()["sheet"].rpartition("#")[2]
    answer: list[httpx.Response] = []
    sender = threading.Thread(target=lambda: answer.append(httpx.put(
        hub.url + "/api/sheets/1/1", json={f"k{i}": i for i in range(4000)},
        headers={"X-Sheet-Key": key, "If-Match": "0"}, timeout=PATIENCE)))
    sender.start()
    try:
        wait_for("the sheet's body described by server.bodies", entered.is_set, PATIENCE)
        assert httpx.get(hub.url + "/api/time", timeout=PATIENCE).status_code == 200
    finally:
        release.set()
        sender.join(PATIENCE)
    assert (answer[0].status_code, answer[0].json()["detail"]) == (
        422, "k0: unknown field (and 4001 more)")

"""Anonymous reads of the public pages (``server.pagecache``, ``server.readlimit``) against a
real uvicorn in this process whose clock the test holds: readers on 20 addresses
(127.0.2.x) share one build of the board call, which the test holds too; a table's press
and a time sync are answered while they wait for it (ordering, not timing); past its
bucket an address is refused at once (the held clock refills none), the TD's address
never; an unchanged reply is a 304; a change of state or of time is a new ETag."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import httpx

from server import pagecache, readlimit
from server.context import Hub
from server.routers import boardcall
from server.routers.pages import HUB_TIME
from tests.server.live import at, held_hub
from tests.server.test_live import set_up
from tests.waits import wait_for

#: a bound on a hang only: every request here is answered at once or when the test says
PATIENCE = 30.0
START = datetime(2024, 5, 4, 9, 30)
ADDRESSES = 20


def seat(td: httpx.Client, number: int, tables: int = 2) -> None:
    seats = [{"round": number, "table": t, "power": p, "player": f"R{number} T{t} {p}"}
             for t in range(1, tables + 1) for p in "AEFGIRT"]
    td.put("/api/td/seating", json={"seats": seats}).raise_for_status()


def stranger(hub_url: str, n: int) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=f"127.0.2.{n % ADDRESSES + 1}")
    return httpx.Client(base_url=hub_url, transport=transport, timeout=PATIENCE)


def test_public_reads_share_one_build_hold_nothing_and_are_limited_per_address(
        tmp_path, monkeypatch):
    built: list[int | None] = []
    gate = threading.Event()
    real = boardcall.board_call

    def held_build(hub: Hub, round: int | None) -> boardcall.BoardCall:
        built.append(round)
        gate.wait(PATIENCE)  # the build takes as long as the test says
        return real(hub, round)

    with held_hub(tmp_path / "hub", START) as hub:
        td = hub.td()  # 127.0.0.1: one of the hall's addresses once it acts as the TD
        set_up(td, START)
        seat(td, 1)
        press_key = hub.auth(td, 1)
        monkeypatch.setattr(boardcall, "board_call", held_build)
        clients = [stranger(hub.url, n) for n in range(ADDRESSES)]
        try:
            with ThreadPoolExecutor(2 * ADDRESSES) as pool:
                waiting = [pool.submit(clients[n % ADDRESSES].get, "/api/boardcall")
                           for n in range(2 * ADDRESSES)]
                wait_for("the board call's build", lambda: built, timeout=PATIENCE)
                # the readers wait for the one build; a table and its time sync do not
                press = {"id": "p1", "power": "A", "kind": "press", "at": START.isoformat()}
                r = httpx.post(hub.url + "/api/tables/1/presses", headers=press_key,
                               json={"presses": [press]}, timeout=PATIENCE)
                assert r.status_code == 200, r.text
                assert httpx.get(hub.url + "/api/time", timeout=PATIENCE).status_code == 200
                assert not any(f.done() for f in waiting)
                gate.set()
                replies = [f.result(PATIENCE) for f in waiting]
            assert {r.status_code for r in replies} == {200}
            assert len({r.headers["ETag"] for r in replies}) == 1 and built == [None]
            first = replies[0]
            assert first.json()["round"] == 1 and len(first.json()["tables"]) == 2
            assert first.headers["Cache-Control"] == pagecache.REVALIDATE["Cache-Control"]

            # each address has had 2 reads of its burst; the held clock refills nothing
            left = int(readlimit.BURST) - 2

            def reads(c: httpx.Client) -> list[httpx.Response]:
                return [c.get("/api/hall" if k % 2 else "/api/boardcall") for k in range(30)]

            with ThreadPoolExecutor(ADDRESSES) as pool:
                flood = list(pool.map(reads, clients))
            for got in flood:
                assert [g.status_code for g in got] == [200] * left + [429] * (30 - left)
                refused = got[-1]
                assert int(refused.headers["Retry-After"]) >= 1
                assert refused.json()["detail"].startswith("too many reads from this address")
            # the TD's address is never limited; 650 reads, and still one build
            assert {td.get("/api/boardcall").status_code for _ in range(50)} == {200}
            assert built == [None]

            # an unchanged reply is a 304 with no body
            etag = first.headers["ETag"]
            same = td.get("/api/boardcall", headers={"If-None-Match": etag})
            assert same.status_code == 304 and same.content == b""
            assert same.headers["ETag"] == etag
            hall = td.get("/api/hall")
            assert float(hall.headers[HUB_TIME]) == hall.json()["hub_time"]
            assert td.get("/api/hall", headers={"If-None-Match": hall.headers["ETag"]}
                          ).status_code == 304

            # a change of state is a new reply; the hall's, a change of time too
            seat(td, 2, tables=40)
            changed = td.get("/api/boardcall", headers={"If-None-Match": etag})
            assert changed.status_code == 200 and changed.json()["round"] == 2
            assert changed.headers["ETag"] != etag and built == [None, None]
            # a big one gzipped (httpx, as a browser, takes gzip), else as it is
            assert changed.headers["Content-Encoding"] == "gzip"
            assert len(changed.json()["tables"]) == 40
            plain = td.get("/api/boardcall", headers={"Accept-Encoding": "identity"})
            assert "Content-Encoding" not in plain.headers and plain.json() == changed.json()
            assert plain.headers["ETag"] != changed.headers["ETag"]
            assert td.get("/api/boardcall", headers={"Accept-Encoding": "identity",
                          "If-None-Match": plain.headers["ETag"]}).status_code == 304
            assert built == [None, None]
            at(hub, START + timedelta(seconds=10))
            later = td.get("/api/hall", headers={"If-None-Match": hall.headers["ETag"]})
            assert later.status_code == 200 and later.headers["ETag"] != hall.headers["ETag"]
            assert later.json()["hub_time"] == hall.json()["hub_time"] + 10
        finally:
            gate.set()
            for c in clients:
                c.close()
            td.close()


def test_an_address_bucket_refills_at_its_rate_and_few_addresses_are_kept():
    buckets = readlimit.Buckets(rate=4.0, burst=3.0, most=2)
    assert [buckets.take("a", 0.0) for _ in range(3)] == [None] * 3
    assert buckets.take("a", 0.0) == 0.25  # the next token in a quarter second
    assert buckets.take("a", 0.25) is None and buckets.take("a", 0.25) is not None
    buckets.take("b", 0.25)
    buckets.take("c", 0.25)  # a third address: "a", heard from longest ago, is forgotten
    assert buckets.take("a", 0.25) is None


def test_if_none_match_and_accept_encoding_as_browsers_send_them():
    assert pagecache.matches('W/"x", "y"', '"x"') and pagecache.matches("*", '"x"')
    assert not pagecache.matches(None, '"x"') and not pagecache.matches('"xy"', '"x"')
    assert pagecache.takes_gzip("gzip, deflate, br, zstd")
    assert not pagecache.takes_gzip("gzip;q=0, identity") and not pagecache.takes_gzip("br")

"""Slow and greedy clients cannot lock the hall out (``server.slowclients``): a real uvicorn
on 127.0.0.1 with the hub's own serving options (``server.serve``), raw sockets for the
attacker, and a second loopback address (127.0.0.2) for the kiosk that must still be served.
The limits are set small here; ``benchmarks/slowloris.py`` measures the real ones."""

from __future__ import annotations

import asyncio
import logging
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
import pytest
from websockets.sync.client import connect

from server.bodylimit import BodyLimit
from tests.server.live import ThreadHub

#: a bound on a hang only: the hub closes well within it on any machine
PATIENCE = 30.0


class Lines(logging.Handler):
    """The hub's warnings (uvicorn's error log does not reach pytest's capture)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextmanager
def hub(tmp_path, **limits: object) -> Iterator[tuple[ThreadHub, Lines]]:
    lines = Lines()
    logger = logging.getLogger("uvicorn.error")
    with ThreadHub(tmp_path / "hub", **limits) as h:
        logger.addHandler(lines)  # after uvicorn set its logging up
        try:
            yield h, lines
        finally:
            logger.removeHandler(lines)


def slow_socket(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A client that sends the start of a request line and then nothing."""
    s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE,
                                 source_address=(source, 0))
    s.sendall(b"GET /api/ti")
    return s


def closed_by_hub(s: socket.socket) -> bool:
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True


def time_from(url: str, source: str) -> int:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=PATIENCE) as c:
        return c.get(url + "/api/time").status_code


def test_a_request_head_that_does_not_come_is_cut_off(tmp_path):
    with hub(tmp_path, head_seconds=0.3) as (h, lines):
        s = slow_socket(h.port)
        s.sendall(b"me HTTP/1.1\r\nHost: x\r\n")  # more bytes, still no end of the head
        assert closed_by_hub(s)
        s.close()
        assert time_from(h.url, "127.0.0.1") == 200  # a whole request is served as ever
        assert any("no request within 0.3 s" in line for line in lines.lines)


def test_one_address_holding_too_many_connections_does_not_lock_out_the_others(tmp_path):
    with hub(tmp_path, per_address=8) as (h, lines), ExitStack() as stack:
        sockets = [stack.enter_context(slow_socket(h.port)) for _ in range(40)]
        assert time_from(h.url, "127.0.0.2") == 200  # a kiosk on another address
        closed = [closed_by_hub(s) for s in sockets[8:]]
        assert all(closed)
        refusals = [line for line in lines.lines if line.startswith("refusing connections")]
        assert refusals == ["refusing connections from 127.0.0.1: it holds 8 already "
                            "(a client gone wrong, or an attack)"]  # once, not 32 times
        for s in sockets[:8]:  # the eight it holds are its own to close
            s.close()
        assert time_from(h.url, "127.0.0.1") == 200  # and once closed, it is served again


def test_a_closed_websocket_frees_its_place(tmp_path):
    with hub(tmp_path, per_address=3) as (h, _):
        key = h.key(h.td())
        ws_url = h.url.replace("http", "ws") + f"/api/tables/1/ws?key={key}"
        for _ in range(8):  # more than the cap, one after another
            with connect(ws_url, open_timeout=PATIENCE) as ws:
                assert '"seq"' in ws.recv(timeout=PATIENCE)
        assert time_from(h.url, "127.0.0.1") == 200


def test_a_body_that_does_not_come_is_refused_with_408():
    sent: list[dict] = []

    async def app(scope, receive, send):  # never reached
        raise AssertionError("the app must not see a body that never came")

    async def never():
        await asyncio.Event().wait()

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/tables/1/presses",
             "headers": [(b"content-length", b"100")]}
    asyncio.run(BodyLimit(app, body_seconds=0)(scope, never, send))
    assert sent[0]["status"] == 408 and b"not sent within 0 s" in sent[1]["body"]


def test_the_hub_raises_its_file_limit_to_the_hard_one():
    code = ("import resource; from server.slowclients import raise_file_limit as r; "
            "hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)); "
            "print(r(), min(hard, 65536))")
    got, want = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               check=True).stdout.split()
    assert int(got) == int(want) > 256


@pytest.mark.parametrize("unit", ["dipclock-hub.service"])
def test_the_hub_unit_sets_a_file_limit_for_a_full_hall(unit):
    from tests.deploy.test_install import ROOT

    text = (ROOT / "systemd" / unit).read_text()
    assert "\nLimitNOFILE=65536\n" in text

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
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, closing, contextmanager
from functools import partial
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from server.bodylimit import BodyLimit
from server.slowclients import HEAD_MOST, MOST_FILES
from tests.server.live import LiveHub, ThreadHub
from tests.waits import wait_for

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
def hub(tmp_path, https: bool = False, **limits: object) -> Iterator[tuple[ThreadHub, Lines]]:
    """``https``: served as a hall's hub is, with the certificate it makes."""
    lines = Lines()
    logger = logging.getLogger("uvicorn.error")
    if https:
        from server.certificate import ensure

        cert, key, _ = ensure(tmp_path / "hub")
        limits |= {"certificate": cert, "private_key": key}
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


def time_from(url: str, source: str, verify: object = True) -> int:
    transport = httpx.HTTPTransport(local_address=source, verify=verify)  # type: ignore[arg-type]
    with httpx.Client(transport=transport, timeout=PATIENCE) as c:
        return c.get(url + "/api/time").status_code


def silent_socket(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A client that opens a connection to an HTTPS hub and never starts its handshake."""
    return socket.create_connection(("127.0.0.1", port), timeout=PATIENCE,
                                    source_address=(source, 0))


def test_over_https_a_handshake_that_does_not_come_is_cut_off_as_a_head_would_be(tmp_path):
    with hub(tmp_path, https=True, head_seconds=0.3, per_address=1) as (h, lines):
        for _ in range(3):
            s = silent_socket(h.port)
            assert closed_by_hub(s)
            s.close()
        # the same address is served: each place the silent sockets held was given back
        assert time_from(h.url, "127.0.0.1", h.verify) == 200
        assert any("no request within 0.3 s" in line for line in lines.lines)


def test_over_https_the_cap_counts_connections_before_their_handshake(tmp_path):
    with hub(tmp_path, https=True, per_address=8) as (h, lines), ExitStack() as stack:
        sockets = [stack.enter_context(silent_socket(h.port)) for _ in range(40)]
        assert time_from(h.url, "127.0.0.2", h.verify) == 200  # a kiosk on another address
        assert all(closed_by_hub(s) for s in sockets[8:])
        assert [line for line in lines.lines if line.startswith("refusing connections")] == [
            "refusing connections from 127.0.0.1: it holds 8 already "
            "(a client gone wrong, or an attack)"]
        for s in sockets[:8]:
            s.close()
        assert time_from(h.url, "127.0.0.1", h.verify) == 200


def test_a_stopping_hub_does_not_wait_on_an_idle_tls_connection(tmp_path, monkeypatch):
    """A phone's browser keeps its connection open and idle; closed politely, the hub would
    wait for its close_notify (made endless here) before it could stop."""
    monkeypatch.setattr("server.slowclients.TLS_CLOSE_SECONDS", 3600.0)
    with hub(tmp_path, https=True) as (h, _), httpx.Client(verify=h.verify) as phone:
        assert phone.get(h.url + "/api/time").status_code == 200  # kept alive, idle
        h.server.should_exit = True
        h.thread.join(timeout=60)  # a bound on a hang, not a margin: it stops at once
        assert not h.thread.is_alive()


def test_a_stopping_hub_does_not_wait_on_a_body_that_does_not_come(tmp_path, monkeypatch):
    """A client in the middle of sending a body when the hub is stopped (systemd restarts
    it): the hub gives it ``STOP_GRACE`` seconds, then answers 503 and stops; it does not
    wait out the body's own deadline (made endless here)."""
    monkeypatch.setattr("server.bodylimit.BODY_SECONDS", 3600.0)
    with hub(tmp_path) as (h, _):
        s = socket.create_connection(("127.0.0.1", h.port), timeout=PATIENCE)
        s.sendall(b"POST /api/login HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 100\r\n\r\n{\"pass")
        wait_for("the request under way at the hub", lambda: h.server.server_state.tasks,
                 timeout=PATIENCE)
        h.server.should_exit = True
        h.thread.join(timeout=60)  # a bound on a hang, not a margin: it stops in STOP_GRACE
        assert not h.thread.is_alive()
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"the hub is restarting" in answer, answer
        assert closed_by_hub(s)
        s.close()


def test_a_request_head_that_does_not_come_is_cut_off(tmp_path):
    with hub(tmp_path, head_seconds=0.3) as (h, lines):
        s = slow_socket(h.port)
        s.sendall(b"me HTTP/1.1\r\nHost: x\r\n")  # more bytes, still no end of the head
        assert closed_by_hub(s)
        s.close()
        assert time_from(h.url, "127.0.0.1") == 200  # a whole request is served as ever
        assert any("no request within 0.3 s" in line for line in lines.lines)


def response(s: socket.socket) -> bytes:
    """One whole response (head and Content-Length body) off a raw socket."""
    got = b""
    while b"\r\n\r\n" not in got:
        more = s.recv(4096)
        assert more, f"closed mid-response: {got!r}"
        got += more
    head, _, body = got.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        more = s.recv(4096)
        assert more, "closed mid-body"
        body += more
    return head


def test_the_next_head_on_a_kept_alive_connection_is_timed_too(tmp_path):
    # the keep-alive timeout ends once a byte comes: from then on, the head's timer holds
    with hub(tmp_path, head_seconds=0.3) as (h, _):
        s = socket.create_connection(("127.0.0.1", h.port), timeout=PATIENCE)
        with s:
            for _ in range(3):  # whole requests on one connection are served as ever
                s.sendall(b"GET /api/time HTTP/1.1\r\nHost: x\r\n\r\n")
                assert response(s).startswith(b"HTTP/1.1 200")
            s.sendall(b"GET /api/ti")
            assert closed_by_hub(s)


def test_a_request_head_that_never_ends_is_cut_off_at_its_size(tmp_path):
    with hub(tmp_path) as (h, lines):  # the head's time (10 s) is not what ends it
        s = slow_socket(h.port)
        with s:
            try:
                s.sendall(b"me HTTP/1.1\r\nX-Pad: " + b"a" * (2 * HEAD_MOST))
            except OSError:
                pass  # closed while it was still sending: as good
            assert closed_by_hub(s)
        assert f"closed a connection from 127.0.0.1: a request head over {HEAD_MOST} bytes" \
            in lines.lines
        assert time_from(h.url, "127.0.0.1") == 200


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
        auth = h.auth(h.td(), 1)
        ws_url = h.url.replace("http", "ws") + "/api/tables/1/ws"
        for _ in range(8):  # more than the cap, one after another
            with connect(ws_url, open_timeout=PATIENCE, additional_headers=auth) as ws:
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


def lowered_files(soft: int) -> None:
    """In the hub's child process, before it runs: a soft file limit of ``soft``."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE,
                       (soft, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def files_of(pid: int) -> tuple[int, int]:
    """A process's (soft, hard) open-file limits, as its ``/proc/PID/limits`` says."""
    line = next(line for line in open(f"/proc/{pid}/limits") if line.startswith("Max open files"))
    soft, hard = line.split()[3:5]
    return (int(soft) if soft != "unlimited" else -1), (int(hard) if hard != "unlimited" else -1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_running_hub_has_raised_its_file_limit(tmp_path, monkeypatch):
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    want = MOST_FILES if hard == resource.RLIM_INFINITY else min(hard, MOST_FILES)
    if want <= 256:
        pytest.skip(f"the hard file limit here is {hard}: nothing to raise to")
    # ``dipclock hub`` itself, started as systemd's default would: a soft limit below the hard
    monkeypatch.setattr(subprocess, "Popen", partial(subprocess.Popen,
                                                     preexec_fn=partial(lowered_files, 256)))
    h = LiveHub(tmp_path / "hub").start()
    monkeypatch.undo()
    try:
        assert h.proc is not None
        assert files_of(h.proc.pid)[0] == want
    finally:
        h.stop()


@pytest.mark.parametrize("unit", ["dipclock-hub.service"])
def test_the_hub_unit_sets_a_file_limit_for_a_full_hall(unit):
    from tests.deploy.test_install import ROOT

    text = (ROOT / "systemd" / unit).read_text()
    assert "\nLimitNOFILE=65536\n" in text


def closed_now(sockets: list[socket.socket]) -> list[socket.socket]:
    """Those of ``sockets`` the hub has closed (readable: their end came), in order. The
    hub closes before it answers the request that follows, so no wait is needed here.
    ``poll``, not ``select``: a worker that has run many tests holds file numbers past
    select's 1,024."""
    import select

    poller = select.poll()
    for s in sockets:
        poller.register(s, select.POLLIN)
    ready = {fd for fd, _ in poller.poll(0)}
    return [s for s in sockets if s.fileno() in ready]


def slow_body(port: int, source: str) -> socket.socket:
    """A client that sends a request head and the start of its body, then nothing."""
    s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE,
                                 source_address=(source, 0))
    s.sendall(b"POST /api/login HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\n\r\n{\"pass")
    return s


def slow_next_head(port: int, source: str) -> socket.socket:
    """A client whose first request on its kept-alive connection is whole and answered,
    and whose second then stops after a few bytes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE,
                                 source_address=(source, 0))
    s.sendall(b"GET /api/time HTTP/1.1\r\nHost: hub\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(4096)
    head, body = answer.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += s.recv(4096)
    assert head.startswith(b"HTTP/1.1 200 "), head
    s.sendall(b"GET /api/ti")
    return s


@pytest.mark.parametrize("dawdler", [slow_socket, slow_body, slow_next_head])
def test_under_a_file_limit_it_cannot_raise_the_oldest_waiting_connection_makes_room(
        tmp_path, monkeypatch, dawdler):
    """Slow sockets from many addresses (each under its cap) fill all but the reserve of a
    200-file limit: each new connection, a kiosk's too, closes the oldest one waiting on its
    client instead of finding no file (``reserve_for``: 64 of 200 kept back). In every
    phase: a first head, a body that does not come, or the next request on a kept-alive
    connection (the last two once held their files for their whole deadlines)."""
    import resource

    from server import slowclients

    monkeypatch.setattr(slowclients.resource, "getrlimit", lambda which: (200, 200)
                        if which == resource.RLIMIT_NOFILE else resource.getrlimit(which))
    budget = 200 - slowclients.reserve_for(200)
    with hub(tmp_path, per_address=8, head_seconds=600) as (h, lines), ExitStack() as stack:
        sources = [f"127.0.{n // 200 + 3}.{n % 200 + 1}" for n in range(budget + 20)]
        sockets = [stack.enter_context(dawdler(h.port, src)) for src in sources]
        assert time_from(h.url, "127.0.0.2") == 200  # a kiosk: served, not starved
        oldest, newest = sockets[:20], sockets[-20:]
        assert all(closed_by_hub(s) for s in oldest)
        assert not set(closed_now(sockets)) & set(newest)  # the newest still wait
        assert any(line.startswith("files running short") for line in lines.lines)


def test_a_reply_the_client_does_not_take_is_cut_off(tmp_path, monkeypatch):
    """A client that asks and never reads holds a task and a file: after REPLY_SECONDS (made
    short here) the connection goes, with one line."""
    monkeypatch.setattr("server.slowclients.REPLY_SECONDS", 0.5)
    with hub(tmp_path) as (h, lines):
        s = socket.create_connection(("127.0.0.1", h.port), timeout=PATIENCE)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # many requests at once, none read: the replies fill the window and the hub's
        # buffers, and the last ones cannot be sent
        s.sendall(b"GET /dashboard HTTP/1.1\r\nHost: hub\r\n\r\n" * 2000)
        wait_for("the hub closing the connection whose replies are not taken",
                 lambda: any("its reply not taken within 0.5 s" in line
                             for line in lines.lines), timeout=PATIENCE)
        s.close()


def test_an_address_whose_sockets_keep_making_room_is_closed_at_once(tmp_path, monkeypatch):
    """Three of one address's sockets closed to make room: while files stay short its next
    connection is closed before anything else is (no other socket pushed out for it, no
    TLS handshake spent on it), and a kiosk from elsewhere is still served."""
    import resource

    from server import slowclients

    monkeypatch.setattr(slowclients.resource, "getrlimit", lambda which: (200, 200)
                        if which == resource.RLIMIT_NOFILE else resource.getrlimit(which))
    budget = 200 - slowclients.reserve_for(200)
    with hub(tmp_path, per_address=8, head_seconds=600) as (h, lines), ExitStack() as stack:
        first = [stack.enter_context(slow_socket(h.port, "127.0.9.9")) for _ in range(3)]
        others = [stack.enter_context(slow_socket(h.port, f"127.0.3.{n % 250 + 1}"))
                  for n in range(budget)]  # the last three push out 127.0.9.9's three
        assert all(closed_by_hub(s) for s in first)
        again = stack.enter_context(slow_socket(h.port, "127.0.9.9"))
        assert closed_by_hub(again)
        assert time_from(h.url, "127.0.0.2") == 200
        # the kiosk's connection made room by closing the oldest other waiting socket, and
        # 127.0.9.9's did not: only one of the others is gone
        assert closed_now(others) == [others[0]]
        assert any(line == "closing new connections from 127.0.9.9 at once: files are short "
                   "and its sockets keep waiting unused" for line in lines.lines)


def a_regular(h: ThreadHub, source: str) -> None:
    """``source`` made one of the hall's addresses (``server.regulars``): a clock paired for
    table 1 has made a signed request from it."""
    with closing(h.td()) as td:
        assert td.put("/api/td/tables", json={"count": 1}).status_code == 200
        key = h.auth(td, 1)
    transport = httpx.HTTPTransport(local_address=source, verify=h.verify)
    with httpx.Client(base_url=h.url, transport=transport, timeout=PATIENCE) as clock:
        assert clock.get("/api/tables/1/snapshot", headers=key).status_code == 200


def test_over_https_a_table_s_clock_does_not_wait_behind_strangers_handshakes(
        tmp_path, monkeypatch):
    """Two strangers hold the handshakes' turns (silent: theirs never end, and a turn lasts
    here as long as its connection): a third stranger waits for one; the table's clock,
    heard from before, goes at once."""
    monkeypatch.setattr("server.slowclients.HANDSHAKES_AT_ONCE", 2)
    monkeypatch.setattr("server.slowclients.HANDSHAKE_TURN", 3600.0)
    with hub(tmp_path, https=True) as (h, _), ExitStack() as stack:
        a_regular(h, "127.0.0.5")  # (the TD signed in from 127.0.0.1: a regular too)
        turns = [stack.enter_context(silent_socket(h.port, f"127.0.0.{n}")) for n in (2, 3)]
        with pytest.raises(httpx.TimeoutException):  # it cannot begin: a bound, not a margin
            transport = httpx.HTTPTransport(local_address="127.0.0.4", verify=h.verify)
            with httpx.Client(transport=transport, timeout=1.0) as stranger:
                stranger.get(h.url + "/api/time")
        assert time_from(h.url, "127.0.0.5", h.verify) == 200  # the table's, meanwhile
        turns[0].close()  # a turn given back
        assert time_from(h.url, "127.0.0.4", h.verify) == 200


def test_over_https_a_stranger_s_handshake_that_does_not_come_gives_its_turn_up(
        tmp_path, monkeypatch):
    """One turn, held by a silent stranger whose connection the hub would keep for a
    minute (its head time): the next stranger's handshake begins once the turn is over."""
    monkeypatch.setattr("server.slowclients.HANDSHAKES_AT_ONCE", 1)
    monkeypatch.setattr("server.slowclients.HANDSHAKE_TURN", 0.2)
    with hub(tmp_path, https=True, head_seconds=60.0) as (h, _), \
            silent_socket(h.port, "127.0.0.2") as silent:
        assert time_from(h.url, "127.0.0.4", h.verify) == 200  # PATIENCE (30 s) < 60 s
        assert not closed_now([silent])  # still open: its turn, not its connection, ended


def hello_queued(port: int, source: str) -> bool:
    """Whether the hub's end of a connection from ``source`` holds bytes it has not read
    (its receive queue in ``/proc/net/tcp``)."""
    local = f":{port:04X}"
    remote = "".join(f"{int(part):02X}" for part in reversed(source.split("."))) + ":"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(local) and fields[2].startswith(remote):
            if int(fields[4].split(":")[1], 16) > 0:
                return True
    return False


def accepted_all(port: int) -> bool:
    """Whether the hub has accepted every connection made to it: its listening socket's
    accept queue (the receive queue of its LISTEN line in ``/proc/net/tcp``) is empty. A
    hello can wait in the kernel before the hub has accepted its connection; on a busy
    machine the turn was then given before the hub knew of it."""
    local = f":{port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(local) and fields[3] == "0A":
            return int(fields[4].split(":")[1], 16) == 0
    return False


def test_strangers_whose_hello_came_go_before_silent_ones_queued_earlier(tmp_path, monkeypatch):
    """One turn, held for as long as its connection; behind it, two silent strangers and
    then one that has sent its hello: when the turn is given back, the hello goes first
    (the silent ones would hold the turn for a minute, their head time)."""
    monkeypatch.setattr("server.slowclients.HANDSHAKES_AT_ONCE", 1)
    monkeypatch.setattr("server.slowclients.HANDSHAKE_TURN", 3600.0)
    with hub(tmp_path, https=True, head_seconds=60.0) as (h, _), ExitStack() as stack:
        holder = stack.enter_context(silent_socket(h.port, "127.0.0.2"))
        for n in (3, 4):
            stack.enter_context(silent_socket(h.port, f"127.0.0.{n}"))
        stranger = ThreadPoolExecutor(1)
        stack.callback(stranger.shutdown, wait=True)
        asked = stranger.submit(time_from, h.url, "127.0.0.5", h.verify)
        wait_for("the stranger's hello, unread at the hub, its connection accepted",
                 lambda: hello_queued(h.port, "127.0.0.5") and accepted_all(h.port),
                 timeout=PATIENCE)
        holder.close()
        assert asked.result(timeout=PATIENCE) == 200

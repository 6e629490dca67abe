"""The harness's Wi-Fi links (``benchmarks/links.py``) on real sockets: what goes in comes
out whole and in order, no sooner than the link allows. Lower bounds only: a loaded
machine can make a link slower, never faster."""

from __future__ import annotations

import os
import socket
import threading
import time

from benchmarks.links import WIFI, Link, proxy_pool


class Echo:
    """A TCP echo server that notes when its first bytes arrived."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.first: float | None = None
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        with conn:
            while data := conn.recv(65536):
                if self.first is None:
                    self.first = time.monotonic()
                conn.sendall(data)


def through(link: Link, payload: bytes) -> tuple[bytes, float, float, Echo]:
    """Send ``payload`` through ``link`` to an echo server: (what came back, when it was
    sent, when all of it was back, the server)."""
    echo = Echo()
    with proxy_pool() as pool:
        port = pool.add(link, ("127.0.0.1", echo.port), seed=3)
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            sent = time.monotonic()
            threading.Thread(target=s.sendall, args=(payload,), daemon=True).start()
            back = bytearray()
            while len(back) < len(payload):
                chunk = s.recv(65536)
                assert chunk, "the link closed early"
                back += chunk
            return bytes(back), sent, time.monotonic(), echo


def test_a_lossy_jittery_link_delivers_every_byte_in_order():
    payload = os.urandom(1_000_000)
    back, _, _, _ = through(WIFI, payload)
    assert back == payload


def test_a_round_trip_takes_the_link_s_delay_both_ways():
    _, sent, done, _ = through(Link(delay_ms=50), b"ping")
    assert done - sent >= 0.100


def test_asymmetry_delays_the_way_up_only():
    back, sent, done, echo = through(Link(asymmetry_ms=80), b"ping")
    assert back == b"ping" and echo.first is not None
    assert echo.first - sent >= 0.080  # kiosk to hub: the extra delay
    assert done - sent >= 0.080


def test_a_lost_chunk_arrives_a_retransmission_late_not_never():
    _, sent, done, _ = through(Link(loss=1.0, rto_ms=30), b"ping")
    # every chunk "lost" once at least: two retransmission timeouts on the round trip
    assert done - sent >= 0.060

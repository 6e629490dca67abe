"""How uvicorn serves the hub: one place for its options, used by ``dipclock hub`` and by
the tests' real hubs alike, so what is tested is what a hall runs.

The hub serves a socket it has already bound (``bind``), or one it was handed (``inherited``:
``dipclock hub --fd N``, from a supervisor or a test's harness), never a port uvicorn binds
later: so it knows, and says, its real port before it serves (``--port 0``: one the system
picks), and a port that is taken is one clear line, not a traceback.
"""

from __future__ import annotations

import socket
import ssl
from typing import Any

import uvicorn

from server.settings import Settings
from server.slowclients import Guard, protocol


def bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0: a free port the system picks), not yet
    listening: until the hub serves it, a connection is refused, as by a hub that is down.
    Bound as uvicorn binds (SO_REUSEADDR: a port whose last connections are merely in
    TIME_WAIT after a restart is free; IPv6 only for an IPv6 address). ``OSError`` when the
    port is taken or not this machine's to give."""
    infos = socket.getaddrinfo(host or "0.0.0.0", port, type=socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


def inherited(fd: int) -> socket.socket:
    """The TCP socket open as file descriptor ``fd`` (handed over by the process that
    started this one), bound to an address, listening or not. ``ValueError`` if it is not
    one, ``OSError`` if ``fd`` is no open socket."""
    sock = socket.socket(fileno=fd)  # family and type read from the socket itself
    if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock.type != socket.SOCK_STREAM:
        sock.detach()  # not ours to close
        raise ValueError("not a TCP socket")
    if sock.getsockname()[1] == 0:
        sock.detach()
        raise ValueError("not bound to a port")
    return sock


def address_of(sock: socket.socket) -> tuple[str, int]:
    """The address and port ``sock`` is bound to."""
    name = sock.getsockname()
    return str(name[0]), int(name[1])


def run(server: uvicorn.Server, sock: socket.socket) -> None:
    """Serve ``sock`` (bound, maybe listening) until ``server`` is told to exit; uvicorn
    closes it then. SO_REUSEADDR, set here if the socket came without it, is what lets the
    next hub bind this port again at once while this one's last connections are in
    TIME_WAIT (a socket's connections inherit it when they are accepted)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.run(sockets=[sock])


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    """The server side of HTTPS with the hub's certificate (None: plain HTTP). TLS 1.2 at
    least: every phone and Pi of the last ten years speaks it."""
    if settings.certificate is None:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(settings.certificate, settings.private_key)
    return ctx


#: Seconds a stopping hub (systemd's restart, the demo's end) gives the requests still
#: under way before it closes them: a body trickling in, or a WebSocket whose close is
#: never answered, would otherwise hold the stop for as long as its own deadline (a body's
#: is 30 s). Nothing is lost: a press not acknowledged is sent again by its kiosk.
STOP_GRACE = 3


def config(app: Any, settings: Settings, **more: Any) -> uvicorn.Config:
    """``app`` (on the socket ``run`` serves), with the slow-client limits and keepalives, over
    HTTPS when the settings give a certificate (``server.slowclients`` starts the TLS).

    X-Forwarded-For names the client only behind a proxy the TD names: otherwise anyone
    could pick the address the sign-in limit counts (uvicorn trusts 127.0.0.1 by default).
    The hall's own addresses (``app.state.regulars``, from ``server.app.create_app``) have
    their TLS handshakes go first.

    WebSockets go uncompressed: a snapshot is 2.5 KB, nothing on a hall's Wi-Fi, but
    deflating it for each of a hundred tables was 44 % of a pause's fan-out on the hub's
    one event loop (each socket keeps its own compressor, so it cannot be shared).
    """
    proxies = settings.trusted_proxies
    tls = tls_context(settings)
    state = getattr(app, "state", None)
    if state is not None:  # a restored hub's certificate loads into it (server.routers.backup)
        state.tls = tls
    guard = Guard(settings.head_seconds, settings.per_address, frozenset(proxies),
                  getattr(getattr(app, "state", None), "regulars", None))
    return uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning",
        http=protocol(guard, tls), ws_ping_interval=10, ws_ping_timeout=10,
        ws_per_message_deflate=False, timeout_graceful_shutdown=STOP_GRACE,
        # asyncio's loop, not uvloop: uvloop starts reading a connection after its
        # connection_made even if the protocol paused it there, so a TLS handshake's first
        # bytes would reach the HTTP protocol before ``start_tls`` (one in four failed)
        loop="asyncio",
        proxy_headers=bool(proxies), forwarded_allow_ips=",".join(proxies),
        **more,
    )

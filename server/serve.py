"""How uvicorn serves the hub: one place for its options, used by ``dipclock hub`` and by
the tests' real hubs alike, so what is tested is what a hall runs."""

from __future__ import annotations

import ssl
from typing import Any

import uvicorn

from server.settings import Settings
from server.slowclients import Guard, protocol


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    """The server side of HTTPS with the hub's certificate (None: plain HTTP). TLS 1.2 at
    least: every phone and Pi of the last ten years speaks it."""
    if settings.certificate is None:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(settings.certificate, settings.private_key)
    return ctx


def config(app: Any, settings: Settings, **more: Any) -> uvicorn.Config:
    """``app`` on ``settings.host:port``, with the slow-client limits and keepalives, over
    HTTPS when the settings give a certificate (``server.slowclients`` starts the TLS).

    X-Forwarded-For names the client only behind a proxy the TD names: otherwise anyone
    could pick the address the sign-in limit counts (uvicorn trusts 127.0.0.1 by default).
    """
    proxies = settings.trusted_proxies
    guard = Guard(settings.head_seconds, settings.per_address, frozenset(proxies))
    return uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning",
        http=protocol(guard, tls_context(settings)), ws_ping_interval=10, ws_ping_timeout=10,
        # asyncio's loop, not uvloop: uvloop starts reading a connection after its
        # connection_made even if the protocol paused it there, so a TLS handshake's first
        # bytes would reach the HTTP protocol before ``start_tls`` (one in four failed)
        loop="asyncio",
        proxy_headers=bool(proxies), forwarded_allow_ips=",".join(proxies),
        **more,
    )

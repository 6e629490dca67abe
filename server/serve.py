"""How uvicorn serves the hub: one place for its options, used by ``dipclock hub`` and by
the tests' real hubs alike, so what is tested is what a hall runs."""

from __future__ import annotations

from typing import Any

import uvicorn

from server.settings import Settings
from server.slowclients import Guard, protocol


def config(app: Any, settings: Settings, **more: Any) -> uvicorn.Config:
    """``app`` on ``settings.host:port``, with the slow-client limits and keepalives.

    X-Forwarded-For names the client only behind a proxy the TD names: otherwise anyone
    could pick the address the sign-in limit counts (uvicorn trusts 127.0.0.1 by default).
    """
    proxies = settings.trusted_proxies
    guard = Guard(settings.head_seconds, settings.per_address, frozenset(proxies))
    return uvicorn.Config(
        app, host=settings.host, port=settings.port, log_level="warning",
        http=protocol(guard), ws_ping_interval=10, ws_ping_timeout=10,
        proxy_headers=bool(proxies), forwarded_allow_ips=",".join(proxies),
        **more,
    )

"""The uvicorn internals ``server.slowclients`` builds on, each named: an upgrade that moves
one fails here saying which, not as a hub that quietly stops limiting slow clients.

pyproject pins uvicorn to the minor these were checked on; a new minor is taken by
widening the pin once this file (and tests/server/test_slow_clients.py) pass on it.
"""

from __future__ import annotations

import asyncio.constants
import inspect
from importlib.metadata import requires

import pytest
import uvicorn
from packaging.requirements import Requirement
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

#: The HTTP protocol's methods ``slowclients.protocol``'s subclass overrides or calls.
HOOKS = ("connection_made", "data_received", "connection_lost", "shutdown",
         "on_response_complete", "handle_websocket_upgrade")


def test_uvicorn_is_within_the_pinned_minor() -> None:
    pin = Requirement(next(r for r in requires("dipclock") or () if r.startswith("uvicorn")))
    assert pin.specifier.contains(uvicorn.__version__), (
        f"uvicorn {uvicorn.__version__} is installed, pyproject pins {pin.specifier}: "
        "reinstall (make venv), or check server/slowclients.py against it and widen the pin")


@pytest.mark.parametrize("hook", HOOKS)
def test_the_http_protocol_keeps_each_method_slowclients_overrides(hook: str) -> None:
    assert callable(getattr(AutoHTTPProtocol, hook, None)), (
        f"uvicorn {uvicorn.__version__}: {AutoHTTPProtocol.__qualname__}.{hook} is gone; "
        "server/slowclients.py overrides it")


def test_the_http_protocol_keeps_its_transport_and_request_cycle() -> None:
    """``shutdown`` reads ``self.cycle.response_complete``; every limit aborts
    ``self.transport``."""
    module = inspect.getsource(inspect.getmodule(AutoHTTPProtocol))
    for attribute in ("self.transport = transport", "self.cycle", "self.response_complete"):
        assert attribute in module, (
            f"uvicorn {uvicorn.__version__}: {AutoHTTPProtocol.__module__} no longer sets "
            f"{attribute}; server/slowclients.py reads it")


def test_the_websocket_protocol_ends_with_connection_lost() -> None:
    """An upgraded connection's end is hooked there to free its place in the count."""
    assert callable(getattr(AutoWebSocketsProtocol, "connection_lost", None)), (
        f"uvicorn {uvicorn.__version__}: {AutoWebSocketsProtocol.__qualname__}."
        "connection_lost is gone; server/slowclients.py wraps it")


def test_asyncio_still_reads_its_accept_retry_delay() -> None:
    assert hasattr(asyncio.constants, "ACCEPT_RETRY_DELAY"), (
        "asyncio.constants.ACCEPT_RETRY_DELAY is gone; server/slowclients.py shortens it")

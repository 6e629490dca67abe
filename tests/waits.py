"""Waits with a limit: a test that waits says what for, and fails when it does not come.

``wait_for`` polls a probe until it returns something (an exception a server not yet up
raises counts as not yet).

``received`` is a ``TestClient`` WebSocket's ``receive_json`` / ``receive_text`` with a time
limit: starlette's own waits for ever, so a channel the hub never writes to (or never
closes) would hang the test instead of failing it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import httpx
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

T = TypeVar("T")

#: Seconds a push from a hub in this process may take: generous, for a loaded machine.
PUSHED = 30.0


def received(ws: WebSocketTestSession, what: str, timeout: float = PUSHED,
             as_json: bool = True) -> Any:
    """The next message on ``ws`` (decoded as JSON unless ``as_json`` is False), or
    ``WebSocketDisconnect`` if the hub closed the channel; AssertionError naming ``what``
    after ``timeout`` s of silence."""

    async def within() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()  # starlette keeps no public one with a limit

    try:
        message = ws.portal.call(within)
    except TimeoutError:
        raise AssertionError(f"{what}: nothing on the WebSocket within {timeout} s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000),
                                  reason=message.get("reason", ""))
    text = message["text"] if "text" in message else message["bytes"].decode()
    return json.loads(text) if as_json else text


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 60.0) -> T:
    """Poll ``probe`` every 0.05 s until it returns something truthy; fail after ``timeout``.
    A probe that raises (a connection refused, a file half written) is not there yet: its
    exception is what the failure says was seen last, never a success."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while True:
        try:
            last = probe()
        except (OSError, ValueError, httpx.HTTPError) as exc:  # not there yet
            last = exc
        if last and not isinstance(last, BaseException):
            return last
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout} s (last: {last!r})")
        time.sleep(0.05)

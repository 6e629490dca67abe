"""Waits with a limit: a test that waits says what for, and fails when it does not come.

``received`` is a ``TestClient`` WebSocket's ``receive_json`` / ``receive_text`` with a time
limit: starlette's own waits for ever, so a channel the hub never writes to (or never
closes) would hang the test instead of failing it.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

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

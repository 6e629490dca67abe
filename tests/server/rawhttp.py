"""A request's headers sent with no body, on a socket the test opened (plain or TLS): what
the hub answers before a byte of the body comes. A hub that read bodies before checking
credentials would answer nothing, and the test fails saying so."""

from __future__ import annotations

import json
import socket
import ssl
from typing import Any

import pytest


def headers_only(s: socket.socket | ssl.SSLSocket, lines: list[str], what: str,
                 patience: float) -> tuple[int, Any]:
    """``lines`` (the request line and headers) sent on ``s``; the status and JSON of the
    answer, read until its JSON ends (``s`` has its timeout: ``patience`` seconds)."""
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = b""
    try:
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    except TimeoutError:
        pytest.fail(f"{what}: no answer within {patience:g} s while its body was not sent: "
                    f"the hub waited for the body ({answer!r})")
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)

"""Every write route of the hub has its sender checked before its body (``server.gate``), not
only the routes an attack was once seen on: a route added or renamed outside the gate's
paths would have its body read, parsed and described for anyone on the hall's Wi-Fi.

Each write is sent without credentials and with a body that is not JSON: the gate answers
401 from the headers; a route the gate missed would parse the body first (a 422 or a 400)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.gate import READS, check_for

#: the writes anyone may send: their bodies are a few bytes with limits of their own
OPEN = frozenset({"/api/login", "/api/pair"})


def writes(app) -> list[tuple[str, str]]:
    """(method, path) of every write route, its path parameters filled in with 1: from the
    hub's OpenAPI schema, which leaves out only some pages (reads)."""
    return sorted((method.upper(), re.sub(r"\{[^}]+\}", "1", path))
                  for path, methods in app.openapi()["paths"].items()
                  for method in methods if method.upper() not in READS)


def test_the_hub_has_the_writes_this_test_expects(hub):
    """A guard against a test that checks nothing: the routes are found, /api/clock too."""
    found = writes(hub.client.app)
    assert ("POST", "/api/clock") in found and ("PUT", "/api/sheets/1/1") in found
    assert len(found) > 30
    assert {path for _, path in found} >= OPEN


def test_every_write_but_sign_in_and_pairing_is_refused_before_its_body(hub):
    stranger = TestClient(hub.client.app)  # no TD cookie, no clock's token, no sheet key
    missed = []
    for method, path in writes(hub.client.app):
        if path in OPEN:
            continue
        r = stranger.request(method, path, content=b"{",
                             headers={"Content-Type": "application/json"})
        if r.status_code != 401 or check_for(path) is None:
            missed.append(f"{method} {path}: {r.status_code} {r.text[:80]}")
    assert missed == []


@pytest.mark.parametrize("path", sorted(OPEN))
def test_sign_in_and_pairing_pass_the_gate(path):
    assert check_for(path) is None

"""Fixtures: a hub app on a temp data dir with a fake clock, and a signed-in TD client."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dipclock.sync import to_seconds
from machine.passwords import hash_password
from server.app import create_app
from server.settings import Settings
from tests.doubles import FakeClock

PASSWORD = "correct horse battery"
START = datetime(2024, 5, 4, 9, 0)  # wdc2006: S1901 deadline 09:17, F1901 09:32


@pytest.fixture(scope="session")
def password_hash() -> str:
    return hash_password(PASSWORD)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(to_seconds(datetime(2024, 5, 4, 8, 50)))


class Hub:
    """A running app (TestClient) plus what a test needs to drive it."""

    def __init__(self, data_dir: Path, password_hash: str, clock: FakeClock) -> None:
        self.data_dir, self.password_hash, self.clock = data_dir, password_hash, clock
        #: what the kernel says of the system clock, and this boot's id: a test changes them
        self.synced: bool | None = False
        self.boot: str | None = "boot-1"
        self.client = self._open()

    def _open(self) -> TestClient:
        settings = Settings(data_dir=self.data_dir, td_password_hash=self.password_hash)
        app = create_app(settings, clock=self.clock, synced=lambda: self.synced,
                         boot=lambda: self.boot)
        client = TestClient(app)
        client.__enter__()
        return client

    def restart(self) -> None:
        """A new app on the same data dir: what survives is what was stored (the clocks
        paired too)."""
        self.client.__exit__(None, None, None)
        self.client = self._open()

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def token(self, table: int, kiosk: str | None = None) -> str:
        """A clock paired for ``table`` (each call a new clock): asked over HTTP as a clock
        does, approved as the TD does (``server.pairing.approve``, without the session)."""
        import secrets

        from server import pairing

        token = secrets.token_urlsafe(16)
        r = self.client.post("/api/pair", json={
            "kiosk": kiosk or f"test-clock-{token[:6]}", "token_hash": pairing.token_hash(token),
            "table": table})
        assert r.status_code == 201, r.text
        state = self.client.app.state.hub
        pairing.approve(state.store, state.clocks, r.json()["code"], table, state.clock.now(),
                        state.clock.moment())
        return token

    def kiosk_headers(self, table: int) -> dict[str, str]:
        """The Authorization of table ``table``'s clock (paired once per table and hub)."""
        tokens = self.__dict__.setdefault("_tokens", {})
        if table not in tokens:
            tokens[table] = self.token(table)
        return {"Authorization": f"Bearer {tokens[table]}"}

    def sign_in(self) -> dict[str, str]:
        """Log in; returns the CSRF header every state-changing TD request needs."""
        r = self.client.post("/api/login", json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        return {"X-CSRF-Token": r.json()["csrf"]}

    def set_up(self, csrf: dict[str, str], event: str = "wdc2006", tables: int = 4) -> None:
        for method, path, body in (
            ("PUT", "/api/td/event", {"builtin": event}),
            ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
            ("PUT", "/api/td/tables", {"count": tables}),
        ):
            r = self.client.request(method, path, json=body, headers=csrf)
            assert r.status_code == 200, r.text

    def at(self, moment: datetime) -> None:
        self.clock.t = to_seconds(moment)


@pytest.fixture
def hub(tmp_path: Path, password_hash: str, clock: FakeClock) -> Iterator[Hub]:
    h = Hub(tmp_path / "data", password_hash, clock)
    yield h
    h.close()


@pytest.fixture
def td(hub: Hub) -> dict[str, str]:
    """A signed-in TD on ``hub.client``, with the event, round 1 and four tables set up."""
    csrf = hub.sign_in()
    hub.set_up(csrf)
    return csrf


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Debian Chromium for a module's browser tests."""
    from tests.chromium import chromium

    with chromium() as b:
        yield b

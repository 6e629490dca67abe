"""The hub's running parts, shared by every route through one dependency."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from server.clock import Clock
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.settings import Settings
from server.store import Store


@dataclass
class TableStatus:
    """What a kiosk last told us about its sync, and when we last heard from it (mono s)."""

    offset: float | None = None
    rtt: float | None = None
    seen: float | None = None


@dataclass
class Hub:
    settings: Settings
    store: Store
    clock: Clock
    fanout: Fanout
    logins: FailureLimit
    kiosk_key: str
    password_hash: str
    #: random, stored once per data dir: kiosks tell a hub started afresh from this one
    hub_id: str = ""
    status: dict[int, TableStatus] = field(default_factory=dict)

    def seen(self, table: int) -> TableStatus:
        s = self.status.setdefault(table, TableStatus())
        s.seen = self.clock.mono()
        return s


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub


HubDep = Annotated[Hub, Depends(get_hub)]

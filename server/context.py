"""The hub's running parts, shared by every route through one dependency."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import HTTPConnection

from server.clock import UNKNOWN, Clock
from server.kiosks import TableStatus
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.settings import Settings
from server.store import Store


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
    #: does the kernel say the system clock is synchronised? (None: cannot tell)
    synced: Callable[[], bool | None] = lambda: None
    #: how far hub time can be trusted: server.clock.SYNCHRONISED, ... (see there)
    clock_standing: str = UNKNOWN
    #: 0 at start, +1 each time the TD sets the hub's time: kiosks resync when it changes
    clock_epoch: int = 0
    #: this boot's id, under which a TD's time correction is stored (None: none kept)
    boot: str | None = None

    def seen(self, table: int, address: str | None = None) -> TableStatus:
        s = self.status.setdefault(table, TableStatus())
        s.hear(address, self.clock.mono())
        return s

    def claims(self, table: int) -> list[dict[str, Any]]:
        """Every kiosk heard from for ``table`` when two or more are (docs/protocol.md)."""
        s = self.status.get(table)
        if s is None:
            return []
        found = s.conflict(self.clock.mono(), self.settings.online_seconds,
                           self.fanout.addresses(table))
        return [{"id": i, "address": a} for i, a in found]


def get_hub(conn: HTTPConnection) -> Hub:
    return conn.app.state.hub


def client_address(conn: HTTPConnection) -> str:
    """The address a kiosk's request came from, as the TD's grid shows it."""
    return conn.client.host if conn.client else ""


HubDep = Annotated[Hub, Depends(get_hub)]

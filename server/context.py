"""The hub's running parts, shared by every route through one dependency."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Depends
from starlette.requests import HTTPConnection

from server.backroom import Backroom
from server.clock import UNKNOWN, Clock, Listening
from server.history import Judgments, PressBook
from server.kiosks import TableStatus
from server.pagecache import PageCache
from server.pairing import Clocks
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.regulars import Regulars
from server.settings import Settings
from server.signins import SignIns
from server.store import Store


@dataclass
class Hub:
    settings: Settings
    store: Store
    clock: Clock
    fanout: Fanout
    logins: FailureLimit
    password_hash: str
    #: the paired clocks, each good for one table (``server.pairing``); loaded at start
    clocks: Clocks = field(default_factory=Clocks)
    #: SHA-256 of the hub's certificate, as the TD checks it once (None: plain HTTP)
    fingerprint: str | None = None
    #: random, stored once per data dir: kiosks tell a hub started afresh from this one
    hub_id: str = ""
    #: the id drawn at this hub's last restore from a backup (store meta ``restored``;
    #: None: never restored): in every snapshot, so kiosks take a restored hub as a new one
    restored: str | None = None
    status: dict[int, TableStatus] = field(default_factory=dict)
    #: does the kernel say the system clock is synchronised? (None: cannot tell)
    synced: Callable[[], bool | None] = lambda: None
    #: how far hub time can be trusted: server.clock.SYNCHRONISED, ... (see there)
    clock_standing: str = UNKNOWN
    #: +1 each time hub time is moved (the TD, or the tables' kept time; kept across a
    #: restart): kiosks resync when it changes
    clock_epoch: int = 0
    #: this boot's id, under which a TD's time correction is stored (None: none kept)
    boot: str | None = None
    #: the TD's heavy reads, one at a time (``heavy_read``); made on the event loop
    heavy: anyio.CapacityLimiter | None = None
    #: password checks on a thread of their own, a few at a time (``server.signins``)
    signins: SignIns = field(default_factory=SignIns)
    #: the current round's presses and every table's judged late orders, kept between
    #: requests and read again only where they changed (``server.history``)
    book: PressBook = field(default_factory=PressBook)
    #: the time the tables kept across a restart, heard while hub time is provisional
    #: (``server.kepttime``); made at start
    kept: Listening = field(default_factory=lambda: Listening(started=float("-inf")))
    judgments: Judgments = field(default_factory=Judgments)
    #: the hall's clocks' and the TD's addresses, whose handshakes go first (made by
    #: ``create_app``, which hands the same one to the connections' guard)
    regulars: Regulars = field(default_factory=Regulars)
    #: heavy jobs' processes, one at a time (``server.backroom``); made by the lifespan
    backroom: Backroom | None = None
    #: the public pages' data, built once per change (``server.pagecache``)
    pages: PageCache = field(default_factory=PageCache)

    def seen(self, table: int, address: str | None = None) -> TableStatus:
        s = self.status.setdefault(table, TableStatus())
        s.hear(address, self.clock.mono())
        return s

    def table_status(self, table: int) -> TableStatus | None:
        """A copy of what ``table``'s kiosks last said, safe to read in a worker thread (the
        TD's routes) while the event loop records new reports: copying a dict of str keys
        is one step under the GIL, iterating the live one is not."""
        s = self.status.get(table)
        return None if s is None else replace(s, kiosks=dict(s.kiosks), heard=dict(s.heard))

    def claims(self, table: int) -> list[dict[str, Any]]:
        """Every kiosk heard from for ``table`` when two or more are (docs/protocol.md)."""
        s = self.table_status(table)
        if s is None:
            return []
        found = s.conflict(self.clock.mono(), self.settings.online_seconds,
                           self.fanout.addresses(table))
        return [{"id": i, "address": a} for i, a in found]


T = TypeVar("T")


async def heavy_read(hub: Hub, work: Callable[[], T]) -> T:
    """Run ``work`` (the dashboard's state, the penalties: store reads and the review, all
    CPU) in a worker thread, one such read at a time. Under the GIL two at once finish no
    sooner, and each CPU-bound thread more makes the event loop wait longer for its turn,
    which is what a kiosk's time sync feels. Waiting for the turn holds no thread."""
    if hub.heavy is None:
        hub.heavy = anyio.CapacityLimiter(1)
    return await anyio.to_thread.run_sync(work, limiter=hub.heavy)


async def get_hub(conn: HTTPConnection) -> Hub:
    """``async`` though it awaits nothing: FastAPI runs a plain ``def`` dependency in a
    worker thread, and ``/api/time`` must not wait for one (a hop there before t1 would
    bias every kiosk's offset, and under load the pool may have no thread free)."""
    hub: Hub = conn.app.state.hub
    return hub


def client_address(conn: HTTPConnection) -> str:
    """The address a kiosk's request came from, as the TD's grid shows it."""
    return conn.client.host if conn.client else ""


HubDep = Annotated[Hub, Depends(get_hub)]

"""Snapshot fan-out to every kiosk's WebSocket.

Each client has a queue of one: a newer snapshot replaces one not yet sent, because a
kiosk only ever needs the latest schedule. Each send has a timeout, and a client that
misses it is dropped (it reconnects and gets a fresh snapshot), so one slow or dead
kiosk never holds up the other ninety-nine.

The TD's routes run in worker threads (their SQLite and review work must not hold up the
event loop), so ``publish`` may be called from any thread: the snapshots are built in the
caller's thread and handed to the loop that owns the sockets with
``call_soon_threadsafe``, each already encoded as the text it is sent as (a hundred
encodings on the loop held the last table's push behind the others'). Two publishes from
two threads may reach the loop in either order, so a client keeps the snapshot with the
higher ``seq``, never an older one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...
    async def receive_text(self) -> str: ...
    async def close(self, code: int = 1000) -> None: ...


@dataclass(frozen=True)
class Frame:
    """A snapshot as the WebSocket sends it, and its ``seq`` (None: it has none)."""

    seq: int | None
    text: str

    @classmethod
    def of(cls, snapshot: dict[str, Any]) -> Frame:
        seq = snapshot.get("seq")
        return cls(seq if isinstance(seq, int) else None, json.dumps(snapshot))


class Client:
    """One connected kiosk: its table, its address and a queue that keeps only the latest
    snapshot."""

    def __init__(self, table: int, address: str = "") -> None:
        self.table = table
        self.address = address
        self.queue: asyncio.Queue[Frame] = asyncio.Queue(maxsize=1)
        #: the highest ``seq`` offered so far: a snapshot older than it is never queued
        self.newest: int | None = None

    def offer(self, frame: Frame) -> None:
        """Queue ``frame`` in place of one not yet sent, unless it is older. Loop only."""
        if frame.seq is not None:
            if self.newest is not None and frame.seq < self.newest:
                return
            self.newest = frame.seq
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(frame)


class Fanout:
    def __init__(self, send_timeout: float) -> None:
        self.send_timeout = send_timeout
        self.clients: set[Client] = set()
        #: guards ``clients``: the loop adds and drops them, worker threads read them
        self._lock = threading.Lock()
        #: the loop the WebSockets are served on (set by the first ``serve``)
        self._loop: asyncio.AbstractEventLoop | None = None

    def connected(self) -> list[Client]:
        with self._lock:
            return list(self.clients)

    def count(self, table: int) -> int:
        return sum(1 for c in self.connected() if c.table == table)

    def addresses(self, table: int) -> set[str]:
        """Where the kiosks with a WebSocket open for ``table`` are."""
        return {c.address for c in self.connected() if c.table == table and c.address}

    def publish(
        self,
        build: Callable[[set[int]], dict[int, Frame]],
        tables: Iterable[int] | None = None,
    ) -> None:
        """Queue a fresh snapshot for every client (of ``tables``, if given), ``build``
        encoding each table's in the caller's thread. Never waits
        for a socket; callable from the event loop or from a worker thread."""
        wanted = None if tables is None else set(tables)
        targets = [c for c in self.connected() if wanted is None or c.table in wanted]
        if not targets:
            return
        frames = build({c.table for c in targets})  # encoded here: off the loop

        def deliver() -> None:
            for c in targets:
                c.offer(frames[c.table])

        loop = self._loop
        if loop is None or _running_loop() is loop:
            deliver()
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: the hub is stopping
            loop.call_soon_threadsafe(deliver)

    async def serve(
        self, ws: Socket, table: int, first: dict[str, Any], address: str = ""
    ) -> None:
        """Send ``first`` then every published snapshot until the kiosk goes or lags."""
        self._loop = asyncio.get_running_loop()
        client = Client(table, address)
        client.offer(Frame.of(first))
        with self._lock:
            self.clients.add(client)
        sender = asyncio.create_task(self._send(ws, client))
        reader = asyncio.create_task(self._read(ws))
        try:
            await asyncio.wait({sender, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            with self._lock:
                self.clients.discard(client)
            for task in (sender, reader):
                task.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001), timeout=self.send_timeout)

    async def _send(self, ws: Socket, client: Client) -> None:
        while True:
            frame = await client.queue.get()
            try:
                await asyncio.wait_for(ws.send_text(frame.text), self.send_timeout)
            except Exception:  # timed out or the socket is gone: drop this client
                return

    async def _read(self, ws: Socket) -> None:
        """Kiosks send nothing but pings; reading is how a closed socket is noticed."""
        with contextlib.suppress(Exception):
            while True:
                await ws.receive_text()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # a worker thread: no loop runs here
        return None

"""A hall's Wi-Fi in user space: TCP proxies that delay, jitter, skew and "lose" traffic.

This machine's kernel has no ``netem``, so each kiosk (or group of kiosks) of the hall
harness reaches the hub through a ``LinkProxy`` on 127.0.0.1 that holds every chunk it
forwards for the link's delay. TCP never drops or reorders what it delivers: a lost segment
is sent again after a retransmission timeout, so a "lost" chunk here arrives ``rto_ms``
late (and again, at the same chance, after twice the timeout), and the chunks of one
direction stay in order.

``WIFI`` reads the target conditions (40 ± 20 ms jitter, 2 % loss, 10 ms asymmetry) as: a
round trip of 40 ms, each direction 20 ms ± 10 ms uniform, the kiosk-to-hub direction
10 ms longer, and 2 % of chunks a retransmission (200 ms, Linux's minimum RTO) late.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

#: the most times one chunk is "lost" (Linux gives up on a connection after 15)
RETRIES = 5


@dataclass(frozen=True)
class Link:
    delay_ms: float = 0.0  # one way, each direction
    jitter_ms: float = 0.0  # ± uniform, per chunk and direction
    asymmetry_ms: float = 0.0  # more on the way up (kiosk to hub)
    loss: float = 0.0  # a chunk's chance to wait a retransmission
    rto_ms: float = 200.0

    def delay(self, rng: random.Random, up: bool) -> float:
        """Seconds one chunk takes."""
        ms = self.delay_ms + rng.uniform(-self.jitter_ms, self.jitter_ms)
        ms += self.asymmetry_ms if up else 0.0
        rto = self.rto_ms
        for _ in range(RETRIES):  # each try lost again at the same chance; TCP doubles
            if not self.loss or rng.random() >= self.loss:  # its timeout each time
                break
            ms += rto
            rto *= 2
        return max(0.0, ms) / 1000


CLEAN = Link()
WIFI = Link(delay_ms=20.0, jitter_ms=10.0, asymmetry_ms=10.0, loss=0.02)


class LinkProxy:
    """Forwards each connection to ``target`` through ``link``, both ways; ``source``: the
    address it connects from (the hub's per-address limits see one client per proxy)."""

    def __init__(self, link: Link, target: tuple[str, int], seed: int = 0,
                 source: str | None = None) -> None:
        self.link, self.target, self.source = link, target, source
        self.rng = random.Random(seed)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, down_r: asyncio.StreamReader, down_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            up_r, up_w = await asyncio.open_connection(
                *self.target, local_addr=(self.source, 0) if self.source else None)
        except OSError:
            down_w.close()
            self._tasks.discard(task)
            return
        try:
            await asyncio.gather(self._pump(down_r, up_w, up=True),
                                 self._pump(up_r, down_w, up=False))
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for w in (up_w, down_w):
                with suppress(OSError, RuntimeError):
                    w.close()
            self._tasks.discard(task)

    async def _pump(self, r: asyncio.StreamReader, w: asyncio.StreamWriter, up: bool) -> None:
        """Read chunks as they come; a writer delivers each at its time, in order."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, chunk = await queue.get()
                wait = at - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not chunk:
                    w.close()
                    return
                w.write(chunk)
                await w.drain()

        writer = asyncio.create_task(deliver())
        last = 0.0
        try:
            while True:
                chunk = await r.read(65536)
                last = max(last, loop.time() + self.link.delay(self.rng, up))
                queue.put_nowait((last, chunk))
                if not chunk:
                    break
            await writer
        finally:
            writer.cancel()


class ProxyPool:
    """Many proxies on one event loop in a thread of their own, for a synchronous harness."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="links",
                                        daemon=True)
        self._proxies: list[LinkProxy] = []
        self._thread.start()

    def add(self, link: Link, target: tuple[str, int], seed: int = 0,
            source: str | None = None) -> int:
        """A new proxy to ``target``; its port."""
        proxy = LinkProxy(link, target, seed, source)
        self._proxies.append(proxy)
        return asyncio.run_coroutine_threadsafe(proxy.start(), self.loop).result(10)

    def close(self) -> None:
        async def all_closed() -> None:
            await asyncio.gather(*(p.close() for p in self._proxies), return_exceptions=True)
            # and the connections' pumps, ended here rather than collected after the loop
            # has closed (where their cleanup would raise)
            pumps = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in pumps:
                t.cancel()
            await asyncio.gather(*pumps, return_exceptions=True)

        with suppress(Exception):
            asyncio.run_coroutine_threadsafe(all_closed(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@contextmanager
def proxy_pool() -> Iterator[ProxyPool]:
    pool = ProxyPool()
    try:
        yield pool
    finally:
        pool.close()

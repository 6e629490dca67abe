"""The hall harness's simulated kiosks, in processes of their own.

A simulated kiosk is the kiosk's real hub code without its screen: ``HubClient`` (time
sync, snapshots over the WebSocket, outbox upload, each on its threads) over a real
``Outbox`` file, with a monotonic clock of its own (an offset of up to a day and a drift of
up to ±50 ppm, as a Pi's crystal), reaching the hub through a ``benchmarks.links`` proxy
from a loopback address of its own.

A hall's kiosks are a hundred Pis, each with a CPU of its own. A hundred of them in one
Python process share one interpreter lock: when a pause reaches every table at once, the
last of them took the snapshot only after the 99 others had, and the harness measured its
own queue, not the hub's fan-out. So the kiosks (and their links' proxies) are spread over
a few processes (``KioskGroup``, served by a ``multiprocessing`` manager), and the harness
drives them through ``Kiosks``, which asks every group at once. Every process reads the
same ``CLOCK_MONOTONIC``, so the instants each group reports compare with the hub's.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from multiprocessing import get_context
from multiprocessing.managers import BaseManager
from pathlib import Path
from typing import Any, TypeVar

from benchmarks.links import CLEAN, WIFI, Link, ProxyPool
from dipclock.sync import to_moment
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox

T = TypeVar("T")


class SimKiosk:
    """A table's kiosk without its screen: the real ``HubClient`` and ``Outbox``."""

    def __init__(self, url: str, table: int, token: str, folder: Path, rng: random.Random,
                 link: Link, verify: Any) -> None:
        self.url, self.table, self.token, self.link = url, table, token, link
        self.verify = verify
        self.path = folder / f"sim-{table}.sqlite"
        self.skew = rng.uniform(-50e-6, 50e-6)  # a crystal's drift
        self.base = rng.uniform(-86400, 86400)  # its monotonic clock's own zero
        self.wall_shift = 0.0
        self.arrivals: list[tuple[float, int]] = []  # (monotonic, seq) of each snapshot taken
        self.pressed: list[str] = []
        self._rng = rng
        #: a press and a restart one at a time: the harness presses from its own thread,
        #: and a press into an outbox being closed would be a press on a dead Pi
        self._lock = threading.Lock()
        self._open()

    def mono(self, real: float | None = None) -> float:
        return self.base + (time.monotonic() if real is None else real) * (1 + self.skew)

    def _open(self) -> None:
        self.outbox = Outbox(self.path)
        self.client = HubClient(self.url, self.table, self.token, self.outbox, mono=self.mono,
                                wall=lambda: time.time() + self.wall_shift,
                                rng=random.Random(self._rng.random()), verify=self.verify)
        taken = self.client.accept

        def accept(data: Any) -> bool:
            if isinstance(data, dict) and isinstance(data.get("seq"), int):
                self.arrivals.append((time.monotonic(), data["seq"]))
            return taken(data)

        self.client.accept = accept  # type: ignore[method-assign]
        self.client.start()

    def restart(self) -> None:
        """As a power cut would: no goodbye; the outbox survives on disk."""
        with self._lock:
            self.client.close()
            self.outbox.close()
            self._open()

    def error(self, hub_offset: float) -> float | None:
        """Seconds this kiosk's shown hub time is off, now (None: not synced yet)."""
        if not self.client.trusted():
            return None
        real = time.monotonic()
        return self.client.local(self.mono(real)) - (real + hub_offset)

    def shown(self) -> float:
        """Its shown hub time minus the real monotonic clock: what a countdown follows."""
        real = time.monotonic()
        return self.client.local(self.mono(real)) - real

    def press(self, power: str) -> bool:
        """Record a press as the kiosk app does: the outbox first, then the upload."""
        with self._lock:
            rnd = self.client.current()
            if rnd is None:
                return False
            mono = self.mono()
            at = to_moment(self.client.local(mono))
            stored = self.outbox.record(power, "press", at, rnd.key, "bench", mono=mono,
                                        boot="bench", trusted=self.client.trusted())
            self.pressed.append(stored.id)
            self.settle()
            self.client.sent()
            return True

    def settle(self) -> None:
        """Re-stamp the presses made before the time was trusted, as the app's frame does
        (``kiosk.app.KioskApp.settle``); a restart is a process kill, so one boot."""
        if self.client.trusted() and self.outbox.guesses():
            self.outbox.correct("bench", lambda m: to_moment(self.client.stamp(m)))
            self.client.sent()

    def unsent(self) -> int:
        self.settle()
        return len(self.outbox.unsent()) + len(self.outbox.guesses())

    def close(self) -> None:
        self.client.close()
        self.outbox.close()


class KioskGroup:
    """Some of the hall's simulated kiosks and their links' proxies, in one process; every
    answer is plain data, keyed by table."""

    def __init__(self, certificate: str) -> None:
        from kiosk.pairing import pinned

        self.verify = pinned(certificate)
        self.pool = ProxyPool()
        self.kiosks: dict[int, SimKiosk] = {}

    def add(self, table: int, token: str, folder: str, seed: int, wifi: bool,
            hub: tuple[str, int], source: str) -> None:
        link = WIFI if wifi else CLEAN
        port = self.pool.add(link, hub, source=source, seed=seed)
        self.kiosks[table] = SimKiosk(f"https://127.0.0.1:{port}", table, token, Path(folder),
                                      random.Random(seed), link, self.verify)

    def tables(self, wifi: bool | None = None) -> list[int]:
        return [n for n, k in self.kiosks.items()
                if wifi is None or (k.link == WIFI) == wifi]

    def trusted(self) -> bool:
        return all(k.client.trusted() for k in self.kiosks.values())

    def errors(self, hub_offset: float, tables: list[int]) -> dict[int, float | None]:
        return {n: self.kiosks[n].error(hub_offset) for n in tables if n in self.kiosks}

    def shown(self, tables: list[int]) -> dict[int, float]:
        return {n: self.kiosks[n].shown() for n in tables if n in self.kiosks}

    def step_walls(self, shifts: dict[int, float]) -> None:
        for n, shift in shifts.items():
            if n in self.kiosks:
                self.kiosks[n].wall_shift = shift

    def newest_seq(self) -> int:
        return max((a[1] for k in self.kiosks.values() for a in k.arrivals[-1:]), default=0)

    def arrived(self, after: int, since: float, tables: list[int]) -> dict[int, float | None]:
        """Each table's first snapshot newer than ``after`` taken at or after ``since``."""
        return {n: next((t for t, s in self.kiosks[n].arrivals if s > after and t >= since),
                        None) for n in tables if n in self.kiosks}

    def press(self, table: int, power: str) -> bool:
        return self.kiosks[table].press(power)

    def restart(self, table: int) -> None:
        self.kiosks[table].restart()

    def unsent(self) -> int:
        return sum(k.unsent() for k in self.kiosks.values())

    def pressed(self) -> dict[int, list[str]]:
        return {n: list(k.pressed) for n, k in self.kiosks.items()}

    def sync_states(self) -> dict[int, tuple[bool, Any]]:
        """Each table's (connected, its last time report): a new report is a new sync."""
        return {n: (k.client.connected, k.client.sync_status())
                for n, k in self.kiosks.items()}

    def close(self) -> None:
        for k in self.kiosks.values():
            k.close()
        self.pool.close()


class _Manager(BaseManager):
    pass


_Manager.register("KioskGroup", KioskGroup)


class Kiosks:
    """The hall's simulated kiosks over ``groups`` processes, asked all at once."""

    def __init__(self, groups: list[Any]) -> None:
        self.groups = groups
        self.of: dict[int, Any] = {}  # table -> its group
        self._ask = ThreadPoolExecutor(max_workers=max(1, len(groups)))

    def add(self, table: int, token: str, folder: Path, seed: int, wifi: bool,
            hub: tuple[str, int], source: str) -> None:
        group = self.groups[len(self.of) % len(self.groups)]
        group.add(table, token, str(folder), seed, wifi, hub, source)
        self.of[table] = group

    def _all(self, call: Callable[[Any], T]) -> list[T]:
        return list(self._ask.map(call, self.groups))

    def _merged(self, call: Callable[[Any], dict[int, T]]) -> dict[int, T]:
        out: dict[int, T] = {}
        for part in self._all(call):
            out.update(part)
        return out

    def tables(self, wifi: bool | None = None) -> list[int]:
        return sorted(n for part in self._all(lambda g: g.tables(wifi)) for n in part)

    def trusted(self) -> bool:
        return all(self._all(lambda g: g.trusted()))

    def errors(self, hub_offset: float, tables: list[int]) -> dict[int, float | None]:
        return self._merged(lambda g: g.errors(hub_offset, tables))

    def shown(self, tables: list[int]) -> dict[int, float]:
        return self._merged(lambda g: g.shown(tables))

    def step_walls(self, shifts: dict[int, float]) -> None:
        self._all(lambda g: g.step_walls(shifts))

    def newest_seq(self) -> int:
        return max(self._all(lambda g: g.newest_seq()))

    def arrived(self, after: int, since: float, tables: list[int]) -> dict[int, float | None]:
        return self._merged(lambda g: g.arrived(after, since, tables))

    def press(self, table: int, power: str) -> bool:
        return bool(self.of[table].press(table, power))

    def restart(self, table: int) -> None:
        self.of[table].restart(table)

    def unsent(self) -> int:
        return sum(self._all(lambda g: g.unsent()))

    def pressed(self) -> dict[int, list[str]]:
        return self._merged(lambda g: g.pressed())

    def sync_states(self) -> dict[int, tuple[bool, Any]]:
        return self._merged(lambda g: g.sync_states())

    def close(self) -> None:
        self._all(lambda g: g.close())
        self._ask.shutdown()


@contextmanager
def kiosk_groups(count: int, certificate: str) -> Iterator[Kiosks]:
    """``count`` processes of simulated kiosks (each a fresh interpreter: forked from a
    harness that runs threads, a child could inherit a lock held); all of them ended on the
    way out, also on Ctrl-C or a failure."""
    with ExitStack() as stack:
        groups = []
        for _ in range(count):
            manager = _Manager(ctx=get_context("spawn"))
            manager.start()
            stack.callback(manager.shutdown)
            groups.append(manager.KioskGroup(certificate))  # type: ignore[attr-defined]
        kiosks = Kiosks(groups)
        try:
            yield kiosks
        finally:
            try:
                kiosks.close()
            except Exception:  # a group already gone: its manager's shutdown ends it
                pass

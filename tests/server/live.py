"""A real hub: ``python -m dipclock hub`` as a subprocess on a free 127.0.0.1 port.

The port is never a number picked here for the hub to bind a second later (another process
could take it first): the hub is handed a socket bound here (``benchmarks.hub.hub_socket``,
``dipclock hub --fd``), and a hub started again gets its port bound again the moment the last
one was reaped."""

from __future__ import annotations

import os
import signal
import ssl
import subprocess
import sys
import threading
import time
import weakref
from datetime import datetime
from pathlib import Path

import httpx

from benchmarks.hub import handing_over, hub_socket, launcher, pair_by_td
from tests.server.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
#: How long a started hub has to answer before the test fails saying so
START_LIMIT = 60.0


class LiveHub:
    """``extra``: more ``dipclock hub`` options. The hub neither waits for NTP nor announces
    itself by mDNS unless ``quiet=False`` (then the CLI's defaults hold).

    ``https``: served as a hall's hub is, over HTTPS with the certificate it makes at its
    first start (made here first, by the same code, so ``verify`` can pin it before the
    hub answers); else ``--plain-http``, for the tests about something else.

    ``host``: the address the hub's socket is bound to (``0.0.0.0`` for a hub that announces
    itself: one on loopback only is not announced); it is reached at 127.0.0.1 all the same."""

    def __init__(self, data: Path, extra: tuple[str, ...] = (), quiet: bool = True,
                 https: bool = False, host: str = "127.0.0.1") -> None:
        #: the socket the next ``start`` hands the hub: its port is this hub's for good
        self.host = host
        self.socket = hub_socket(host=host)
        self.data, self.port = data, self.socket.getsockname()[1]
        self.extra = (("--no-mdns", "--wait-for-sync", "0") if quiet else ()) + tuple(extra)
        self.verify: ssl.SSLContext | bool = True
        if https:
            from kiosk.pairing import pinned
            from server.certificate import ensure

            cert, _key, _made = ensure(data)
            self.certificate = cert.read_text()
            self.verify = pinned(self.certificate)
        else:
            self.extra += ("--plain-http",)
        self.url = f"{'https' if https else 'http'}://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        #: seconds the hub machine's wall clock is off at the next ``start`` (a clock
        #: stepped while the hub was down): the hub reads it through
        #: ``server.clock.wall_seconds``, patched in the hub's own process
        self.wall_shift = 0.0
        #: the boot id the hub sees at the next ``start`` (None: this machine's): another
        #: one is a start after a reboot (``benchmarks.hub.launcher``)
        self.boot: str | None = None

    def start(self) -> LiveHub:
        env = os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD, "PYTHONPATH": str(ROOT),
                            "PYTHONUNBUFFERED": "1"}
        self.log = self.data.with_suffix(".log")
        self.data.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as out:  # a file, not a pipe: a full pipe would block the hub
            run = launcher(self.wall_shift, self.boot)
            sock, self.socket = self.socket or hub_socket(self.port, host=self.host), None
            self.proc = handing_over(
                sock, [sys.executable, *run, "hub", "--data", str(self.data), *self.extra],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
            )
        # a limit, not a wait: a hub answers in a second or two, but on two cores busy with
        # three emulated cards and the suite its imports alone once took more than 20 s
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:  # poll until it answers, not a fixed wait
            if self.proc.poll() is not None:
                raise RuntimeError(f"hub exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/time", timeout=0.5,
                             verify=self.verify).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError(f"hub did not answer /api/time within {START_LIMIT:.0f} s")

    def printed(self) -> str:
        return self.log.read_text()

    def get(self, path: str, **kw: object) -> httpx.Response:
        """``httpx.get`` of ``path`` on this hub, its certificate pinned."""
        return httpx.get(self.url + path, verify=self.verify, **kw)  # type: ignore[arg-type]

    def post(self, path: str, **kw: object) -> httpx.Response:
        return httpx.post(self.url + path, verify=self.verify, **kw)  # type: ignore[arg-type]

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the hub's power is cut."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self._keep_port()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self._keep_port()

    def _keep_port(self) -> None:
        """The port bound again the moment the hub is reaped, for the next ``start``: not
        listening, so a clock's connection is refused, as by a hub that is down."""
        if self.socket is None:
            self.socket = hub_socket(self.port, host=self.host)

    def __del__(self) -> None:
        sock = getattr(self, "socket", None)
        if sock is not None:
            sock.close()

    def td(self, source: str | None = None) -> httpx.Client:
        """A signed-in TD client, CSRF header included; ``source``: the address it
        connects from (None: the system's choice)."""
        transport = httpx.HTTPTransport(local_address=source,
                                        verify=getattr(self, "verify", True))
        c = httpx.Client(base_url=self.url, transport=transport,
                         timeout=60)  # a bound on a hang, not a margin
        r = c.post("/api/login", json={"password": PASSWORD})
        r.raise_for_status()
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        return c

    @staticmethod
    def token(td: httpx.Client, table: int, kiosk: str | None = None) -> str:
        """A new clock paired for ``table``: asked and approved over HTTP as the TD."""
        return pair_by_td(td, table, kiosk)

    @classmethod
    def auth(cls, td: httpx.Client, table: int) -> dict[str, str]:
        """The Authorization header of a new clock paired for ``table``."""
        return {"Authorization": f"Bearer {cls.token(td, table)}"}


class Clocks:
    """One clock paired per table, on first use: ``clocks[3]`` is table 3's Authorization
    header (each clock's token is good for its own table only)."""

    def __init__(self, td: httpx.Client) -> None:
        self.td, self.made = td, {}

    def __getitem__(self, table: int) -> dict[str, str]:
        if table not in self.made:
            self.made[table] = LiveHub.auth(self.td, table)
        return self.made[table]


_CLOCKS: weakref.WeakKeyDictionary[httpx.Client, Clocks] = weakref.WeakKeyDictionary()


def clocks_of(td: httpx.Client) -> Clocks:
    """The clocks paired through this TD client (the same one each time for a table: a
    pairing is a line in the TD's log, which tests read)."""
    if td not in _CLOCKS:
        _CLOCKS[td] = Clocks(td)
    return _CLOCKS[td]


class ThreadHub:
    """A real uvicorn serving ``create_app`` in this process, on a socket bound here to a
    free 127.0.0.1 port (served as it is: no moment where another process could take it), so a
    test can hand the hub a wall clock (or a whole clock: ``tests.doubles.FakeClock``) and a
    time-sync probe of its choosing."""

    def __init__(self, data: Path, synced=lambda: False, wall=None, clock=None,
                 boot: str = "b", **settings: object) -> None:
        """``boot``: the boot id the hub sees (another: a start after a reboot);
        ``settings``: more ``server.settings.Settings`` fields (its limits)."""
        import uvicorn

        from machine.passwords import hash_password
        from server import serve
        from server.app import create_app
        from server.clock import HubClock
        from server.settings import Settings

        sock = hub_socket()
        self.port = sock.getsockname()[1]
        made = Settings(data_dir=data, td_password_hash=hash_password(PASSWORD),
                        host="127.0.0.1", port=self.port, **settings)
        self.clock = clock if clock is not None else HubClock(wall=wall)
        app = create_app(made, clock=self.clock, synced=synced, boot=lambda: boot)
        self.url = f"{made.scheme}://127.0.0.1:{self.port}"
        self.verify: ssl.SSLContext | bool = True
        if made.certificate is not None:  # HTTPS: pinned as a clock pins it
            from kiosk.pairing import pinned

            self.certificate = made.certificate.read_text()
            self.verify = pinned(self.certificate)
        self.server = uvicorn.Server(serve.config(app, made))
        self.thread = threading.Thread(target=serve.run, args=(self.server, sock), daemon=True)

    def __enter__(self) -> ThreadHub:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:  # poll until it serves, not a fixed wait
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the hub did not start within 30 s")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)

    td = LiveHub.td
    token = staticmethod(LiveHub.token)
    auth = LiveHub.auth


def held_hub(data: Path, moment: datetime) -> ThreadHub:
    """A real hub whose clock the test holds (``tests.doubles.FakeClock``), set to
    ``moment`` (the venue's time), its system clock said to be synchronised: each step of
    a test jumps the clock to the instant it needs (``at``)."""
    from dipclock.sync import to_seconds
    from tests.doubles import FakeClock

    return ThreadHub(data, synced=lambda: True, clock=FakeClock(to_seconds(moment)))


def at(hub: ThreadHub, moment: datetime) -> None:
    """Jump a ``held_hub``'s clock to ``moment``."""
    from dipclock.sync import to_seconds

    hub.clock.t = to_seconds(moment)

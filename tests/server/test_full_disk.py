"""A full disk under the hub (``server.errors``): a real ``dipclock hub`` on a real 3 MB
tmpfs, mounted in a mount namespace of its own (``unshare``; root, as CI runs), which a
holder process keeps while the hub is killed and started again inside it (``nsenter``).
The test fills and frees that file system through ``/proc/HOLDER/root``."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from benchmarks.hub import handing_over, hub_socket
from server.errors import DISK_FULL
from tests.server.conftest import PASSWORD
from tests.server.live import LiveHub
from tests.server.test_live import set_up
from tests.waits import wait_for

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 60.0  # a bound on a hang only

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("nsenter"),
    reason="mounting a small tmpfs in a namespace of its own needs root and util-linux")


class SmallDisk:
    """A 3 MB tmpfs at ``path`` in a private mount namespace kept by a sleeping holder."""

    def __init__(self, path: Path) -> None:
        path.mkdir(parents=True)
        self.path = path
        self.holder = subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c",
             'mount -t tmpfs -o size=3m dipclock-small "$0" && echo ready && exec sleep 3600',
             str(path)], stdout=subprocess.PIPE, text=True)
        assert self.holder.stdout is not None
        assert self.holder.stdout.readline().strip() == "ready"

    def seen(self, relative: str = "") -> Path:
        """``path``/``relative`` as the hub sees it (inside the namespace)."""
        return Path(f"/proc/{self.holder.pid}/root") / str(self.path).lstrip("/") / relative

    def fill(self) -> None:
        """Write filler files until the file system is full."""
        with open(self.seen("filler"), "ab") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
        with suppress(OSError), open(self.seen("filler2"), "ab") as f:  # the last crumbs
            while True:
                f.write(b"\0" * 512)
                f.flush()

    def free(self) -> None:
        for name in ("filler", "filler2"):
            self.seen(name).unlink(missing_ok=True)

    def close(self) -> None:
        self.holder.send_signal(signal.SIGKILL)
        self.holder.wait(timeout=30)


@contextmanager
def hub_on(disk: SmallDisk, data: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``dipclock hub`` on ``data`` inside the small disk's namespace; its URL."""
    sock = hub_socket()
    port = sock.getsockname()[1]
    log = open(disk.path.parent / "hub.log", "a")  # noqa: SIM115 (closed below)
    proc = handing_over(
        sock, ["nsenter", "-t", str(disk.holder.pid), "-m", "--", sys.executable, "-m",
               "dipclock", "hub", "--data", str(data), "--no-mdns", "--wait-for-sync", "0",
               "--plain-http"],
        cwd=ROOT, env=os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD,
                                    "PYTHONPATH": str(ROOT)},
        stdout=log, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert proc.poll() is None, (disk.path.parent / "hub.log").read_text()
        with suppress(httpx.TransportError):
            return httpx.get(url + "/api/time", timeout=2).status_code == 200
        return False

    try:
        wait_for("the hub on the small disk answering", answers, timeout=PATIENCE)
        yield url, proc
    finally:
        proc.kill()
        proc.wait(timeout=30)
        log.close()


def signed_in(url: str) -> httpx.Client:
    td = httpx.Client(base_url=url, timeout=PATIENCE)
    r = td.post("/api/login", json={"password": PASSWORD})
    r.raise_for_status()
    td.headers["X-CSRF-Token"] = r.json()["csrf"]
    return td


def test_a_full_disk_is_said_stored_nothing_loses_nothing_and_passes(tmp_path):
    disk = SmallDisk(tmp_path / "small")
    data = disk.path / "hub"
    try:
        with hub_on(disk, data) as (url, _proc):
            td = signed_in(url)
            set_up(td, datetime(2024, 5, 4, 9, 30), tables=2)
            key = LiveHub.auth(td, 1)
            press = {"id": "p1", "power": "A", "kind": "press", "at": "2024-05-04T09:31:00"}
            ok = httpx.post(url + "/api/tables/1/presses", json={"presses": [press]},
                            headers=key, timeout=PATIENCE)
            assert ok.status_code == 200 and ok.json()["stored"] == 1
            disk.fill()
            batch = [{"id": f"q{k}", "power": "AEFGIRT"[k % 7], "kind": "press",  # no bounce
                      "at": (datetime(2024, 5, 4, 9, 32) + timedelta(seconds=k)).isoformat()}
                     for k in range(400)]
            full = httpx.post(url + "/api/tables/1/presses", json={"presses": batch},
                              headers=key, timeout=PATIENCE)
            assert full.status_code == 507 and full.json() == {"detail": DISK_FULL}
            paused = td.post("/api/td/pauses", json={"reason": "Lunch"})
            assert paused.status_code == 507, paused.text
            state = td.get("/api/td/state")  # reads go on: the TD sees the hall
            assert state.status_code == 200, state.text
            snap = httpx.get(url + "/api/tables/1/snapshot", headers=key, timeout=PATIENCE)
            assert snap.status_code == 200, snap.text
        with hub_on(disk, data) as (url, _proc):  # restarted on the full disk: it serves
            td.base_url = httpx.URL(url)  # the TD's session was stored: it stands
            assert td.get("/api/td/state").status_code == 200
            disk.fill()  # what the restart freed (its log's checkpoint) filled again
            refused = td.post("/api/login", json={"password": PASSWORD})
            assert refused.status_code == 507 and refused.json() == {"detail": DISK_FULL}
            disk.free()  # room again: the same requests go through, nothing was lost
            again = httpx.post(url + "/api/tables/1/presses", json={"presses": batch},
                               headers=key, timeout=PATIENCE)
            assert again.status_code == 200 and again.json()["stored"] == 400, again.text
            assert td.post("/api/td/pauses", json={"reason": "Lunch"}).status_code == 200
            first = httpx.post(url + "/api/tables/1/presses", json={"presses": [press]},
                               headers=key, timeout=PATIENCE)
            assert first.json()["duplicates"] == 1  # stored before the disk filled
    finally:
        disk.close()

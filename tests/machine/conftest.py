"""Fake ``/dev``, ``/sys``, ``/proc`` and ``/etc`` trees: real files under tmp_path, laid out
as a Raspberry Pi 5 running Bookworm Lite lays them out."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import DEFAULT_PINS
from kiosk.pairing import Credential
from tests.server.conftest import START
from tests.server.live import LiveHub

#: /proc/self/mountinfo of a Pi booted from its SD card (Bookworm), trimmed.
PI_MOUNTINFO = """\
22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
23 22 0:5 / /dev rw,relatime shared:2 - devtmpfs udev rw,size=3922308k
24 22 0:21 / /proc rw,relatime shared:12 - proc proc rw
25 22 0:22 / /sys rw,relatime shared:7 - sysfs sysfs rw
26 22 0:25 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=808048k
27 22 179:1 / /boot/firmware rw,relatime shared:30 - vfat /dev/mmcblk0p1 rw,fmask=0022
"""


#: The firmware's device under /sys/devices/platform: a Pi 5's, a Pi 4's (3, Zero 2).
PI5_FIRMWARE = "soc@107c000000/soc@107c000000:firmware"
PI4_FIRMWARE = "soc/soc:firmware"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


class FakePi:
    """A machine tree under ``root``: add the parts a test needs, then point probes at it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.dev, self.sys, self.proc, self.etc = (root / n for n in ("dev", "sys", "proc", "etc"))
        for d in (self.dev, self.sys, self.proc, self.etc):
            d.mkdir(parents=True)
        write(self.proc / "self" / "mountinfo", PI_MOUNTINFO)
        write(self.proc / "1" / "comm", "systemd\n")

    @property
    def drm(self) -> Path:
        return self.sys / "class" / "drm"

    def card(self, n: int, *connectors: tuple[str, str]) -> Path:
        """``/dev/dri/cardN`` and its connectors' status files, ("HDMI-A-1", "connected")."""
        node = write(self.dev / "dri" / f"card{n}", "")
        write(self.drm / f"card{n}" / "dev", f"226:{n}\n")
        for name, status in connectors:
            write(self.drm / f"card{n}-{name}" / "status", status + "\n")
        return node

    def process(self, pid: int, comm: str) -> None:
        write(self.proc / str(pid) / "comm", comm + "\n")

    def gpiochip(self, n: int) -> Path:
        return write(self.dev / f"gpiochip{n}", "")

    def mountinfo(self, text: str) -> Path:
        return write(self.proc / "self" / "mountinfo", text)

    def throttled(self, bits: int, firmware: str = PI5_FIRMWARE) -> None:
        """The firmware's word as the kernel shows it, on the firmware device ``firmware``
        (the Pi 5's unless told), which the firmware driver is bound to."""
        device = self.sys / "devices/platform" / firmware
        write(device / "get_throttled", f"{bits:x}\n")
        bound = self.sys / "bus/platform/drivers/raspberrypi-firmware" / device.name
        if not bound.exists():
            bound.parent.mkdir(parents=True, exist_ok=True)
            bound.symlink_to(device)


@pytest.fixture
def pi(tmp_path: Path) -> FakePi:
    return FakePi(tmp_path / "root")


def refuse(*denied: Path):
    """An ``os.open`` that refuses these paths as the kernel refuses a user outside the
    device's group (the tests run as root, whom permissions never stop)."""
    names = {str(p) for p in denied}

    def opener(path: str, flags: int) -> int:
        if path in names:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return os.open(path, flags)

    return opener


def set_up_round(hub: LiveHub, table: int = 3) -> Credential:
    """wdc2006's round 1 on four tables, as the TD sets it up, and a clock paired for
    ``table``: its credential as ``kiosk.pairing`` keeps it (the hub's certificate pinned)."""
    td = hub.td()
    try:
        for method, path, body in (
            ("PUT", "/api/td/event", {"builtin": "wdc2006"}),
            ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
            ("PUT", "/api/td/tables", {"count": 4}),
        ):
            td.request(method, path, json=body).raise_for_status()
        token = hub.token(td, table)
        hub_id = td.get(f"/api/tables/{table}/snapshot",
                        headers={"Authorization": f"Bearer {token}"}).json()["hub"]
        return Credential(hub_id, table, token, table, hub.certificate)
    finally:
        td.close()


def keep(outbox: Path, credential: Credential) -> None:
    """Store ``credential`` in the outbox at ``outbox``, as a paired kiosk has it."""
    from dataclasses import asdict

    from kiosk.outbox import Outbox
    from kiosk.pairing import CREDENTIAL

    box = Outbox(outbox)
    box.put(CREDENTIAL, asdict(credential))
    box.close()


@pytest.fixture(scope="session")
def live(tmp_path_factory) -> Iterator[tuple[LiveHub, Credential]]:
    """A real hub (``dipclock hub`` under uvicorn, HTTPS, a free 127.0.0.1 port) with
    wdc2006's round 1 on four tables; (hub, the credential of a clock paired for table 3)."""
    h = LiveHub(tmp_path_factory.mktemp("hub") / "data", https=True).start()
    try:
        yield h, set_up_round(h)
    finally:
        h.stop()


#: The default wiring, as a kiosk.toml would give it.
PINS = DEFAULT_PINS


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """gpiozero's own fake pins, closed after the test."""
    f = MockFactory()
    yield f
    f.close()

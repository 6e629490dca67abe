"""``make hall-test``: the hall in a box. A hub card and table cards, each its own copy of the
card image with its own ``dipclock.txt``, booted together on one emulated LAN that this
machine is not part of. Figures, not a unit test (docs/hall-test.md).

The LAN is a network namespace of the run's own (a unique name, removed at the end) holding
a Linux bridge (multicast snooping off: mDNS reaches every port, as on a home router's
switch) with one tap per card, and dnsmasq on the bridge giving addresses by DHCP as the
hall's router does. The harness runs inside that namespace: it is the TD's phone on the
LAN (the router's address, ``ROUTER``), which reaches the hub card's HTTPS at the address
the router gave it, and the hands that press the tables' keys and look at their screens
(QMP). The cards are ``benchmarks.card_test.Card``: the kernel, initramfs and command line
of the card's own boot partition, a ``virtio-gpu`` screen, a USB keyboard, SSH with the key
``dipclock.txt`` names (here over the LAN).

The steps (``--steps 1,3`` runs some; 2 to 5 need the hall of 1, which then runs too):

1. The hub card (``role = hub``) and tables 1 and 2 (``hub = auto``) boot at once; each
   table finds the hub by mDNS and shows its code (``tables_found_hub_s``: from its power-on
   to its request in the TD's list); the TD sets a round up and pairs both; the countdown
   shows on both screens (``paired``).
2. The hub card's screen: its QR code read (zbarimg) is the dashboard's link by the address
   the router gave it, and the ``.local`` name answers by mDNS with that address
   (``hub_address_on_screen``).
3. Austria's key on table 1: in at the hub (the TD's grid) and on table 1's screen
   (``press_at_hub``); the TD's pause: from the request until both screens show it
   (``pause_on_screens_ms``), then resumed.
4. The hub card's power cut (its qemu killed) during presses on both tables: the presses
   the hub had acknowledged (each table's outbox marks them sent) read from the tables over
   SSH; the tables keep counting without it (their screens change); the hub card booted
   again: each acknowledged press is in its database (``hub_power_cut_lost`` out of
   ``hub_power_cut_acknowledged``, which must be more than none).
5. The hub card replaced: the TD downloads the hub backup from the hub, the card dies for
   good, a freshly flashed card boots as the hub, the TD signs in on it, chooses the file
   and confirms (``hub_replaced_actions``); from the confirm until both tables count on the
   new hub and a press reaches it, nobody touching a table (``hub_replaced_s``).
6. A table card with one wrong line (a time zone that does not exist) among good ones: its
   hostname says its table line was applied and its screen names the refused line; a table
   card with no network device: its screen says so in words, not "looking for the hub"
   (``typo_line_only``, ``network_fault_shown``). What these screens say is read from the
   kiosk's own status file (``--status-file``, what it draws), which the harness has the
   card copy to its serial console (``PROBE``, run by systemd from the kernel command line,
   as ``console=`` is given): a card with no network has no other way out.

Every screendump is kept in the work folder (printed at the start; listed in
``screendumps``), with each card's serial console and a ``details.json`` of every figure.
The last line printed is one JSON object with the keys of ``KEYS``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import shlex
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import httpx

from benchmarks import card_test
from benchmarks.card_test import (
    IMAGE,
    ROOT,
    Card,
    Failed,
    _screendump,
    austria_in,
    clock_shown,
    note,
    read_boot,
    step,
    wait,
    wait_for_clock,
    write_boot,
)
from benchmarks.hall import set_up
from benchmarks.hub import signed_in
from card import layout
from dipclock.debounce import DEBOUNCE

#: The last line's keys, in the issue's order (issue 35)
KEYS = ("ok", "tables_found_hub_s", "paired", "press_at_hub", "pause_on_screens_ms",
        "hub_power_cut_lost", "hub_power_cut_acknowledged", "hub_replaced_actions",
        "hub_replaced_s", "typo_line_only", "network_fault_shown", "hub_address_on_screen",
        "screendumps", "seconds")
STEPS = (1, 2, 3, 4, 5, 6)
#: Inside the run's namespace only: no address here can meet this machine's networks
BRIDGE, ROUTER, PREFIX = "hall0", "10.77.0.1", 24
POOL = ("10.77.0.100", "10.77.0.199")
HUB_PORT = 8000  # the hub card's unit: https on 8000
PASSWORD = "tournament-director"
TABLES = (1, 2)
#: The keys pressed during the hub's power cut: Austria ... Turkey on each table
KEYS_PRESSED = "aefgirt"
OUTBOX = "/var/lib/dipclock/outbox.sqlite"
HUB_DB = "/var/lib/dipclock/hub/hub.sqlite3"
VENV_PYTHON = "/opt/dipclock/venv/bin/python"
#: The kiosk's screen as JSON (kiosk/statusfile.py), copied to the serial console: how the
#: harness reads the words on a card's screen (it may have no network). A runtime drop-in,
#: gone at the next boot; the card's own files are not touched.
STATUS = "/var/lib/dipclock/hall-test-screen.json"
PROBE = f"""#!/bin/sh
# make hall-test: the kiosk started again with --status-file, the file copied to the serial
# console every few seconds (benchmarks/hall_test.py)
mkdir -p /run/systemd/system/dipclock-kiosk.service.d
cat > /run/systemd/system/dipclock-kiosk.service.d/hall-test.conf <<EOF
[Service]
ExecStart=
ExecStart=/opt/dipclock/venv/bin/dipclock kiosk --status-file {STATUS}
EOF
systemctl daemon-reload
systemctl restart dipclock-kiosk.service
while sleep 4; do
    [ -f {STATUS} ] || continue
    {{ printf 'hall-test-screen: '; tr -d '\\n' < {STATUS}; echo; }} > /dev/console
done
"""
PROBE_FILE = "hall-test.sh"
#: Seconds a screen is given to say what it should once the kiosk draws
SETTLE = 180
T = TypeVar("T")
#: The probe's unit, written into the card copy's root partition before its first boot
#: (``install_probe``): the card skips any ``systemd.run=`` of the kernel's command line
#: (Imager's firstrun.sh would power it off), so the probe cannot come that way.
PROBE_UNIT = f"""[Unit]
Description=make hall-test: the kiosk's screen to the serial console
After=dipclock-card-setup.service
ConditionPathExists=/run/dipclock-card/role-table

[Service]
ExecStart=/bin/sh /boot/firmware/{PROBE_FILE}
"""


def install_probe(image: Path, work: Path) -> None:
    """``PROBE_UNIT`` into the root partition of ``image`` (debugfs on a copy of it, no
    mount), wanted by multi-user.target: on this test's copy only, never on the card image."""
    root = layout.check(image)[1]
    part, unit, script = work / "root.part", work / "hall-test-probe.service", work / "probe.cmd"
    block = layout.ALIGN
    sh("dd", f"if={image}", f"of={part}", f"bs={block}", f"skip={root.start // block}",
       f"count={root.size // block}", "status=none", timeout=600)
    unit.write_text(PROBE_UNIT)
    script.write_text(f"cd /etc/systemd/system\nwrite {unit} hall-test-probe.service\n"
                      "cd multi-user.target.wants\nsymlink hall-test-probe.service "
                      "/etc/systemd/system/hall-test-probe.service\n")
    sh("debugfs", "-w", "-f", script, part, timeout=120)
    sh("dd", f"if={part}", f"of={image}", f"bs={block}", f"seek={root.start // block}",
       "conv=notrunc", "status=none", timeout=600)
    part.unlink()


# --- The LAN (this machine's side) ----------------------------------------------------------
def sh(*argv: str | Path, timeout: float = 60) -> str:
    out = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        raise Failed(f"{' '.join(map(str, argv))}: {out.stderr.strip()[-300:]}")
    return out.stdout


class Lan:
    """The hall's network: a namespace of the run's own, a bridge and the router's DHCP."""

    def __init__(self, work: Path) -> None:
        self.name = f"dipclock-hall-{os.getpid()}-{secrets.token_hex(3)}"
        self.work = work
        self.leases = work / "dhcp.leases"
        self.dnsmasq: subprocess.Popen[bytes] | None = None

    def up(self) -> None:
        sh("ip", "netns", "add", self.name)
        inside = ("ip", "-n", self.name)
        sh(*inside, "link", "set", "lo", "up")
        sh(*inside, "link", "add", BRIDGE, "type", "bridge", "mcast_snooping", "0",
           "stp_state", "0", "forward_delay", "0")
        sh(*inside, "addr", "add", f"{ROUTER}/{PREFIX}", "dev", BRIDGE)
        sh(*inside, "link", "set", BRIDGE, "up")
        self.leases.touch()
        self.dnsmasq = subprocess.Popen(
            ["ip", "netns", "exec", self.name, "dnsmasq", "--keep-in-foreground",
             "--conf-file=/dev/null", "--no-resolv", "--no-hosts", "--port=0", "--user=root",
             f"--interface={BRIDGE}", "--bind-interfaces", "--dhcp-authoritative",
             f"--dhcp-range={POOL[0]},{POOL[1]},255.255.255.0,12h",
             f"--dhcp-leasefile={self.leases}", f"--pid-file={self.work / 'dnsmasq.pid'}",
             "--log-dhcp", f"--log-facility={self.work / 'dnsmasq.log'}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        wait("the router's DHCP (dnsmasq)", lambda: (self.work / "dnsmasq.pid").exists()
             or self.dnsmasq_ended(), 30, 0.2)
        if self.dnsmasq_ended():
            raise Failed(f"dnsmasq ended: {(self.work / 'dnsmasq.log').read_text()[-300:]}")

    def dnsmasq_ended(self) -> bool:
        return self.dnsmasq is not None and self.dnsmasq.poll() is not None

    def down(self) -> None:
        """Every process left in the namespace (the run's own: its qemus, dnsmasq) killed by
        its id, then the namespace removed, with its bridge and taps."""
        with contextlib.suppress(Failed, OSError, subprocess.SubprocessError):
            for pid in sh("ip", "netns", "pids", self.name).split():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
        if self.dnsmasq is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.dnsmasq.wait(timeout=30)
        with contextlib.suppress(Failed, OSError, subprocess.SubprocessError):
            sh("ip", "netns", "del", self.name)


# --- The cards (inside the namespace) -------------------------------------------------------
def leases(path: Path) -> dict[str, tuple[str, str]]:
    """The router's table: MAC -> (address, the host name the card sent)."""
    out: dict[str, tuple[str, str]] = {}
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            fields = line.split()
            if len(fields) >= 4:
                out[fields[1].lower()] = (fields[2], fields[3])
    return out


class LanCard(Card):
    """A card on the hall's LAN: a tap on the bridge, an address from the router's DHCP.
    ``nic=False``: a Pi with no network device at all."""

    def __init__(self, name: str, pristine: Path, work: Path, ssh_key: Path, index: int,
                 lease_file: Path, *, nic: bool = True, smp: int = 1, memory_mb: int = 768,
                 probe: bool = False) -> None:
        super().__init__(name, pristine, work, ssh_key)
        self.smp, self.memory_mb = smp, memory_mb
        self.mac = f"52:54:00:77:00:{index:02x}"
        self.tap, self.nic, self.lease_file, self.probe = f"tap{index}", nic, lease_file, probe
        self.ssh_port = 22
        if probe:
            write_boot(self.image, PROBE_FILE, PROBE.encode(), self.work)
            install_probe(self.image, self.work)

    def network(self) -> list[str]:
        if not self.nic:
            return []
        if not Path(f"/sys/class/net/{self.tap}").exists():
            sh("ip", "tuntap", "add", "dev", self.tap, "mode", "tap")
            sh("ip", "link", "set", self.tap, "master", BRIDGE)
        sh("ip", "link", "set", self.tap, "up")
        return ["-netdev", f"tap,id=net0,ifname={self.tap},script=no,downscript=no",
                "-device", f"virtio-net-pci,netdev=net0,mac={self.mac},romfile="]

    def lease(self) -> tuple[str, str] | None:
        return leases(self.lease_file).get(self.mac)

    def address(self) -> str:
        got = self.lease()
        if got is None:
            raise Failed(f"{self.name} has no address from the router yet")
        return got[0]

    def screen_text(self) -> dict[str, Any] | None:
        """The kiosk's last status file the probe copied to the serial console."""
        lines = re.findall(r"^hall-test-screen: (\{.*\})\s*$", self.said(), re.M)
        for line in reversed(lines):
            with contextlib.suppress(ValueError):
                data = json.loads(line)
                return data if isinstance(data, dict) else None
        return None


def sql(card: Card, db: str, query: str) -> list[list[Any]]:
    """A read-only query of a SQLite file on the card, over SSH."""
    script = (f"import json, sqlite3; db = sqlite3.connect('file:{db}?mode=ro', uri=True, "
              f"timeout=10); print(json.dumps([list(r) for r in db.execute({query!r})]))")
    rows = json.loads(card.ssh(f"{VENV_PYTHON} -c {shlex.quote(script)}"))
    return rows if isinstance(rows, list) else []


@dataclass(frozen=True)
class Press:
    """A press (orders in) as a table's outbox or the hub's database holds it."""

    id: str
    table: int
    power: str
    at: datetime
    sent: int = 1  # the outbox's: 0 waiting, 1 the hub took it, 2 the hub refused it


def outbox(card: Card, table: int) -> dict[str, Press]:
    """The table's presses by id."""
    return {str(i): Press(str(i), table, str(p), datetime.fromisoformat(str(a)), int(s))
            for i, p, a, s in sql(card, OUTBOX, "SELECT id, power, at, sent FROM presses "
                                                "WHERE kind = 'press'")}


def quiet(probe: Callable[[], T]) -> Callable[[], T | None]:
    """``probe`` for ``wait``, a card not answering this time taken as "not yet"."""
    def asked() -> T | None:
        with contextlib.suppress(Failed, OSError, subprocess.TimeoutExpired, ValueError):
            return probe()
        return None
    return asked


def hub_presses(card: Card) -> list[Press]:
    return [Press(str(i), int(t), str(p), datetime.fromisoformat(str(a))) for i, t, p, a in
            sql(card, HUB_DB, "SELECT id, table_no, power, at FROM presses "
                              "WHERE kind = 'press'")]


def not_held(wanted: Iterable[Press], held: list[Press]) -> set[str]:
    """The ids of the presses the hub does not hold: neither stored under their id nor a
    bounce merged into a press it stored (the same table and power within ``DEBOUNCE``:
    under emulation a kiosk reads a few key events at once and stamps them together)."""
    ids = {h.id for h in held}
    return {p.id for p in wanted if p.id not in ids and not any(
        h.table == p.table and h.power == p.power and abs(h.at - p.at) < DEBOUNCE
        for h in held)}


class Phone:
    """The TD's phone on the hall's Wi-Fi: the hub card's HTTPS at the address the router
    gave it, its certificate pinned at first sight (``pin``: the one already known)."""

    def __init__(self, card: LanCard, pin: str | None = None) -> None:
        self.card, self.pem = card, pin
        self.url = ""
        self.verify = ssl.create_default_context()

    def reach(self) -> bool:
        """Whether the hub answers (its certificate pinned when none was)."""
        from kiosk.pairing import pinned

        try:
            address = self.card.address()
            pem = self.pem or ssl.get_server_certificate((address, HUB_PORT), timeout=10)
            verify = pinned(pem)
            assert isinstance(verify, ssl.SSLContext)
            url = f"https://{address}:{HUB_PORT}"
            if httpx.get(url + "/api/time", verify=verify, timeout=10).status_code != 200:
                return False
        except (Failed, OSError, ssl.SSLError, httpx.HTTPError):
            return False
        self.pem, self.verify, self.url = pem, verify, url
        return True

    def td(self) -> httpx.Client:
        """Signed in as the TD (one action)."""
        return signed_in(self.url, self.verify, PASSWORD)


# --- The screen -----------------------------------------------------------------------------
def shows_stage(png: Path, stage: str) -> bool:
    """Whether the band over the upper quarter is in the colour of ``stage`` (kiosk/draw.py)."""
    from kiosk.draw import LOOKS

    surface = _screendump(png)
    if surface is None:
        return False
    w, h = surface.get_size()
    band = LOOKS[stage].band
    return sum(1 for y in range(0, h // 4, 4) for x in range(0, w, 4)
               if tuple(surface.get_at((x, y)))[:3] == band) >= 20


def counting(card: Card, shots: list[Path]) -> bool:
    """Whether the card's countdown shows and moves: two screendumps 3 s apart, each the
    clock, and not the same picture."""
    pictures = []
    for shot in shots:
        card.screendump(shot)
        if not clock_shown(shot):
            return False
        pictures.append(_screendump(shot))
        time.sleep(3)  # the big number changes every second
    import pygame

    a, b = pictures
    return bool(a is not None and b is not None
                and pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB"))


def code_shown(png: Path) -> bool:
    """Whether a table's screendump shows its pairing code in big letters: over a tenth of
    the middle band (under the label, over the hub's line) is not background, where the
    "Asking the hub for a pairing code" placeholder's six bars fill a fortieth."""
    surface = _screendump(png)
    if surface is None:
        return False
    w, h = surface.get_size()
    seen = [tuple(surface.get_at((x, y)))[:3] for y in range(h // 4, h * 55 // 100, 4)
            for x in range(0, w, 4)]
    background = max(set(seen), key=seen.count)
    return sum(c != background for c in seen) > len(seen) / 10


def code_on_screen(card: Card, shot: Path, limit: float = 90) -> bool:
    """Screendumps until the table shows its code (``code_shown``: a frame takes a while
    under emulation), at most ``limit`` seconds (a code waits 15 minutes for the TD)."""
    def shows() -> bool:
        with contextlib.suppress(Failed, OSError):
            card.screendump(shot)
        return code_shown(shot)

    end = time.monotonic() + limit
    while not shows():
        if time.monotonic() >= end:
            return False
        time.sleep(3)
    return True


def qr_link(png: Path) -> str | None:
    """The QR code on a screendump, read as a phone's camera reads it (zbarimg)."""
    out = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True,
                         timeout=60)
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() \
        else None


def mdns_address(name: str) -> list[str]:
    """``name`` (``dipclock-hub.local``) asked by mDNS on the LAN, as a phone asks."""
    from zeroconf import AddressResolverIPv4, Zeroconf

    zc = Zeroconf(interfaces=[ROUTER])
    try:
        resolver = AddressResolverIPv4(name.rstrip(".") + ".")
        resolver.request(zc, 3000)
        return resolver.parsed_addresses()
    finally:
        zc.close()


# --- The run --------------------------------------------------------------------------------
class Run:
    """Everything the steps share: the work folder, the image, the cards, the TD."""

    def __init__(self, work: Path, pristine: Path, key: Path, pub: str) -> None:
        self.work, self.pristine, self.key, self.pub = work, pristine, key, pub
        self.figures: dict[str, Any] = {k: None for k in KEYS} | {"screendumps": []}
        self.details: dict[str, Any] = {}
        self.cards: list[LanCard] = []
        self.hub: LanCard | None = None
        self.tables: dict[int, LanCard] = {}
        self.phone: Phone | None = None
        self.td: httpx.Client | None = None

    def card(self, name: str, values: dict[str, str], **kw: Any) -> LanCard:
        card = LanCard(name, self.pristine, self.work, self.key, len(self.cards) + 1,
                       self.work / "dhcp.leases", **kw)
        card.settings(values | {"ssh_key": self.pub})
        self.cards.append(card)
        return card

    def shot(self, name: str) -> Path:
        path = self.work / f"{name}.png"
        if str(path) not in self.figures["screendumps"]:
            self.figures["screendumps"].append(str(path))
        return path

    def state(self, td: httpx.Client | None = None) -> dict[str, Any]:
        c = td or self.td
        assert c is not None
        r = c.get("/api/td/state")
        r.raise_for_status()
        data = r.json()
        return data if isinstance(data, dict) else {}

    def power_in(self, table: int, power: str, td: httpx.Client | None = None) -> bool:
        """Whether the TD's grid has ``power``'s orders in at ``table``."""
        for row in self.state(td).get("tables", []):
            if row.get("table") == table:
                return any(p.get("power") == power and p.get("in")
                           for p in row.get("powers") or [])
        return False

    def kill_all(self) -> None:
        for card in self.cards:
            card.kill()


def hall_up(run: Run) -> None:
    """Step 1: the hub card and two tables booted at once; found, paired, counting."""
    run.hub = hub = run.card("hub", {"role": "hub", "td_password": PASSWORD}, smp=2,
                             memory_mb=1024)
    for n in TABLES:
        run.tables[n] = run.card(f"table-{n}", {"table": str(n), "hub": "auto",
                                                "timezone": "Europe/Vienna"})
    started = {"hub": hub.boot()} | {n: t.boot() for n, t in run.tables.items()}
    run.phone = phone = Phone(hub)
    wait("the hub card's HTTPS at the address the router gave it", phone.reach, 1500, 5)
    run.details["hub_up_s"] = round(time.monotonic() - started["hub"], 1)
    run.details["hub_address"] = phone.url
    run.td, _ = set_up(phone, tables=4, paired=0)
    found: dict[int, float] = {}
    codes: dict[int, str] = {}

    def both_asking() -> bool:
        """Each table's request in the TD's list: its screen looked at, its code approved
        (at once: a code left waiting expires)."""
        assert run.td is not None
        for w in run.td.get("/api/td/clocks").json()["waiting"]:
            n = w.get("wished")
            if n in run.tables and n not in found:
                found[n] = time.monotonic() - started[n]
                codes[n] = str(w["code"])
                run.details.setdefault("pairing_code_on_screen", {})[n] = code_on_screen(
                    run.tables[n], run.shot(f"table-{n}-pairing-code"))
                run.td.post("/api/td/clocks", json={"code": codes[n], "table": n}
                            ).raise_for_status()
        return len(found) == len(TABLES)
    wait("both tables asking the hub to be paired", both_asking, 1500, 3)
    run.figures["tables_found_hub_s"] = [round(found[n], 1) for n in TABLES]
    run.details["pairing_codes"] = codes
    for n, table in run.tables.items():
        wait_for_clock(table, run.shot(f"table-{n}-clock"), 600)
    paired = {c["table"] for c in run.td.get("/api/td/clocks").json()["paired"]}
    run.figures["paired"] = set(TABLES) <= paired


def hub_screen(run: Run) -> None:
    """Step 2: the hub card's screen says how to reach it: a QR code of its link by the
    address the router gave it, and a .local name that answers by mDNS."""
    assert run.hub is not None and run.phone is not None
    hub, address = run.hub, run.hub.address()
    link = f"https://{address}:{HUB_PORT}"

    def read() -> str | None:
        with contextlib.suppress(Failed, OSError, subprocess.SubprocessError):
            found = qr_link(hub.screendump(run.shot("hub-screen")))
            if found is not None and found.rstrip("/") == link:
                return found
            run.details["hub_qr"] = found
        return None
    run.details["hub_qr"] = wait(f"QR code of {link} on the hub card's screen", read, 300, 5)
    name = f"{hub.ssh('hostname').strip()}.local"
    run.details["hub_local_name"] = name
    answered = mdns_address(name)
    run.details["hub_local_answers"] = answered
    run.figures["hub_address_on_screen"] = address in answered


def press_and_pause(run: Run) -> None:
    """Step 3: Austria's key on table 1, at the hub and on its screen; the TD's pause on
    both screens."""
    assert run.td is not None
    table = run.tables[1]
    table.press("a")
    at_hub = wait("Austria's orders in on the TD's grid", lambda: run.power_in(1, "A"), 120, 1)

    def on_screen() -> bool:
        with contextlib.suppress(Failed, OSError):
            return austria_in(table.screendump(run.shot("table-1-austria-in")))
        return False
    shown = wait("Austria's chip in on table 1's screen", on_screen, 120, 1)
    run.figures["press_at_hub"] = bool(at_hub and shown)
    seen: dict[int, float] = {}
    t0 = time.monotonic()
    run.td.post("/api/td/pauses", json={"reason": "Hall test"}).raise_for_status()

    def both_paused() -> bool:
        for n, card in run.tables.items():
            if n not in seen:
                with contextlib.suppress(Failed, OSError):
                    if shows_stage(card.screendump(run.shot(f"table-{n}-paused")), "paused"):
                        seen[n] = time.monotonic() - t0
        return len(seen) == len(run.tables)
    wait("the pause on both tables' screens", both_paused, 120, 0.1)
    run.details["pause_each_ms"] = {n: round(s * 1000) for n, s in seen.items()}
    run.figures["pause_on_screens_ms"] = round(max(seen.values()) * 1000)
    run.td.post("/api/td/resume", json={}).raise_for_status()
    for n, card in run.tables.items():
        shot = run.shot(f"table-{n}-resumed")

        def again(card: Card = card, shot: Path = shot) -> bool:
            card.screendump(shot)
            return clock_shown(shot) and not shows_stage(shot, "paused")
        wait(f"table {n} counting again after the pause", quiet(again), 120, 1)


def power_cut(run: Run) -> None:
    """Step 4: the hub card's power cut during presses; the tables count on; the hub back
    holds every press it had acknowledged."""
    assert run.hub is not None and run.phone is not None
    hub, tables = run.hub, list(run.tables.values())
    stop = threading.Event()

    def presses(sent: Callable[[int], bool]) -> list[Press]:
        return [p for n, t in run.tables.items() for p in outbox(t, n).values()
                if sent(p.sent)]

    pressing = threading.Thread(target=card_test.burst, args=(tables, KEYS_PRESSED, 0.3, stop),
                                daemon=True)
    pressing.start()
    try:
        # the cut once the hub has acknowledged presses of both tables: a cut before any
        # would prove nothing (and the result says so)
        wait("presses the hub acknowledged, on both tables", quiet(lambda: all(
            any(p.sent == 1 for p in outbox(t, n).values()) for n, t in run.tables.items())),
            180, 1)
        hub.kill()  # the power cut: nothing on the hub card finishes a write
        acknowledged = presses(lambda sent: sent == 1)
        run.figures["hub_power_cut_acknowledged"] = len(acknowledged)
        still = all(counting(t, [run.shot(f"table-{n}-hub-down-{k}") for k in (1, 2)])
                    for n, t in run.tables.items())
        run.details["tables_counting_without_hub"] = still
        time.sleep(10)  # presses on, with the hub away: they wait in the tables' outboxes
    finally:
        stop.set()
        pressing.join(timeout=30)
    kept = presses(lambda sent: sent != 2)
    run.details["hub_power_cut_pressed"] = len(kept)
    started = hub.boot()
    wait("the hub card's HTTPS again", run.phone.reach, 900, 5)
    run.details["hub_back_s"] = round(time.monotonic() - started, 1)
    run.td = run.phone.td()

    with contextlib.suppress(Failed):
        wait("every acknowledged press at the hub again",
             quiet(lambda: not not_held(acknowledged, hub_presses(hub))), 300, 5)
    run.figures["hub_power_cut_lost"] = len(not_held(acknowledged, hub_presses(hub)))
    with contextlib.suppress(Failed):  # and the presses made while it was away
        wait("the presses made while the hub was away at the hub",
             quiet(lambda: not not_held(kept, hub_presses(hub))), 300, 5)
    run.details["hub_power_cut_pressed_not_at_hub"] = len(not_held(kept, hub_presses(hub)))
    for n, t in run.tables.items():
        wait_for_clock(t, run.shot(f"table-{n}-hub-back"), 300)
    if not still:
        raise Failed("a table stopped counting while the hub was away")


def replace_hub(run: Run) -> None:
    """Step 5: the hub card dies; a fresh card restored from the hub backup the TD saved;
    every table back on it with no one touching a table."""
    assert run.hub is not None and run.phone is not None and run.td is not None
    r = run.td.get("/api/td/backup")
    if r.status_code != 200:
        raise Failed(f"no hub backup to download: GET /api/td/backup answered "
                     f"{r.status_code} {r.text[:200]}")
    backup = run.work / "hub-backup"
    backup.write_bytes(r.content)
    run.details["hub_backup_bytes"] = len(r.content)
    old_pem = run.phone.pem
    run.hub.kill()  # the hub card is dead for good (its Pi, or the card itself)
    new = run.card("hub-new", {"role": "hub", "td_password": PASSWORD}, smp=2, memory_mb=1024)
    started = new.boot()
    fresh = Phone(new)
    wait("the new hub card's HTTPS", fresh.reach, 1500, 5)
    run.details["new_hub_up_s"] = round(time.monotonic() - started, 1)
    td = fresh.td()  # action 1: the TD signs in on the new hub
    actions = 1 + 1  # action 2: chooses the file saved from the old hub
    t0 = time.monotonic()

    def confirm(**params: str) -> httpx.Response:
        return td.post("/api/td/restore", params=params, content=backup.read_bytes(),
                       headers={"Content-Type": "application/zip"})
    reply = confirm()  # action 3: confirms
    actions += 1
    if reply.status_code == 409 and "confirm again" in reply.text.lower():
        reply = confirm(replace="true")  # a hub with clocks of its own: confirmed twice
        actions += 1
    run.details["restore_reply"] = [reply.status_code, reply.text[:400]]
    if reply.status_code >= 400:
        raise Failed(f"the restore was refused: {reply.status_code} {reply.text[:300]}")
    run.figures["hub_replaced_actions"] = actions
    run.hub = new
    run.phone = back = Phone(new, pin=old_pem)  # the restored hub is the old one again
    wait("the new hub serving the old hub's certificate", back.reach, 300, 3)
    # the TD's page goes on, signed in: its session and the old certificate
    run.td = td = httpx.Client(base_url=back.url, timeout=60, verify=back.verify,
                               cookies=td.cookies, headers=dict(td.headers))

    def tables_on_it() -> bool:
        rows = {r["table"]: r for r in run.state(td).get("tables", [])}
        return all(rows.get(n, {}).get("connected") for n in TABLES)
    wait("both tables connected to the new hub", tables_on_it, 600, 3)
    table = run.tables[1]
    before = set(outbox(table, 1))
    table.press("f")
    pressed = wait("France's press in table 1's outbox", quiet(
        lambda: [p for i, p in outbox(table, 1).items() if i not in before]), 60, 1)
    wait("France's press from table 1 at the new hub",
         quiet(lambda: not not_held(pressed, hub_presses(new))), 300, 2)
    for n, t in run.tables.items():
        wait_for_clock(t, run.shot(f"table-{n}-new-hub"), 300)
    run.figures["hub_replaced_s"] = round(time.monotonic() - t0, 1)
    new.screendump(run.shot("hub-new-screen"))


def faults(run: Run) -> None:
    """Step 6: one wrong line refused alone; no network device told in words."""
    typo = run.card("table-typo", {"table": "3", "hub": "auto", "timezone": "Europe/Viena"},
                    probe=True)
    lines = read_boot(typo.image, "dipclock.txt").decode().splitlines()
    wrong = next(i for i, line in enumerate(lines, 1) if line.startswith("timezone = "))
    run.details["typo_line"] = wrong
    lone = run.card("table-no-network", {"table": "4", "hub": "auto"}, probe=True, nic=False)
    typo.boot()
    lone.boot()

    def typo_told() -> dict[str, Any] | None:  # the line, its key or value, the clock on
        screen = typo.screen_text() or {}
        text = json.dumps(screen).lower()
        named = f"line {wrong}" in text and any(
            w in text for w in ("timezone", "time zone", "europe/viena"))
        return screen if named and screen.get("look") != "problem" else None

    def fault_told() -> dict[str, Any] | None:  # in words, with the fix, not the hub advice
        screen = lone.screen_text() or {}
        text = json.dumps(screen).lower()
        words = "network" in text and ("cable" in text or "wi-fi" in text)
        return screen if words and "set hub =" not in text else None
    try:
        got = told(typo, "the refused line named on the typo card's screen", typo_told)
        run.details["typo_screen"] = got or typo.screen_text()
        hostname = typo.ssh("hostname").strip()
        run.details["typo_hostname"] = hostname
        run.figures["typo_line_only"] = got is not None and hostname == "dipclock-table-3"
    finally:
        typo.screendump(run.shot("table-typo-screen"))
    try:
        got = told(lone, "the network fault in words on the card with no network device",
                   fault_told)
        run.details["no_network_screen"] = got or lone.screen_text()
        run.figures["network_fault_shown"] = got is not None
    finally:
        lone.screendump(run.shot("table-no-network-screen"))
    typo.power_off()
    lone.kill()


def told(card: LanCard, what: str, check: Callable[[], T | None]) -> T | None:
    """Once the card's kiosk draws (its status file on the serial console), ``check`` until
    it holds, for ``SETTLE`` s at most; None if it never did."""
    wait(f"{card.name}'s screen (its status file on the serial console)", card.screen_text,
         1500, 5)
    with contextlib.suppress(Failed):
        return wait(what, check, SETTLE, 5)
    return None


def judged(figures: dict[str, Any], steps: set[int]) -> bool:
    """Whether every step run proved what it is for (``ok``)."""
    f = figures
    checks = {
        1: len(f["tables_found_hub_s"] or []) == len(TABLES) and f["paired"] is True,
        2: f["hub_address_on_screen"] is True,
        3: f["press_at_hub"] is True and f["pause_on_screens_ms"] is not None,
        4: f["hub_power_cut_lost"] == 0 and (f["hub_power_cut_acknowledged"] or 0) > 0,
        5: (f["hub_replaced_actions"] or 99) <= 3 and f["hub_replaced_s"] is not None,
        6: f["typo_line_only"] is True and f["network_fault_shown"] is True,
    }
    return all(checks[s] for s in steps)


@contextlib.contextmanager
def timed(run: Run, name: str) -> Iterator[None]:
    """``card_test.step`` (timed, a failure noted and the run going on), with the TD's
    HTTP errors and answers of the wrong shape taken as failures of the step too."""
    with step(run.details, name):
        try:
            yield
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise Failed(f"{type(exc).__name__}: {exc}") from exc


def inside(args: argparse.Namespace) -> int:
    """The run, inside the hall's namespace: the phone and the hands."""
    work, steps = args.work, set(args.steps)
    pristine = work / "card.img"
    key = work / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hall-test", "-f",
                    key], check=True)
    run = Run(work, pristine, key, key.with_suffix(".pub").read_text().strip())
    started = time.monotonic()
    try:
        if steps & {1, 2, 3, 4, 5}:
            with timed(run, "1 found and paired"):
                hall_up(run)
            for number, name, do in ((2, "2 hub screen", hub_screen),
                                     (3, "3 press and pause", press_and_pause),
                                     (4, "4 hub power cut", power_cut),
                                     (5, "5 hub replaced", replace_hub)):
                # each on the hall step 1 made: a step that failed leaves it for the next
                if number in steps and run.figures["paired"]:
                    with timed(run, name):
                        do(run)
            run.kill_all()
        if 6 in steps:
            with timed(run, "6 faults told"):
                faults(run)
    finally:
        run.kill_all()
    seconds = run.details.get("seconds", {})
    run.figures["seconds"] = seconds | {"total": round(time.monotonic() - started, 1)}
    run.figures["ok"] = "failed" not in run.details and judged(run.figures, steps)
    (work / "details.json").write_text(json.dumps(run.figures | run.details, indent=1,
                                                  default=str))
    (work / "result.json").write_text(json.dumps({k: run.figures[k] for k in KEYS}))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.hall_test", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image", type=Path, default=IMAGE)
    p.add_argument("--steps", default=",".join(map(str, STEPS)),
                   help="comma-separated step numbers, 1 to 6 (default: all)")
    p.add_argument("--keep", action="store_true", help="keep the cards' images")
    p.add_argument("--inside", help=argparse.SUPPRESS)  # the namespace this run is in
    p.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    card_test.WHO = "hall-test"
    try:
        args.steps = sorted({int(s) for s in args.steps.split(",") if s.strip()})
    except ValueError:
        p.error(f"--steps {args.steps}: numbers from 1 to 6, like 1,3,4")
    if not set(args.steps) <= set(STEPS) or not args.steps:
        p.error(f"--steps: numbers from 1 to 6, like 1,3,4 (not {args.steps})")
    if args.inside:
        return inside(args)
    failed = {k: None for k in KEYS} | {"ok": False, "screendumps": []}
    if not args.image.exists():
        note(f"{args.image}: no such image (make card)")
        print(json.dumps(failed))
        return 2
    if os.geteuid() != 0:
        note("the hall's network namespace needs root (ip netns): run as root")
        print(json.dumps(failed))
        return 2
    # a TERM (a CI's timeout) ends the run as an interrupt does: the LAN removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="dipclock-hall-test-", dir="/var/tmp"))
    note(f"work folder {work}")
    pristine = work / "card.img"
    if args.image.suffix == ".xz":
        with pristine.open("wb") as f:
            subprocess.run(["xz", "-dc", args.image], stdout=f, check=True)
    else:
        subprocess.run(["cp", "--sparse=always", args.image, pristine], check=True)
    lan = Lan(work)
    try:
        lan.up()
        note(f"the hall's LAN: namespace {lan.name}, bridge {BRIDGE}, router {ROUTER}")
        subprocess.run(["ip", "netns", "exec", lan.name, sys.executable, "-m",
                        "benchmarks.hall_test", "--inside", lan.name, "--work", str(work),
                        "--steps", ",".join(map(str, args.steps))], cwd=ROOT,
                       stdout=sys.stderr, check=False)
    except Failed as exc:
        note(f"the hall's LAN: {exc}")
    except (KeyboardInterrupt, SystemExit):
        note("interrupted: the hall taken down")
    finally:
        lan.down()
    try:
        result = json.loads((work / "result.json").read_text())
        details = json.loads((work / "details.json").read_text())
        if "failed" in details:
            note(f"FAILED: {details['failed']}")
    except (OSError, ValueError):
        result = failed
    if result.get("ok") and not args.keep:
        for junk in work.glob("**/*.img"):
            junk.unlink()
    print(json.dumps(result))
    return 0 if result.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())

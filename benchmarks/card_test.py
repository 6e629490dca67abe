"""``make card-test``: the card image booted, not a chroot of it. Figures, not a unit test.

Each card is a copy of ``dist/dipclock-card-arm64.img.xz`` made 4 GiB (so its first boot
grows the data partition), booted in ``qemu-system-aarch64 -M virt`` with the kernel,
initramfs and command line its own boot partition holds, a ``virtio-gpu`` screen (a real
DRM/KMS device: SDL's kmsdrm draws on it as on a Pi), a USB keyboard (a real button source:
an arcade-button encoder is one), user networking to a hub started on this machine
(``tests/server/live.py``, reached from the card at 10.0.2.2) and QMP to look and press:

1. ``dipclock.txt`` for table 7 written into the boot partition (mtools), as on a laptop;
   the card boots, the TD's API pairs it and sets a round up; the screen is saved (QMP
   ``screendump``) once the clock shows: ``boot_to_clock_s``, ``screendump``.
2. Austria's key pressed (QMP ``input-send-event``); the press in the hub's database:
   ``press_at_hub``; Austria's chip in on the card's screen (screendumps until it is drawn:
   a frame takes a while under emulation): ``press_on_screen``.
3. A second copy booted as the hub and a third as a table with nothing written on it: the
   three cards' machine-ids, SSH host keys (ssh-keyscan) and hostnames differ
   (``identities_unique``); the hub card serves HTTPS with the certificate it made.
4. The hub stopped, a burst of presses, the kiosk's outbox read over SSH mid-burst, and the
   power cut (qemu killed); the hub back, the card booted again: every press the outbox
   held is at the hub (``power_cut_lost``, out of ``power_cut_acknowledged``, which must be
   more than none: the cut waits for the outbox to hold presses).
5. The card booted with its screen switched off, as a TV that is off (the virtio-gpu output
   disabled before the card starts, so its connector says "disconnected", as a Pi's HDMI
   does), switched on a minute after the system is up: the clock appears
   (``late_display_shown``). qemu's display cards cannot be hot-plugged (virtio-gpu-pci is
   not pluggable), and a Pi's display device is always there: it is the connector that
   comes and goes. The switch is qemu's own: a VNC client's SetDesktopSize reaches
   virtio-gpu as its output's size, and 0x0 disables the output.
6. The image's own kernel, initramfs and Pi 3 device tree under ``-M raspi3b``, the card as
   its SD card: userspace reached (``raspi3b_userspace``).

The last line printed is one JSON object; everything each card printed on its serial console
is kept in the work folder (printed at the start). ``--image FILE`` (``.img.xz``, or a raw
``.img``); ``--keep`` keeps it.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import socket
import sqlite3
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from benchmarks.hall import Hub, set_up
from card import layout

ROOT = Path(__file__).resolve().parents[1]
IMAGE = ROOT / "dist" / "dipclock-card-arm64.img.xz"
CARD_SIZE = 4 * 1024**3
TABLE = 7
KEYS = "aefgirt"  # the powers' keys: Austria ... Turkey
SCREEN = (1280, 800)  # virtio-gpu's own default size
T = TypeVar("T")


class Failed(Exception):
    """A step did not do what a card must: says what it waited for."""


#: What each note on stderr starts with (``benchmarks.hall_test`` says its own name)
WHO = "card-test"


def note(line: str) -> None:
    print(f"{WHO}: {line}", file=sys.stderr, flush=True)


def wait(what: str, probe: Callable[[], T | None], limit: float, every: float = 2.0) -> T:
    """``probe()`` until it returns something true; Failed naming ``what`` after ``limit`` s."""
    deadline = time.monotonic() + limit
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise Failed(f"no {what} within {limit:.0f} s")
        time.sleep(every)


def free_port() -> int:
    """A port for qemu's host forwarding (qemu binds it itself; nothing else here asks)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- The image's boot partition, as a laptop edits it ----------------------------------------
def boot_offset(image: Path) -> int:
    return layout.check(image)[0].start


def read_boot(image: Path, name: str) -> bytes:
    return subprocess.run(["mtype", "-i", f"{image}@@{boot_offset(image)}", f"::{name}"],
                          capture_output=True, check=True).stdout


def write_boot(image: Path, name: str, data: bytes, work: Path) -> None:
    src = work / f"upload-{name}"
    src.write_bytes(data)
    subprocess.run(["mcopy", "-o", "-i", f"{image}@@{boot_offset(image)}", src, f"::{name}"],
                   check=True)
    src.unlink()


def copy_boot(image: Path, name: str, dest: Path) -> Path:
    subprocess.run(["mcopy", "-o", "-i", f"{image}@@{boot_offset(image)}", f"::{name}", dest],
                   check=True)
    return dest


def set_settings(template: str, values: dict[str, str]) -> str:
    """The template with each named setting's ``# `` removed and its value written, as a
    volunteer does it in a text editor; the rest of the file as it was."""
    out, done = [], set()
    for line in template.splitlines():
        found = re.match(r"^# ([a-z_]+) = ", line)
        if found and found.group(1) in values and found.group(1) not in done:
            key = found.group(1)
            line = f"{key} = {values[key]}"
            done.add(key)
        out.append(line)
    missing = set(values) - done
    if missing:
        raise Failed(f"the card's dipclock.txt has no line for {sorted(missing)}")
    return "\r\n".join(out) + "\r\n"  # saved by a Windows laptop


# --- One emulated Pi ------------------------------------------------------------------------
class Card:
    """A copy of the image, and the qemu that boots it."""

    def __init__(self, name: str, pristine: Path, work: Path, ssh_key: Path) -> None:
        self.name, self.work, self.ssh_key = name, work / name, ssh_key
        self.work.mkdir(parents=True, exist_ok=True)
        self.image = self.work / "card.img"
        subprocess.run(["cp", "--sparse=always", pristine, self.image], check=True)
        with self.image.open("r+b") as f:
            f.truncate(CARD_SIZE)  # a 4 GB card: the first boot grows the data partition
        self.proc: subprocess.Popen[bytes] | None = None
        self.boots = 0
        self.ssh_port = self.https_port = 0
        self.smp, self.memory_mb = 2, 1024  # a Pi 4's share of this machine

    def settings(self, values: dict[str, str]) -> None:
        template = read_boot(self.image, "dipclock.txt").decode()
        write_boot(self.image, "dipclock.txt", set_settings(template, values).encode(),
                   self.work)

    def boot_files(self) -> tuple[Path, Path, str]:
        """The kernel and initramfs config.txt names, and cmdline.txt, from the card."""
        config = read_boot(self.image, "config.txt").decode()
        kernel = re.search(r"^kernel=(\S+)", config, re.M)
        initrd = re.search(r"^initramfs (\S+)", config, re.M)
        if kernel is None or initrd is None:
            raise Failed(f"{self.name}: config.txt names no kernel and initramfs")
        cmdline = read_boot(self.image, "cmdline.txt").decode().strip()
        return (copy_boot(self.image, kernel.group(1), self.work / "vmlinuz"),
                copy_boot(self.image, initrd.group(1), self.work / "initrd"), cmdline)

    def boot(self, display: bool = True, screen_off: bool = False) -> float:
        """qemu started; the monotonic time it started at. ``screen_off``: the screen's
        output disabled (``screen``) before the card runs its first instruction."""
        kernel, initrd, cmdline = self.boot_files()
        # the serial port last: /dev/console is the one the harness reads
        cmdline = re.sub(r"console=\S+\s*", "", cmdline) + " console=tty1 console=ttyAMA0"
        self.boots += 1
        self.console = self.work / f"console-{self.boots}.log"
        self.qmp_path = self.work / "qmp.sock"
        self.qmp_path.unlink(missing_ok=True)
        argv = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-smp", self.smp,
                "-m", self.memory_mb, "-kernel", kernel, "-initrd", initrd, "-append", cmdline,
                "-drive", f"if=none,file={self.image},format=raw,id=sd,cache=writeback",
                "-device", "virtio-blk-pci,drive=sd", *self.network(), "-device", "qemu-xhci",
                "-device", "usb-kbd", "-display", "none", "-nodefaults",
                "-serial", f"file:{self.console}", "-qmp", f"unix:{self.qmp_path},server,nowait"]
        if display:
            argv += ["-device", "virtio-gpu-pci,id=gpu0"]
        self.vnc_path = self.work / "vnc.sock"
        self.vnc_path.unlink(missing_ok=True)
        if screen_off:
            argv += ["-S", "-vnc", f"unix:{self.vnc_path}"]
        started = time.monotonic()
        self.proc = subprocess.Popen([str(a) for a in argv], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        wait(f"{self.name}'s QMP socket", lambda: self.qmp_path.exists(), 30, 0.2)
        if screen_off:
            wait(f"{self.name}'s VNC socket", lambda: self.vnc_path.exists(), 30, 0.2)
            self.screen(SCREEN)  # from qemu's zero size to one, so that the next is a change
            self.screen((0, 0))
            time.sleep(1)  # qemu applies a size on its own timer: let it, then start
            self.qmp("cont")
        return started

    def network(self) -> list[str]:
        """qemu's network device: user networking, the card's SSH and the hub's port
        forwarded to this machine (``benchmarks.hall_test`` puts the card on a LAN instead)."""
        self.ssh_port, self.https_port = free_port(), free_port()
        net = (f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22,"
               f"hostfwd=tcp:127.0.0.1:{self.https_port}-:8000")
        return ["-netdev", net, "-device", "virtio-net-pci,netdev=net0,romfile="]

    def address(self) -> str:
        """Where this machine reaches the card's SSH (on ``ssh_port``)."""
        return "127.0.0.1"

    def screen(self, size: tuple[int, int]) -> None:
        """The screen switched on at ``size``, or off at (0, 0): a VNC client's
        SetDesktopSize (RFB 3.8, no authentication), which qemu gives virtio-gpu as its
        first output's size; the card's kernel sees the connector change."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(30)
            s.connect(str(self.vnc_path))
            f = s.makefile("rwb")

            def read(n: int) -> bytes:
                data = f.read(n)
                if len(data) != n:
                    raise Failed(f"{self.name}: qemu's VNC server closed the connection")
                return data

            def send(data: bytes) -> None:
                f.write(data)
                f.flush()

            read(12)
            send(b"RFB 003.008\n")
            if 1 not in read(read(1)[0]):
                raise Failed(f"{self.name}: qemu's VNC server asks for a password")
            send(b"\x01")
            if read(4) != bytes(4):
                raise Failed(f"{self.name}: qemu's VNC server refused the connection")
            send(b"\x01")  # ClientInit: shared
            read(20)  # ServerInit: size, pixel format
            read(int.from_bytes(read(4), "big"))  # its name
            # SetEncodings: raw and ExtendedDesktopSize (-308), then SetDesktopSize
            send(struct.pack(">BxHii", 2, 2, 0, -308))
            w, h = size
            send(struct.pack(">BxHHBxIHHHHI", 251, w, h, 1, 0, 0, 0, w, h, 0))
            # The answer to it (an ExtendedDesktopSize rectangle, reason 1: the client's),
            # read before closing: qemu drops what a client sent once it cannot write to it
            while True:
                kind = read(1)[0]
                if kind != 0:  # no update was asked for: only the resize answers come
                    raise Failed(f"{self.name}: qemu's VNC server sent message {kind}")
                for _ in range(struct.unpack(">xH", read(3))[0]):
                    reason, status, _w, _h, encoding = struct.unpack(">HHHHi", read(12))
                    if encoding != -308:
                        raise Failed(f"{self.name}: qemu's VNC server sent encoding "
                                     f"{encoding}")
                    read(16 * read(4)[0])  # its screens
                    if reason == 1:  # the answer to this client's request
                        if status not in (0, 4):  # done, or handed to the display card
                            raise Failed(f"{self.name}: qemu refused the screen size {size}: "
                                         f"status {status}")
                        return


    def said(self) -> str:
        return self.console.read_text(errors="replace") if self.console.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def qmp(self, command: str, **arguments: Any) -> Any:
        """One QMP command on a fresh connection; its ``return``, or Failed with its error."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(60)
            s.connect(str(self.qmp_path))
            f = s.makefile("rwb")
            json.loads(f.readline())  # the greeting
            for cmd in ({"execute": "qmp_capabilities"},
                        {"execute": command, "arguments": arguments}):
                f.write(json.dumps(cmd).encode() + b"\n")
                f.flush()
                while True:
                    answer = json.loads(f.readline())
                    if "return" in answer or "error" in answer:
                        break
            if "error" in answer:
                raise Failed(f"QMP {command}: {answer['error'].get('desc')}")
            return answer["return"]

    def screendump(self, path: Path, device: str | None = None) -> Path:
        self.qmp("screendump", filename=str(path), format="png",
                 **({"device": device} if device else {}))
        return path

    def press(self, key: str, hold: float = 0.15) -> None:
        """A key down, then up: a USB keyboard's (or a button encoder's) press."""
        for down in (True, False):
            self.qmp("input-send-event", events=[
                {"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": key}}}])
            if down:
                time.sleep(hold)

    def ssh(self, command: str, timeout: float = 120) -> str:
        """A command on the card as root, with the key its dipclock.txt named."""
        out = subprocess.run(
            ["ssh", "-i", self.ssh_key, "-p", str(self.ssh_port), "-o", "BatchMode=yes",
             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
             "-o", "ConnectTimeout=20", "-o", "LogLevel=ERROR", f"root@{self.address()}",
             command],
            capture_output=True, text=True, timeout=timeout)
        if out.returncode != 0:
            raise Failed(f"{self.name}: ssh {command[:40]!r}: {out.stderr.strip()[-200:]}")
        return out.stdout

    def ssh_up(self) -> bool:
        with contextlib.suppress(Failed, subprocess.TimeoutExpired):
            return self.ssh("true", timeout=60) == ""
        return False

    def host_key(self) -> str:
        out = subprocess.run(["ssh-keyscan", "-p", str(self.ssh_port), "-t", "ed25519",
                              self.address()], capture_output=True, text=True,
                             timeout=60).stdout
        return out.split()[-1] if out.strip() else ""

    def kill(self) -> None:
        """SIGKILL to qemu: the power cut. Nothing in the card gets to finish a write."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)

    def power_off(self) -> None:
        """A clean shutdown where the card still answers, else the plug pulled."""
        if self.alive():
            with contextlib.suppress(Failed, OSError, subprocess.TimeoutExpired):
                self.ssh("systemctl poweroff", timeout=30)
                assert self.proc is not None
                self.proc.wait(timeout=120)
        self.kill()


# --- The screen -----------------------------------------------------------------------------
#: The stages in which a table's screen counts (the round set up, the table paired); the
#: pairing and hub-finding screens have the same power tiles but the "connecting" band.
COUNTING = ("before_start", "negotiating", "warning", "writing", "late", "paused", "held")


def clock_shown(png: Path) -> bool:
    """Whether the table's clock is on the screen: Austria's tile in the colour kiosk/draw.py
    gives it over the lower half (the key the harness presses), and, over the upper quarter,
    the band of a stage that counts (not the pairing screen, whose tiles are the same)."""
    from kiosk.draw import LOOKS, POWER_COLOURS

    surface = _screendump(png)
    if surface is None:
        return False
    w, h = surface.get_size()
    tiles = {POWER_COLOURS["A"][0]: 0}
    bands = {LOOKS[stage].band for stage in COUNTING}
    band = 0
    for y in range(0, h, 4):
        for x in range(0, w, 4):
            rgb = tuple(surface.get_at((x, y)))[:3]
            if y >= h // 2 and rgb in tiles:
                tiles[rgb] += 1
            elif y < h // 4 and rgb in bands:
                band += 1
    return band >= 20 and all(n >= 20 for n in tiles.values())


def austria_in(png: Path) -> bool:
    """Whether Austria's chip (the first seventh of the screen's width, lower half) is in
    the colour kiosk/draw.py gives a power whose orders are in."""
    from kiosk.draw import CHIP_STATES

    surface = _screendump(png)
    if surface is None:
        return False
    w, h = surface.get_size()
    body = CHIP_STATES["in"][0]
    seen = sum(1 for y in range(h // 2, h, 4) for x in range(0, w // 7, 4)
               if tuple(surface.get_at((x, y)))[:3] == body)
    return seen >= 20


def _screendump(png: Path) -> Any:
    """A screendump as a pygame surface (None: not there, or not written whole yet)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    try:
        return pygame.image.load(str(png))
    except (pygame.error, FileNotFoundError):
        return None


def wait_for_clock(card: Card, shot: Path, limit: float, device: str | None = None) -> float:
    """Screendumps until the clock shows; the monotonic time it was first seen."""
    def shown() -> float | None:
        if not card.alive():
            raise Failed(f"{card.name}'s qemu ended: {card.said()[-300:]}")
        with contextlib.suppress(Failed, OSError):
            card.screendump(shot, device)
            if clock_shown(shot):
                return time.monotonic()
        return None
    return wait(f"clock on {card.name}'s screen", shown, limit, 3)


# --- The hub on this machine ----------------------------------------------------------------
class Hall:
    """The hub the tables talk to, started on this machine as the hall benchmark starts its
    own (HTTPS, its port handed over as a bound socket), a round under way, and the TD."""

    def __init__(self, work: Path) -> None:
        self.hub = Hub(work / "hub" / "data")
        self.hub.start()
        self.td, _ = set_up(self.hub, tables=8, paired=0)

    @property
    def url_from_a_card(self) -> str:
        return f"https://10.0.2.2:{self.hub.port}"  # qemu's user network: this machine

    def approve(self, table: int) -> str:
        """Pair the clock asking for ``table`` with the code it shows, as the TD does."""
        def asking() -> list[dict[str, Any]]:
            with contextlib.suppress(Exception):
                return [w for w in self.td.get("/api/td/clocks").json()["waiting"]
                        if w["wished"] == table]
            return []
        waiting = wait(f"table {table}'s clock asking to be paired", asking, 900, 3)
        for w in waiting:
            self.td.post("/api/td/clocks", json={"code": w["code"], "table": table}
                         ).raise_for_status()
        return str(waiting[0]["code"])

    def presses(self, table: int) -> list[tuple[str, str]]:
        """(id, power) of every press the hub holds for ``table``, from its own database."""
        db = sqlite3.connect(f"file:{self.hub.data / 'hub.sqlite3'}?mode=ro", uri=True,
                             timeout=10)
        try:
            return [(str(i), str(p)) for i, p in db.execute(
                "SELECT id, power FROM presses WHERE table_no = ? AND kind = 'press'",
                (table,))]
        finally:
            db.close()


OUTBOX_IDS = ("/opt/dipclock/venv/bin/python -c \"import sqlite3; db = sqlite3.connect("
              "'file:/var/lib/dipclock/outbox.sqlite?mode=ro', uri=True); "
              "print(' '.join(r[0] for r in db.execute("
              "\\\"SELECT id FROM presses WHERE kind = 'press'\\\")))\"")


WANTED = ("boot_to_clock_s", "screendump", "press_at_hub", "press_on_screen",
          "identities_unique", "power_cut_lost", "power_cut_acknowledged",
          "late_display_shown", "raspi3b_userspace")


def judged(figures: dict[str, Any]) -> bool:
    """Whether a whole run proved the card: every step ran and held; no press lost in the
    power cut, out of at least one the card had acknowledged before it."""
    return ("failed" not in figures and all(k in figures for k in WANTED)
            and figures["press_at_hub"] is True and figures["press_on_screen"] is True
            and bool(figures["identities_unique"]) and figures["power_cut_lost"] == 0
            and figures["power_cut_acknowledged"] > 0 and bool(figures["late_display_shown"]))


# --- The steps ------------------------------------------------------------------------------
@contextlib.contextmanager
def step(figures: dict[str, Any], name: str) -> Iterator[None]:
    note(f"{name}...")
    started = time.monotonic()
    try:
        yield
    except (Failed, OSError, subprocess.SubprocessError, sqlite3.Error) as exc:
        figures.setdefault("failed", f"{name}: {exc}")
        note(f"{name} FAILED: {exc}")
    finally:
        figures.setdefault("seconds", {})[name] = round(time.monotonic() - started, 1)


def table_card(hall: Hall, work: Path, pristine: Path, key: Path, pub: str,
               figures: dict[str, Any]) -> Card:
    card = Card("table-7", pristine, work, key)
    card.settings({"table": str(TABLE), "hub": hall.url_from_a_card, "ssh_key": pub,
                   "timezone": "Europe/Vienna"})
    started = card.boot()
    shot = work / "table-7.png"
    code = hall.approve(TABLE)
    figures["pairing_code"] = code
    seen = wait_for_clock(card, shot, 900)
    figures["boot_to_clock_s"] = round(seen - started, 1)
    figures["screendump"] = str(shot)
    card.press("a")
    figures["press_at_hub"] = bool(wait(
        "Austria's press at the hub", lambda: [p for p in hall.presses(TABLE) if p[1] == "A"],
        120))
    shot_in = work / "table-7-austria-in.png"

    def shows_it() -> bool:  # under emulation a frame takes a while: until it is drawn
        with contextlib.suppress(Failed, OSError):
            card.screendump(shot_in)
            return austria_in(shot_in)
        return False

    figures["press_on_screen"] = bool(wait("Austria's chip in on the screen", shows_it, 120))
    figures["grown_mb"] = int(card.ssh("lsblk -bno SIZE /dev/disk/by-label/dipclock-data"
                                       ).split()[0]) // 2**20
    figures["root_mount"] = card.ssh("findmnt -no FSTYPE,OPTIONS /").split()[0]
    return card


def identity(card: Card) -> tuple[str, str, str]:
    machine_id = card.ssh("cat /etc/machine-id").strip()
    return machine_id, card.host_key(), card.ssh("hostname").strip()


def other_cards(hall: Hall, work: Path, pristine: Path, key: Path, pub: str,
                figures: dict[str, Any], first: tuple[str, str, str]) -> None:
    seen = {"table-7": first}
    hub = Card("hub", pristine, work, key)
    hub.settings({"role": "hub", "td_password": "tournament-director", "ssh_key": pub})
    hub.boot()
    wait("the hub card's SSH", hub.ssh_up, 900, 5)
    seen["hub"] = identity(hub)

    def certificate() -> str | None:
        with contextlib.suppress(OSError, ssl.SSLError):
            pem = ssl.get_server_certificate(("127.0.0.1", hub.https_port), timeout=10)
            return hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest()
        return None
    figures["hub_certificate"] = wait("the hub card's HTTPS", certificate, 900, 5)
    hub.power_off()
    plain = Card("blank", pristine, work, key)
    plain.settings({"ssh_key": pub})  # nothing else: a card as it comes
    plain.boot()
    wait("the blank card's SSH", plain.ssh_up, 900, 5)
    seen["blank"] = identity(plain)
    plain.power_off()
    figures["identities"] = {name: {"machine_id": m, "ssh_host_key": k[:24] + "...",
                                    "hostname": h} for name, (m, k, h) in seen.items()}
    values = list(seen.values())
    figures["identities_unique"] = all(
        len({v[i] for v in values}) == len(values) and all(v[i] for v in values)
        for i in range(3))


def burst(cards: list[Card], keys: str, pause: float, stop: threading.Event) -> None:
    """Each key in turn on each card, ``pause`` s apart, until ``stop``: players pressing
    through a power cut (a press a card cannot take then is no failure)."""
    while not stop.is_set():
        for k in keys:
            for card in cards:
                if stop.is_set():
                    return
                with contextlib.suppress(Failed, OSError):
                    card.press(k, 0.05)
                time.sleep(pause)


def power_cut(card: Card, hall: Hall, figures: dict[str, Any], work: Path) -> None:
    hall.hub.kill()  # the Wi-Fi gone: presses wait in the kiosk's outbox
    stop = threading.Event()
    pressing = threading.Thread(target=burst, args=([card], KEYS, 0.4, stop), daemon=True)
    pressing.start()
    # the cut once the outbox holds presses (each one shown as taken is on the card): a cut
    # before any would prove nothing, and the result says so (``judged``)
    acknowledged: set[str] = wait("presses kept in the card's outbox before the cut",
                                  lambda: set(card.ssh(OUTBOX_IDS).split()), 180, 1)
    card.kill()  # the power cut, presses still coming
    stop.set()
    pressing.join(timeout=30)
    figures["power_cut_acknowledged"] = len(acknowledged)
    hall.hub.start()
    started = card.boot()
    wait_for_clock(card, work / "table-7-after-the-cut.png", 900)
    figures["second_boot_to_clock_s"] = round(time.monotonic() - started, 1)

    def all_there() -> bool:
        return acknowledged <= {i for i, _ in hall.presses(TABLE)}
    with contextlib.suppress(Failed):
        wait("every acknowledged press at the hub", all_there, 180)
    figures["power_cut_lost"] = len(acknowledged - {i for i, _ in hall.presses(TABLE)})
    figures["root_after_cut"] = card.ssh("findmnt -no FSTYPE /").strip()
    card.power_off()


def late_display(card: Card, figures: dict[str, Any], work: Path) -> None:
    card.boot(screen_off=True)
    wait("the card's SSH (screen off)", card.ssh_up, 900, 5)
    figures["late_display_connector_before"] = card.ssh(
        "cat /sys/class/drm/card*-*/status").split()
    if "connected" in figures["late_display_connector_before"]:
        raise Failed("the screen was to be off at boot, and the card's connector says "
                     "connected: this run proves nothing about a late screen")
    figures["late_display_kiosk_before"] = card.ssh(
        "systemctl is-active dipclock-kiosk.service || true").strip()
    time.sleep(60)  # a minute after the system is up, the TV is switched on
    card.screen(SCREEN)
    shown = True
    try:
        wait_for_clock(card, work / "table-7-late-display.png", 300, device="gpu0")
    except Failed:
        shown = False
        card.screendump(work / "table-7-late-display.png", device="gpu0")
    figures["late_display_shown"] = shown
    figures["late_display_kiosk"] = card.ssh(
        "systemctl is-active dipclock-kiosk.service; systemctl show -p NRestarts "
        "dipclock-kiosk.service").split()
    card.power_off()


def raspi3b(pristine: Path, work: Path, figures: dict[str, Any]) -> None:
    """The Pi 3's boot path: its kernel, initramfs and device tree from the boot partition
    under qemu's raspi3b, the card as its SD card (qemu wants a power-of-two size)."""
    folder = work / "raspi3b"
    folder.mkdir(exist_ok=True)
    image = folder / "card.img"
    subprocess.run(["cp", "--sparse=always", pristine, image], check=True)
    with image.open("r+b") as f:
        f.truncate(CARD_SIZE)
    config = read_boot(image, "config.txt").decode()
    kernel = re.search(r"^kernel=(\S+)", config, re.M)
    initrd = re.search(r"^initramfs (\S+)", config, re.M)
    assert kernel and initrd
    dtb = copy_boot(image, "bcm2837-rpi-3-b.dtb", folder / "pi3.dtb")
    vmlinuz = copy_boot(image, kernel.group(1), folder / "vmlinuz")
    initramfs = copy_boot(image, initrd.group(1), folder / "initrd")
    cmdline = read_boot(image, "cmdline.txt").decode().strip()
    cmdline = re.sub(r"console=\S+\s*", "", cmdline) + " console=tty1 console=ttyS1,115200"
    logs = [folder / "serial0.log", folder / "serial1.log"]
    started = time.monotonic()
    proc = subprocess.Popen(
        ["qemu-system-aarch64", "-M", "raspi3b", "-kernel", str(vmlinuz), "-dtb", str(dtb),
         "-initrd", str(initramfs), "-append", cmdline, "-drive",
         f"if=sd,format=raw,file={image}", "-display", "none", "-serial", f"file:{logs[0]}",
         "-serial", f"file:{logs[1]}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT, start_new_session=True)
    figures["raspi3b_cmdline"] = cmdline

    def userspace() -> str | None:
        text = "".join(p.read_text(errors="replace") for p in logs if p.exists())
        if proc.poll() is not None:
            raise Failed(f"qemu raspi3b ended: {text[-300:]}")
        # the card's own units from the SD card's root: the first boot's growing of the
        # data partition (qemu's raspi3b may not restart after it), or the setup's line
        found = re.search(r"dipclock-card-grow: done: \d+ MiB|dipclock-card: .*hostname \S+"
                          r"|login: ", text)
        return found.group(0) if found else None
    try:
        figures["raspi3b_userspace"] = wait("userspace on the raspi3b", userspace, 1800, 10)
        figures["raspi3b_s"] = round(time.monotonic() - started, 1)
    finally:
        proc.kill()
        proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.card_test", description=__doc__)
    p.add_argument("--image", type=Path, default=IMAGE)
    p.add_argument("--keep", action="store_true", help="keep the work folder")
    p.add_argument("--only", help="comma-separated steps: table,identities,power_cut,"
                                  "late_display,raspi3b")
    args = p.parse_args(argv)
    figures: dict[str, Any] = {"ok": False}
    if not args.image.exists():
        print(f"card-test: {args.image}: no such image (make card)", file=sys.stderr)
        print(json.dumps(figures | {"failed": f"no image {args.image}"}))
        return 2
    work = Path(tempfile.mkdtemp(prefix="dipclock-card-test-", dir="/var/tmp"))
    note(f"work folder {work}")
    only = set(args.only.split(",")) if args.only else None
    figures["image_mb"] = round(args.image.stat().st_size / 1e6, 1)
    pristine = work / "card.img"
    if args.image.suffix == ".xz":
        with pristine.open("wb") as f:
            subprocess.run(["xz", "-dc", args.image], stdout=f, check=True)
    else:  # the build's own uncompressed image (CARD_CACHE/work/card.img): no wait for xz
        subprocess.run(["cp", "--sparse=always", args.image, pristine], check=True)
    figures["image_raw_mb"] = round(pristine.stat().st_size / 1e6, 1)
    key = work / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "card-test", "-f", key],
                   check=True)
    pub = key.with_suffix(".pub").read_text().strip()
    hall = card = None
    try:
        with step(figures, "hub"):
            hall = Hall(work)
        if hall is not None and (only is None or only & {"table", "identities", "power_cut",
                                                        "late_display"}):
            with step(figures, "table"):
                card = table_card(hall, work, pristine, key, pub, figures)
            if card is not None and (only is None or "identities" in only):
                with step(figures, "identities"):
                    other_cards(hall, work, pristine, key, pub, figures, identity(card))
            if card is not None and (only is None or "power_cut" in only):
                with step(figures, "power_cut"):
                    power_cut(card, hall, figures, work)
            if card is not None and (only is None or "late_display" in only):
                with step(figures, "late_display"):
                    card.power_off()
                    late_display(card, figures, work)
        if only is None or "raspi3b" in only:
            with step(figures, "raspi3b"):
                raspi3b(pristine, work, figures)
    finally:
        if card is not None:
            card.kill()
        if hall is not None:
            hall.hub.kill()
    figures["ok"] = judged(figures)
    if figures["ok"] and not args.keep:
        for junk in work.glob("**/*.img"):
            junk.unlink()
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""``make card BASE=raspios-lite.img.xz``: the card's layers on Raspberry Pi OS Lite.

Raspberry Pi OS Lite is what pi-gen's ``export-image`` makes: an MBR image of two
partitions, a FAT32 boot partition (the Pi's firmware, Raspberry Pi's own kernels for every
model, the Pi 5 included, their initramfs, ``config.txt`` and ``cmdline.txt``) and an ext4
root found by PARTUUID. This module reads both without mounting anything (``mcopy`` for the
FAT, ``debugfs rdump`` for the ext4, as ``card.build`` writes its own), so that the same layers
follow as on Debian's card: dipclock by its own installer from a wheelhouse for the image's
Python and a ``make debs`` folder for its suite (no internet), the card's files, the
read-only root's overlay in the image's own initramfs, and the card's three partitions.

What Raspberry Pi OS does at its first boot and the card does itself is switched off: the
user-name dialog (it takes the screen), the root partition's resize (the card grows its
data partition instead), its SSH key making, and cloud-init (Trixie's Imager settings:
dipclock.txt is the card's settings).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

from card import layout

SUITES = ("bookworm", "trixie")
FAT_TYPES = ("b", "c", "e")  # FAT32 (CHS, LBA) and FAT16 LBA: what a Pi's firmware reads
LINUX_TYPE = "83"
AARCH64 = 183  # the ELF e_machine of arm64
#: Raspberry Pi OS's own first-boot services that the card replaces, masked where present:
#: userconfig asks for a user name on the console (over the clock); rpi-resize grows the
#: root, where the card has its data partition; regenerate_ssh_host_keys makes keys the
#: card makes (machine.cardsetup); cloud-init applies Imager's settings, which on a card
#: are dipclock.txt's.
#: dphys-swapfile (Bookworm) would write a swap file into the read-only root's tmpfs overlay,
#: taking the memory it means to give.
FIRST_BOOT_UNITS = ("userconfig.service", "rpi-resize.service",
                    "regenerate_ssh_host_keys.service", "resize2fs_once.service",
                    "dphys-swapfile.service",
                    "cloud-init-local.service", "cloud-init.service",
                    "cloud-config.service", "cloud-final.service", "cloud-init-main.service",
                    "cloud-init-network.service")
#: cloud-init's settings files on Trixie's boot partition (pi-gen's stage2/04-cloud-init),
#: taken off a card where cloud-init is switched off, so that nobody edits them in vain
CLOUD_INIT_FILES = ("user-data", "network-config", "meta-data")
#: What the card's own first boot and setup run (card/files/root, machine.cardsetup): an
#: image without one of them could not grow, make its identity or join the Wi-Fi.
CARD_TOOLS = ("usr/sbin/sfdisk", "usr/bin/partx", "usr/bin/lsblk", "usr/sbin/e2fsck",
              "usr/sbin/resize2fs", "usr/bin/systemd-machine-id-setup", "usr/bin/ssh-keygen",
              "usr/sbin/NetworkManager", "usr/sbin/update-initramfs")
#: cmdline.txt words the card sets itself, or that would undo it: the root (by the card's
#: label), and Raspberry Pi OS's first-boot hooks (``init=`` its firstboot script,
#: ``resize``, Imager's ``systemd.run`` first-run script).
DROPPED = re.compile(r"^(root|rootfstype|init|resize|systemd\.run|systemd\.run_success_action"
                     r"|systemd\.unit|fsck\.repair|rootwait)(=|$)")
CARD_CMDLINE = (f"root=LABEL={layout.ROOT_LABEL}", "rootfstype=ext4", "fsck.repair=yes",
                "rootwait", "consoleblank=0", "quiet", "loglevel=3")


class BaseError(Exception):
    """The base image cannot be built on: one line saying why and what to use instead."""


@dataclass(frozen=True)
class Base:
    """What the base image is: its suite (``bookworm``), Python (``3.11``) and name."""

    suite: str
    python: str
    name: str


@dataclass(frozen=True)
class Part:
    """A partition of the base image, in bytes, with its MBR type (``c``, ``83``)."""

    start: int
    size: int
    kind: str


def partitions(image: Path) -> list[Part]:
    """The image's partitions, read by ``sfdisk --json``; BaseError unless it has Raspberry Pi
    OS's shape (an MBR table, a FAT boot partition first, a Linux root second)."""
    try:
        out = subprocess.run(["sfdisk", "--json", str(image)], capture_output=True,
                             text=True, check=True, timeout=60).stdout
        table = json.loads(out)["partitiontable"]
    except (subprocess.CalledProcessError, ValueError, KeyError) as exc:
        raise BaseError(f"{image}: no partition table: not a card image") from exc
    sector = int(table.get("sectorsize", layout.SECTOR))
    parts = [Part(int(p["start"]) * sector, int(p["size"]) * sector, str(p["type"]).lower())
             for p in table.get("partitions", [])]
    if table.get("label") != "dos" or len(parts) < 2 or parts[0].kind not in FAT_TYPES \
            or parts[1].kind != LINUX_TYPE:
        kinds = ", ".join(p.kind for p in parts) or "none"
        raise BaseError(f"{image}: not Raspberry Pi OS's shape (an MBR table with a FAT boot "
                        f"partition and a Linux root; this one: {table.get('label')}, "
                        f"partitions {kinds})")
    return parts


def source(src: Path) -> Path:
    """``src`` checked before anything is read: a file, ``.img.xz`` or ``.img``."""
    if not src.is_file():
        raise BaseError(f"{src}: no such file (download Raspberry Pi OS Lite, 64-bit, as "
                        ".img.xz)")
    if not src.name.endswith((".img", ".xz")):
        raise BaseError(f"{src}: give the .img.xz Raspberry Pi publishes, or the .img in it")
    return src.resolve()


def unpack(src: Path, work: Path) -> Path:
    """The raw image: ``src`` itself when it is one, else ``.xz`` uncompressed into ``work``
    (what Raspberry Pi's download page and Imager's cache hold)."""
    src = source(src)
    if src.name.endswith(".img"):
        return src
    work.mkdir(parents=True, exist_ok=True)
    raw = work / "base.img"
    partial = raw.with_name(raw.name + ".partial")
    with partial.open("wb") as f:
        done = subprocess.run(["xz", "-dc", str(src)], stdout=f, stderr=subprocess.PIPE,
                              text=True, check=False)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BaseError(f"{src}: xz cannot read it: {done.stderr.strip()}")
    partial.replace(raw)
    return raw


def _debugfs(fs: str, *commands: str) -> str:
    """debugfs's answers to ``commands`` on ``fs`` (a path, ``?offset=`` allowed), read-only."""
    done = subprocess.run(["debugfs", "-f", "-", fs], input="\n".join(commands) + "\n",
                          capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode != 0:
        raise BaseError(f"debugfs {fs}: exit {done.returncode}: {done.stderr.strip()[-200:]}")
    return done.stdout


def extract(image: Path, parts: list[Part], boot: Path, root: Path) -> None:
    """The boot partition's files into ``boot`` and the root's into ``root``, owners and
    modes kept. ``rdump`` sets the owner after the mode, which clears set-user-ID and
    set-group-ID bits (sudo, su, passwd): they are put back from the root's own listing."""
    for folder in (boot, root):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    done = subprocess.run(["mcopy", "-s", "-p", "-m", "-i", f"{image}@@{parts[0].start}",
                           "::/*", str(boot)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BaseError(f"{image}: its boot partition cannot be read: {done.stderr.strip()}")
    fs = f"{image}?offset={parts[1].start}"
    _debugfs(fs, f'rdump / "{root}"')
    if not (root / "etc").is_dir():
        raise BaseError(f"{image}: its second partition holds no root filesystem")
    restore_special_bits(fs, root)


def restore_special_bits(fs: str, root: Path) -> int:
    """Set-user-ID and set-group-ID bits put back on the extracted files, from ``debugfs
    ls -p`` of every folder (one debugfs for all of them); returns how many."""
    folders = ["/"] + ["/" + str(p.relative_to(root)) for p in root.rglob("*")
                       if p.is_dir() and not p.is_symlink()]
    listing = _debugfs(fs, *(f'ls -p "{d}"' for d in folders))
    restored, current = 0, ""
    for line in listing.splitlines():
        if line.startswith("debugfs:"):
            found = re.match(r'debugfs:\s+ls -p "(.*)"$', line)
            current = found.group(1) if found else ""
            continue
        fields = line.split("/")
        if len(fields) < 7 or not fields[2].isdigit():
            continue
        mode, name = int(fields[2], 8), fields[5]
        if stat.S_ISREG(mode) and mode & (stat.S_ISUID | stat.S_ISGID) and name:
            path = root / current.lstrip("/") / name
            if path.is_file() and not path.is_symlink():
                path.chmod(stat.S_IMODE(mode))
                restored += 1
    return restored


def _elf_machine(path: Path) -> int:
    """The ELF header's machine (183 for arm64, 40 for 32-bit ARM), -1 if not ELF."""
    with path.open("rb") as f:
        head = f.read(20)
    if head[:4] != b"\x7fELF" or len(head) < 20:
        return -1
    return int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")


def describe(root: Path) -> Base:
    """Which Raspberry Pi OS the root is; BaseError for one the card cannot use (32-bit, or
    a suite other than Bookworm and Trixie)."""
    fields: dict[str, str] = {}
    # etc/os-release is a link to ../usr/lib/os-release (absolute on some): read the target
    for name in ("usr/lib/os-release", "etc/os-release"):
        path = root / name
        if path.is_file() and not path.is_symlink():
            for line in path.read_text(errors="replace").splitlines():
                key, _, value = line.partition("=")
                fields[key.strip()] = value.strip().strip('"')
            break
    name = fields.get("PRETTY_NAME", "an unknown system")
    suite = fields.get("VERSION_CODENAME", "")
    if suite not in SUITES:
        raise BaseError(f"the base image is {name}: the card builds on Raspberry Pi OS Lite "
                        f"Bookworm or Trixie ({suite or 'no suite'} here)")
    link = root / "usr/bin/python3"
    if not link.is_symlink():
        raise BaseError(f"the base image ({name}) has no /usr/bin/python3")
    target = link.parent / Path(str(link.readlink())).name
    if not target.is_file() or _elf_machine(target) != AARCH64:
        raise BaseError(f"the base image ({name}) is not 64-bit: use Raspberry Pi OS Lite "
                        "(64-bit); the card's wheels are for arm64")
    found = re.fullmatch(r"python(3\.\d+)", target.name)
    if found is None:
        raise BaseError(f"the base image's /usr/bin/python3 is {target.name}, not python3.X")
    return Base(suite, found.group(1), name)


def cmdline(text: str) -> str:
    """Raspberry Pi OS's ``cmdline.txt`` made the card's: its consoles and settings kept,
    the root by the card's label, its first-boot hooks gone (DROPPED); one line."""
    kept = [w for w in text.split() if not DROPPED.match(w)
            and w not in CARD_CMDLINE]
    return " ".join(kept + list(CARD_CMDLINE)) + "\n"


def adapt(root: Path) -> list[str]:
    """Raspberry Pi OS's first-boot services that the card replaces switched off (masked),
    cloud-init told it is not wanted; returns what was switched off."""
    units = root / "etc/systemd/system"
    units.mkdir(parents=True, exist_ok=True)
    off = []
    for unit in FIRST_BOOT_UNITS:
        if any((root / d / unit).exists() for d in ("usr/lib/systemd/system",
                                                   "lib/systemd/system", "etc/systemd/system")):
            mask = units / unit
            mask.unlink(missing_ok=True)
            mask.symlink_to("/dev/null")
            off.append(unit)
    if (root / "etc/rpi/swap.conf").exists():
        # Trixie's rpi-swap: compressed memory only, no swap file in the overlay (swap.conf(5))
        dropins = root / "etc/rpi/swap.conf.d"
        dropins.mkdir(exist_ok=True)
        (dropins / "80-dipclock-card.conf").write_text(
            "# dipclock card: the root is a tmpfs overlay; a swap file there takes memory\n"
            "[Main]\nMechanism=zram\n")
        off.append("rpi-swap's swap file")
    if (root / "etc/cloud").is_dir():
        (root / "etc/cloud/cloud-init.disabled").write_text(
            "dipclock card: dipclock.txt on the boot partition is this card's settings\n")
        off.append("cloud-init")
    return off


def missing_tools(root: Path) -> list[str]:
    """The card's tools (CARD_TOOLS) the root lacks, by name."""
    def present(rel: str) -> bool:
        return any((root / d / Path(rel).name).exists() or (root / d / Path(rel).name)
                   .is_symlink() for d in ("usr/sbin", "usr/bin", "sbin", "bin"))
    return [Path(t).name for t in CARD_TOOLS if not present(t)]


def initramfs_files(boot: Path) -> dict[str, bytes]:
    """The boot partition's initramfs files by name, with their bytes' digest: Raspberry Pi
    OS's ``initramfs8``, ``initramfs_2712``, Debian's ``initrd.img-*``."""
    return {p.name: hashlib.sha256(p.read_bytes()).digest() for p in sorted(boot.iterdir())
            if p.is_file() and (p.name.startswith("initramfs") or p.name.startswith("initrd"))}

"""``make card``: the card image, ``dist/dipclock-card-arm64.img.xz``, built on this machine.

No Pi and no internet beyond the package registries: Debian's arm64 packages (debootstrap,
then apt) and PyPI's aarch64 wheels (``scripts/wheelhouse.sh``). This machine has no
binfmt_misc, so every arm64 program of the build runs under proot + qemu-aarch64-static, as
``benchmarks/pi_install.py`` does (with the older-kernel filter both take from ``card.proot``),
and the image is put together without a mount: ``mkfs.vfat`` + ``mcopy``, ``mke2fs -d``,
``sfdisk`` on a file and ``dd conv=notrunc``. Layers, each cached in ``CARD_CACHE`` under a key
of what made it:

1. ``packages``: Debian Trixie arm64 with the kernel, the Pi's firmware, NetworkManager,
   OpenSSH, Python and Mesa; its initramfs carries the overlay root (``card/files/initramfs``).
2. ``dipclock``: ``systemd/install.sh kiosk --wheelhouse`` in a copy of it, the hub's packages
   beside (one venv for both roles), then the card's own files (``card/files/root``).
3. the image: boot, root and data partitions (``card.layout``), compressed with xz.

With ``--base RASPIOS.img.xz`` the first layer is Raspberry Pi OS Lite's own root and boot
partition instead (``card.base``), with its kernels for every Pi, the Pi 5 included, and the
image's packages come from a ``make debs`` folder for its suite, not the internet.

``python -m card.build [--out FILE] [--wheelhouse DIR] [--base RASPIOS.img.xz]``.
The last line printed is one JSON object of figures (sizes, seconds).
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from card import base as raspios
from card import layout
from card.proot import (
    NEWER_THAN_PROOT,
    SCMP_ACT_ALLOW,
    SCMP_ACT_ERRNO,
    SCMP_FLTATR_ACT_BADARCH,
    seccomp,
)
from dipclock.i18n import ENGLISH, LANGUAGES, LanguageError, Words, language
from machine import cardfile

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "files"
SUITE = "trixie"
DIST = ROOT / "dist"
IMAGE = DIST / "dipclock-card-arm64.img.xz"
#: ``--base``'s card: its own name, so that building both keeps both
BASE_IMAGE = DIST / "dipclock-card-raspios-arm64.img.xz"
CACHE = Path(os.environ.get("CARD_CACHE") or Path(os.environ.get("XDG_CACHE_HOME")
                                                   or Path.home() / ".cache") / "dipclock-card")
#: What a card needs beyond Debian's minimal base, without Recommends. Why each:
PACKAGES = (
    # boot: Debian's kernel (Pi 3, 4, 400, Zero 2 W, CM4 device trees), its initramfs, the
    # Pi's firmware (bootcode, start*.elf, config.txt hook) and its Wi-Fi chips' firmware
    "linux-image-arm64", "initramfs-tools", "zstd", "raspi-firmware", "firmware-brcm80211",
    # a normal systemd machine
    "systemd-sysv", "udev", "dbus", "kmod", "netbase", "iproute2", "tzdata",
    # the network: Wi-Fi from dipclock.txt through NetworkManager; iw sets the country
    "network-manager", "wpasupplicant", "wireless-regdb", "iw",
    # the time from the network when the hall has internet (NTP); the hub takes the TD's
    # phone's when it has not (server/clock.py)
    "systemd-timesyncd",
    # identity made at first boot, and a way in for the TD (a key from dipclock.txt)
    "openssh-server",
    # growing the data partition at first boot; the FAT boot partition's own check
    "fdisk", "e2fsprogs", "dosfstools",
    # dipclock: Python for the venv, and what pygame-ce's SDL draws with (KMS/DRM, Mesa)
    "python3", "python3-venv", "libgbm1", "libdrm2", "libegl1", "libgles2", "libgl1-mesa-dri",
    "libasound2t64",
    # a player's name in any script on the table's screen (kiosk/fonts.py): Noto for Thai,
    # Arabic, Hebrew, ... (42 MB) and Chinese, Japanese, Korean (its serif faces pruned)
    "fonts-noto-core", "fonts-noto-cjk",
)
#: Left out of the root: documentation, manuals and translations nobody reads on a table.
PRUNE = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale",
         "usr/share/lintian", "var/cache/apt", "var/lib/apt/lists", "var/cache/debconf/*-old",
         "var/log/*.log", "var/log/apt",
         # the table draws in sans: Noto's serif CJK faces are 53 MB of the card's root
         "usr/share/fonts/opentype/noto/NotoSerifCJK-*")
BOOT_MB = 256
DATA_MB = 64

LOG = CACHE / "build.log"
#: What of the checkout the build reads besides the Python it imports, and the checkout it
#: copies into the root for the installer. Each file must be in the repository
#: (``not_in_repository``): one that git ignores or was never added is missing from a fresh
#: clone, and a build on a warm cache hides it until the cache is empty.
SOURCES = ("card/files", "card/ensure-tools.sh", "kiosk/kiosk.example.toml", "systemd",
           "scripts/wheelhouse.sh", "scripts/debs.py", "pyproject.toml")
#: What the build writes into the checkout (the harnesses read it back)
OUTPUTS = ("dist",)


#: What no program of the arm64 root may do to this machine. proot runs them as this machine's
#: root, so debootstrap's ``mount -t proc`` and its exit's ``umount /dev/pts`` would really
#: happen (on this machine's /dev/pts, through ``-b /dev``), as would a postinst's modprobe.
#: Path calls newer than proot 5.1 (beside card.proot's two): it passes their paths
#: to this machine untranslated, so systemd 257's chase() (openat2) aborts inside the root;
#: ENOSYS sends glibc and systemd to the older calls, which proot translates.
NEWER_STILL = ("openat2", "fchmodat2", "name_to_handle_at")
REFUSED = ("mount", "umount2", "pivot_root", "swapon", "swapoff", "reboot", "kexec_load",
           "init_module", "finit_module", "delete_module", "sethostname", "setdomainname",
           "settimeofday", "clock_settime", "adjtimex", "clock_adjtime")


def confined() -> None:
    """In the child before exec (proot): the calls proot cannot translate answer ENOSYS, as
    ``card.proot`` has it, and those in REFUSED answer EPERM."""
    lib = seccomp()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    ok = ctx and lib.seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW) == 0
    for names, answer in ((NEWER_THAN_PROOT + NEWER_STILL, errno.ENOSYS),
                          (REFUSED, errno.EPERM)):
        for name in names:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:  # a call this libseccomp does not know: no program here makes it
                continue
            ok = ok and lib.seccomp_rule_add(ctx, SCMP_ACT_ERRNO | answer, number, 0) == 0
    if not (ok and lib.seccomp_load(ctx) == 0):
        raise OSError("libseccomp could not load the filter")


class BuildError(Exception):
    """A step failed: one line saying which and what it printed last."""


def say(line: str) -> None:
    print(f"card: {line}", file=sys.stderr, flush=True)


def run(argv: Sequence[str | Path], timeout: float = 3600, in_root: bool = False,
        env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    """Run a command, its output appended to the build log; BuildError with its last lines."""
    args = [str(a) for a in argv]
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with LOG.open("a") as log:
        log.write(f"\n$ {' '.join(args)}\n")
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                          env=env, start_new_session=True,
                          preexec_fn=confined if in_root else None) as proc:
        try:
            out, _ = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise BuildError(f"{' '.join(args[:6])}: no end after {timeout:.0f} s") from exc
    with LOG.open("a") as log:
        log.write(out)
    if proc.returncode != 0:
        tail = " | ".join(out.strip().splitlines()[-4:])
        raise BuildError(f"{' '.join(args[:4])}: exit {proc.returncode}: {tail}")
    return out


def inside(root: Path, script: str, timeout: float = 3600) -> str:
    """A shell script run inside the arm64 root, as root (proot -0, qemu-aarch64-static)."""
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "DEBIAN_FRONTEND": "noninteractive"}
    return run(["proot", "-q", "qemu-aarch64-static", "-0", "-r", root, "-b", "/dev",
                "-b", "/proc", "-b", "/sys", "-b", "/etc/resolv.conf", "-w", "/root",
                "/bin/sh", "-euc", script], timeout=timeout, in_root=True, env=env)


def mirror() -> str:
    """The Debian mirror this machine's apt already uses (the registry it may reach)."""
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d")
                                                         .glob("*"))]:
        try:
            text = path.read_text()
        except OSError:
            continue
        found = re.search(r"^(?:URIs:|deb)\s+(?:\[[^]]*\]\s+)?(https?://\S+/debian)/?\s",
                          text, re.M)
        if found:
            return found.group(1)
    return "http://deb.debian.org/debian"


def key(*parts: object) -> str:
    """A cache key: the hash of what made a layer (lists, and files by their bytes)."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            for f in sorted(p for p in ([part] if part.is_file() else part.rglob("*"))
                            if p.is_file()):
                h.update(str(f.relative_to(part.parent)).encode() + f.read_bytes())
        else:
            h.update(repr(part).encode())
    return h.hexdigest()[:16]


def copy_tree(src: Path, dst: Path) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    run(["cp", "-a", "--reflink=auto", src, dst], timeout=1800)


def git_files(root: Path, *args: str) -> list[str] | None:
    """``git ls-files`` of the checkout at ``root``; None where it is not a git checkout (a
    release's source folder holds only what the repository does)."""
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", *args],
                             capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [name for name in out.decode(errors="replace").split("\0") if name]


def not_in_repository(root: Path = ROOT, sources: Sequence[str] = SOURCES) -> list[str]:
    """The files the build would read that a fresh clone lacks: a source that is not there,
    and every file under the sources that git does not track (ignored or never added)."""
    missing = [f"{name} (not in this checkout)" for name in sources if not (root / name).exists()]
    others = git_files(root, "--others", "--", *sources)
    return missing + [f"{name} (not tracked by git)" for name in (others or [])]


def packages_layer() -> Path:
    """Debian Trixie arm64 with every package a card needs: built once per package list."""
    layer = CACHE / f"packages-{key(SUITE, PACKAGES, PRUNE, FILES / 'apt', FILES / 'build')}"
    if (layer / ".complete").exists():
        say(f"packages: cached ({layer.name})")
        return layer
    work = layer.with_name(layer.name + ".partial")
    if work.exists():
        shutil.rmtree(work)
    say(f"packages: debootstrap {SUITE} arm64 and {len(PACKAGES)} packages (about 20 minutes,"
        " once)")
    run(["debootstrap", "--arch=arm64", "--foreign", "--variant=minbase",
         "--components=main,non-free-firmware", SUITE, work, mirror()], timeout=3600)
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "DEBOOTSTRAP_DIR": "/debootstrap"}
    run(["proot", "-q", "qemu-aarch64-static", "-0", "-r", work, "-b", "/dev", "-b", "/proc",
         "-b", "/sys", "-w", "/", "/debootstrap/debootstrap", "--second-stage"],
        timeout=3600, in_root=True, env=env)
    # apt's settings, the excluded paths and the initramfs's overlay, before the packages
    run(["cp", "-r", "--no-preserve=ownership", f"{FILES / 'apt'}/.", work], timeout=60)
    run(["cp", "-r", "--no-preserve=ownership", f"{FILES / 'initramfs'}/.", work], timeout=60)
    (work / "etc/apt/sources.list").unlink(missing_ok=True)
    # systemd's own tools under proot: card/files/build says why each is stood in for
    for tool in ("sysusers", "tmpfiles"):
        shutil.copy(FILES / "build" / f"systemd-{tool}", work / f"usr/local/sbin/systemd-{tool}")
    inside(work, "for t in sysusers tmpfiles; do dpkg-divert --quiet --local --rename --divert "
                 "/usr/bin/systemd-$t.real --add /usr/bin/systemd-$t; "
                 "ln -sfn /usr/local/sbin/systemd-$t /usr/bin/systemd-$t; done")
    inside(work, "apt-get update -q && INITRD=No apt-get install -y -q "
                 "-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "
                 + " ".join(PACKAGES))
    inside(work, "for t in sysusers tmpfiles; do rm /usr/bin/systemd-$t "
                 "/usr/local/sbin/systemd-$t; dpkg-divert --quiet --local --rename --remove "
                 "/usr/bin/systemd-$t; done; "
                 # what the packages' scripts could not enable under proot (systemctl preset
                 # aborts there); no apt of its own on a card with a read-only root
                 "systemctl enable NetworkManager.service ssh.service wpa_supplicant.service "
                 "systemd-timesyncd.service; "
                 "systemctl mask apt-daily.timer apt-daily-upgrade.timer")
    inside(work, "apt-get clean")
    prune(work)
    (work / ".complete").write_text(" ".join(PACKAGES) + "\n")
    if layer.exists():
        shutil.rmtree(layer)
    work.rename(layer)
    return layer


#: Every kernel's initramfs made anew (``-c`` will not replace one that is there); the
#: firmware package's hook copies each to /boot/firmware
MAKE_INITRAMFS = "rm -f /boot/initrd.img-*; update-initramfs -c -k all"


def initramfs(layer: Path) -> None:
    """The layer's initramfs made again where ``card/files/initramfs`` changed since (the
    overlay root lives there); raspi-firmware's hook copies it to /boot/firmware."""
    stamp = layer / ".initramfs"
    want = key(FILES / "initramfs")
    if stamp.exists() and stamp.read_text() == want:
        return
    say("initramfs: update-initramfs with card/files/initramfs (minutes under qemu-user)")
    run(["cp", "-r", "--no-preserve=ownership", f"{FILES / 'initramfs'}/.", layer], timeout=60)
    inside(layer, f"{MAKE_INITRAMFS}; sed -i "
                  "'s/^update_initramfs=no/update_initramfs=yes/' "
                  "/etc/initramfs-tools/update-initramfs.conf", timeout=7200)
    stamp.write_text(want)


def file_key(path: Path) -> str:
    """A digest of a large file's bytes (a base image), read in pieces."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()[:16]


def base_layer(src: Path) -> tuple[Path, raspios.Base]:
    """Raspberry Pi OS Lite's root, its boot partition in /boot/firmware, its first-boot
    services the card replaces switched off and its initramfs made again with the card's
    overlay root: built once per base image (``card.base``)."""
    src = raspios.source(src)
    layer = CACHE / f"base-{key(file_key(src), FILES / 'initramfs', Path(raspios.__file__))}"
    if (layer / ".complete").exists():
        say(f"base: cached ({layer.name})")
        return layer, raspios.describe(layer)
    work = layer.with_name(layer.name + ".partial")
    scratch = CACHE / "base-work"
    for folder in (work, scratch):
        if folder.exists():
            shutil.rmtree(folder)
    scratch.mkdir(parents=True)
    say(f"base: reading {src.name} (no mount: mcopy and debugfs)")
    raw = raspios.unpack(src, scratch)
    parts = raspios.partitions(raw)
    boot = scratch / "boot"
    raspios.extract(raw, parts, boot, work)
    base = raspios.describe(work)
    missing = raspios.missing_tools(work)
    if missing:
        raise BuildError(f"{src.name} ({base.name}) lacks what the card's first boot runs: "
                         f"{', '.join(missing)}: build on Raspberry Pi OS Lite, not a "
                         "smaller image")
    say(f"base: {base.name}, Python {base.python}; switched off: "
        f"{', '.join(raspios.adapt(work)) or 'nothing'}")
    if (work / "etc/cloud/cloud-init.disabled").exists():
        for name in raspios.CLOUD_INIT_FILES:  # Imager's settings files would be read by nobody
            (boot / name).unlink(missing_ok=True)
    firmware = work / "boot/firmware"
    firmware.mkdir(parents=True, exist_ok=True)
    shutil.copytree(boot, firmware, dirs_exist_ok=True)
    before = raspios.initramfs_files(firmware)
    run(["cp", "-r", "--no-preserve=ownership", f"{FILES / 'initramfs'}/.", work], timeout=60)
    # the image's own compression: Raspberry Pi's kernels are not known to unpack zstd
    conf = work / "etc/initramfs-tools/conf.d/dipclock-card"
    conf.write_text("".join(line for line in conf.read_text().splitlines(keepends=True)
                            if not line.startswith("COMPRESS=")))
    say("base: update-initramfs with the card's overlay root, for each of its kernels "
        "(minutes under qemu-user)")
    # Debian's raspi-firmware hook writes cmdline.txt too; Raspberry Pi's does not: the
    # base's own line is what the card edits (card.base.cmdline), whichever the image has
    cmdline = (firmware / "cmdline.txt").read_bytes()
    inside(work, MAKE_INITRAMFS, timeout=7200)
    (firmware / "cmdline.txt").write_bytes(cmdline)
    after = raspios.initramfs_files(firmware)
    stale = sorted(name for name, digest in before.items() if after.get(name) == digest)
    if not after or stale:
        raise BuildError(f"{src.name}: its initramfs hook did not write the boot partition "
                         f"({', '.join(stale) or 'no initramfs at all'}): the card's root "
                         "could not be mounted")
    shutil.rmtree(scratch)
    (work / ".complete").write_text(f"{src.name}\n")
    if layer.exists():
        shutil.rmtree(layer)
    work.rename(layer)
    return layer, base


def debs_for(suite: str) -> Path:
    """The system's packages the installer asks apt for, for ``suite`` on arm64, as ``make
    debs`` makes them: Raspberry Pi OS Lite lacks Mesa's EGL/GBM and the card has no
    internet. Made once per installer (its package list) into the cache."""
    out = CACHE / f"debs-{suite}-{key(ROOT / 'systemd/install.sh', ROOT / 'scripts/debs.py')}"
    if (out / "Packages").exists():
        return out
    say(f"debs: {suite} arm64 (scripts/debs.py)")
    run([sys.executable, ROOT / "scripts/debs.py", "--suite", suite, "--arch", "arm64",
         "--out", out], timeout=1800)
    return out


def prune(root: Path) -> None:
    for pattern in PRUNE:
        for path in root.glob(pattern):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
                path.mkdir()
            else:
                path.unlink()


CHECKOUT_JUNK = (".git", ".venv", "wheelhouse", "dist", "__pycache__", "*.egg-info", "build",
                 ".pytest_cache", ".hypothesis", ".ruff_cache", "out")
_WHEEL = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(?:-\d[^-]*)?-(?P<py>[^-]+)"
                    r"-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$")


def copy_checkout(src: Path, dst: Path) -> None:
    """The checkout as a fresh clone has it, for the installer inside the root: git's
    tracked files (never what only this machine has), else all but CHECKOUT_JUNK."""
    tracked = git_files(src, "--cached")
    if tracked is None:
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(*CHECKOUT_JUNK))
        return
    for name in tracked:
        path = src / name
        if path.is_file() or path.is_symlink():  # a tracked file deleted here is not copied
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dst / name, follow_symlinks=False)


def python_of(root: Path) -> str:
    """The root's Python version, ``3.13``, from its ``/usr/bin/python3`` link."""
    target = os.readlink(root / "usr/bin/python3")
    found = re.fullmatch(r"python(3\.\d+)", Path(target).name)
    if found is None:
        raise BuildError(f"{root}/usr/bin/python3 -> {target}: not a python3.X")
    return found.group(1)


def wheel_fits(name: str, python: str, machine: str = "aarch64") -> bool:
    """Whether CPython ``python`` (``3.13``) on glibc ``machine`` installs this wheel file."""
    found = _WHEEL.match(name)
    if found is None:
        return False
    pys, abis = found["py"].split("."), found["abi"].split(".")
    platforms = found["platform"].split(".")
    minor = int(python.split(".")[1])
    cp = f"cp3{minor}"
    fits_python = (
        ("none" in abis and any(p in ("py3", "py2") or p == cp for p in pys))
        or (cp in pys and cp in abis)
        or ("abi3" in abis and any(re.fullmatch(r"cp3(\d+)", p) and int(p[3:]) <= minor
                                   for p in pys)))
    fits_platform = "any" in platforms or any(
        p.endswith("_" + machine) and (p.startswith("manylinux") or p.startswith("linux_"))
        for p in platforms)
    return fits_python and fits_platform


def unfit_wheels(names: Sequence[str], python: str, machine: str = "aarch64") -> list[str]:
    """The wheels a CPython ``python`` on ``machine`` cannot install (a wheelhouse made for
    another Python, as Bookworm's 3.11 is not Trixie's 3.13, or another architecture)."""
    return [name for name in names if not wheel_fits(name, python, machine)]


def wheelhouse(python: str, given: Path | None) -> Path:
    """The aarch64 wheelhouse for the image's Python: ``given``, else made with
    ``scripts/wheelhouse.sh`` (from PyPI) into the cache; checked wheel by wheel."""
    if given is not None:
        out = given
    else:
        out = CACHE / f"wheelhouse-cp{python.replace('.', '')}"
        say(f"wheelhouse: aarch64, CPython {python} (scripts/wheelhouse.sh)")
        env = os.environ | {"PYTHON": os.environ.get("PYTHON", sys.executable)}
        run(["bash", ROOT / "scripts/wheelhouse.sh", "--arch", "aarch64", "--python", python,
             "--out", out], timeout=1800, env=env)
    names = sorted(p.name for p in out.glob("*.whl"))
    if not any(n.startswith("dipclock-") for n in names):
        raise BuildError(f"{out} holds no dipclock wheel (make one: scripts/wheelhouse.sh "
                         f"--arch aarch64 --python {python})")
    unfit = unfit_wheels(names, python)
    if unfit:
        raise BuildError(f"{out}: {len(unfit)} wheels do not fit the card's CPython {python} "
                         f"on aarch64: {', '.join(unfit[:4])} (make the wheelhouse with "
                         f"--python {python})")
    return out


def dipclock_layer(packages: Path, wheels: Path, work: Path,
                   debs: Path | None = None) -> tuple[int, int]:
    """A copy of the packages layer with dipclock installed by its own installer (both
    roles in one venv; the system's packages from ``debs``, where given, with no network)
    and the card's files; returns the dipclock user's uid and gid."""
    root = work / "root"
    copy_tree(packages, root)
    copy_checkout(ROOT, root / "root/dipclock")
    shutil.copytree(wheels, root / "root/wh")
    offline = ""
    if debs is not None:
        shutil.copytree(debs, root / "root/debs")
        offline = " --debs /root/debs"
    say(f"dipclock: systemd/install.sh kiosk --wheelhouse{offline}, then the hub's packages")
    inside(root, f"sh /root/dipclock/systemd/install.sh kiosk --wheelhouse /root/wh{offline}")
    # the hub and, on the hub card's own screen, how to reach it (kiosk/hubscreen.py)
    inside(root, "/opt/dipclock/venv/bin/pip install -q --no-index --find-links /root/wh "
                 "'dipclock[hub]' && for unit in dipclock-hub dipclock-hubscreen; do "
                 "install -m 644 /root/dipclock/systemd/$unit.service /etc/systemd/system/ && "
                 "ln -sfn /etc/systemd/system/$unit.service "
                 "/etc/systemd/system/multi-user.target.wants/; done")
    run(["cp", "-r", "--no-preserve=ownership", f"{FILES / 'root'}/.", root], timeout=60)
    uid, gid = (int(v) for v in next(
        line.split(":")[2:4] for line in (root / "etc/passwd").read_text().splitlines()
        if line.startswith("dipclock:")))
    (root / "etc/fstab").write_text(FSTAB.format(gid=gid))
    wants = root / "etc/systemd/system"
    for unit, target in (("dipclock-card-setup.service", "multi-user.target"),
                         ("dipclock-card-grow.service", "local-fs.target")):
        (wants / f"{target}.wants").mkdir(exist_ok=True)
        link = wants / f"{target}.wants" / unit
        link.unlink(missing_ok=True)
        link.symlink_to(f"/etc/systemd/system/{unit}")
    # systemd-firstboot would ask on the console for what dipclock.txt says: never; and
    # NetworkManager alone keeps the network (first-boot presets would start networkd too)
    for unit in ("systemd-firstboot.service", "systemd-networkd.service",
                 "systemd-networkd.socket", "systemd-networkd-wait-online.service"):
        mask = wants / unit
        mask.unlink(missing_ok=True)
        mask.symlink_to("/dev/null")
    forget_identity(root)
    prune(root)
    for junk in ("root/dipclock", "root/wh", "root/debs", "root/.cache"):
        shutil.rmtree(root / junk, ignore_errors=True)
    return uid, gid


FSTAB = """\
# The card image (docs/card.md). The root is read-only under a tmpfs overlay from its second
# boot on (card/files/initramfs); the clock's state has its own partition, grown to the card.
LABEL=dipclock-root  /                  ext4  rw,noatime  0  1
# Each waited for 10 minutes, not systemd's 90 s: a card booted in qemu on a busy machine
# found its partitions later than that and stopped in emergency mode (make card-test).
# dipclock.txt, readable by the clock (group dipclock), written only by the card's setup
LABEL=DIPCLOCK       /boot/firmware     vfat  {boot}  0  2
# nofail: a data partition that cannot be checked or mounted (a first boot's resize cut
# short) must not stop the card in emergency mode, a dark table; the clock and the hub start
# after it either way (their card drop-ins) and say on the screen that presses are kept in
# memory only (machine/storage.py)
LABEL=dipclock-data  /var/lib/dipclock  ext4  rw,noatime,nofail,{wait}  0  2
""".replace("{boot}", "ro,uid=0,gid={gid},fmask=0137,dmask=0027,{wait}").replace(
    "{wait}", "x-systemd.device-timeout=10min")


def forget_identity(root: Path) -> None:
    """Nothing that makes a machine itself stays in the image: each card makes its own at
    its first boot (machine-id by systemd, SSH host keys by dipclock-card-setup)."""
    (root / "etc/machine-id").write_text("uninitialized\n")
    dbus = root / "var/lib/dbus/machine-id"
    if dbus.exists() or dbus.is_symlink():
        dbus.unlink()
        dbus.symlink_to("/etc/machine-id")
    for key in (root / "etc/ssh").glob("ssh_host_*"):
        key.unlink()
    (root / "etc/hostname").write_text("dipclock\n")
    for seed in ("var/lib/systemd/random-seed", "var/lib/systemd/credential.secret"):
        (root / seed).unlink(missing_ok=True)


def card_words(env: Mapping[str, str] = os.environ) -> Words:
    """The language of the card's ``dipclock.txt`` (``CARD_LANGUAGE``: ``make card
    CARD_LANGUAGE=fr``; English when not set): its notes, and its ``language`` line, so
    the venue's cards speak it from their first boot. A language dipclock has no catalogue
    for is a BuildError naming those there are, before anything is built."""
    given = (env.get("CARD_LANGUAGE") or "").strip()
    if not given:
        return ENGLISH
    try:
        code = language(given)
    except LanguageError:
        code = ""
    if code not in LANGUAGES:
        raise BuildError(f"CARD_LANGUAGE={given}: one of {', '.join(LANGUAGES)}")
    return Words(code)


def boot_files(root: Path, work: Path) -> Path:
    """The boot partition's contents: what raspi-firmware put in /boot/firmware (firmware,
    kernel, initramfs, device trees, config.txt, cmdline.txt) and the card's dipclock.txt.
    The root keeps an empty /boot/firmware to mount it on."""
    boot = work / "boot"
    if boot.exists():
        shutil.rmtree(boot)
    firmware = root / "boot/firmware"
    if not (firmware / "config.txt").exists():
        raise BuildError(f"{firmware}: no config.txt: raspi-firmware's hook did not run")
    shutil.copytree(firmware, boot)
    shutil.rmtree(firmware)
    firmware.mkdir()
    for initrd in (root / "boot").glob("initrd.img-*"):
        initrd.unlink()  # the copy on the boot partition is the one the Pi loads
    # the card's settings file in the venue's language (machine.cardfile: the committed
    # card/files/boot/dipclock.txt is its English render)
    (boot / "dipclock.txt").write_text(cardfile.render(card_words()), encoding="utf-8")
    (boot / "kiosk.toml").write_text(KIOSK_TOML_HEADER + (ROOT / "kiosk/kiosk.example.toml")
                                     .read_text())
    return boot


KIOSK_TOML_HEADER = """\
# On the card image: this file, on the DIPCLOCK drive, is the hall's kiosk settings (the
# same on every card: the buttons, the screen). The card copies it to
# /etc/dipclock/kiosk.toml at every start. Each card's own settings are in dipclock.txt.

"""


def du(path: Path) -> tuple[int, int]:
    """Bytes (in 4 KiB blocks) and inodes a folder needs."""
    size = inodes = 0
    for dirpath, dirnames, filenames in os.walk(path):
        for name in dirnames + filenames:
            st = os.lstat(os.path.join(dirpath, name))
            size += -(-st.st_size // 4096) * 4096
            inodes += 1
    return size, inodes


def assemble(boot: Path, root: Path, owner: tuple[int, int], work: Path,
             out: Path) -> dict[str, float]:
    """The image from the three folders, then xz; returns its sizes in MB."""
    parts = work / "parts"
    if parts.exists():
        shutil.rmtree(parts)
    parts.mkdir()
    fat = parts / "boot.img"
    boot_kib = max(BOOT_MB * 1024, du(boot)[0] * 3 // 2 // 1024)  # room for a kernel update
    run(["mkfs.vfat", "-F", "32", "-n", layout.BOOT_LABEL, "-C", fat, str(boot_kib)])
    run(["mcopy", "-s", "-i", fat, *sorted(boot.iterdir()), "::"])
    size, inodes = du(root)
    root_bytes = layout.align(int(size * 1.08) + 96 * layout.MIB)
    rootfs = parts / "root.img"
    run(["mke2fs", "-q", "-t", "ext4", "-L", layout.ROOT_LABEL, "-d", root, "-m", "0",
         "-N", str(int(inodes * 1.2) + 4096), "-J", "size=16", "-E", "root_owner=0:0",
         rootfs, f"{root_bytes // 1024}k"])
    data = parts / "data.img"
    empty = work / "data"
    empty.mkdir(exist_ok=True)
    run(["mke2fs", "-q", "-t", "ext4", "-L", layout.DATA_LABEL, "-d", empty, "-m", "0",
         "-J", "size=4", "-E", f"root_owner={owner[0]}:{owner[1]}", data, f"{DATA_MB}M"])
    plan = layout.plan(fat.stat().st_size, rootfs.stat().st_size, data.stat().st_size)
    image = work / "card.img"
    image.unlink(missing_ok=True)
    with image.open("wb") as f:
        f.truncate(layout.image_size(plan))
    run(["sfdisk", "--quiet", image], stdin=layout.sfdisk_script(plan, random.getrandbits(32)))
    for part, src in zip(plan, (fat, rootfs, data), strict=True):
        run(["dd", f"if={src}", f"of={image}", "bs=4M", f"seek={part.start // layout.ALIGN}",
             "conv=notrunc,sparse", "status=none"])
    layout.check(image)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    say(f"xz: {image.stat().st_size // layout.MIB} MiB image")
    with partial.open("wb") as f:
        subprocess.run(["xz", "-T2", "-6", "-c", image], stdout=f, check=True)
    partial.replace(out)
    return {"image_mb": round(image.stat().st_size / 1e6, 1),
            "xz_mb": round(out.stat().st_size / 1e6, 1),
            "root_mb": round(rootfs.stat().st_size / 1e6, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m card.build", description=__doc__)
    p.add_argument("--out", type=Path, help=f"default {IMAGE.relative_to(ROOT)}, or "
                   f"{BASE_IMAGE.relative_to(ROOT)} with --base")
    p.add_argument("--wheelhouse", type=Path)
    p.add_argument("--base", type=Path, help="a Raspberry Pi OS Lite (64-bit) image to build "
                   "on, .img.xz or .img")
    p.add_argument("--stage", choices=("packages",), help="stop after this layer")
    args = p.parse_args(argv)
    out = args.out or (BASE_IMAGE if args.base else IMAGE)
    started = time.monotonic()
    figures: dict[str, object] = {"ok": False}
    try:
        figures["language"] = card_words().lang  # a wrong CARD_LANGUAGE: said first
        if args.base is not None:
            args.base = raspios.source(args.base)  # a base that is not there: said first
        absent = not_in_repository()
        if absent:
            raise BuildError(f"{len(absent)} files the build reads are not in the repository, "
                             f"so a fresh clone's build fails: {', '.join(absent[:5])} (git add "
                             "them, or do not ignore them)")
        base: raspios.Base | None = None
        debs: Path | None = None
        if args.base is not None:
            packages, base = base_layer(args.base)
            python, debs = base.python, debs_for(base.suite)
            figures["base"] = base.name
        else:
            packages = packages_layer()
            initramfs(packages)
            python = python_of(packages)
        figures["packages_s"] = round(time.monotonic() - started, 1)
        if args.stage == "packages":
            figures["ok"] = True
            print(json.dumps(figures))
            return 0
        wheels = wheelhouse(python, args.wheelhouse)
        work = CACHE / "work"
        work.mkdir(parents=True, exist_ok=True)
        owner = dipclock_layer(packages, wheels, work, debs)
        figures["dipclock_s"] = round(time.monotonic() - started, 1)
        boot = boot_files(work / "root", work)
        if base is not None:
            cmdline = boot / "cmdline.txt"
            cmdline.write_text(raspios.cmdline(cmdline.read_text()))
        figures |= assemble(boot, work / "root", owner, work, out)
        figures |= {"ok": True, "python": python, "image": str(out)}
    except (BuildError, raspios.BaseError, OSError, subprocess.CalledProcessError) as exc:
        figures["failed"] = str(exc)
        print(f"card: {exc} (the whole output: {LOG})", file=sys.stderr)
    figures["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())

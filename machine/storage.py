"""The data folder (where the outbox keeps every press): persistent, writable, with room.

A press is safe once it is in the outbox file. On tmpfs or ramfs (or Raspberry Pi OS's
read-only "overlay file system", whose writes go to RAM) the file looks fine all day and is
gone after a power cut, with every press not yet at the hub. The kernel's own mount table
(``/proc/self/mountinfo``) says which filesystem holds a folder.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dipclock.i18n import said
from machine.check import Check, fail, ok, warn
from machine.devices import user_name

MOUNTINFO = Path("/proc/self/mountinfo")
VOLATILE = frozenset({"tmpfs", "ramfs"})
#: The card image's root overlay keeps its writes here, in RAM (card/files/initramfs): the
#: state belongs on the data partition mounted over /var/lib/dipclock
CARD_OVERLAY = "/run/dipclock-root/"
MB = 1_000_000
WARN_FREE = 100 * MB
FAIL_FREE = 10 * MB


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    source: str
    options: frozenset[str]  # per-mount and superblock options: "ro", "upperdir=/x", ...

    def option(self, key: str) -> str | None:
        for item in self.options:
            if item.startswith(key + "="):
                return item.split("=", 1)[1]
        return None


def _unescape(field: str) -> str:
    """The kernel writes a space in a path as ``\\040`` (and tab, newline, backslash alike)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), field)


def mounts(mountinfo: Path = MOUNTINFO) -> list[Mount]:
    """The mount table in mount order; lines the kernel would never write are skipped."""
    found = []
    for line in mountinfo.read_text().splitlines():
        fields = line.split(" ")
        if "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        if len(fields) < dash + 4 or len(fields) < 6:
            continue
        options = set(fields[5].split(",")) | set(fields[dash + 3].split(","))
        found.append(Mount(_unescape(fields[4]), fields[dash + 1], _unescape(fields[dash + 2]),
                           frozenset(options)))
    return found


def _within(path: str, point: str) -> bool:
    return point == "/" or path == point or path.startswith(point.rstrip("/") + "/")


def mount_of(path: str, table: list[Mount]) -> Mount | None:
    """The mount holding ``path`` (already resolved): the deepest mount point, the last one
    mounted where two share a point (it hides the earlier)."""
    best = None
    for m in table:
        if _within(path, m.point) and (best is None or len(m.point) >= len(best.point)):
            best = m
    return best


def existing(folder: Path) -> Path:
    """``folder`` or its nearest existing parent: the outbox creates the missing part."""
    here = folder.absolute()
    while not here.exists() and here != here.parent:
        here = here.parent
    return here.resolve()


def check_filesystem(folder: Path, mountinfo: Path = MOUNTINFO) -> Check:
    name = "data filesystem"
    try:
        table = mounts(mountinfo)
    except OSError as exc:
        return warn(name, said("cannot read the mount table {path}: {error}",
                               path=str(mountinfo), error=str(exc.strerror)),
                    said("run the doctor on the machine itself, where /proc is mounted"))
    where = existing(folder)
    m = mount_of(str(where), table)
    if m is None:
        return warn(name, said("{folder} is on no mount the kernel lists", folder=str(folder)),
                    said("run the doctor on the machine itself, not in a container"))
    on = {"folder": str(folder), "fstype": m.fstype, "point": m.point}
    move = said("set outbox = /var/lib/dipclock/outbox.sqlite on the SD card")
    if m.fstype in VOLATILE:
        return fail(name, said("{folder} is on {fstype} ({point}), in memory: presses not yet "
                               "sent to the hub vanish at a reboot", **on), move)
    if m.fstype == "overlay":
        upper = m.option("upperdir")
        under = mount_of(upper, table) if upper else None
        if upper is not None and upper.startswith(CARD_OVERLAY):
            return fail(name, said("{folder} is on {fstype} ({point}): the card's data "
                                   "partition (dipclock-data) is not mounted, so presses not "
                                   "yet sent to the hub vanish at a reboot", **on),
                        said("restart the Pi; if this stays, the card's data partition is "
                             "damaged: write the card image to it again (docs/card.md)"))
        if under is not None and under.fstype in VOLATILE:
            return fail(name, said("{folder} is on {fstype} ({point}), writing to {under}: "
                                   "presses not yet sent to the hub vanish at a reboot",
                                   under=under.fstype, **on),
                        said("turn off the overlay file system: sudo raspi-config, "
                             "Performance Options, Overlay File System"))
        return warn(name, said("{folder} is on {fstype} ({point}): persistent only if its "
                               "upper layer is", **on),
                    said("if this is Raspberry Pi OS's overlay file system, turn it off in "
                         "sudo raspi-config"))
    if "ro" in m.options:
        return fail(name, said("{folder} is on {fstype} ({point}), mounted read-only", **on),
                    move)
    return ok(name, said("{folder} is on {fstype} {source}, mounted at {point}",
                         source=m.source, **on))


def check_writable(folder: Path) -> Check:
    """Writes and removes a scratch file, as this user: the kiosk's user must do the same."""
    name = "data folder"
    where = existing(folder)
    try:
        fd, scratch = tempfile.mkstemp(prefix=".dipclock-doctor-", dir=where)
    except OSError as exc:
        return fail(name, said("{user} cannot write to {where}: {error}", user=user_name(),
                               where=str(where), error=str(exc.strerror)),
                    said("give the kiosk's user the folder: sudo chown -R dipclock {where}",
                         where=str(where)))
    try:
        os.write(fd, b"x")
        os.fsync(fd)
    except OSError as exc:
        return fail(name, said("writing in {where} fails: {error}", where=str(where),
                               error=str(exc.strerror)),
                    said("check the SD card: sudo dmesg | grep -i mmc; replace it if errors "
                         "show"))
    finally:
        os.close(fd)
        os.unlink(scratch)
    if where != folder.absolute():
        return ok(name, said("{user} can create {folder} (in {where})", user=user_name(),
                             folder=str(folder), where=str(where)))
    return ok(name, said("{user} can write to {folder}", user=user_name(), folder=str(folder)))


def check_free(folder: Path,
               free_bytes: Callable[[Path], int] = lambda p: shutil.disk_usage(p).free) -> Check:
    name = "free space"
    where = existing(folder)
    try:
        free = free_bytes(where)
    except OSError as exc:
        return warn(name, said("cannot measure the free space in {where}: {error}",
                               where=str(where), error=str(exc.strerror)),
                    said("check the SD card: df -h"))
    room = {"mb": format(free / MB, ",.0f"), "where": str(where)}
    clean = said("free space on the SD card: sudo apt clean; sudo journalctl "
                 "--vacuum-size=50M")
    if free < FAIL_FREE:
        return fail(name, said("only {mb} MB free in {where}: the outbox cannot store presses",
                               **room), clean)
    if free < WARN_FREE:
        return warn(name, said("only {mb} MB free in {where}", **room), clean)
    return ok(name, said("{mb} MB free in {where}", **room))


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (an ``sqlite3.Error``, an ``OSError``) says the disk is full:
    SQLite's SQLITE_FULL, or the file system's ENOSPC under it."""
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc)
    return code == sqlite3.SQLITE_FULL or "disk is full" in text or "No space left" in text


"""Where each partition of the card lies, and a built image read back without mounting it.

Three partitions on an MBR table (the Pi 3's boot ROM reads no GPT):

1. ``DIPCLOCK``, FAT32: the Pi's firmware, Debian's kernel and initramfs, the device trees,
   ``config.txt``, ``cmdline.txt`` and ``dipclock.txt``: the settings any laptop edits.
2. ``dipclock-root``, ext4: the system, read-only after the first boot (a tmpfs overlay on
   top), so a power cut cannot damage it.
3. ``dipclock-data``, ext4: the clock's state (the presses' outbox, the hub's database and
   certificate), small in the image and grown to the end of the card at its first boot.

Each starts on a 4 MiB boundary (an SD card's erase block). The image is as small as its
contents allow, so it fits a card a little smaller than the one it was made for, which a
``dd`` of a whole card never does.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

SECTOR = 512
MIB = 1024 * 1024
ALIGN = 4 * MIB

BOOT_LABEL = "DIPCLOCK"
ROOT_LABEL = "dipclock-root"
DATA_LABEL = "dipclock-data"
FAT32_LBA = 0x0C
LINUX = 0x83


@dataclass(frozen=True)
class Partition:
    """One partition: where it starts and how long it is, in bytes."""

    number: int
    label: str
    kind: int  # the MBR type byte
    start: int
    size: int

    @property
    def end(self) -> int:
        return self.start + self.size


def align(size: int) -> int:
    """``size`` rounded up to the next 4 MiB."""
    return -(-size // ALIGN) * ALIGN


def plan(boot: int, root: int, data: int) -> list[Partition]:
    """The three partitions for filesystems of these sizes (each rounded up to 4 MiB)."""
    parts, at = [], ALIGN
    for number, (label, kind, size) in enumerate(
            ((BOOT_LABEL, FAT32_LBA, boot), (ROOT_LABEL, LINUX, root),
             (DATA_LABEL, LINUX, data)), start=1):
        size = align(size)
        parts.append(Partition(number, label, kind, at, size))
        at += size
    return parts


def image_size(parts: list[Partition]) -> int:
    return parts[-1].end


def sfdisk_script(parts: list[Partition], disk_id: int) -> str:
    """The input for ``sfdisk IMAGE``: a DOS table, the first partition bootable (some USB
    boot code wants one marked so; the Pi's firmware does not mind)."""
    lines = ["label: dos", f"label-id: 0x{disk_id:08x}", "unit: sectors", ""]
    for p in parts:
        boot = ", bootable" if p.number == 1 else ""
        lines.append(f"start={p.start // SECTOR}, size={p.size // SECTOR}, "
                     f"type={p.kind:x}{boot}")
    return "\n".join(lines) + "\n"


class NotACard(ValueError):
    """The file is not a card image as ``plan`` lays one out: says what differs."""


def read_table(image: Path) -> list[tuple[int, int, int]]:
    """The MBR's partitions as (type, start, size) in bytes, empty entries left out."""
    with image.open("rb") as f:
        mbr = f.read(SECTOR)
    if len(mbr) < SECTOR or mbr[510:512] != b"\x55\xaa":
        raise NotACard(f"{image}: no MBR partition table")
    out = []
    for i in range(4):
        entry = mbr[446 + 16 * i: 462 + 16 * i]
        kind = entry[4]
        start, count = struct.unpack("<II", entry[8:16])
        if kind:
            out.append((kind, start * SECTOR, count * SECTOR))
    return out


def _read(image: Path, offset: int, size: int) -> bytes:
    with image.open("rb") as f:
        f.seek(offset)
        return f.read(size)


def fat_label(image: Path, start: int) -> str | None:
    """A FAT32 volume's label from its boot sector, or None if it is no FAT32."""
    boot = _read(image, start, SECTOR)
    if boot[82:90] != b"FAT32   ":
        return None
    return boot[71:82].decode("ascii", "replace").strip()


def ext4_label(image: Path, start: int) -> str | None:
    """An ext2/3/4 volume's label from its superblock, or None if it is none."""
    block = _read(image, start + 1024, 1024)
    if block[56:58] != b"\x53\xef":
        return None
    return block[120:136].split(b"\0")[0].decode("utf-8", "replace")


def ext4_blocks(image: Path, start: int) -> int:
    """The filesystem's size in bytes, as its superblock says (it must fit its partition)."""
    block = _read(image, start + 1024, 1024)
    count_lo, = struct.unpack("<I", block[4:8])
    log_size, = struct.unpack("<I", block[24:28])
    count_hi, = struct.unpack("<I", block[0x150:0x154])
    return ((count_hi << 32) | count_lo) * (1024 << log_size)


def check(image: Path) -> list[Partition]:
    """The image's partitions, checked against the card's layout; NotACard says what is off."""
    table = read_table(image)
    if len(table) != 3:
        raise NotACard(f"{image}: {len(table)} partitions, not the card's 3")
    size = image.stat().st_size
    parts = []
    for number, ((kind, start, length), (label, want)) in enumerate(
            zip(table, ((BOOT_LABEL, FAT32_LBA), (ROOT_LABEL, LINUX), (DATA_LABEL, LINUX)),
                strict=True), start=1):
        where = f"{image} partition {number}"
        if kind != want:
            raise NotACard(f"{where}: type 0x{kind:02x}, not 0x{want:02x}")
        if start % ALIGN or length % ALIGN:
            raise NotACard(f"{where}: not on a 4 MiB boundary")
        if start + length > size:
            raise NotACard(f"{where}: ends past the end of the image")
        got = fat_label(image, start) if kind == FAT32_LBA else ext4_label(image, start)
        if got != label:
            raise NotACard(f"{where}: labelled {got!r}, not {label!r}")
        if kind == LINUX and ext4_blocks(image, start) > length:
            raise NotACard(f"{where}: its filesystem is larger than the partition")
        parts.append(Partition(number, label, kind, start, length))
    for before, after in zip(parts, parts[1:], strict=False):
        if after.start < before.end:
            raise NotACard(f"{image}: partitions {before.number} and {after.number} overlap")
    return parts

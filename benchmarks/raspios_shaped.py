"""An image in Raspberry Pi OS Lite's shape, for ``make card BASE=`` to be proven here.

Raspberry Pi's download servers are out of this machine's reach, so ``make card
BASE=raspios-lite.img.xz`` is proven on an image made the way pi-gen's ``export-image`` makes
Raspberry Pi OS Lite (its ``prerun.sh``, ``04-set-partuuid`` and stage1's files): an MBR
table, a 512 MiB FAT32 ``bootfs`` at 8 MiB, an ext4 ``rootfs`` after it, the root and boot
found by PARTUUID in ``cmdline.txt`` and ``/etc/fstab``, ``resize`` on the command line.
Its contents are the card's Debian Trixie packages layer with the card's own initramfs
settings taken out, so that the base build must put them back (the initramfs files on its
boot partition are the layer's: the base build makes them again and checks that it did).
It is not Raspberry Pi OS: its kernel is Debian's (which boots under qemu ``-M virt``;
Raspberry Pi's does not), it has no Raspberry Pi packages and no first-boot user dialog.
What only the real image can show is in docs/card.md.

    python -m benchmarks.raspios_shaped OUT.img.xz
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from card import build

MIB = 1024 * 1024
ALIGN = 8 * MIB  # pi-gen's
BOOT_SIZE = 512 * MIB
CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID={id}-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait resize\n")  # pi-gen stage1/00-boot-files
FSTAB = """proc            /proc           proc    defaults          0       0
PARTUUID={id}-01  /boot/firmware  vfat    defaults          0       2
PARTUUID={id}-02  /               ext4    defaults,noatime  0       1
"""  # pi-gen stage1/01-sys-tweaks/files/fstab, after export-image/04-set-partuuid
#: The card's own changes in the packages layer (card/files/initramfs, card/files/apt's
#: boot settings), taken out: a base image does not have them.
CARD_ONLY = ("etc/initramfs-tools/scripts/local-bottom/dipclock-overlay",
             "etc/initramfs-tools/conf.d/dipclock-card", "etc/default/raspi-extra-cmdline")


def shaped(layer: Path, out: Path, work: Path) -> None:
    root, boot = work / "root", work / "boot"
    build.run(["cp", "-a", "--reflink=auto", layer, root], timeout=1800)
    for rel in CARD_ONLY:
        (root / rel).unlink(missing_ok=True)
    modules = root / "etc/initramfs-tools/modules"
    modules.write_text("".join(line for line in modules.read_text().splitlines(True)
                               if line.strip() != "overlay"))
    (root / "etc/default/raspi-firmware").write_text("")
    for stamp in (".complete", ".initramfs"):
        (root / stamp).unlink(missing_ok=True)
    shutil.move(root / "boot/firmware", boot)
    (root / "boot/firmware").mkdir()
    disk_id = f"{random.getrandbits(32):08x}"
    (boot / "cmdline.txt").write_text(CMDLINE.format(id=disk_id))
    (root / "etc/fstab").write_text(FSTAB.format(id=disk_id))
    fat, ext = work / "boot.img", work / "root.img"
    build.run(["mkfs.vfat", "-F", "32", "-n", "bootfs", "-C", fat, str(BOOT_SIZE // 1024)])
    build.run(["mcopy", "-s", "-i", fat, *sorted(boot.iterdir()), "::"])
    size, _ = build.du(root)
    root_size = -(-(int(size * 1.2) + 200 * MIB) // ALIGN) * ALIGN  # pi-gen's margin
    build.run(["mke2fs", "-q", "-t", "ext4", "-L", "rootfs", "-d", root, ext,
               f"{root_size // 1024}k"])
    image = work / "raspios-shaped.img"
    with image.open("wb") as f:
        f.truncate(ALIGN + BOOT_SIZE + root_size)
    script = (f"label: dos\nlabel-id: 0x{disk_id}\nunit: sectors\n\n"
              f"start={ALIGN // 512}, size={BOOT_SIZE // 512}, type=c\n"
              f"start={(ALIGN + BOOT_SIZE) // 512}, size={root_size // 512}, type=83\n")
    build.run(["sfdisk", "--quiet", image], stdin=script)
    for src, at in ((fat, ALIGN), (ext, ALIGN + BOOT_SIZE)):
        build.run(["dd", f"if={src}", f"of={image}", "bs=4M", f"seek={at // (4 * MIB)}",
                   "conv=notrunc,sparse", "status=none"])
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        subprocess.run(["xz", "-T2", "-1", "-c", image], stdout=f, check=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.raspios_shaped",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path)
    args = p.parse_args(argv)
    try:
        layer = build.packages_layer()
        with tempfile.TemporaryDirectory(dir=build.CACHE, prefix="shaped-") as tmp:
            shaped(layer, args.out, Path(tmp))
    except (build.BuildError, OSError, subprocess.CalledProcessError) as exc:
        print(f"raspios_shaped: {exc}", file=sys.stderr)
        return 1
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

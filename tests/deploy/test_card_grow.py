"""The card's first boot (``dipclock-card-grow``, run at every boot): the data partition grown
to the end of the card once, the card's identity kept, one restart; a card already grown
left alone, never restarted again. Run by sh for real, every command it calls stood in for
(only the stand-ins are on its PATH, so nothing reaches this machine's disks), ``/sys`` read
from a folder the test writes.

A card grown is left with less than 4 MiB after its data partition (sfdisk aligns the end):
a script that grew it again would restart the card at every boot, for good."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GROW = ROOT / "card/files/root/usr/local/sbin/dipclock-card-grow"
SH, CAT = shutil.which("sh") or "/bin/sh", shutil.which("cat") or "/bin/cat"
#: the image's data partition (card.layout): partition 3 at 964 MiB, 64 MiB, in sectors
START, SIZE = 964 * 2048, 64 * 2048
CARD = 31_116_288  # a 16 GB card's sectors
#: what the script runs that changes something: logged by their stand-ins
ACTIONS = ("sfdisk", "partx", "e2fsck", "resize2fs", "systemd-machine-id-setup", "ssh-keygen",
           "systemctl")


def grow(tmp_path: Path, total: int, fail: str = "") -> tuple[list[str], str]:
    """The script run on a card of ``total`` sectors (``fail``: a command that exits 1):
    the commands it ran that change something, in order, and what it said."""
    sys_dir, stubs, calls = tmp_path / "sys", tmp_path / "bin", tmp_path / "calls"
    part, disk = sys_dir / "class/block/mmcblk0p3", sys_dir / "class/block/mmcblk0"
    for folder in (part, disk, stubs):
        folder.mkdir(parents=True, exist_ok=True)
    for file, value in ((part / "partition", 3), (part / "start", START),
                        (part / "size", SIZE), (disk / "size", total)):
        file.write_text(f"{value}\n")
    scripts = {
        "readlink": 'echo /dev/mmcblk0p3',
        "lsblk": 'echo mmcblk0',
        # /sys from the test's folder, anything else as it is
        "cat": f'case "$1" in /sys/*) exec {CAT} "$FAKE$1" ;; *) exec {CAT} "$@" ;; esac',
        # sfdisk's ", +" read from its input; partx tells "the kernel" the new size
        "sfdisk": 'read -r line; echo "sfdisk $* <$line" >> "$CALLS"',
        "partx": f'echo "partx $*" >> "$CALLS"; '
                 f'echo {total - START} > "$FAKE/sys/class/block/mmcblk0p3/size"',
    }
    for name in ACTIONS:
        scripts.setdefault(name, f'echo "{name} $*" >> "$CALLS"')
    for name, body in scripts.items():
        tail = "; exit 1" if name == fail else ""
        (stubs / name).write_text(f"#!{SH}\n{body}{tail}\n")
        (stubs / name).chmod(0o755)
    calls.write_text("")
    done = subprocess.run([SH, str(GROW)], capture_output=True, text=True, timeout=30,
                          env={"PATH": str(stubs), "FAKE": str(tmp_path), "CALLS": str(calls)})
    assert done.returncode == 0, done.stderr
    return calls.read_text().splitlines(), done.stdout


def test_the_first_boot_grows_the_data_partition_keeps_the_identity_and_restarts_once(
        tmp_path: Path) -> None:
    ran, said = grow(tmp_path, CARD)
    assert ran == [
        "sfdisk --quiet --no-reread --no-tell-kernel -N 3 /dev/mmcblk0 <, +",
        "partx -u -n 3 /dev/mmcblk0",
        "e2fsck -f -p /dev/mmcblk0p3",
        "resize2fs /dev/mmcblk0p3",
        "systemd-machine-id-setup --commit",
        "ssh-keygen -A",
        "systemctl --no-block reboot",
    ]
    grown = (CARD - START) // 2048
    assert said.splitlines() == [
        f"dipclock-card-grow: growing /dev/mmcblk0p3 by {grown - 64} MiB to the end of "
        "/dev/mmcblk0",
        f"dipclock-card-grow: done: {grown} MiB; the card restarts once"]


@pytest.mark.parametrize("after", [0, 2048, 8191], ids=["none", "1MiB", "just-under-4MiB"])
def test_a_card_grown_already_is_left_alone_and_not_restarted(tmp_path: Path,
                                                              after: int) -> None:
    ran, said = grow(tmp_path, START + SIZE + after)
    assert (ran, said) == ([], "")


def test_a_card_whose_identity_cannot_be_kept_still_restarts_grown(tmp_path: Path) -> None:
    """The machine-id is kept at the next boot instead (the initramfs keeps the root
    writable while it is "uninitialized"): the card must not stop half-grown."""
    ran, said = grow(tmp_path, CARD, fail="systemd-machine-id-setup")
    assert ran[-1] == "systemctl --no-block reboot"
    assert "machine-id not kept" in said


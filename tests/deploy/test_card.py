"""The card image's pieces that need no arm64 root (card/): its partition layout made with the
same tools ``make card`` uses and read back without a mount, the Python tag check of the
wheelhouse, the image's files, and the initramfs's overlay decision run for real in sh."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from card import build, layout

ROOT = Path(__file__).resolve().parents[2]
OVERLAY = ROOT / "card/files/initramfs/etc/initramfs-tools/scripts/local-bottom/dipclock-overlay"
TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mke2fs")
need_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs fdisk, dosfstools, mtools, e2fsprogs")


def test_the_plan_starts_each_partition_on_4_mib_and_packs_them() -> None:
    parts = layout.plan(256 * layout.MIB, 700 * layout.MIB + 1, 64 * layout.MIB)
    assert [(p.label, p.kind) for p in parts] == [("DIPCLOCK", 0x0C), ("dipclock-root", 0x83),
                                                 ("dipclock-data", 0x83)]
    assert [p.start // layout.MIB for p in parts] == [4, 260, 964]
    assert parts[1].size == 704 * layout.MIB  # rounded up, never down
    assert layout.image_size(parts) == 1028 * layout.MIB
    script = layout.sfdisk_script(parts, 0xD1BC10C4)
    assert "label-id: 0xd1bc10c4" in script
    assert "start=8192, size=524288, type=c, bootable" in script


@need_tools
def test_an_image_made_as_make_card_makes_it_reads_back(tmp_path: Path) -> None:
    """The same commands as card.build.assemble, on small filesystems, then card.layout.check,
    and the checks that refuse an image that is not one."""
    boot, root, data = tmp_path / "boot", tmp_path / "root", tmp_path / "data"
    for folder in (boot, root, data):
        folder.mkdir()
    (boot / "dipclock.txt").write_text("table = 7\n")
    (root / "etc").mkdir()
    (root / "etc/hostname").write_text("dipclock\n")
    fat, ext, dat = tmp_path / "boot.img", tmp_path / "root.img", tmp_path / "data.img"
    subprocess.run(["mkfs.vfat", "-F", "32", "-n", "DIPCLOCK", "-C", fat, "40960"], check=True,
                   capture_output=True)
    subprocess.run(["mcopy", "-i", fat, boot / "dipclock.txt", "::"], check=True)
    for img, label, src in ((ext, "dipclock-root", root), (dat, "dipclock-data", data)):
        subprocess.run(["mke2fs", "-q", "-t", "ext4", "-L", label, "-d", src, img, "8M"],
                       check=True)
    parts = layout.plan(fat.stat().st_size, ext.stat().st_size, dat.stat().st_size)
    image = tmp_path / "card.img"
    with image.open("wb") as f:
        f.truncate(layout.image_size(parts))
    subprocess.run(["sfdisk", "--quiet", image], input=layout.sfdisk_script(parts, 0x1234),
                   text=True, check=True)
    for part, src in zip(parts, (fat, ext, dat), strict=True):
        subprocess.run(["dd", f"if={src}", f"of={image}", "bs=4M",
                        f"seek={part.start // layout.ALIGN}", "conv=notrunc", "status=none"],
                       check=True)
    assert layout.check(image) == parts
    # the file a laptop would see on the boot partition
    shown = subprocess.run(["mtype", "-i", f"{image}@@{parts[0].start}", "::dipclock.txt"],
                           capture_output=True, text=True, check=True).stdout
    assert shown == "table = 7\n"

    with image.open("r+b") as f:  # a partition table cut short: the data partition ends
        f.truncate(parts[2].start + 4096)  # past the end of the file
    with pytest.raises(layout.NotACard, match="partition 3: ends past the end of the image"):
        layout.check(image)
    with pytest.raises(layout.NotACard, match="0 partitions, not the card's 3"):
        layout.check(fat)  # a FAT boot sector ends as an MBR does, but holds no table
    with pytest.raises(layout.NotACard, match="no MBR partition table"):
        layout.check(ext)


def test_ext4_and_fat_labels_are_read_from_their_own_places(tmp_path: Path) -> None:
    image = tmp_path / "x.img"
    image.write_bytes(bytes(4096))
    assert layout.fat_label(image, 0) is None and layout.ext4_label(image, 0) is None


@pytest.mark.parametrize(
    ("name", "fits"),
    [("pygame_ce-2.5.5-cp313-cp313-manylinux_2_17_aarch64.manylinux2014_aarch64.whl", True),
     ("pygame_ce-2.5.5-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl", False),
     ("cryptography-46.0.3-cp311-abi3-manylinux_2_34_aarch64.whl", True),
     ("cryptography-46.0.3-cp314-abi3-manylinux_2_34_aarch64.whl", False),
     ("pydantic-2.12.0-py3-none-any.whl", True),
     ("six-1.17.0-py2.py3-none-any.whl", True),
     ("uvloop-0.22.1-cp313-cp313-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", False),
     ("uvloop-0.22.1-cp313-cp313-musllinux_1_1_aarch64.whl", False),
     ("dipclock-0.2.0-py3-none-any.whl", True),
     ("not-a-wheel.tar.gz", False)],
)
def test_the_wheelhouse_must_fit_the_cards_python(name: str, fits: bool) -> None:
    """Trixie's CPython 3.13 cannot take a Bookworm wheelhouse (3.11): the build says so before
    an install half-fails inside the image."""
    assert build.wheel_fits(name, "3.13") is fits


def test_a_wheelhouse_for_another_python_is_refused_by_name(tmp_path: Path) -> None:
    for name in ("dipclock-0.2.0-py3-none-any.whl",
                 "pydantic_core-2.41.5-cp311-cp311-manylinux_2_17_aarch64.whl"):
        (tmp_path / name).write_bytes(b"")
    with pytest.raises(build.BuildError, match=r"1 wheels do not fit the card's CPython 3\.13 "
                       r"on aarch64: pydantic_core-2\.41\.5-cp311"):
        build.wheelhouse("3.13", tmp_path)
    (tmp_path / "dipclock-0.2.0-py3-none-any.whl").unlink()
    with pytest.raises(build.BuildError, match="holds no dipclock wheel"):
        build.wheelhouse("3.13", tmp_path)


def test_the_python_of_a_root_is_read_from_its_link(tmp_path: Path) -> None:
    (tmp_path / "usr/bin").mkdir(parents=True)
    (tmp_path / "usr/bin/python3").symlink_to("python3.13")
    assert build.python_of(tmp_path) == "3.13"


def test_nothing_of_a_machines_identity_stays_in_the_image(tmp_path: Path) -> None:
    for path, text in (("etc/machine-id", "d" * 32 + "\n"), ("etc/hostname", "builder\n"),
                       ("etc/ssh/ssh_host_ed25519_key", "secret"),
                       ("etc/ssh/ssh_host_ed25519_key.pub", "public"),
                       ("etc/ssh/sshd_config", "kept"),
                       ("var/lib/systemd/random-seed", "seed")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    (tmp_path / "var/lib/dbus").mkdir(parents=True)
    (tmp_path / "var/lib/dbus/machine-id").write_text("d" * 32)
    build.forget_identity(tmp_path)
    # "uninitialized": systemd's first boot (ConditionFirstBoot=, and the initramfs keeps the
    # root writable for it)
    assert (tmp_path / "etc/machine-id").read_text() == "uninitialized\n"
    assert os.readlink(tmp_path / "var/lib/dbus/machine-id") == "/etc/machine-id"
    assert sorted(p.name for p in (tmp_path / "etc/ssh").iterdir()) == ["sshd_config"]
    assert not (tmp_path / "var/lib/systemd/random-seed").exists()


def overlay(tmp_path: Path, machine_id: str | None, cmdline: str = "quiet") -> list[str]:
    """The initramfs script run by sh with the initramfs's functions and mount stood in for:
    the mount commands it would run, in order."""
    rootmnt = tmp_path / "root"
    (rootmnt / "etc").mkdir(parents=True, exist_ok=True)
    if machine_id is not None:
        (rootmnt / "etc/machine-id").write_text(machine_id + "\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "calls"
    # klibc's mount, as the initramfs has it: always a device and a directory after the options
    (bin_dir / "mount").write_text(
        '#!/bin/sh\nn=0; skip=0\nfor a in "$@"; do\n'
        '  if [ $skip = 1 ]; then skip=0; continue; fi\n'
        '  case "$a" in -o|-t) skip=1 ;; -*) ;; *) n=$((n + 1)) ;; esac\ndone\n'
        '[ $n = 2 ] || { echo "Usage: mount [-o options] [-t type] device directory" >&2; '
        'exit 1; }\n'
        f'echo "mount $*" >> {calls}\n')
    (bin_dir / "mount").chmod(0o755)
    functions = tmp_path / "functions"
    functions.write_text('log_warning_msg() { echo "warn $*" >> "$CALLS"; }\n'
                         'log_failure_msg() { echo "fail $*" >> "$CALLS"; }\n'
                         'panic() { echo "panic $*" >> "$CALLS"; exit 1; }\n')
    (tmp_path / "cmdline").write_text(cmdline + "\n")
    calls.unlink(missing_ok=True)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "rootmnt": str(rootmnt), "CALLS": str(calls),
           "DIPCLOCK_FUNCTIONS": str(functions), "DIPCLOCK_CMDLINE": str(tmp_path / "cmdline")}
    subprocess.run(["sh", OVERLAY], env=env, check=True, cwd=tmp_path)
    return [line.replace(str(rootmnt), "ROOT") for line in calls.read_text().splitlines()]


def test_the_first_boot_keeps_the_root_writable_then_an_overlay_covers_it(
        tmp_path: Path) -> None:
    writable = ["mount -o remount,rw none ROOT"]
    assert overlay(tmp_path, "uninitialized") == [
        "warn dipclock: the root stays writable (first boot)", *writable]
    assert overlay(tmp_path, None)[1:] == writable  # no machine-id at all
    assert overlay(tmp_path, "abc")[1:] == writable  # not one systemd made
    made = overlay(tmp_path, "0123456789abcdef0123456789abcdef")
    assert made == [
        "mount -o remount,ro none ROOT",
        "mount -o move ROOT /run/dipclock-root/lower",
        "mount -t tmpfs -o mode=0755 dipclock-overlay /run/dipclock-root/rw",
        "mount -t overlay -o lowerdir=/run/dipclock-root/lower,upperdir=/run/dipclock-root/rw/"
        "upper,workdir=/run/dipclock-root/rw/work dipclock-root ROOT"]
    assert overlay(tmp_path, "0123456789abcdef0123456789abcdef",
                   "root=LABEL=dipclock-root dipclock.overlay=no")[1:] == writable


def test_the_units_the_image_enables_name_what_exists() -> None:
    """Every ExecStart= of the card's own units is a file the image carries or the venv has,
    and the drop-ins pick the role the setup writes."""
    files = ROOT / "card/files/root"
    units = files / "etc/systemd/system"
    grow = (units / "dipclock-card-grow.service").read_text()
    assert "ExecStart=/usr/local/sbin/dipclock-card-grow" in grow
    assert os.access(files / "usr/local/sbin/dipclock-card-grow", os.X_OK)
    assert "-m machine.cardsetup" in (units / "dipclock-card-setup.service").read_text()
    for role, service in (("table", "dipclock-kiosk"), ("hub", "dipclock-hub"),
                          ("hub", "dipclock-hubscreen")):
        dropin = (units / f"{service}.service.d/card.conf").read_text()
        assert f"ConditionPathExists=/run/dipclock-card/role-{role}" in dropin
        assert (ROOT / "systemd" / f"{service}.service").exists()
    source = (ROOT / "card/build.py").read_text()
    assert "for unit in dipclock-hub dipclock-hubscreen; do" in source  # installed, enabled
    assert "/var/lib/dipclock" in build.FSTAB and "LABEL=DIPCLOCK" in build.FSTAB


def test_the_cards_partitions_are_waited_for_longer_than_systemds_90_s() -> None:
    """A slow boot (qemu on a busy machine, a slow card reader) finds its partitions late:
    each fstab line the boot waits for says how long, or the card stops in emergency mode."""
    lines = [line.split() for line in build.FSTAB.format(gid=1000).splitlines()
             if line.startswith("LABEL=") and line.split()[1] != "/"]
    assert {fields[1] for fields in lines} == {"/boot/firmware", "/var/lib/dipclock"}
    for fields in lines:
        assert "x-systemd.device-timeout=10min" in fields[3].split(","), fields[1]


def test_a_data_partition_that_cannot_mount_leaves_a_working_table() -> None:
    """nofail: a data partition whose check or mount fails (a first boot's resize cut short)
    must not stop the card in emergency mode, a dark table; the clock and the hub still start
    after its mount (worked or not), never before it, where their state would be hidden."""
    data = next(line.split() for line in build.FSTAB.format(gid=1000).splitlines()
                if line.startswith("LABEL=dipclock-data"))
    assert "nofail" in data[3].split(",")
    assert data[5] == "2"  # still checked (fsck) at every boot
    for service in ("dipclock-kiosk", "dipclock-hub"):
        dropin = (ROOT / f"card/files/root/etc/systemd/system/{service}.service.d/card.conf"
                  ).read_text().splitlines()
        assert "After=var-lib-dipclock.mount" in dropin, service
        assert "Wants=var-lib-dipclock.mount" in dropin, service
        assert not any(line.startswith("Requires") for line in dropin), service


def test_the_card_takes_the_time_from_the_network_when_the_hall_has_it() -> None:
    """No Pi but the 5 has a clock that runs while it is off: with internet, NTP sets it
    (systemd-timesyncd, enabled by name as proot cannot preset it); without, the hub takes
    the TD's phone's time (server/clock.py) and the tables take the hub's."""
    assert "systemd-timesyncd" in build.PACKAGES
    source = (ROOT / "card/build.py").read_text()
    enabled = source[source.index('"systemctl enable '):source.index("systemctl mask")]
    assert "systemd-timesyncd.service" in enabled

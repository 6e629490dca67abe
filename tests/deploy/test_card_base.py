"""``make card BASE=``'s reading of a Raspberry Pi OS Lite image (card.base), on small images
in pi-gen's shape made with the same tools: the partitions found, the files read back
without a mount with their owners, modes and set-user-ID bits, the system recognised, its
first-boot services switched off and its cmdline.txt made the card's."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from card import base, build

TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mke2fs", "debugfs", "xz")
need_tools = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="needs fdisk, dosfstools, mtools, e2fsprogs, xz-utils")
MIB = 1024 * 1024
#: pi-gen's cmdline.txt after export-image, with what Imager's Bookworm settings add
PI_GEN_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 "
                  "rootfstype=ext4 fsck.repair=yes rootwait resize "
                  "init=/usr/lib/raspberrypi-sys-mods/firstboot "
                  "systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot "
                  "systemd.unit=kernel-command-line.target cfg80211.ieee80211_regdom=GB\n")


def elf(machine: int) -> bytes:
    """The first bytes of a 64-bit little-endian ELF file for ``machine``."""
    return b"\x7fELF\x02\x01\x01" + bytes(11) + machine.to_bytes(2, "little") + bytes(44)


def a_root(folder: Path, suite: str = "trixie", python: str = "3.13",
           machine: int = base.AARCH64) -> Path:
    """A small root as Raspberry Pi OS Lite lays its files out."""
    for d in ("etc/ssh", "usr/lib/systemd/system", "usr/bin", "usr/sbin", "home/pi",
              "etc/cloud", "boot/firmware"):
        (folder / d).mkdir(parents=True, exist_ok=True)
    (folder / "usr/lib/os-release").write_text(
        f'PRETTY_NAME="Debian GNU/Linux ({suite})"\nVERSION_CODENAME={suite}\nID=debian\n')
    (folder / "etc/os-release").symlink_to("../usr/lib/os-release")
    (folder / f"usr/bin/python{python}").write_bytes(elf(machine))
    (folder / "usr/bin/python3").symlink_to(f"python{python}")
    sudo = folder / "usr/bin/sudo"
    sudo.write_bytes(elf(machine))
    sudo.chmod(0o4755)
    crontab = folder / "usr/bin/crontab"
    crontab.write_bytes(elf(machine))
    os.chown(crontab, 0, 102)
    crontab.chmod(0o2755)
    os.chown(folder / "home/pi", 1000, 1000)
    (folder / "home/pi").chmod(0o700)
    (folder / "usr/lib/systemd/system/userconfig.service").write_text("[Unit]\n")
    (folder / "usr/lib/systemd/system/rpi-resize.service").write_text("[Unit]\n")
    (folder / "etc/rpi").mkdir(parents=True)
    (folder / "etc/rpi/swap.conf").write_text("[Main]\n#Mechanism=auto\n")
    for tool in base.CARD_TOOLS:
        (folder / tool).parent.mkdir(parents=True, exist_ok=True)
        (folder / tool).write_bytes(elf(machine))
    return folder


def a_boot(folder: Path) -> Path:
    folder.mkdir()
    (folder / "config.txt").write_text("auto_initramfs=1\n[all]\n")
    (folder / "cmdline.txt").write_text(PI_GEN_CMDLINE)
    (folder / "kernel8.img").write_bytes(b"kernel")
    (folder / "initramfs8").write_bytes(b"initramfs")
    (folder / "overlays").mkdir()
    (folder / "overlays/vc4-kms-v3d.dtbo").write_bytes(b"dtbo")
    (folder / "user-data").write_text("#cloud-config\n")
    return folder


def an_image(tmp_path: Path, root: Path, boot: Path, table: str | None = None) -> Path:
    """pi-gen's shape in small: MBR, FAT32 ``bootfs`` at 8 MiB, ext4 ``rootfs`` after it."""
    fat, ext = tmp_path / "boot.fat", tmp_path / "root.ext4"
    subprocess.run(["mkfs.vfat", "-F", "32", "-n", "bootfs", "-C", fat, str(40 * 1024)],
                   check=True, capture_output=True)
    subprocess.run(["mcopy", "-s", "-i", fat, *sorted(boot.iterdir()), "::"], check=True)
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-L", "rootfs", "-d", root, ext, "16M"],
                   check=True)
    image = tmp_path / "raspios.img"
    with image.open("wb") as f:
        f.truncate(8 * MIB + 40 * MIB + 16 * MIB)
    script = table or ("label: dos\nlabel-id: 0x4e639091\nunit: sectors\n\n"
                       f"start={8 * MIB // 512}, size={40 * MIB // 512}, type=c\n"
                       f"start={48 * MIB // 512}, size={16 * MIB // 512}, type=83\n")
    subprocess.run(["sfdisk", "--quiet", image], input=script, text=True, check=True)
    for src, at in ((fat, 8), (ext, 48)):
        subprocess.run(["dd", f"if={src}", f"of={image}", "bs=1M", f"seek={at}",
                        "conv=notrunc", "status=none"], check=True)
    return image


@need_tools
def test_a_raspberry_pi_os_image_is_read_back_whole_without_a_mount(tmp_path: Path) -> None:
    image = an_image(tmp_path, a_root(tmp_path / "src"), a_boot(tmp_path / "bootsrc"))
    packed = tmp_path / "raspios.img.xz"
    subprocess.run(["xz", "-k", "-T1", "-0", image], check=True)
    raw = base.unpack(packed, (tmp_path / "work"))  # the download's form
    assert raw != packed and raw.read_bytes() == image.read_bytes()
    parts = base.partitions(raw)
    assert [(p.start // MIB, p.kind) for p in parts] == [(8, "c"), (48, "83")]
    boot, root = tmp_path / "boot", tmp_path / "root"
    base.extract(raw, parts, boot, root)
    assert (boot / "cmdline.txt").read_text() == PI_GEN_CMDLINE
    assert (boot / "overlays/vc4-kms-v3d.dtbo").read_bytes() == b"dtbo"
    # rdump clears these on its chown: put back from the root's own listing
    assert stat.S_IMODE((root / "usr/bin/sudo").stat().st_mode) == 0o4755
    crontab = (root / "usr/bin/crontab").stat()
    assert stat.S_IMODE(crontab.st_mode) == 0o2755 and crontab.st_gid == 102
    home = (root / "home/pi").stat()
    assert (home.st_uid, home.st_gid, stat.S_IMODE(home.st_mode)) == (1000, 1000, 0o700)
    assert os.readlink(root / "usr/bin/python3") == "python3.13"
    assert base.describe(root) == base.Base("trixie", "3.13", "Debian GNU/Linux (trixie)")
    assert base.missing_tools(root) == []
    assert base.adapt(root) == ["userconfig.service", "rpi-resize.service",
                                "rpi-swap's swap file", "cloud-init"]
    assert "Mechanism=zram" in (root / "etc/rpi/swap.conf.d/80-dipclock-card.conf").read_text()
    assert os.readlink(root / "etc/systemd/system/userconfig.service") == "/dev/null"
    assert (root / "etc/cloud/cloud-init.disabled").exists()
    assert set(base.initramfs_files(boot)) == {"initramfs8"}


@need_tools
@pytest.mark.parametrize(("table", "says"), [
    ("label: gpt\n\nsize=40M, type=linux\nsize=16M, type=linux\n", "not Raspberry Pi OS's"),
    (f"label: dos\n\nstart={8 * MIB // 512}, size={56 * MIB // 512}, type=83\n",
     "not Raspberry Pi OS's"),
])
def test_an_image_of_another_shape_is_refused_saying_so(tmp_path: Path, table: str,
                                                        says: str) -> None:
    image = an_image(tmp_path, a_root(tmp_path / "src"), a_boot(tmp_path / "bootsrc"), table)
    with pytest.raises(base.BaseError, match=says):
        base.partitions(image)
    (tmp_path / "junk.img").write_bytes(b"not an image" * 100)
    with pytest.raises(base.BaseError, match="no partition table"):
        base.partitions(tmp_path / "junk.img")


@pytest.mark.parametrize(("suite", "python", "machine", "says"), [
    ("bookworm", "3.11", base.AARCH64, None),
    ("trixie", "3.13", base.AARCH64, None),
    ("bullseye", "3.9", base.AARCH64, "Bookworm or Trixie"),
    ("bookworm", "3.11", 40, "not 64-bit"),  # Raspberry Pi OS (32-bit), armhf
])
def test_only_64_bit_bookworm_and_trixie_are_built_on(tmp_path: Path, suite: str, python: str,
                                                      machine: int, says: str | None) -> None:
    root = a_root(tmp_path, suite, python, machine)
    if says is None:
        assert base.describe(root) == base.Base(suite, python,
                                                f"Debian GNU/Linux ({suite})")
    else:
        with pytest.raises(base.BaseError, match=says):
            base.describe(root)


def test_cmdline_txt_finds_the_cards_root_and_drops_the_first_boot_hooks() -> None:
    line = base.cmdline(PI_GEN_CMDLINE)
    words = line.split()
    assert line.endswith("\n") and line.count("\n") == 1
    assert words[:2] == ["console=serial0,115200", "console=tty1"]  # the Pi's own, kept
    assert "cfg80211.ieee80211_regdom=GB" in words
    assert "root=LABEL=dipclock-root" in words and "rootwait" in words
    for gone in ("resize", "init=", "systemd.run", "PARTUUID", "kernel-command-line"):
        assert gone not in line, gone
    assert base.cmdline(line) == line  # made the card's once: the same again


def test_a_root_without_the_cards_tools_is_named_by_what_it_lacks(tmp_path: Path) -> None:
    root = a_root(tmp_path)
    (root / "usr/sbin/resize2fs").unlink()
    (root / "usr/bin/ssh-keygen").unlink()
    assert base.missing_tools(root) == ["resize2fs", "ssh-keygen"]


def test_a_base_that_is_not_there_is_one_line_and_no_image(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Never Debian's image in its place: the build stops before any layer is made."""
    monkeypatch.setattr(build, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(build, "LOG", tmp_path / "cache/build.log")
    out = tmp_path / "out.img.xz"
    assert build.main(["--base", str(tmp_path / "raspios.img.xz"), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "raspios.img.xz: no such file" in err[0]
    assert '"ok": false' in captured.out and not out.exists()
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").glob("base-*"))
    (tmp_path / "raspios.zip").write_bytes(b"PK")
    assert build.main(["--base", str(tmp_path / "raspios.zip"), "--out", str(out)]) == 1
    assert "give the .img.xz" in capsys.readouterr().err

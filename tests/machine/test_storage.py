"""The data folder: which filesystem holds it (the kernel's mount table), writable, free space."""

from __future__ import annotations

from pathlib import Path

from machine import storage
from tests.machine.conftest import PI_MOUNTINFO, FakePi


def mounted(pi: FakePi, tmp_path: Path, *lines: str) -> Path:
    """The Pi's mount table plus ``lines`` (``{t}`` stands for tmp_path, a real folder)."""
    return pi.mountinfo(PI_MOUNTINFO + "".join(line.format(t=tmp_path) + "\n" for line in lines))


def test_the_sd_cards_ext4_root_is_persistent(pi: FakePi, tmp_path: Path):
    info = mounted(pi, tmp_path)
    check = storage.check_filesystem(tmp_path / "lib" / "dipclock", info)
    assert check.verdict == "ok"
    assert check.detail == f"{tmp_path}/lib/dipclock is on ext4 /dev/mmcblk0p2, mounted at /"


def test_a_folder_on_tmpfs_fails_presses_would_vanish(pi: FakePi, tmp_path: Path):
    info = mounted(pi, tmp_path, "30 22 0:31 / {t} rw,nosuid - tmpfs tmpfs rw")
    check = storage.check_filesystem(tmp_path / "dipclock", info)
    assert check.verdict == "fail"
    assert "tmpfs" in check.detail and "vanish at a reboot" in check.detail
    assert "/var/lib/dipclock" in check.fix


def test_raspberry_pi_os_overlay_file_system_writes_to_ram_and_fails(pi: FakePi, tmp_path: Path):
    # raspi-config's Overlay File System: the root is an overlay whose upper layer is tmpfs.
    info = pi.mountinfo(
        "20 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro\n"
        "21 1 0:19 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw\n"
        "22 1 0:20 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,"
        "upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir\n")
    check = storage.check_filesystem(tmp_path, info)
    assert check.verdict == "fail"
    assert "overlay" in check.detail and "tmpfs" in check.detail
    assert "raspi-config" in check.fix


def test_an_overlay_whose_upper_layer_is_unknown_warns(pi: FakePi, tmp_path: Path):
    info = pi.mountinfo("22 1 0:20 / / rw - overlay overlay rw,lowerdir=/a,upperdir=/b/up,"
                        "workdir=/b/work\n")
    assert storage.check_filesystem(tmp_path, info).verdict == "warn"


def test_a_read_only_mount_fails(pi: FakePi, tmp_path: Path):
    info = mounted(pi, tmp_path, "40 22 8:1 / {t} ro,relatime - ext4 /dev/sda1 ro")
    check = storage.check_filesystem(tmp_path / "dipclock", info)
    assert check.verdict == "fail" and "read-only" in check.detail


def test_the_deepest_and_latest_mount_holds_a_path_and_spaces_are_unescaped(pi: FakePi):
    info = pi.mountinfo(PI_MOUNTINFO
                        + "41 22 8:1 / /mnt/usb\\040stick rw - vfat /dev/sda1 rw\n"
                        + "42 22 8:2 / /mnt/usb\\040stick rw - ext4 /dev/sdb1 rw\n")
    table = storage.mounts(info)
    m = storage.mount_of("/mnt/usb stick/dipclock", table)
    assert m is not None
    assert (m.point, m.fstype, m.source) == ("/mnt/usb stick", "ext4", "/dev/sdb1")
    assert storage.mount_of("/mnt/usbstick", table).point == "/"  # a prefix is not a parent


def test_this_machines_own_mount_table_holds_the_test_folder(tmp_path: Path):
    table = storage.mounts()
    m = storage.mount_of(str(tmp_path.resolve()), table)
    assert m is not None and m.point in {p.point for p in table}
    assert storage.check_filesystem(tmp_path).detail.startswith(f"{tmp_path} is on {m.fstype}")


def test_a_writable_folder_passes_and_keeps_no_scratch_file(tmp_path: Path):
    check = storage.check_writable(tmp_path)
    assert check.verdict == "ok" and str(tmp_path) in check.detail
    assert list(tmp_path.iterdir()) == []


def test_a_folder_not_made_yet_is_judged_by_the_parent_the_outbox_will_create_it_in(
        tmp_path: Path):
    check = storage.check_writable(tmp_path / "state" / "dipclock")
    assert check.verdict == "ok"
    assert f"can create {tmp_path / 'state' / 'dipclock'} (in {tmp_path})" in check.detail
    assert not (tmp_path / "state").exists()


def test_a_folder_that_is_a_file_fails(tmp_path: Path):
    blocker = tmp_path / "outbox-dir"
    blocker.write_text("not a folder")
    # The outbox would mkdir it and fail; so does the scratch file inside it.
    check = storage.check_writable(blocker)
    assert check.verdict == "fail" and "cannot write" in check.detail


def test_free_space_thresholds(tmp_path: Path):
    def free(n: int):
        return lambda _path: n

    assert storage.check_free(tmp_path, free(2_000 * storage.MB)).verdict == "ok"
    low = storage.check_free(tmp_path, free(60 * storage.MB))
    assert low.verdict == "warn" and "only 60 MB free" in low.detail
    assert storage.check_free(tmp_path, free(5 * storage.MB)).verdict == "fail"


def test_free_space_of_this_machines_folder_is_measured(tmp_path: Path):
    check = storage.check_free(tmp_path)
    assert "MB free in" in check.detail and str(tmp_path) in check.detail

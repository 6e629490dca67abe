"""The Pi installer: its plan in --dry-run on this machine's real paths (nothing changed), and
its files under a throwaway --root."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
#: Where a real run writes; a dry run must leave every one as it found it.
REAL_PATHS = [Path(p) for p in (
    "/etc/dipclock", "/etc/dipclock/kiosk.toml", "/etc/dipclock/td-password",
    "/etc/dipclock/td-password.hash", "/opt/dipclock",
    "/etc/systemd/system/dipclock-kiosk.service", "/etc/systemd/system/dipclock-hub.service",
    "/etc/systemd/system/dipclock-kiosk-failed.service",
    "/etc/systemd/system/multi-user.target.wants/dipclock-kiosk.service",
    "/etc/systemd/system/multi-user.target.wants/dipclock-hub.service",
    "/etc/systemd/system/default.target", "/boot/firmware/cmdline.txt", "/boot/cmdline.txt",
    "/etc/udev/rules.d/75-dipclock-button-box.rules",
)]
RULE = "etc/udev/rules.d/75-dipclock-button-box.rules"


def run(role: str, *options: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DIPCLOCK_TD_PASSWORD", "DIPCLOCK_INSTALL_ARCH")}
    return subprocess.run(["sh", str(INSTALL), role, *options], env=clean | env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def install(role: str, root: Path, *options: str, **env: str) -> subprocess.CompletedProcess[str]:
    return run(role, "--root", str(root), *options, **env)


def snapshot() -> dict[object, object]:
    """The real paths a run writes, and the dipclock user (or its absence)."""
    user = subprocess.run(["getent", "passwd", "dipclock"], capture_output=True, text=True)
    groups = subprocess.run(["id", "-Gn", "dipclock"], capture_output=True, text=True)
    out: dict[object, object] = {"user": user.stdout, "groups": groups.stdout}
    for path in REAL_PATHS:
        try:
            st = path.lstat()
            out[path] = (st.st_mtime_ns, st.st_size)
        except FileNotFoundError:
            out[path] = None
    return out


def apt_line(plan: str) -> list[str]:
    line = next(x for x in plan.splitlines() if "apt packages" in x)
    return line.split(":", 2)[2].split()


def wheelhouse(tmp_path: Path) -> Path:
    """A folder shaped like `make wheelhouse`'s; a dry run only lists it."""
    house = tmp_path / "wheelhouse"
    house.mkdir()
    (house / "dipclock-0.2.0-py3-none-any.whl").touch()
    return house


# --- --dry-run: the real machine's paths, nothing changed ------------------------------------

def test_kiosk_dry_run_prints_the_whole_plan_and_changes_nothing():
    before = snapshot()
    done = run("kiosk", "--dry-run")
    assert done.returncode == 0, done.stderr
    plan = done.stdout
    assert snapshot() == before
    assert "nothing was changed" in plan
    # the extras of its role, from this checkout, into a venv that sees apt's python3-lgpio
    assert f"pip install -q --upgrade {ROOT}[kiosk]" in plan
    assert "python3 -m venv --system-site-packages /opt/dipclock/venv" in plan
    # the libraries pygame-ce's SDL opens for KMS/DRM (tests/deploy/test_sdl.py checks them)
    assert {"python3-venv", "libgbm1", "libdrm2", "libegl1", "libgles2"} <= set(apt_line(plan))
    # lgpio where apt knows it, and a word where it does not (Debian proper)
    assert "python3-lgpio" in apt_line(plan) or "apt does not know python3-lgpio" in plan
    # the device groups this machine has, one usermod; never a unit naming them
    groups = [x for x in plan.splitlines() if x.startswith("dipclock install: groups")][0]
    assert "video" in groups and "input" in groups and "dialout" in groups
    assert "/etc/systemd/system/dipclock-kiosk.service" in plan
    assert "/etc/systemd/system/dipclock-kiosk-failed.service" in plan
    # ModemManager kept off the button box's port
    assert (f"would write /{RULE} (ModemManager leaves the button box's serial port alone)"
            in plan)


def test_hub_dry_run_installs_the_hub_extra_and_no_screen_libraries():
    before = snapshot()
    done = run("hub", "--dry-run", DIPCLOCK_TD_PASSWORD="a long TD secret")
    assert done.returncode == 0, done.stderr
    assert snapshot() == before
    assert f"{ROOT}[hub]" in done.stdout and "[kiosk]" not in done.stdout
    assert "udev" not in done.stdout  # no button box on a hub
    assert "libgbm1" not in apt_line(done.stdout)
    assert "usermod" not in done.stdout


def test_a_wheelhouse_installs_with_no_network(tmp_path):
    house = wheelhouse(tmp_path)
    done = run("kiosk", "--dry-run", "--wheelhouse", str(house))
    assert done.returncode == 0, done.stderr
    assert f"--no-index --find-links {house} dipclock[kiosk]" in done.stdout
    # a newer build of the same version replaces the code pip would call "already satisfied"
    assert (f"--no-index --no-deps --force-reinstall {house}/dipclock-0.2.0-py3-none-any.whl"
            in done.stdout)
    # no index anywhere: not even to upgrade pip
    assert "install -q --upgrade pip" not in done.stdout


def test_32_bit_pi_os_without_a_wheelhouse_gets_what_builds_need(tmp_path):
    """PyPI has no armv7l wheel for pygame-ce: pip builds it against Debian's SDL2."""
    built = apt_line(run("kiosk", "--dry-run", DIPCLOCK_INSTALL_ARCH="armhf").stdout)
    assert {"build-essential", "python3-dev", "libsdl2-dev", "libsdl2-ttf-dev",
            "libfreetype-dev"} <= set(built)
    house = wheelhouse(tmp_path)
    from_house = run("kiosk", "--dry-run", "--wheelhouse", str(house),
                     DIPCLOCK_INSTALL_ARCH="armhf")
    assert "build-essential" not in apt_line(from_house.stdout)
    assert "build-essential" not in apt_line(run("kiosk", "--dry-run").stdout)  # 64-bit: wheels


@pytest.mark.parametrize("house", ["missing", "empty"])
def test_a_wheelhouse_without_dipclock_is_refused_in_one_line(tmp_path, house):
    folder = tmp_path / "house"
    if house == "empty":
        folder.mkdir()
    done = run("kiosk", "--dry-run", "--wheelhouse", str(folder))
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "make wheelhouse" in done.stderr


@pytest.mark.parametrize("args", [["toaster"], ["kiosk", "--bogus"], ["kiosk", "--root"]])
def test_bad_arguments_get_the_usage(args):
    done = subprocess.run(["sh", str(INSTALL), *args], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("usage:")


# --- --root: the files, under a throwaway root ----------------------------------------------

def test_kiosk_install_writes_the_units_and_a_config_it_never_overwrites(tmp_path):
    assert install("kiosk", tmp_path).returncode == 0
    config = tmp_path / "etc/dipclock/kiosk.toml"
    units = tmp_path / "etc/systemd/system"
    assert config.read_text() == (ROOT / "kiosk/kiosk.example.toml").read_text()
    for name in ("dipclock-kiosk.service", "dipclock-kiosk-failed.service"):
        assert (units / name).read_text() == (ROOT / "systemd" / name).read_text()
    assert not (units / "dipclock-hub.service").exists()
    assert (tmp_path / RULE).read_text() == (ROOT / "systemd" / Path(RULE).name).read_text()
    config.write_text('table = 12\n')
    again = install("kiosk", tmp_path)
    assert again.returncode == 0 and "never overwritten" in again.stdout
    assert config.read_text() == "table = 12\n"


def test_install_enables_the_service_for_the_next_boot_where_systemd_is_not_running(tmp_path):
    """A card prepared in a chroot (or --root) boots into the clock: the link `systemctl
    enable` would make, made by hand."""
    done = install("kiosk", tmp_path)
    link = tmp_path / "etc/systemd/system/multi-user.target.wants/dipclock-kiosk.service"
    assert os.readlink(link) == "/etc/systemd/system/dipclock-kiosk.service"
    assert "systemd is not running here" in done.stdout


def test_hub_install_needs_a_password_and_keeps_only_its_hash(tmp_path):
    from machine.passwords import verify_password

    refused = install("hub", tmp_path)
    assert refused.returncode == 2 and "no default" in refused.stderr
    short = install("hub", tmp_path, DIPCLOCK_TD_PASSWORD="short")
    assert short.returncode == 2 and "at least 8 characters" in short.stderr
    done = install("hub", tmp_path, DIPCLOCK_TD_PASSWORD="a long TD secret")
    assert done.returncode == 0, done.stderr
    hashed = tmp_path / "etc/dipclock/td-password.hash"
    assert verify_password("a long TD secret", hashed.read_text().strip())
    assert hashed.stat().st_mode & 0o777 == 0o600
    assert not any(b"a long TD secret" in f.read_bytes()
                   for f in tmp_path.rglob("*") if f.is_file())  # no plaintext anywhere
    unit = (tmp_path / "etc/systemd/system/dipclock-hub.service").read_text()
    assert "--td-password-hash-file /etc/dipclock/td-password.hash" in unit
    assert not (tmp_path / "etc/systemd/system/dipclock-kiosk.service").exists()
    install("hub", tmp_path, DIPCLOCK_TD_PASSWORD="another one")
    assert verify_password("a long TD secret", hashed.read_text().strip())


def test_hub_install_hashes_the_plaintext_an_older_installer_left_then_removes_it(tmp_path):
    from machine.passwords import verify_password

    old = tmp_path / "etc/dipclock/td-password"
    old.parent.mkdir(parents=True)
    old.write_text("seven7!\n")  # chosen before the 8-character rule: kept, as it works
    plan = install("hub", tmp_path, "--dry-run")
    assert "hashed from" in plan.stdout and old.exists()
    done = install("hub", tmp_path)
    assert done.returncode == 0, done.stderr
    assert not old.exists() and "removed" in done.stdout
    hashed = tmp_path / "etc/dipclock/td-password.hash"
    assert verify_password("seven7!", hashed.read_text().strip())


def test_the_hub_takes_the_installers_hash_at_its_first_start(tmp_path):
    from machine.passwords import hash_password, verify_password
    from server.cli import HubError, _parser, prepare
    from server.store import Store

    hashed = tmp_path / "td-password.hash"
    hashed.write_text(hash_password("a long TD secret") + "\n")
    args = _parser().parse_args(["--data", str(tmp_path / "hub"),
                                 "--td-password-hash-file", str(hashed)])
    prepare(args)
    store = Store(tmp_path / "hub" / "hub.sqlite3")
    assert verify_password("a long TD secret", store.meta("td_password_hash") or "")
    store.close()
    hashed.write_text("a long TD secret\n")  # a password, not its hash: refused, one line
    args.data = tmp_path / "other"
    with pytest.raises(HubError, match="not a password hash"):
        prepare(args)


def test_the_example_kiosk_config_is_valid():
    from kiosk.config import load_file

    data = load_file(ROOT / "kiosk/kiosk.example.toml")  # validates; raises on a bad key
    assert "table" not in data and data["buttons"]["hold_seconds"] == 3.0


def test_kiosk_install_stops_the_console_blanking_the_clock_once(tmp_path):
    cmdline = tmp_path / "boot/firmware/cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=tty1 root=PARTUUID=abc rootwait\n")
    assert install("kiosk", tmp_path).returncode == 0
    assert install("kiosk", tmp_path).returncode == 0
    assert cmdline.read_text() == "console=tty1 root=PARTUUID=abc rootwait consoleblank=0\n"


def test_kiosk_install_leaves_a_boot_file_for_the_table_it_never_overwrites(tmp_path):
    from machine.identity import parse_boot_file

    cmdline = tmp_path / "boot/firmware/cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=tty1 root=PARTUUID=abc rootwait\n")
    assert install("kiosk", tmp_path).returncode == 0
    boot_file = tmp_path / "boot/firmware/dipclock.txt"
    template = boot_file.read_text()
    # a template the kiosk reads as saying nothing yet, and as table 7 once a line is uncommented
    assert parse_boot_file(template, boot_file).table is None
    assert parse_boot_file(template.replace("# table = 7", "table = 7"), boot_file).table == 7
    boot_file.write_text("table = 12\n")  # the TD numbered this card
    assert install("kiosk", tmp_path).returncode == 0
    assert boot_file.read_text() == "table = 12\n"


def desktop_root(tmp_path: Path) -> Path:
    """A Raspberry Pi OS with desktop: lightdm enabled as the display manager."""
    units = tmp_path / "etc/systemd/system"
    units.mkdir(parents=True)
    (units / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")
    (units / "default.target").symlink_to("/lib/systemd/system/graphical.target")
    return units


def test_a_desktop_holding_the_display_is_named_with_the_command_to_leave_it(tmp_path):
    units = desktop_root(tmp_path)
    done = install("kiosk", tmp_path)
    assert done.returncode == 0
    assert "a desktop (lightdm.service) holds the display" in done.stdout
    assert "sudo systemctl set-default multi-user.target" in done.stdout
    assert os.readlink(units / "default.target").endswith("graphical.target")


def test_console_flag_boots_to_the_console(tmp_path):
    units = desktop_root(tmp_path)
    assert install("kiosk", tmp_path, "--console").returncode == 0
    assert os.readlink(units / "default.target").endswith("/multi-user.target")
    again = install("kiosk", tmp_path)
    assert "boots to the console: fine" in again.stdout


def test_no_desktop_no_word_about_it(tmp_path):
    done = install("kiosk", tmp_path)
    assert done.returncode == 0 and "holds the display" not in done.stdout
    assert not (tmp_path / "etc/systemd/system/default.target").exists()


def test_the_button_box_rule_is_one_udev_takes_and_tags_only_usb_serial_ports(tmp_path):
    """udev itself reads the rule (``udevadm test`` on a tty of this machine, in a mount
    namespace where /etc/udev/rules.d holds only the rule): it parses, leaves a tty that
    is not a USB serial port alone, and, its match widened to that tty, tags it for
    ModemManager to ignore."""
    ttys = sorted(Path("/sys/class/tty").glob("tty[S0-9]*"))
    if os.geteuid() != 0 or not ttys or not shutil.which("udevadm") or not shutil.which("unshare"):
        pytest.skip("needs root, udevadm, unshare and a tty in /sys/class/tty")
    tty = ttys[0]
    rule = (ROOT / "systemd" / Path(RULE).name).read_text()

    def udev_sees(text: str) -> str:
        rules = tmp_path / "rules.d"
        rules.mkdir(exist_ok=True)
        (rules / Path(RULE).name).write_text(text)
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", 'mount --bind "$1" /etc/udev/rules.d && '
             'exec udevadm test --action=add "$2"', "sh", str(rules), str(tty)],
            capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    seen = udev_sees(rule)
    assert f"Reading rules file: /etc/udev/rules.d/{Path(RULE).name}" in seen
    assert "ID_MM_DEVICE_IGNORE" not in seen
    assert not [line for line in seen.splitlines() if Path(RULE).name in line
                and ("invalid" in line.lower() or "error" in line.lower())]
    widened = rule.replace('KERNEL=="ttyACM[0-9]*|ttyUSB[0-9]*"',
                           f'KERNEL=="ttyACM[0-9]*|ttyUSB[0-9]*|{tty.name}"')
    assert widened != rule
    assert "ID_MM_DEVICE_IGNORE=1" in udev_sees(widened).splitlines()

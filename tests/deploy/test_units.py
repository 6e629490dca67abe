"""The systemd units, read the way systemd reads them: valid, with every device the kiosk needs
left open, a writable working directory, and a kiosk that stops retrying and says why."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "systemd"
KIOSK = "dipclock-kiosk.service"
FAILED = "dipclock-kiosk-failed.service"
HUB = "dipclock-hub.service"
ALL = [KIOSK, FAILED, HUB]
VENV_DIPCLOCK = "/opt/dipclock/venv/bin/dipclock"

#: Options that hide or shut devices (systemd.exec(5), systemd.resource-control(5)). ProtectClock=
#: is one: it implies DeviceAllow=char-rtc, and any DeviceAllow= shuts every other device.
DEVICE_SHUTTERS = {"PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "RootImage",
                   "MountImages", "RootDirectory", "TemporaryFileSystem"}
PATH_OPTIONS = {"InaccessiblePaths", "ReadOnlyPaths", "BindPaths", "BindReadOnlyPaths"}
FALSE = {"no", "false", "0", "off", ""}


def unit(name: str) -> dict[str, dict[str, list[str]]]:
    """section -> key -> every value given, in order (systemd allows a key many times)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = ""
    for raw in (UNITS / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out.setdefault(section, {})
            continue
        key, _, value = line.partition("=")
        out[section].setdefault(key.strip(), []).append(value.strip())
    return out


def one(name: str, section: str, key: str) -> str:
    values = unit(name)[section].get(key, [])
    assert len(values) == 1, f"{name}: [{section}] {key}= given {len(values)} times"
    return values[0]


def dipclock_argv(line: str) -> list[str]:
    """The arguments after `dipclock` in an ExecStart= line ('-' prefix allowed)."""
    argv = shlex.split(line.lstrip("-@:+!"))
    assert argv[0] == VENV_DIPCLOCK, line
    return argv[1:]


@pytest.mark.parametrize("name", ALL)
def test_units_are_valid_for_systemd(name):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package) checks the units"
    out = subprocess.run([analyze, "verify", str(UNITS / name)], capture_output=True, text=True)
    # the venv is not installed on this machine; everything else must be clean
    problems = [line for line in (out.stdout + out.stderr).splitlines()
                if line.strip() and VENV_DIPCLOCK not in line]
    assert problems == []


@pytest.mark.parametrize("name", ALL)
def test_no_unit_names_supplementary_groups(name):
    """A unit naming a group the machine lacks (gpio on Debian) fails to start; the installer
    puts the user in the groups that exist and User= brings them."""
    assert "SupplementaryGroups" not in unit(name)["Service"]
    assert one(name, "Service", "User") == "dipclock"


@pytest.mark.parametrize("name", ALL)
def test_the_working_directory_is_the_services_own_writable_folder(name):
    """lgpio writes its notification pipes into the working directory: it must be one the
    dipclock user may write, which StateDirectory= creates and hands over."""
    assert one(name, "Service", "StateDirectory") == "dipclock"
    assert one(name, "Service", "WorkingDirectory") == "/var/lib/dipclock"


@pytest.mark.parametrize("name", [KIOSK, FAILED])
def test_lgpio_is_told_where_to_write(name):
    assert "LG_WD=/var/lib/dipclock" in unit(name)["Service"]["Environment"]


@pytest.mark.parametrize("name", [KIOSK, FAILED])
def test_kiosk_units_shut_no_device(name):
    """The kiosk needs /dev/dri, /dev/gpiochip*, /dev/input, the box's /dev/ttyACM*, /dev/snd,
    /dev/tty1 and /dev/vchiq; the doctor opens the same ones to check them."""
    service = unit(name)["Service"]
    for key in DEVICE_SHUTTERS & service.keys():
        assert all(v.lower() in FALSE for v in service[key]), f"{name}: {key}={service[key]}"
    for key in PATH_OPTIONS & service.keys():
        paths = " ".join(service[key]).split()
        assert not [p for p in paths if p.lstrip("-+").startswith(("/dev", "/sys", "/run/udev"))]


def test_a_failing_kiosk_stops_after_a_few_tries_and_the_screen_says_why():
    kiosk = unit(KIOSK)
    burst = int(one(KIOSK, "Unit", "StartLimitBurst"))
    interval = int(one(KIOSK, "Unit", "StartLimitIntervalSec"))
    restart_sec = float(one(KIOSK, "Service", "RestartSec"))
    # start limits belong in [Unit]: in [Service] systemd ignores them with a warning
    assert "StartLimitBurst" not in kiosk["Service"]
    assert 2 <= burst <= 10 and restart_sec >= 1
    # a kiosk failing at once must hit the limit: `burst` starts fit in the interval
    assert burst * restart_sec < interval
    assert one(KIOSK, "Unit", "OnFailure") == FAILED
    for stream in ("StandardOutput", "StandardError"):
        assert one(KIOSK, "Service", stream) == "journal+console"

    assert (UNITS / FAILED).is_file()
    assert one(FAILED, "Service", "Type") == "oneshot"
    assert one(FAILED, "Service", "StandardOutput") == "tty"
    assert one(FAILED, "Service", "TTYPath") == "/dev/tty1"
    assert one(FAILED, "Service", "TTYVTDisallocate") == "no"
    text = " ".join(unit(FAILED)["Service"]["ExecStart"])
    assert f"after {burst} tries" in text


def test_the_failure_unit_runs_a_doctor_dipclock_accepts():
    from kiosk.doctor import build_parser

    doctors = [line for line in unit(FAILED)["Service"]["ExecStart"] if VENV_DIPCLOCK in line]
    assert len(doctors) == 1
    argv = dipclock_argv(doctors[0])
    assert argv[0] == "doctor"
    build_parser().parse_args(argv[1:])
    # and the one command a TD types routes to it
    routed = subprocess.run([sys.executable, "-m", "dipclock", "doctor", "--help"],
                            capture_output=True, text=True, cwd=ROOT)
    assert routed.returncode == 0, routed.stderr
    assert "--config" in routed.stdout


def test_the_units_commands_are_ones_dipclock_accepts():
    from kiosk.options import build_parser
    from server.cli import _parser as hub_parser

    for name, parser in ((KIOSK, build_parser()), (HUB, hub_parser())):
        argv = dipclock_argv(one(name, "Service", "ExecStart"))
        assert argv[0] == name.split("-")[1].split(".")[0]  # dipclock kiosk | dipclock hub
        parser.parse_args(argv[1:])


def test_the_hub_starts_after_time_sync_and_sees_no_device():
    hub = unit(HUB)
    assert "time-sync.target" in " ".join(hub["Unit"]["After"]).split()
    assert "time-sync.target" in " ".join(hub["Unit"]["Wants"]).split()
    assert one(HUB, "Service", "PrivateDevices") == "yes"


@pytest.mark.parametrize("name", [KIOSK, HUB])
def test_the_clock_state_stays_readable_under_the_syscall_filter(name):
    """machine.timesync asks adjtimex whether the clock is synchronised; glibc turns that into
    clock_adjtime. ProtectClock= would block both, even read-only."""
    allowed = " ".join(unit(name)["Service"]["SystemCallFilter"]).split()
    assert {"adjtimex", "clock_adjtime"} <= set(allowed)
    assert unit(name)["Service"].get("ProtectClock", ["no"]) == ["no"]


@pytest.mark.parametrize(("name", "most"), [(KIOSK, 3.0), (HUB, 2.0)])
def test_systemd_rates_the_hardening(name, most):
    """systemd's own exposure score (0 safe .. 10 unsafe); HEAD before issue 7 scored 9.2 and
    8.5 (docs/systemd-security.md)."""
    out = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager",
                          str(UNITS / name)], capture_output=True, text=True)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out.stdout + out.stderr)
    assert found, out.stdout + out.stderr
    assert float(found.group(1)) <= most

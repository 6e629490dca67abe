"""The Pi installer and the systemd units, tried out under a scratch root."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"


def install(role: str, root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "DIPCLOCK_TD_PASSWORD"}
    return subprocess.run(["sh", str(INSTALL), role, "--root", str(root)], env=clean | env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_kiosk_install_writes_the_unit_and_a_config_it_never_overwrites(tmp_path):
    assert install("kiosk", tmp_path).returncode == 0
    config = tmp_path / "etc/dipclock/kiosk.toml"
    unit = tmp_path / "etc/systemd/system/dipclock-kiosk.service"
    assert config.read_text() == (ROOT / "kiosk/kiosk.example.toml").read_text()
    assert "dipclock kiosk --config /etc/dipclock/kiosk.toml" in unit.read_text()
    config.write_text('table = 12\n')
    assert install("kiosk", tmp_path).returncode == 0
    assert config.read_text() == "table = 12\n"


def test_hub_install_needs_a_password_and_keeps_it_private(tmp_path):
    refused = install("hub", tmp_path)
    assert refused.returncode == 2 and "no default" in refused.stderr
    assert install("hub", tmp_path, DIPCLOCK_TD_PASSWORD="a long TD secret").returncode == 0
    secret = tmp_path / "etc/dipclock/td-password"
    assert secret.read_text() == "a long TD secret\n"
    assert secret.stat().st_mode & 0o777 == 0o600


def test_unknown_role_is_refused(tmp_path):
    assert install("toaster", tmp_path).returncode == 2


@pytest.mark.parametrize("unit", ["dipclock-kiosk.service", "dipclock-hub.service"])
def test_units_are_valid_for_systemd(unit, tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package) checks the units"
    out = subprocess.run([analyze, "verify", str(ROOT / "systemd" / unit)],
                         capture_output=True, text=True)
    problems = [line for line in (out.stdout + out.stderr).splitlines()
                if line.strip() and "/opt/dipclock/venv/bin/dipclock" not in line]
    assert problems == []


def test_the_units_commands_are_ones_dipclock_accepts():
    from kiosk.cli import build_parser
    from server.cli import _parser as hub_parser

    for unit, parser in (("dipclock-kiosk.service", build_parser()),
                         ("dipclock-hub.service", hub_parser())):
        text = (ROOT / "systemd" / unit).read_text()
        line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
        argv = line.split()[2:]  # after ".../dipclock kiosk|hub"
        parser.parse_args(argv)


def test_the_example_kiosk_config_is_valid():
    from kiosk.config import load_file

    data = load_file(ROOT / "kiosk/kiosk.example.toml")  # validates; raises on a bad key
    assert data["table"] == 3 and data["buttons"]["hold_seconds"] == 3.0


def test_kiosk_install_stops_the_console_blanking_the_clock_once(tmp_path):
    cmdline = tmp_path / "boot/firmware/cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=tty1 root=PARTUUID=abc rootwait\n")
    assert install("kiosk", tmp_path).returncode == 0
    assert install("kiosk", tmp_path).returncode == 0
    assert cmdline.read_text() == "console=tty1 root=PARTUUID=abc rootwait consoleblank=0\n"

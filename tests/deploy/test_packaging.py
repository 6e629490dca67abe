"""Packages by role: a table's Pi installs no hub server stack, the hub no screen library, and
plain `dipclock` (plan, penalty) neither; every kiosk dependency has an aarch64 wheel.

The import checks run the real commands in a subprocess whose `sys.meta_path` refuses the
other roles' packages, so a stray import fails here instead of on a Pi that lacks them.
"""

from __future__ import annotations

import importlib.metadata as metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

import dipclock

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SERVER_STACK = {"fastapi", "uvicorn", "starlette"}
SCREEN = {"pygame", "pygame-ce"}
KIOSK_ONLY = {"pygame", "gpiozero", "serial", "httpx", "websockets", "zeroconf"}

BLOCKER = """
import runpy, sys
blocked = set(sys.argv[1].split(","))
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ImportError(f"{name} is blocked: this role does not install it")
sys.meta_path.insert(0, Refuse())
for name in blocked:  # the block itself works, or the test proves nothing
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"could not block {name}")
if sys.argv[2] == "-m":
    sys.argv = ["dipclock", *sys.argv[4:]]
    runpy.run_module("dipclock", run_name="__main__")
else:
    exec(sys.argv[3])
"""


def run_blocked(blocked: set[str], *args: str, code: str | None = None,
                cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", BLOCKER, ",".join(sorted(blocked))]
    argv += ["-c", code] if code is not None else ["-m", "dipclock", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=120)


def installed_requirements(extra: str | None) -> set[str]:
    """The distributions `dipclock[extra]` (or plain `dipclock`) pulls in directly."""
    names = set()
    for text in metadata.requires("dipclock") or []:
        req = Requirement(text)
        if req.marker is None or (extra and req.marker.evaluate({"extra": extra})):
            names.add(canonicalize_name(req.name))
    return names


# --- (a) the installed metadata -------------------------------------------------------------

def test_the_base_needs_neither_the_server_stack_nor_the_screen():
    assert installed_requirements(None).isdisjoint(SERVER_STACK | SCREEN)


def test_the_kiosk_extra_pulls_no_server_stack():
    kiosk = installed_requirements("kiosk")
    assert "pygame-ce" in kiosk and "gpiozero" in kiosk
    assert kiosk.isdisjoint(SERVER_STACK)


def test_the_hub_extra_pulls_no_screen_library():
    hub = installed_requirements("hub")
    assert "fastapi" in hub and "uvicorn" in hub
    assert hub.isdisjoint(SCREEN | {"gpiozero", "pyserial"})


def test_the_version_is_the_one_pyproject_gives():
    assert dipclock.__version__ == PYPROJECT["project"]["version"]
    assert metadata.version("dipclock") == dipclock.__version__


# --- (b) each role runs with the others' packages absent ------------------------------------

@pytest.mark.parametrize("args", [
    ["events"],
    ["plan", "wdc2006", "--start", "2006-08-04T10:00"],
    ["penalty", "wdc2006", "--late", "30"],
])
def test_plain_dipclock_runs_with_no_role_installed(args):
    done = run_blocked(KIOSK_ONLY | SERVER_STACK, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_a_headless_kiosk_runs_without_the_server_stack(tmp_path):
    config = tmp_path / "kiosk.toml"
    config.write_text("")  # not this machine's /etc/dipclock/kiosk.toml
    outbox = tmp_path / "o.sqlite"
    done = run_blocked(SERVER_STACK, "kiosk", "--config", str(config), "--headless",
                       "--event", "wdc2006", "--start", "10:00", "--run-for", "1",
                       "--outbox", str(outbox), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert outbox.is_file()


def test_the_hub_app_builds_without_the_screen_or_the_buttons():
    code = ("from server.app import create_app\n"
            "import server.cli\n"
            "print(create_app.__name__)\n")
    done = run_blocked({"pygame", "gpiozero", "serial"}, code=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "create_app"


# --- (c) what pip would install on a Pi (PyPI; allowed in CI) -------------------------------

#: Bookworm's glibc is 2.36: a wheel for any manylinux up to 2.36 runs there. pip takes
#: --platform tags literally, so each one is named.
AARCH64 = ["manylinux2014_aarch64", *(f"manylinux_2_{n}_aarch64" for n in range(17, 37))]
ARMV7L = ["linux_armv7l", "manylinux2014_armv7l",
          *(f"manylinux_2_{n}_armv7l" for n in range(17, 37))]


def role_requirements(role: str) -> list[str]:
    project = PYPROJECT["project"]
    return [*project["dependencies"], *project["optional-dependencies"][role]]


def pip_resolve(requirements: list[str], platforms: list[str], tmp_path: Path,
                no_deps: bool = False) -> subprocess.CompletedProcess[str]:
    report = tmp_path / "report.json"
    report.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
            "--quiet", "--report", str(report), "--only-binary=:all:",
            "--python-version", "3.11", "--implementation", "cp",
            "--target", str(tmp_path / "target")]
    for platform in platforms:
        argv += ["--platform", platform]
    if no_deps:
        argv.append("--no-deps")
    return subprocess.run([*argv, *requirements], capture_output=True, text=True, timeout=600)


def resolved_wheels(requirements: list[str], platforms: list[str],
                    tmp_path: Path) -> dict[str, str]:
    done = pip_resolve(requirements, platforms, tmp_path)
    assert done.returncode == 0, f"pip found no wheel set for {platforms}:\n{done.stderr}"
    report = json.loads((tmp_path / "report.json").read_text())
    return {canonicalize_name(item["metadata"]["name"]):
            item["download_info"]["url"].rsplit("/", 1)[-1] for item in report["install"]}


@pytest.mark.parametrize("role", ["kiosk", "hub"])
def test_every_dependency_of_a_role_has_an_aarch64_wheel(role, tmp_path):
    wheels = resolved_wheels(role_requirements(role), AARCH64, tmp_path)
    for name, filename in wheels.items():
        assert filename.endswith(".whl"), f"{name}: {filename}"
        platforms = {tag.platform for tag in parse_wheel_filename(filename)[3]}
        assert platforms == {"any"} or any("aarch64" in p for p in platforms), filename
    if role == "kiosk":
        assert "pygame-ce" in wheels and wheels.keys().isdisjoint(SERVER_STACK)
    else:
        assert "fastapi" in wheels and wheels.keys().isdisjoint(SCREEN)


def lacking_wheels(pins: list[str], platforms: list[str], tmp_path: Path) -> set[str]:
    """The pinned distributions with no wheel for `platforms` (pip names one per run)."""
    lacking: set[str] = set()
    left = list(pins)
    while left:
        done = pip_resolve(left, platforms, tmp_path, no_deps=True)
        if done.returncode == 0:
            break
        found = re.search(r"No matching distribution found for ([A-Za-z0-9._-]+)", done.stderr)
        assert found, done.stderr
        name = canonicalize_name(found.group(1))
        lacking.add(name)
        left = [p for p in left if canonicalize_name(p.split("==")[0]) != name]
    return lacking


#: What the installer builds on 32-bit Pi OS (without a wheelhouse), and so may lack wheels:
#: pygame-ce against Debian's SDL2 (libsdl2-dev...), the hub's uvloop, httptools, PyYAML and
#: cffi (cryptography's; with libffi-dev) with build-essential and python3-dev.
BUILT_ON_ARMV7L = {"kiosk": {"pygame-ce"}, "hub": {"uvloop", "httptools", "pyyaml", "cffi"}}


@pytest.mark.parametrize("role", ["kiosk", "hub"])
def test_32_bit_pis_build_only_what_the_installer_prepares_for(role, tmp_path):
    wheels = resolved_wheels(role_requirements(role), AARCH64, tmp_path)
    pins = [f"{name}=={parse_wheel_filename(f)[1]}" for name, f in wheels.items()]
    lacking = lacking_wheels(pins, ARMV7L, tmp_path)
    assert lacking <= BUILT_ON_ARMV7L[role], lacking
    print(f"\n{role}: no armv7l wheel on PyPI for {sorted(lacking)}")

"""A venue with no internet, today's Raspberry Pi OS included: the wheelhouse says which Python
it serves and the installer checks it against the Pi's before pip runs; the operating system's
packages come from a folder (`make debs`) that apt reads as its only source.

apt runs here in simulation (``-s``) against folders of small packages made with dpkg-deb, with
every proxy pointing at a closed port: anything it tried to fetch would fail. The whole
install from such a folder, on an arm64 root with no network, is ``make bench-pi``'s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
APT_FROM = ROOT / "systemd" / "apt-from.sh"
DEAD = "http://127.0.0.1:9"  # the discard port: nothing listens, every connection refused

sys.path.insert(0, str(ROOT / "scripts"))
import debs  # noqa: E402  (scripts/ is no package: the script's own functions, as it runs them)


def run(*argv: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()
             and not k.startswith("DIPCLOCK_INSTALL")}
    offline = {"http_proxy": DEAD, "https_proxy": DEAD, "HTTP_PROXY": DEAD, "HTTPS_PROXY": DEAD}
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env=clean | offline | env)


def machine() -> tuple[str, str]:
    """This machine's Debian release and architecture, as a debs folder must name them."""
    release = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().split()
                   if "=" in line)
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True,
                          text=True).stdout.strip()
    return release.get("VERSION_CODENAME", "").strip('"'), arch


def package(folder: Path, name: str, depends: str = "") -> Path:
    """A small real .deb (one file under /usr/share/doc), built with dpkg-deb."""
    tree = folder.parent / f"build-{name}"
    (tree / "DEBIAN").mkdir(parents=True)
    (tree / "usr/share/doc" / name).mkdir(parents=True)
    (tree / "usr/share/doc" / name / "README").write_text(f"{name}: a test package\n")
    control = (f"Package: {name}\nVersion: 1.0\nArchitecture: all\nMaintainer: dipclock "
               f"<tests@dipclock.invalid>\nDescription: a package for dipclock's tests\n")
    (tree / "DEBIAN/control").write_text(control + (f"Depends: {depends}\n" if depends else ""))
    deb = folder / f"{name}_1.0_all.deb"
    built = run("dpkg-deb", "--build", "--root-owner-group", tree, deb)
    assert built.returncode == 0, built.stderr
    return deb


def folder_of_debs(tmp_path: Path, suite: str, arch: str) -> Path:
    folder = tmp_path / "debs"
    folder.mkdir()
    package(folder, "dipclock-test-needs", depends="dipclock-test-needed")
    package(folder, "dipclock-test-needed")
    (folder / "Packages").write_text(debs.packages_index(folder))
    (folder / debs.MARKER).write_text(json.dumps({"suite": suite, "arch": arch,
                                                  "packages": [], "not_in_debian": []}))
    return folder


def test_the_installer_names_its_os_packages_for_make_debs():
    kiosk = run("sh", INSTALL, "kiosk", "--print-packages").stdout.splitlines()
    hub = run("sh", INSTALL, "hub", "--print-packages").stdout.splitlines()
    required = kiosk[0].removeprefix("required: ").split()
    assert {"python3", "python3-venv", "libgbm1", "libegl1", "libgl1-mesa-dri"} <= set(required)
    assert "python3-pip" not in required  # the venv's own pip (ensurepip) is enough
    # Trixie renamed the sound library: the first apt knows of the two
    assert kiosk[1] == ("optional: python3-lgpio libasound2t64|libasound2 fonts-noto-core "
                        "fonts-noto-cjk")
    assert hub == ["required: python3 python3-venv", "optional: "]


def test_a_folder_of_debs_is_what_apt_reads_with_no_network(tmp_path):
    folder = folder_of_debs(tmp_path, *machine())
    plan = run("sh", APT_FROM, folder, "-s", "install", "dipclock-test-needs")
    assert plan.returncode == 0, plan.stdout + plan.stderr
    took = [line.split()[1] for line in plan.stdout.splitlines() if line.startswith("Inst ")]
    assert took == ["dipclock-test-needed", "dipclock-test-needs"]  # its dependency from it too
    # a package the folder lacks: apt says so, and fetches nothing from anywhere
    lacking = run("sh", APT_FROM, folder, "-s", "install", "dipclock-test-absent")
    assert lacking.returncode != 0 and "dipclock-test-absent" in lacking.stderr


def test_a_folder_for_another_release_or_machine_is_refused_in_one_line(tmp_path):
    suite, arch = machine()
    folder = folder_of_debs(tmp_path, "buster", arch)
    done = run("sh", INSTALL, "kiosk", "--dry-run", "--debs", folder)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr == (
        f"dipclock install: --debs {folder} holds Debian's buster {arch} packages; this "
        f"machine is {suite} {arch}: make them with `make debs SUITE={suite} DEB_ARCH={arch}`\n")
    plain = tmp_path / "plain"
    plain.mkdir()
    done = run("sh", INSTALL, "kiosk", "--dry-run", "--debs", plain)
    assert done.returncode == 2 and "not a folder `make debs` made" in done.stderr


def wheels(folder: Path, *names: str) -> Path:
    folder.mkdir()
    for name in ("dipclock-0.2.0-py3-none-any.whl", "fastapi-0.115.0-py3-none-any.whl", *names):
        (folder / name).touch()
    return folder


BOOKWORM_ONLY = ("pygame_ce-2.5.8-cp311-cp311-manylinux2014_aarch64.whl",
                 "uvloop-0.23.0-cp311-cp311-manylinux2014_aarch64.whl",
                 "cryptography-50.0.2-cp311-abi3-manylinux_2_34_aarch64.whl")


@pytest.mark.parametrize("python", ["3.13", "3.12"])
def test_a_wheelhouse_for_another_python_is_refused_naming_what_it_lacks(tmp_path, python):
    """Raspberry Pi Imager's default OS is Trixie (Python 3.13): a Bookworm wheelhouse once
    installed nothing there, and the installer blamed the network."""
    house = wheels(tmp_path / "wh", *BOOKWORM_ONLY)
    done = run("sh", INSTALL, "kiosk", "--dry-run", "--wheelhouse", house,
               DIPCLOCK_INSTALL_ARCH="arm64", DIPCLOCK_INSTALL_PYTHON=python)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr == (
        f"dipclock install: --wheelhouse {house} is for CPython 3.11/aarch64; this machine "
        f"runs Python {python} on aarch64: it lacks pygame_ce uvloop. Make it with `make "
        f"wheelhouse ARCH=aarch64` (CPython 3.11 and 3.13) or scripts/wheelhouse.sh --arch "
        f"aarch64 --python {python}\n")  # cryptography's abi3 wheel serves every later Python


def test_a_wheelhouse_for_both_pythons_serves_bookworm_and_trixie(tmp_path):
    house = wheels(tmp_path / "wh", *BOOKWORM_ONLY,
                   "pygame_ce-2.5.8-cp313-cp313-manylinux2014_aarch64.whl",
                   "uvloop-0.23.0-cp313-cp313-manylinux2014_aarch64.whl")
    for python in ("3.11", "3.13"):
        done = run("sh", INSTALL, "kiosk", "--dry-run", "--wheelhouse", house,
                   DIPCLOCK_INSTALL_ARCH="arm64", DIPCLOCK_INSTALL_PYTHON=python)
        assert done.returncode == 0, done.stderr
        assert f"--no-index --find-links {house} dipclock[kiosk]" in done.stdout
    # and a laptop (x86_64) is told this wheelhouse is the Pis'
    done = run("sh", INSTALL, "hub", "--dry-run", "--wheelhouse", house,
               DIPCLOCK_INSTALL_ARCH="amd64", DIPCLOCK_INSTALL_PYTHON="3.11",
               DIPCLOCK_TD_PASSWORD="a long TD secret")
    assert done.returncode == 2 and "this machine runs Python 3.11 on x86_64" in done.stderr

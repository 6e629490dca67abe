"""The screen library a table draws with, checked in the installed files themselves: a Pi
without a desktop draws only through SDL's KMS/DRM driver."""

from __future__ import annotations

import importlib.metadata as metadata
import os
import re
import subprocess
from pathlib import Path

import pytest

from machine import sdl

ROOT = Path(__file__).resolve().parents[2]
#: What SDL's KMS/DRM driver opens at run time (dlopen, so no ELF dependency says so).
KMSDRM_LIBRARIES = ("libgbm.so.1", "libdrm.so.2", "libEGL.so.1", "libGLESv2.so.2")


def test_the_installed_sdl_has_the_kmsdrm_driver():
    drivers = sdl.video_drivers()
    assert sdl.KMSDRM in drivers, drivers
    assert sdl.has_kmsdrm()


def test_the_screen_library_is_pygame_ce_not_pygame():
    """PyPI's `pygame` wheel installs the same `import pygame` with an SDL lacking KMS/DRM
    (`kmsdrm not available`, a black screen on every table)."""
    import pygame

    with pytest.raises(metadata.PackageNotFoundError):
        metadata.distribution("pygame")
    dist = metadata.distribution("pygame-ce")
    files = {Path(dist.locate_file(f)).resolve() for f in dist.files or ()}
    assert Path(pygame.__file__).resolve() in files
    assert getattr(pygame, "IS_CE", False)


def installer_kiosk_packages() -> set[str]:
    plan = subprocess.run(["sh", str(ROOT / "systemd/install.sh"), "kiosk", "--dry-run"],
                          capture_output=True, text=True, env=os.environ.copy())
    assert plan.returncode == 0, plan.stderr
    line = next(x for x in plan.stdout.splitlines() if "apt packages" in x)
    return set(line.split(":", 2)[2].split())


def debian_package_of(soname: str) -> str:
    found = subprocess.run(["dpkg", "-S", f"*/{soname}"], capture_output=True, text=True)
    assert found.returncode == 0, f"no Debian package here provides {soname}: {found.stderr}"
    return found.stdout.splitlines()[0].split(":")[0]


def test_the_installer_installs_what_the_kmsdrm_driver_opens():
    sdl.video_drivers()  # loads pygame's bundled libSDL2
    library = sdl.loaded_sdl()
    assert library is not None
    named = set(re.findall(rb"lib[A-Za-z0-9_]+\.so\.\d+", library.read_bytes()))
    wanted = installer_kiosk_packages()
    for soname in KMSDRM_LIBRARIES:
        assert soname.encode() in named, f"{library.name} no longer opens {soname}"
        assert debian_package_of(soname) in wanted, soname

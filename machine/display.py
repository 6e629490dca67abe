"""The screen: SDL's KMS/DRM driver, the DRM device, a connected connector, no desktop in the way.

Without a desktop the kiosk draws straight to the display through SDL's ``kmsdrm`` driver. It
needs all four: an SDL built with that driver, a ``/dev/dri/card*`` this user may open
read-write, a connector with a screen on it, and no desktop session holding the display (a
compositor or X server owns DRM master and SDL then cannot set a mode).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dipclock.i18n import N_, Said, said
from machine import sdl
from machine.check import Check, fail, ok
from machine.devices import Opener, access, nodes, user_name
from machine.processes import PROC, running

DEV_DRI = Path("/dev/dri")
SYS_DRM = Path("/sys/class/drm")
SYSTEMD_ETC = Path("/etc/systemd/system")

#: Process names (``/proc/PID/comm``, at most 15 characters) of display servers, compositors
#: and display managers that take the display: Raspberry Pi OS's desktops and the usual others.
DESKTOP_PROGRAMS = frozenset({
    "Xorg", "X", "Xwayland", "labwc", "wayfire", "weston", "cage", "lightdm", "gdm", "gdm3",
    "sddm", "gnome-shell", "kwin_wayland", "kwin_x11", "lxsession", "xfce4-session",
})

CONSOLE_FIX = N_("boot to the console: sudo systemctl set-default multi-user.target, then "
                 "reboot")
KMS_FIX = N_("enable the KMS driver (dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt), "
             "then reboot")


@dataclass(frozen=True)
class Connector:
    """One display output, ``HDMI-A-1``, and what the kernel says is plugged into it."""

    name: str
    status: str  # "connected", "disconnected", "unknown"


def connectors(sys_drm: Path = SYS_DRM) -> list[Connector]:
    """Every connector of every card (``card1-HDMI-A-1/status``)."""
    found = []
    for entry in nodes(sys_drm, "card*-*"):
        try:
            status = (entry / "status").read_text().strip()
        except OSError:
            continue
        found.append(Connector(entry.name.split("-", 1)[1], status))
    return found


def desktop_programs(proc: Path = PROC) -> list[str]:
    """Names of running programs that hold the display, each once, sorted."""
    return running(DESKTOP_PROGRAMS, proc)


def display_manager(systemd_etc: Path = SYSTEMD_ETC) -> str | None:
    """The enabled display manager (``lightdm``), which starts a desktop at the next boot."""
    link = systemd_etc / "display-manager.service"
    if not link.is_symlink() and not link.exists():
        return None
    try:
        target = link.readlink() if link.is_symlink() else link
    except OSError:
        return "display-manager"
    return target.name.removesuffix(".service")


def check_driver(drivers: Callable[[], list[str]] = sdl.video_drivers) -> Check:
    name = "display driver"
    try:
        found = drivers()
    except ImportError:
        return fail(name, said("pygame is not installed"),
                    said("install the kiosk: sudo sh systemd/install.sh kiosk"))
    except OSError as exc:
        return fail(name, said("cannot read SDL's video drivers: {error}", error=str(exc)),
                    said("reinstall the kiosk: sudo sh systemd/install.sh kiosk"))
    if sdl.KMSDRM in found:
        return ok(name, said("SDL has kmsdrm: the kiosk draws without a desktop"))
    return fail(name, said("SDL has no kmsdrm driver (only {drivers}): the PyPI pygame wheel?",
                           drivers=", ".join(found) or said("none")),
                said("replace pygame by pygame-ce: pip uninstall pygame; pip install "
                     "pygame-ce"))


def check_device(dev_dri: Path = DEV_DRI, opener: Opener = os.open) -> Check:
    name = "display device"
    cards = nodes(dev_dri, "card*")
    if not cards:
        return fail(name, said("no DRM device in {path}", path=str(dev_dri)), Said(KMS_FIX))
    results = [access(c, opener) for c in cards]
    refused = [a for a in results if a.error is not None]
    if not refused:
        return ok(name, said("{devices} open read-write",
                             devices=", ".join(c.name for c in cards)))
    groups = sorted({a.group for a in refused if a.group})
    what = "; ".join(f"{a.path}: {a.error}" for a in refused)
    group = groups[0] if groups else "video"
    return fail(name, said("{user} cannot open {what}", user=user_name(), what=what),
                said("add the user to the {group} group: sudo usermod -aG {group} {user}",
                     group=group, user=user_name()))


def check_connector(sys_drm: Path = SYS_DRM) -> Check:
    name = "screen"
    found = connectors(sys_drm)
    on = [c.name for c in found if c.status == "connected"]
    if on:
        return ok(name, said("connected to {connectors}", connectors=", ".join(on)))
    if not found:
        return fail(name, said("no display connector in {path}", path=str(sys_drm)),
                    Said(KMS_FIX))
    return fail(name, said("no screen connected ({connectors}: {states})",
                           connectors=", ".join(c.name for c in found),
                           states=", ".join(sorted({c.status for c in found}))),
                said("plug the screen into the Pi's first HDMI port and switch it on"))


def check_desktop(proc: Path = PROC, systemd_etc: Path = SYSTEMD_ETC) -> Check:
    name = "desktop session"
    running = desktop_programs(proc)
    manager = display_manager(systemd_etc)
    if running:
        return fail(name, said("a desktop holds the display ({programs} running)",
                               programs=", ".join(running)), Said(CONSOLE_FIX))
    if manager:
        return fail(name, said("the display manager {manager} is enabled: it takes the "
                               "display at boot", manager=manager), Said(CONSOLE_FIX))
    return ok(name, said("none: the kiosk has the display to itself"))

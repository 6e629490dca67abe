"""Device nodes (``/dev/dri/card0``, ``/dev/gpiochip0``): are they there, may this user open
them read-write, and which group would let it?

The kiosk runs as the ``dipclock`` user; a device it cannot open fails late and quietly (a
black screen, buttons that never press), so the doctor opens each node the way the kiosk
will and names the group to join when that is refused.
"""

from __future__ import annotations

import grp
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: ``os.open``-shaped: tests pass one that refuses, since root may open anything.
Opener = Callable[[str, int], int]


@dataclass(frozen=True)
class Access:
    path: Path
    error: str | None  # None: opened read-write
    group: str | None  # the group owning the node (who may open it)


def nodes(folder: Path, pattern: str) -> list[Path]:
    """The device nodes matching ``pattern`` in ``folder``, in a stable order."""
    try:
        return sorted(folder.glob(pattern))
    except OSError:
        return []


def group_name(path: Path) -> str | None:
    try:
        gid = path.stat().st_gid
    except OSError:
        return None
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def access(path: Path, opener: Opener = os.open) -> Access:
    """Open ``path`` read-write (and close it): what the kiosk's libraries will do."""
    try:
        fd = opener(str(path), os.O_RDWR | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        return Access(path, exc.strerror or str(exc), group_name(path))
    os.close(fd)
    return Access(path, None, group_name(path))


def user_name() -> str:
    """Who is running the doctor: the group advice is for this user."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())

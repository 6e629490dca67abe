"""Which video drivers the SDL that pygame loaded was built with.

A Pi without a desktop draws through SDL's KMS/DRM driver. The PyPI ``pygame`` wheel bundles an
SDL built without it (``kmsdrm not available``, a black screen on every table); ``pygame-ce``
bundles one with it. ``SDL_GetVideoDriver`` lists the drivers compiled in, without opening any
display, so the check works on a build machine, in CI and on a Pi with no screen attached.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

KMSDRM = "kmsdrm"


def loaded_sdl(maps: Path = Path("/proc/self/maps")) -> Path | None:
    """The libSDL2 file this process has mapped (pygame's bundled copy or the system's)."""
    try:
        text = maps.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        path = line.split(maxsplit=5)[-1] if line.count(" ") >= 5 else ""
        name = os.path.basename(path)
        # libSDL2-2.0.so.0 (Debian), libSDL2-2-50d19f93.0.so.0... (a wheel's bundled copy);
        # not libSDL2_ttf and friends
        if name.startswith("libSDL2-") and ".so" in name:
            return Path(path)
    return None


def video_drivers(library: Path | None = None) -> list[str]:
    """The video drivers compiled into ``library`` (default: the SDL pygame uses), lower case,
    in SDL's order of preference. Importing pygame is what loads its SDL, so this does."""
    if library is None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # noqa: F401  (loads the bundled libSDL2 into this process)

        library = loaded_sdl()
        if library is None:
            raise OSError("pygame is imported but no libSDL2 is mapped into this process")
    sdl = ctypes.CDLL(str(library))
    sdl.SDL_GetNumVideoDrivers.restype = ctypes.c_int
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    sdl.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    return [sdl.SDL_GetVideoDriver(i).decode().lower()
            for i in range(sdl.SDL_GetNumVideoDrivers())]


def has_kmsdrm(library: Path | None = None) -> bool:
    return KMSDRM in video_drivers(library)

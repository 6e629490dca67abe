"""The one window or console the kiosk draws on, and why it could not be opened.

Opened before the settings are read, so that even a broken settings file has a screen to be
shown on. When SDL cannot open any display (no DRM device, no permission on /dev/dri, a
desktop holding it) the error becomes ``DisplayUnavailable`` with the fix a TD needs; a mode
the screen refuses becomes a ``Problem`` shown in the display's own mode.
"""

from __future__ import annotations

import os
from typing import Any

from kiosk import state
from kiosk.problems import DisplayUnavailable, Problem

#: SDL says "kmsdrm not available" both when its build lacks the driver and when the driver
#: finds no DRM device it may use: machine.sdl tells the two apart.
_NO_DRIVER_FIX = ("install the kiosk with pygame-ce, whose SDL has the kmsdrm driver "
                  "(sudo sh systemd/install.sh kiosk), then run dipclock doctor")
_NO_DEVICE_FIX = ("connect the screen, enable the KMS driver (dtoverlay=vc4-kms-v3d in "
                  "/boot/firmware/config.txt) and reboot; dipclock doctor says which is missing")
_DISPLAY_FIXES = (
    ("permission", "add the dipclock user to the video and render groups "
                   "(sudo sh systemd/install.sh kiosk does), then reboot"),
)
_DISPLAY_FIX = ("connect the screen before the Pi starts, stop any desktop that holds the "
                "display, and run dipclock doctor on the console")


def _sdl_has(driver: str) -> bool:
    """Whether the SDL pygame loaded was built with ``driver`` (False if it cannot tell)."""
    from machine.sdl import video_drivers

    try:
        return driver.lower() in video_drivers()
    except OSError:
        return False


class Display:
    """The one window or console display, opened before the settings are read so that even
    a broken settings file has a screen to be shown on."""

    def __init__(self, headless: bool) -> None:
        import pygame

        self._pygame = pygame
        self.headless = headless
        self._mode: tuple[tuple[int, int] | None, bool] | None = None
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
        try:
            pygame.display.init()
            pygame.font.init()
        except pygame.error as exc:
            raise self._unavailable(exc) from None
        self.surface: Any = None

    def _unavailable(self, exc: Exception) -> DisplayUnavailable:
        driver = os.environ.get("SDL_VIDEODRIVER") or "the default driver"
        text = str(exc) or type(exc).__name__
        fix = next((f for key, f in _DISPLAY_FIXES if key in text.lower()), _DISPLAY_FIX)
        if "not available" in text.lower():
            fix = _NO_DEVICE_FIX if _sdl_has(driver) else _NO_DRIVER_FIX
        return DisplayUnavailable(f"cannot open the display with {driver}: {text}", fix)

    def use(self, size: tuple[int, int] | None, fullscreen: bool) -> None:
        """Set the mode the settings ask for. A mode the display refuses is a Problem (shown
        on the display's own mode); no mode at all is DisplayUnavailable."""
        pg = self._pygame
        if self._mode == (size, fullscreen) and self.surface is not None:
            return
        try:
            if self.headless:
                self.surface = pg.display.set_mode(size or (800, 480))
            elif fullscreen and size is None:
                self.surface = pg.display.set_mode((0, 0), pg.FULLSCREEN)
            else:
                self.surface = pg.display.set_mode(size or (1280, 720),
                                                   pg.FULLSCREEN if fullscreen else 0)
        except pg.error as exc:
            if size is None:
                raise self._unavailable(exc) from None
            self.use(None, True)  # the display's own mode, to show why
            modes = pg.display.list_modes() or []
            shown = ", ".join(f"{w}x{h}" for w, h in modes[:4]) or "the display's own size"
            raise Problem(f"the display cannot show {size[0]}x{size[1]}: {exc}",
                          f"remove size from kiosk.toml, or set one the screen has: {shown}"
                          ) from None
        self._mode = (size, fullscreen)
        pg.display.set_caption("dipclock")
        pg.mouse.set_visible(False)

    def show(self, frame: state.Frame, painter: Any) -> None:
        from kiosk.draw import render

        render(self.surface, frame.screen, painter)
        self._pygame.display.flip()

    def quit_asked(self) -> bool:
        """Pump the window's events (the OS wants them); True if it was closed."""
        return any(ev.type == self._pygame.QUIT for ev in self._pygame.event.get())

    def close(self) -> None:
        self._pygame.quit()

"""The one window or console the kiosk draws on, and why it could not be opened.

Opened before the settings are read, so that even a broken settings file has a screen to be
shown on. When SDL cannot open any display (no DRM device, no permission on /dev/dri, a
desktop holding it) the error becomes ``DisplayUnavailable`` with the fix a TD needs; a mode
the screen refuses becomes a ``Problem`` shown in the display's own mode.

A screen that is off is neither: a TV switched on after the Pi, or slow to wake, leaves
every connector "disconnected" and SDL's kmsdrm finds nothing to draw on. Exiting then
would use up the unit's start limit in 20 s and leave the table dark until a reboot, so
the display waits instead (``Screens``): it draws nothing, while the kiosk runs on (its hub
session, its buttons, its outbox, on SDL's dummy driver), looks again every
``SCREEN_RECHECK`` seconds, and draws the current frame as soon as a screen is connected.

``rotate`` turns the picture for a screen mounted on its side or upside down: the frame is
drawn on a surface of the upright size (``kiosk.draw.upright_size``) and turned onto the
display's (``kiosk.draw.turn``).

On the console SDL's kmsdrm has no framebuffer of its own: pygame's display surface is a
texture that SDL's first render driver puts on the screen, and that is "opengl" (desktop
GL). A system with only the GLES and EGL libraries (the card: no libOpenGL.so.0 or
libGL.so.1) makes kmsdrm load GLES 2 instead, and the opengl renderer built on it clears
the screen but draws no texture: every flip was black. The console therefore names
``opengles2`` for the display surface (``console_hints``), the API kmsdrm itself falls back
to and a Pi's vc4 is built for.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from dipclock.i18n import N_, Said, said
from kiosk import state
from kiosk.problems import DisplayUnavailable, Problem
from machine.display import SYS_DRM, connectors

log = logging.getLogger(__name__)

#: Seconds between two looks for a screen while none is connected: one small sysfs read per
#: connector (SDL's display is opened only when one says "connected", or cannot say).
SCREEN_RECHECK = 3.0
#: SDL's driver that draws nowhere: events and surfaces work, so the kiosk runs on.
DUMMY = "dummy"

#: SDL says "kmsdrm not available" both when its build lacks the driver and when the driver
#: finds no DRM device it may use: machine.sdl tells the two apart.
_NO_DRIVER_FIX = N_("install the kiosk with pygame-ce, whose SDL has the kmsdrm driver "
                    "(sudo sh systemd/install.sh kiosk), then run dipclock doctor")
_NO_DEVICE_FIX = N_("connect the screen, enable the KMS driver (dtoverlay=vc4-kms-v3d in "
                    "/boot/firmware/config.txt) and reboot; dipclock doctor says which is "
                    "missing")
_DISPLAY_FIXES = (
    ("permission", N_("add the dipclock user to the video and render groups "
                      "(sudo sh systemd/install.sh kiosk does), then reboot")),
)
_DISPLAY_FIX = N_("connect the screen before the Pi starts, stop any desktop that holds the "
                  "display, and run dipclock doctor on the console")


def _sdl_has(driver: str) -> bool:
    """Whether the SDL pygame loaded was built with ``driver`` (False if it cannot tell)."""
    from machine.sdl import video_drivers

    try:
        return driver.lower() in video_drivers()
    except OSError:
        return False


#: SDL's hint (read from the environment) naming the render driver that puts pygame's display
#: surface on a screen with no framebuffer of its own (kmsdrm), and the one the console uses.
FRAMEBUFFER_HINT = "SDL_FRAMEBUFFER_ACCELERATION"
CONSOLE_RENDERER = "opengles2"

ScreenState = Literal["connected", "off", "unsure", "none"]


@dataclass(frozen=True)
class Screens:
    """The kernel's display connectors (``/sys/class/drm/card*-*/status``): is a screen on?

    ``"connected"``: one is; ``"off"``: there are connectors and every one says
    "disconnected" (a TV off or asleep: wait); ``"unsure"``: none says connected but one
    cannot tell ("unknown": composite, some panels: only SDL can say); ``"none"``: the
    kernel names no connector at all (no DRM device: a real failure, as SDL will say).
    """

    sys_drm: Path = SYS_DRM

    def look(self) -> tuple[ScreenState, str]:
        """The state and, for the log, the connectors as the kernel names them."""
        found = connectors(self.sys_drm)
        said = ", ".join(f"{c.name}: {c.status}" for c in found)
        if any(c.status == "connected" for c in found):
            return "connected", ", ".join(c.name for c in found if c.status == "connected")
        if not found:
            return "none", f"no display connector in {self.sys_drm}"
        if all(c.status == "disconnected" for c in found):
            return "off", said
        return "unsure", said


def _on_console(env: Mapping[str, str]) -> bool:
    """Whether SDL will draw on the console (kmsdrm: the unit sets ``SDL_VIDEODRIVER=kmsdrm``;
    or no driver named and no desktop to open a window on)."""
    driver = env.get("SDL_VIDEODRIVER", "").lower()
    return driver == "kmsdrm" or (not driver and sys.platform.startswith("linux")
                                  and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"))


def console_screens(environ: Mapping[str, str] | None = None) -> Screens | None:
    """The connectors to watch when SDL will draw on the console. None in a desktop session
    or with another driver: a window needs no connector."""
    return Screens() if _on_console(os.environ if environ is None else environ) else None


def console_hints(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The SDL hints to set before the display opens: on the console, pygame's display
    surface presented by SDL's ``opengles2`` renderer, not its default "opengl", which draws
    no texture where the desktop GL library is missing (see above). A renderer the
    environment names already is kept; nothing off the console (a window, the dummy)."""
    env = os.environ if environ is None else environ
    if not _on_console(env) or env.get(FRAMEBUFFER_HINT):
        return {}
    return {FRAMEBUFFER_HINT: CONSOLE_RENDERER}


class Display:
    """The one window or console display, opened before the settings are read so that even
    a broken settings file has a screen to be shown on.

    ``canvas`` is what the frame is drawn on (the display's own surface, or an upright one
    turned onto it); ``drawn`` counts the frames that reached the screen; ``waiting`` says
    why nothing is drawn while no screen is connected (None once one is)."""

    def __init__(self, headless: bool, screens: Screens | None = None,
                 mono: Callable[[], float] = time.monotonic,
                 recheck: float = SCREEN_RECHECK) -> None:
        import pygame

        self._pygame = pygame
        self.headless = headless
        self.screens = screens
        self._mono, self._recheck = mono, recheck
        self._mode: tuple[tuple[int, int] | None, bool, int] | None = None
        self._asked: tuple[tuple[int, int] | None, bool, int] | None = None
        self._last: tuple[state.Frame, Any] | None = None
        self._next_look = 0.0
        self.surface: Any = None
        self.canvas: Any = None
        self.rotate = 0
        self.drawn = 0
        self.waiting: str | None = None
        if headless:
            os.environ["SDL_VIDEODRIVER"] = DUMMY
        self._driver = os.environ.get("SDL_VIDEODRIVER")
        os.environ.update(console_hints())
        pygame.font.init()
        seen, said = screens.look() if screens is not None else ("none", "")
        if seen == "off":
            self._wait(said)
            return
        try:
            pygame.display.init()
        except pygame.error as exc:
            if seen != "unsure":
                raise self._unavailable(exc) from None
            self._wait(f"{said}; {exc}")

    # --- waiting for a screen ------------------------------------------------------------

    def _init(self, driver: str | None) -> None:
        """SDL's video with ``driver`` (None: SDL's own choice); raises pygame.error."""
        if driver is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = driver
        self._pygame.display.init()

    def _wait(self, said: str) -> None:
        """No screen to draw on: the dummy driver keeps events and surfaces working, the
        log says once why nothing is drawn."""
        self.waiting = said
        self._next_look = self._mono() + self._recheck
        try:
            self._init(DUMMY)
        finally:
            self._restore()
        log.warning("no screen connected (%s): the clock runs and keeps every press, and "
                    "draws as soon as a screen is connected (it looks every %g s)", said,
                    self._recheck)

    def _restore(self) -> None:
        """Name the kiosk's own driver again, for the next look (SDL read it at init)."""
        if self._driver is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = self._driver

    def look(self) -> bool:
        """While waiting, every ``recheck`` seconds: if a screen is connected now, open the
        display, set the mode asked and draw the last frame on it. True when it just did;
        ``DisplayUnavailable`` when a connected screen cannot be opened (a real failure).
        Cheap to call on every turn of a loop."""
        if self.waiting is None or self._mono() < self._next_look:
            return False
        self._next_look = self._mono() + self._recheck
        seen, said = self.screens.look() if self.screens is not None else ("none", "")
        if seen == "off":
            return False
        pg = self._pygame
        pg.display.quit()
        try:
            self._init(self._driver)
        except pg.error as exc:
            self._init(DUMMY)
            self._restore()
            if seen == "unsure":
                return False
            raise self._unavailable(exc) from None
        log.info("a screen is connected (%s): drawing", said)
        self.waiting = None
        self.surface = self.canvas = None
        self._mode = None
        if self._asked is not None:
            self.use(*self._asked)  # a Problem: the screen refuses the size asked
        if self._last is not None:
            self.show(*self._last)
        return True

    # --- the mode and the frames ---------------------------------------------------------

    def _unavailable(self, exc: Exception) -> DisplayUnavailable:
        driver = self._driver or "the default driver"
        text = str(exc) or type(exc).__name__
        fix = next((f for key, f in _DISPLAY_FIXES if key in text.lower()), _DISPLAY_FIX)
        if "not available" in text.lower():
            fix = _NO_DEVICE_FIX if _sdl_has(driver) else _NO_DRIVER_FIX
        named: Said | str = self._driver or said("the default driver")
        return DisplayUnavailable(said("cannot open the display with {driver}: {error}",
                                       driver=named, error=text), Said(fix))

    def use(self, size: tuple[int, int] | None, fullscreen: bool, rotate: int = 0) -> None:
        """Set the mode the settings ask for (``size`` is the screen's, as it is mounted or
        not: ``rotate`` turns the picture on it). A mode the display refuses is a Problem
        (shown on the display's own mode); no mode at all is DisplayUnavailable. While no
        screen is connected the mode is kept for when one is."""
        from kiosk.draw import upright_size

        pg = self._pygame
        self._asked = (size, fullscreen, rotate)
        if self.waiting is not None:
            return
        if self._mode == self._asked and self.surface is not None:
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
            self.use(None, True, rotate)  # the display's own mode, to show why
            modes = pg.display.list_modes() or []
            raise Problem(N_("the display cannot show {width}x{height}: {error}"), "{fix}",
                          {"width": size[0], "height": size[1], "error": exc,
                           "fix": _size_fix(size, modes)}) from None
        self._mode = self._asked
        self.rotate = rotate
        upright = upright_size(self.surface.get_size(), rotate)
        self.canvas = self.surface if rotate == 0 else pg.Surface(upright)
        pg.display.set_caption("dipclock")
        pg.mouse.set_visible(False)

    @property
    def asked(self) -> tuple[tuple[int, int] | None, bool, int] | None:
        """The mode last asked for (size, fullscreen, rotate), set or kept for a screen to
        come; None before any."""
        return self._asked

    def show(self, frame: state.Frame, painter: Any) -> None:
        """Draw ``frame`` and put it on the screen; while waiting for a screen, keep it for
        when one is connected and draw nothing."""
        from kiosk.draw import render, turn

        self._last = (frame, painter)
        if self.waiting is not None or self.canvas is None:
            return
        render(self.canvas, frame.screen, painter)
        if self.rotate:
            turn(self.canvas, self.rotate, onto=self.surface)
        self._pygame.display.flip()
        self.drawn += 1

    def quit_asked(self) -> bool:
        """Pump the window's events (the OS wants them); True if it was closed."""
        return any(ev.type == self._pygame.QUIT for ev in self._pygame.event.get())

    def close(self) -> None:
        self._pygame.quit()


def _size_fix(size: tuple[int, int], modes: list[tuple[int, int]]) -> Said:
    """What to set instead of a size the screen refused: its portrait twin turned (a TV
    mounted on its side keeps its landscape mode), or a size it has."""
    w, h = size
    if (h, w) in modes:
        turned = f"{h}x{w}"
        return said("set size = \"{size}\" (the screen's own mode) and rotate = 90 (or 270) "
                    "in kiosk.toml to show the clock upright on a screen mounted on its side",
                    size=turned)
    shown = ", ".join(f"{mw}x{mh}" for mw, mh in modes[:4])
    return said("remove size from kiosk.toml, or set one the screen has: {sizes}",
                sizes=shown or said("the display's own size"))

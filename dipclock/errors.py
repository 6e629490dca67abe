"""The root of every error a user of dipclock can meet, as gpiozero's ``GPIOZeroError`` is.

A TD, an operator or a player never sees a traceback: whatever they got wrong (a command-line
option, an event file, a kiosk's settings, a GPIO pin, the hub's data folder) ends as one
``DipclockError`` carrying one clear message that says what is wrong, and where a fix is
known, the fix. Each command's shell (``dipclock``, ``dipclock kiosk``, ``dipclock hub``,
``dipclock doctor``) catches ``DipclockError`` and prints or draws its message; anything else
that escapes is a bug, not a message. Subclasses say who raises it (``EventError``,
``ConfigError``, ...) so a shell can still add the right fix.
"""

from __future__ import annotations


class DipclockError(Exception):
    """An error with one clear message for whoever has to fix it; never a traceback."""


__all__ = ["DipclockError"]

"""Button inputs for the dipclock kiosk: GPIO, a USB-serial button box, the keyboard.

Every source puts :class:`ButtonEvent`s on the one ``queue.Queue`` the kiosk reads; each is
built by the kiosk with that queue, its own settings and an optional ``clock``. Each has
gpiozero's lifecycle (:class:`ButtonSource`): ``close()``, ``closed``, ``with ... as
buttons:``, and :class:`ButtonsClosed` for a source used after it was closed. No pygame or
fastapi here, so this runs headless and under test.
"""

from .events import POWERS, ButtonEvent, ButtonsClosed, ButtonSource
from .gpio import DEFAULT_PINS, GpioButtons
from .hold import PressHoldTracker
from .keyboard import KeyboardButtons
from .serialbox import PROTOCOL_VERSION, SerialButtonBox, parse_line

__all__ = [
    "DEFAULT_PINS",
    "POWERS",
    "PROTOCOL_VERSION",
    "ButtonEvent",
    "ButtonSource",
    "ButtonsClosed",
    "GpioButtons",
    "KeyboardButtons",
    "PressHoldTracker",
    "SerialButtonBox",
    "parse_line",
]

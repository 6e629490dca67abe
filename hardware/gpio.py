"""Seven push buttons on the Pi's GPIO header, through gpiozero.

gpiozero does what it is good at: pull-ups, debouncing (``bounce_time``; the lgpio backend does
it as a real glitch filter) and the hold timer (``hold_time`` / ``when_held``), so a hold shows
while the button is still down without a thread of ours. Deciding press vs hold and stamping
times is :class:`PressHoldTracker`'s, with the injected clock, under one lock because gpiozero
calls back from its edge thread and from each button's hold thread.

Which library drives the pins is gpiozero's "pin factory", chosen by name
(``buttons.pin_factory``; :func:`load_pin_factory`): lgpio on Bookworm (Pi 4 and Pi 5), mock
in tests. gpiozero registers its factories as entry points, so the names and the choices in
an error come from the installed gpiozero, not from a list of ours.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points

from gpiozero import Button
from gpiozero.pins import Factory

from dipclock.errors import DipclockError
from dipclock.i18n import said

from .events import POWERS, ButtonSource, Inbox, post
from .hold import PressHoldTracker

log = logging.getLogger(__name__)

#: BCM numbers, all at the far end of the 40-pin header (physical pins 29-38, grounds at 30, 34
#: and 39) and clear of I2C (2, 3), SPI0 (7-11), UART (14, 15) and the PiTFT-style display pins
#: (17, 18, 22-25, 27). 13/19 are PWM1 and 19/20 are I2S: move them if you add an audio HAT.
DEFAULT_PINS: dict[str, int] = {"A": 5, "E": 6, "F": 13, "G": 19, "I": 26, "R": 16, "T": 20}


#: gpiozero's entry-point group for its pin factories.
FACTORY_GROUP = "gpiozero_pin_factories"


class PinFactoryError(DipclockError):
    """The pin factory named in the settings cannot be had: one line saying why (a
    sentence: the table's screen says it in the card's language)."""


def pin_factory_names() -> list[str]:
    """The pin factories the installed gpiozero offers, by the names the settings use."""
    return sorted(ep.name for ep in entry_points(group=FACTORY_GROUP))


def load_pin_factory(name: str | None) -> Factory | None:
    """The pin factory ``name`` (``"lgpio"``, ``"mock"``, ...), opened; None for None, which
    leaves gpiozero to try its own order at the first button.

    Raises PinFactoryError naming the choices for an unknown name, and the library and its
    complaint when the factory does not load or open (lgpio not reachable from the venv, no
    gpiochip, no pigpio daemon).
    """
    if name is None:
        return None
    found = [ep for ep in entry_points(group=FACTORY_GROUP) if ep.name == name]
    if not found:
        raise PinFactoryError(said("no GPIO pin factory {name}; choose one of {names}",
                                   name=repr(name), names=", ".join(pin_factory_names())))
    try:
        factory_class = found[0].load()
    except ImportError as exc:
        raise PinFactoryError(said("pin factory {name} cannot load its library: {error}",
                                   name=repr(name), error=str(exc))) from None
    try:
        factory: Factory = factory_class()
        return factory
    except Exception as exc:  # each library has its own error class: lgpio.error, OSError, ...
        raise PinFactoryError(said("pin factory {name} cannot open the GPIO: {kind}: {error}",
                                   name=repr(name), kind=type(exc).__name__,
                                   error=str(exc))) from None


def factory_name(factory: Factory) -> str:
    """The settings' name for an open factory (``LGPIOFactory`` -> ``"lgpio"``)."""
    cls = type(factory)
    for ep in entry_points(group=FACTORY_GROUP):
        if ep.value == f"{cls.__module__}:{cls.__qualname__}":
            return ep.name
    return cls.__name__


class GpioButtons(ButtonSource):
    """One gpiozero ``Button`` per power (pull-up, button to GND); ``close()`` (or the end of
    a ``with`` block) gives the pins back."""

    source = "gpio"

    def __init__(
        self,
        pins: Mapping[str, int | str],
        queue: Inbox,
        hold_seconds: float = 3.0,
        bounce_seconds: float = 0.05,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pins`` maps power letters to anything gpiozero takes (5, "GPIO5", "BOARD29").

        ``bounce_seconds`` goes to gpiozero as ``bounce_time`` and is also the shortest push
        counted as a press, so a spike on long wires (or a backend that does not debounce, like
        ``MockFactory``) cannot record orders.
        """
        if not pins:
            raise ValueError("no GPIO pins given")
        letters = [p.upper() for p in pins]
        bad = [p for p in letters if p not in POWERS or len(p) != 1]
        if bad or len(set(letters)) != len(letters):
            raise ValueError(f"pin map keys must be distinct power letters of {POWERS!r}: {bad}")
        self._queue = queue
        self._clock = clock
        self._tracker = PressHoldTracker(self.source, hold_seconds, bounce_seconds)
        self._lock = threading.Lock()
        self._buttons: dict[str, Button] = {}
        try:
            for letter, pin in pins.items():
                power = letter.upper()
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=bounce_seconds or None,
                    hold_time=hold_seconds,
                    hold_repeat=False,
                    pin_factory=pin_factory,
                )
                self._buttons[power] = button
                if button.is_pressed:
                    # Not counted as a push: a down edge we did not see has no trustworthy time.
                    log.warning(
                        "%s button (pin %s) reads pressed at start: stuck or shorted?", power, pin
                    )
                button.when_pressed = self._callback(self._on_down, power)
                button.when_released = self._callback(self._on_up, power)
                button.when_held = self._callback(self._on_held, power)
        except Exception:
            self.close()
            raise

    @property
    def buttons(self) -> dict[str, Button]:
        """The gpiozero ``Button`` of each power; ButtonsClosed once closed."""
        self._check_open()
        return self._buttons

    @staticmethod
    def _callback(method: Callable[[str], None], power: str) -> Callable[[], None]:
        # Zero-argument closure: gpiozero would otherwise pass the device.
        return lambda: method(power)

    def _on_down(self, power: str) -> None:
        with self._lock:
            if not self._closed:
                self._tracker.down(power, self._clock())

    def _on_held(self, power: str) -> None:
        with self._lock:
            if not self._closed:
                event = self._tracker.held(power, self._clock())
                if event is not None:
                    post(self._queue, event)

    def _on_up(self, power: str) -> None:
        with self._lock:
            if not self._closed:
                event = self._tracker.up(power, self._clock())
                if event is not None:
                    post(self._queue, event)

    def close(self) -> None:
        """Release the pins (gpiozero keeps them reserved until closed); again: nothing.

        Takes ~0.1 s per button, and up to ``hold_seconds`` if one is down right then:
        gpiozero joins each button's hold thread, which finishes its current wait first.
        """
        with self._lock:
            self._closed = True
            self._tracker.cancel()
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

"""Seven push buttons on the Pi's GPIO header, through gpiozero.

gpiozero does what it is good at: pull-ups, debouncing (``bounce_time``; the lgpio backend does
it as a real glitch filter) and the hold timer (``hold_time`` / ``when_held``), so a hold shows
while the button is still down without a thread of ours. Deciding press vs hold and stamping
times is :class:`PressHoldTracker`'s, with the injected clock, under one lock because gpiozero
calls back from its edge thread and from each button's hold thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping

from gpiozero import Button
from gpiozero.pins import Factory

from .events import POWERS, ButtonEvent, post
from .hold import PressHoldTracker

log = logging.getLogger(__name__)

#: BCM numbers, all at the far end of the 40-pin header (physical pins 29-38, grounds at 30, 34
#: and 39) and clear of I2C (2, 3), SPI0 (7-11), UART (14, 15) and the PiTFT-style display pins
#: (17, 18, 22-25, 27). 13/19 are PWM1 and 19/20 are I2S: move them if you add an audio HAT.
DEFAULT_PINS: dict[str, int] = {"A": 5, "E": 6, "F": 13, "G": 19, "I": 26, "R": 16, "T": 20}


class GpioButtons:
    """One gpiozero ``Button`` per power (pull-up, button to GND)."""

    source = "gpio"

    def __init__(
        self,
        pins: Mapping[str, int | str],
        queue: queue.Queue[ButtonEvent],
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
        self._closed = False
        self.buttons: dict[str, Button] = {}
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
                self.buttons[power] = button
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
        """Release the pins (gpiozero keeps them reserved until closed).

        Takes ~0.1 s per button, and up to ``hold_seconds`` if one is down right then:
        gpiozero joins each button's hold thread, which finishes its current wait first.
        """
        with self._lock:
            self._closed = True
            self._tracker.cancel()
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()

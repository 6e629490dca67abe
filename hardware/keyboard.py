"""Keys A E F G I R T as the seven buttons, for a laptop kiosk.

The kiosk owns the window and its event loop (pygame), so this module never imports it: the
kiosk forwards key-down/key-up with a monotonic time and calls :meth:`KeyboardButtons.poll` once
per frame so a hold shows while the key is still down. Timing is :class:`PressHoldTracker`'s.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .events import POWERS, ButtonSource, Inbox, post
from .hold import PressHoldTracker


class KeyboardButtons(ButtonSource):
    """Press/hold from key events; not a thread, the kiosk drives it. Closed, it forgets the
    keys down and refuses key events (ButtonsClosed): the window that sent them is gone."""

    source = "keyboard"

    def __init__(
        self,
        queue: Inbox,
        hold_seconds: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._queue = queue
        self._clock = clock
        self._tracker = PressHoldTracker(self.source, hold_seconds)
        self._lock = threading.Lock()  # cheap insurance if the kiosk polls from a timer thread

    @staticmethod
    def _power(letter: str) -> str | None:
        p = letter.upper()
        return p if len(p) == 1 and p in POWERS else None

    def key_down(self, letter: str, at: float | None = None) -> bool:
        """A key went down (``at`` defaults to now). False if it is not a power's key.

        Auto-repeat downs of a key already down are ignored, so key repeat is harmless.
        """
        power = self._power(letter)
        if power is None:
            return False
        with self._lock:
            self._check_open()
            self._tracker.down(power, self._clock() if at is None else at)
        return True

    def key_up(self, letter: str, at: float | None = None) -> bool:
        """A key went up: emits the press (or a hold nobody polled for yet). False if not ours."""
        power = self._power(letter)
        if power is None:
            return False
        with self._lock:
            self._check_open()
            event = self._tracker.up(power, self._clock() if at is None else at)
            if event is not None:
                post(self._queue, event)
        return True

    def poll(self, now: float | None = None) -> None:
        """Emit holds for keys down long enough; call every frame or so."""
        with self._lock:
            self._check_open()
            for event in self._tracker.poll(self._clock() if now is None else now):
                post(self._queue, event)

    def cancel(self) -> None:
        """Drop keys in progress without events. Call on window focus loss: the key-up will
        never come, and a key 'held' forever must not mark a power out of the game."""
        with self._lock:
            self._check_open()
            self._tracker.cancel()

    def close(self) -> None:
        """Forget the keys down; again: nothing."""
        with self._lock:
            self._closed = True
            self._tracker.cancel()

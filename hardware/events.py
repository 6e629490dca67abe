"""The one event type every button source puts on the kiosk's input queue.

One push of a button yields exactly one event:

* ``press`` -- released before the hold time (3 s). It is emitted on *release*, because only
  then is it known not to be a hold, but ``at`` is the moment the button went *down*: that is
  when the orders went in, and lateness is judged on it.
* ``hold`` -- still down when the hold time is reached. Emitted once, at that moment (``at`` is
  when the hold time was reached); releasing it afterwards emits nothing. The kiosk toggles the
  power out of / back into the game.

Emitting the press at down time was rejected: every hold would then also be a press (or need a
retraction), and a power being marked out must not also record an order submission.
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from types import TracebackType
from typing import Literal, Protocol, Self

from dipclock.errors import DipclockError
from dipclock.powers import LETTERS

#: The seven powers in table order, as one string ("AEFGIRT"): the core's list.
POWERS = "".join(LETTERS)

EventKind = Literal["press", "hold"]
_KINDS = ("press", "hold")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonEvent:
    """A button push, stamped on ``time.monotonic()`` (or the source's injected clock)."""

    power: str  # one letter of "AEFGIRT"
    kind: EventKind  # press = orders in; hold = held 3 s (toggle out of game)
    at: float  # press: when the button went DOWN; hold: when the hold time was reached
    source: str  # "gpio", "serial", "keyboard"

    def __post_init__(self) -> None:
        # Checked here so a bug in any source fails loudly instead of reaching the clock.
        if len(self.power) != 1 or self.power not in POWERS:
            raise ValueError(f"power must be one of {POWERS!r}, not {self.power!r}")
        if self.kind not in _KINDS:
            raise ValueError(f"kind must be 'press' or 'hold', not {self.kind!r}")


class Inbox(Protocol):
    """Where a source puts its events: the kiosk's input queue (``queue.Queue``), which also
    carries the kiosk's own wake-ups, so a source asks only that it takes a ButtonEvent."""

    def put_nowait(self, item: ButtonEvent, /) -> None: ...


def post(q: Inbox, event: ButtonEvent) -> None:
    """Put without blocking: sources run in callback/reader threads that must never stall.

    The kiosk should pass an unbounded queue; if a bounded one is full the event is dropped and
    logged rather than freezing GPIO callbacks or the serial reader.
    """
    try:
        q.put_nowait(event)
    except queue.Full:
        log.error("input queue full, dropped %s", event)


class ButtonsClosed(DipclockError):
    """A button source was used after ``close()`` (as gpiozero's ``GPIODeviceClosed``): its
    pins, port or reader thread are gone, so a press through it would be lost silently."""


class ButtonSource:
    """The lifecycle every button source shares, gpiozero's: ``close()`` releases what the
    source holds (pins, the serial port, the reader thread) and may be called again; ``closed``
    says whether it has been; ``with Source(...) as buttons:`` closes it however the block
    ends. Using a closed source raises :class:`ButtonsClosed`."""

    source = "buttons"  # "gpio", "serial", "keyboard": names it in events and messages
    _closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release what the source holds; calling it again does nothing."""
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise ButtonsClosed(f"the {self.source} buttons are closed: open them again "
                                f"to read presses")

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

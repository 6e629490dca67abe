"""The press/hold rule, in one pure place (no threads, no clock of its own).

Every source turns raw "went down" / "went up" edges into :class:`ButtonEvent`s with this
tracker, so the keyboard and the GPIO buttons cannot disagree on what a press is. The box
firmware applies the same rule in C (see ``buttonbox/buttonbox.ino``).

Rules, per power:

* ``down`` starts a push; a second ``down`` while it is still down is ignored (key repeat,
  a bounce the library let through).
* The hold time is recognised either by :meth:`poll` (keyboard: pure time arithmetic) or by an
  outside timer calling :meth:`held` (GPIO: gpiozero's own ``when_held``). Either way at most one
  ``hold`` per push.
* ``up`` ends the push: a ``press`` stamped with the *down* time, unless the push was held, or
  was shorter than ``min_press_seconds`` (a glitch, not a finger), or never started. A push that
  lasted ``hold_seconds`` but whose hold nobody noticed yet (poll or timer late) is a hold, not a
  press: the duration decides, the timers only make the hold show promptly.

Not thread-safe: callers that get edges from several threads hold a lock around it.
"""

from __future__ import annotations

from .events import POWERS, ButtonEvent


class PressHoldTracker:
    """Turns down/up edges of the seven buttons into press/hold events (returned, not queued)."""

    def __init__(
        self, source: str, hold_seconds: float = 3.0, min_press_seconds: float = 0.0
    ) -> None:
        if hold_seconds <= 0:
            raise ValueError("hold_seconds must be positive")
        if not 0 <= min_press_seconds < hold_seconds:
            raise ValueError("min_press_seconds must be >= 0 and shorter than hold_seconds")
        self.source = source
        self.hold_seconds = hold_seconds
        self.min_press_seconds = min_press_seconds
        self._down_at: dict[str, float] = {}  # pushes in progress: power -> down time
        self._held: set[str] = set()  # pushes in progress whose hold was already emitted

    @staticmethod
    def _check(power: str) -> None:
        if len(power) != 1 or power not in POWERS:
            raise ValueError(f"power must be one of {POWERS!r}, not {power!r}")

    def down(self, power: str, at: float) -> None:
        """The button went down at ``at``; repeated downs of a push are ignored."""
        self._check(power)
        self._down_at.setdefault(power, at)

    def held(self, power: str, at: float) -> ButtonEvent | None:
        """An outside timer says the push reached the hold time; the hold event, once per push."""
        self._check(power)
        if power not in self._down_at or power in self._held:
            return None
        self._held.add(power)
        return ButtonEvent(power, "hold", at, self.source)

    def poll(self, now: float) -> list[ButtonEvent]:
        """Holds for every push down for ``hold_seconds`` by ``now``, stamped when it got there.

        The stamp is ``down + hold_seconds`` rather than ``now`` so it does not depend on how
        often the caller polls.
        """
        events = []
        for power in POWERS:  # table order, so simultaneous holds come out deterministically
            down_at = self._down_at.get(power)
            if down_at is not None and now - down_at >= self.hold_seconds:
                event = self.held(power, down_at + self.hold_seconds)
                if event is not None:
                    events.append(event)
        return events

    def up(self, power: str, at: float) -> ButtonEvent | None:
        """The button went up at ``at``; the event this push still owes, if any."""
        self._check(power)
        down_at = self._down_at.get(power)
        if down_at is None:
            return None
        late_hold = None
        if at - down_at >= self.hold_seconds:
            late_hold = self.held(power, down_at + self.hold_seconds)
        was_held = power in self._held
        del self._down_at[power]
        self._held.discard(power)
        if late_hold is not None:
            return late_hold
        if was_held or at - down_at < self.min_press_seconds:
            return None
        return ButtonEvent(power, "press", down_at, self.source)

    def cancel(self) -> None:
        """Forget every push in progress without emitting anything (e.g. lost key focus)."""
        self._down_at.clear()
        self._held.clear()

"""The kiosk's shell: button events in, the core asked, the screen drawn.

The clock is injected: ``Kiosk`` never calls ``time`` itself but is handed a monotonic
reading and a ``TimeBase`` that turns it into hub time, so tests jump straight to a
deadline. ``run`` is the live loop: it blocks on the input queue until the next second
boundary (or a button, or news from the hub), redraws only when the ``Screen`` changed,
and so sits near idle on a Pi.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

import pygame

from dipclock.events import EventProfile
from dipclock.powers import LETTERS
from dipclock.sync import Slew, from_local, to_local
from dipclock.timeline import Schedule
from hardware.events import ButtonEvent
from kiosk import state
from kiosk.draw import Painter, render
from kiosk.outbox import Outbox, StoredPress
from kiosk.sound import Sounds

_EPS = timedelta(microseconds=500)

#: Put on the input queue by other threads (the hub client) to make the loop redraw now.
WAKE = object()


@dataclass(frozen=True)
class Round:
    """What the table plays: from the options (standalone) or the hub's snapshot."""

    profile: EventProfile
    schedule: Schedule
    table: int | None
    key: str  # the outbox's name for this round at this table
    hub_presses: tuple[StoredPress, ...] = ()
    hub_out: frozenset[str] = frozenset()


def round_key(profile: EventProfile, schedule: Schedule, table: int | None) -> str:
    return f"{profile.id}|{schedule.start.isoformat()}|{table or 0}"


class Source(Protocol):
    """Where the round comes from; the hub client is one, a fixed round another."""

    def current(self) -> Round | None: ...

    def hub_lost(self) -> bool: ...

    def sent(self) -> None:
        """A press was recorded: upload it when possible."""


@dataclass
class FixedRound:
    """Standalone: the round given on the command line, no hub."""

    round: Round

    def current(self) -> Round | None:
        return self.round

    def hub_lost(self) -> bool:
        return False

    def sent(self) -> None:
        pass


class TimeBase(Protocol):
    def local(self, mono: float) -> float:
        """Hub time (local seconds, see dipclock.sync) at monotonic reading ``mono``."""
        ...


class WallTime:
    """Standalone: the machine's wall clock, followed gently so NTP steps don't jolt it.

    Small differences are slewed (dipclock.sync.Slew); a step of a second or more (NTP
    setting the clock after boot) is taken at once, since a wrong minute is worse.
    """

    def __init__(
        self,
        wall: Callable[[], float] = lambda: from_local(datetime.now()),
        mono: Callable[[], float] = time.monotonic,
        shift: float = 0.0,
    ):
        self._wall, self._mono, self.shift = wall, mono, shift
        self._slew = Slew()

    def local(self, mono: float) -> float:
        target = self._wall() - self._mono() + self.shift
        return mono + self._slew.update(target, mono)


@dataclass
class FixedTime:
    """Hub time = monotonic + offset: tests, and screenshots."""

    offset: float = 0.0

    def local(self, mono: float) -> float:
        return mono + self.offset


@dataclass
class Kiosk:
    """One table's kiosk without the window: record presses, say what the screen shows."""

    source: Source
    outbox: Outbox
    timebase: TimeBase
    warning_seconds: float = 120.0
    log: Callable[[str], None] = print
    sounds: Sounds | None = None
    _presses: dict[str, list[StoredPress]] = field(default_factory=dict)
    _last: state.Frame | None = None
    _cache: tuple[object, datetime, datetime, state.Frame] | None = None

    def now(self, mono: float) -> datetime:
        return to_local(self.timebase.local(mono))

    def presses(self, key: str) -> list[StoredPress]:
        """This round's local presses (read from disk once, then kept in memory)."""
        if key not in self._presses:
            self._presses[key] = self.outbox.presses(key)
        return self._presses[key]

    def handle(self, event: ButtonEvent) -> StoredPress:
        """Record a button event durably, then acknowledge it (stdout line, upload)."""
        rnd = self.source.current()
        key = rnd.key if rnd is not None else "unknown"
        at = self.now(event.at)
        known = self.presses(key)  # loaded before the new row, so it is not counted twice
        stored = self.outbox.record(event.power, event.kind, at, key, event.source)
        known.append(stored)
        self.log(f"PRESS {stored.id} {stored.power} {stored.kind} {at.isoformat()}")
        self.source.sent()
        return stored

    def frame(self, mono: float) -> state.Frame:
        """What the screen shows at ``mono``; plays a cue when a stage begins."""
        rnd = self.source.current()
        lost = self.source.hub_lost()
        if rnd is None:
            return state.connecting("", lost)
        now = self.now(mono)
        local = self.presses(rnd.key)
        # The keyboard wakes the loop 20 times a second: reuse the frame while it is right.
        key = (id(rnd), len(local), lost, self.warning_seconds)
        if self._cache is not None:
            cached_key, since, until, cached = self._cache
            if cached_key == key and since <= now <= until:
                return cached
        hub_ids = {p.id for p in rnd.hub_presses}
        mine = [p for p in local if p.id not in hub_ids]
        out = state.out_powers(rnd.hub_out, mine, now, rnd.schedule.start)
        presses = sorted([*rnd.hub_presses, *mine], key=lambda p: p.at)
        fr = state.build(
            rnd.profile, rnd.schedule, now, presses, out, rnd.table,
            self.warning_seconds, lost,
        )
        self._cue(fr)
        self._cache = (key, now, now + timedelta(seconds=fr.valid_for) - _EPS, fr)
        return fr

    def _cue(self, fr: state.Frame) -> None:
        last, self._last = self._last, fr
        if self.sounds is None or last is None or last.view is None or fr.view is None:
            return
        if not 0 <= (fr.view.now - last.view.now).total_seconds() <= 5:
            return  # a jump (restart, resync), not the clock passing a moment
        was, now = last.screen.look, fr.screen.look
        passed = fr.view.previous is not None and (
            last.view.previous is None or fr.view.previous.ref != last.view.previous.ref
        )
        if passed:
            self.sounds.play("deadline")
        elif now == "writing" and was != "writing":
            self.sounds.play("writing")
        elif now == "warning" and was == "negotiating":
            self.sounds.play("warning")


KEYS = {getattr(pygame, f"K_{c.lower()}"): c for c in LETTERS}


def run(
    kiosk: Kiosk,
    surface: pygame.Surface,
    inputs: queue.Queue[object],
    mono: Callable[[], float] = time.monotonic,
    run_for: float | None = None,
    keyboard: object | None = None,
    flip: Callable[[], None] = pygame.display.flip,
    on_screen: Callable[[state.Frame, float], None] | None = None,
) -> int:
    """The live loop; returns when the window is closed or ``run_for`` seconds have passed.

    No busy waiting: between screen changes it blocks on the input queue (SDL's own
    event wait polls every millisecond under the console drivers). Keyboard buttons need
    SDL's events pumped, so with a keyboard the wait is cut to ``PUMP`` seconds.
    ``on_screen(frame, mono)`` is told of every new screen (``--status-file``).
    """
    painter = Painter()
    shown: state.Screen | None = None
    end = None if run_for is None else mono() + run_for
    pump = 0.05 if keyboard is not None else 1.0
    while True:
        now = mono()
        if end is not None and now >= end:
            return 0
        fr = kiosk.frame(now)
        if fr.screen != shown:
            render(surface, fr.screen, painter)
            flip()
            shown = fr.screen
            if on_screen is not None:
                on_screen(fr, now)
        timeout = min(fr.valid_for + 0.002, pump)
        if end is not None:
            timeout = min(timeout, max(0.0, end - now))
        try:
            item = inputs.get(timeout=timeout)
            while True:
                if isinstance(item, ButtonEvent):
                    kiosk.handle(item)
                item = inputs.get_nowait()
        except queue.Empty:
            pass
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                return 0
            if keyboard is not None and ev.type == pygame.WINDOWFOCUSLOST:
                keyboard.cancel()  # type: ignore[attr-defined]  # a key up we'd never see
            if keyboard is not None and ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                letter = KEYS.get(ev.key)
                if letter is not None:
                    if ev.type == pygame.KEYDOWN:
                        keyboard.key_down(letter, mono())  # type: ignore[attr-defined]
                    else:
                        keyboard.key_up(letter, mono())  # type: ignore[attr-defined]
        if keyboard is not None:
            keyboard.poll(mono())  # type: ignore[attr-defined]

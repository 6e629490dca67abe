"""``--status-file PATH``: what the screen shows, as JSON, rewritten on every screen change.

For the TD debugging a table over SSH and for tests that run a real kiosk process: the
fields of ``kiosk.state.Screen`` (``look``, ``phase``, ``big``, ``hub_lost``, ``chips``,
``sheet`` at game over: its ``lines`` each with its ``state``, ...)
plus ``stage`` and ``phase_code`` from ``dipclock.phaseview.view`` ("connecting" and None
before the first snapshot), ``remaining`` (s), ``hub_time`` (the hub time the screen was
drawn for, POSIX seconds) with the ``mono`` reading (``time.monotonic()``) it belongs to,
``sync`` (the last ``{"offset", "rtt"}`` reported to the hub, or None) and ``written``
(a counter). The file is replaced atomically (written beside it, then renamed), so a
reader never sees half of it; it is not fsynced, being only a view.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.state import Frame

log = logging.getLogger(__name__)


class StatusFile:
    def __init__(
        self,
        path: str | Path,
        hub_time: Callable[[float], float],
        sync: Callable[[], tuple[float, float] | None] = lambda: None,
    ):
        self.path = Path(path)
        self._tmp = self.path.with_name(self.path.name + ".tmp")
        self._hub_time, self._sync = hub_time, sync
        self.written = 0

    def content(self, frame: Frame, mono: float) -> dict[str, Any]:
        v = frame.view
        sync = self._sync()
        return dataclasses.asdict(frame.screen) | {
            "heading": frame.screen.heading,
            "stage": v.stage if v is not None else frame.screen.look,
            "phase_code": v.phase.code if v is not None and v.phase is not None else None,
            "remaining": round(v.remaining, 3) if v is not None else None,
            "hub_time": self._hub_time(mono),
            "mono": mono,
            "sync": None if sync is None else {"offset": sync[0], "rtt": sync[1]},
            "written": self.written + 1,
        }

    def __call__(self, frame: Frame, mono: float) -> None:
        data = self.content(frame, mono)
        self.written += 1
        try:
            self._tmp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(self._tmp, self.path)
        except OSError as exc:  # a debugging aid must never stop the clock
            log.warning("status file %s: %s", self.path, exc)

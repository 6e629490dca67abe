"""Shared fixtures: a kiosk on a fake clock, headless pygame."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from datetime import datetime  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from dipclock.events import BUILTIN  # noqa: E402
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds  # noqa: E402
from hardware.events import ButtonEvent  # noqa: E402
from kiosk.app import FixedRound, Kiosk  # noqa: E402
from kiosk.outbox import Outbox  # noqa: E402
from kiosk.round import Round, round_key  # noqa: E402
from tests.doubles import FixedTime  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


@dataclass
class Table:
    """A kiosk whose monotonic clock the test moves: ``mono`` seconds since boot."""

    kiosk: Kiosk
    outbox: Outbox
    mono: float = 1000.0

    def at(self, moment: datetime) -> float:
        """Jump the fake monotonic clock to a hub-time moment."""
        self.mono = to_seconds(moment) - self.kiosk.timebase.offset  # type: ignore[attr-defined]
        return self.mono

    def screen(self, moment: datetime | None = None):  # noqa: ANN201
        if moment is not None:
            self.at(moment)
        return self.kiosk.frame(self.mono).screen

    def press(self, power: str, moment: datetime, kind: str = "press", source: str = "test"):  # noqa: ANN201
        self.at(moment)
        return self.kiosk.handle(ButtonEvent(power, kind, self.mono, source))  # type: ignore[arg-type]


def make_table(
    tmp_path: Path, event: str = "wdc2019", start: str = "2019-09-06T10:00", **schedule: object
) -> Table:
    profile = BUILTIN[event]
    sched = Schedule(start=datetime.fromisoformat(start), **schedule)  # type: ignore[arg-type]
    rnd = Round(profile, sched, 3, round_key(profile, sched, 3))
    outbox = Outbox(tmp_path / "outbox.sqlite")
    start_mono = 1000.0
    offset = to_seconds(sched.start) - 600 - start_mono  # the kiosk booted 10 min early
    kiosk = Kiosk(FixedRound(rnd), outbox, FixedTime(offset), log=lambda line: None)
    return Table(kiosk, outbox)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = make_table(tmp_path)
    yield t
    t.outbox.close()

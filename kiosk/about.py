"""What a kiosk says about itself: to the hub (the TD's grid) and on its own screen.

``About`` is the ``kiosk`` block of every status report (contract 1: id, version, uptime,
button inputs, pin factory, box, power, clock), so the TD sees from the phone which card has
an old version, a box unplugged or a weak power supply. ``alerts`` are the shell's short
lines for the screen: the box unplugged, another kiosk claiming this table, presses kept in
memory only (the card's data partition did not mount: it is ``nofail``, so the table still
counts, and says so).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from dipclock import __version__
from dipclock.i18n import N_, Said, said
from kiosk.outbox import Outbox
from machine import power, storage, timesync

BOX_UNPLUGGED = N_("Button box unplugged")
IN_MEMORY = N_("Presses kept in memory only: a power cut loses them (dipclock doctor)")
#: How often the data folder's filesystem is looked at again (a card's mounts rarely change)
STORAGE_EVERY = 60.0
Input = Literal["gpio", "serial", "keyboard"]


class Box(Protocol):
    @property
    def connected(self) -> bool: ...


class Hub(Protocol):
    def trusted(self) -> bool: ...

    def others(self) -> tuple[str, ...]: ...


def kiosk_id(outbox: Outbox) -> str:
    """This card's id, drawn once and kept in the outbox: stable across restarts, and
    different on every cloned card as long as the image was made before the first run."""
    found = outbox.get("kiosk_id")
    if isinstance(found, str) and found:
        return found
    new = str(uuid.uuid4())
    outbox.put("kiosk_id", new)
    return new


def power_summary(read: Callable[[], power.Throttling | None] = power.throttling) -> str | None:
    found = read()
    return None if found is None else found.summary()


@dataclass
class About:
    """The ``about`` callable of ``HubClient`` and the ``alerts`` of ``Kiosk``."""

    id: str
    table: int | None
    inputs: list[Input]
    pin_factory: str | None = None
    box: Box | None = None
    hub: Hub | None = None
    mono: Callable[[], float] = time.monotonic
    started: float = field(default_factory=time.monotonic)
    power: Callable[[], str | None] = power_summary
    synchronised: Callable[[], bool | None] = timesync.clock_synchronised
    data: Path | None = None  # the outbox's folder: on a filesystem that survives a cut?
    mountinfo: Path = storage.MOUNTINFO
    _volatile: tuple[float, bool] | None = field(default=None, init=False, repr=False)

    def clock(self) -> Literal["hub", "system", "unverified"]:
        """What the presses are stamped by: the hub's time, a synchronised system clock, or
        neither (the screen says so too)."""
        if self.hub is not None and self.hub.trusted():
            return "hub"
        return "system" if self.synchronised() else "unverified"

    def __call__(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": __version__,
            "uptime": round(max(0.0, self.mono() - self.started), 1),
            "buttons": list(self.inputs),
            "pin_factory": self.pin_factory,
            "box": None if self.box is None else
            ("connected" if self.box.connected else "disconnected"),
            "power": self.power(),
            "clock": self.clock(),
        }

    def alerts(self) -> tuple[Said, ...]:
        """The shell's alert lines for the screen, said in its language (``Kiosk``)."""
        out: list[Said] = []
        if self.box is not None and not self.box.connected:
            out.append(Said(BOX_UNPLUGGED))
        if self.hub is not None:
            out += [said("Another kiosk ({address}) also says it is table {table}",
                         address=address, table=self.table) if self.table is not None
                    else said("Another kiosk ({address}) also says it is this table",
                              address=address)
                    for address in self.hub.others()]
        if self.in_memory():
            out.append(Said(IN_MEMORY))
        return tuple(out)

    def in_memory(self) -> bool:
        """Whether the presses' folder is on a filesystem a power cut empties (tmpfs, or the
        card's overlay when its data partition did not mount); looked at once a minute."""
        if self.data is None:
            return False
        now = self.mono()
        if self._volatile is None or now - self._volatile[0] >= STORAGE_EVERY:
            verdict = storage.check_filesystem(self.data, self.mountinfo).verdict
            self._volatile = (now, verdict == "fail")
        return self._volatile[1]


__all__ = ["BOX_UNPLUGGED", "IN_MEMORY", "About", "kiosk_id", "power_summary"]

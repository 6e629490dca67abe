"""A button going down many times in a second is one press: the debounce window.

A box whose contact chatters, or a button a player leans on, has sent a table's presses by
the thousand (3,100 of Austria in 14 s), while a finger makes one press a push. Within
``DEBOUNCE`` of a power's last kept press of the same kind (``press``: orders in; ``hold``:
out of the game or back) a second one is a bounce: the hub keeps the first and answers the
rest as merged, and every reader here (``dipclock.late``) drops it too, so a kiosk that still
holds a bounce the hub merged shows what the hub shows.

Why one second:

- longer than any bounce a contact makes (milliseconds; gpiozero and the box firmware
  filter those already, a worn button or a long wire lets some through) and than a
  finger's fastest double tap (0.15-0.3 s), so a button held or hammered stores at most one
  press a second, and one that does so for hours meets the per-power bound, not the disk;
- shorter than anything two real pushes can mean apart. A press says "orders in" for the
  phase: a second press within ``dipclock.late.REPEAT`` (30 s) is a double tap that counts
  for nothing anyway, and one second moves where that 30 s starts by less than a second.
  A hold is a 3-second push (``hardware.hold``; the box is the same), so two real holds of
  one power (out by mistake, then back) are at least 3 s apart; a hold and a press are
  different kinds and never merge; two powers' holds (a board's ready chord) are different
  powers.

A bounce is measured from the power's last *kept* press, not the last bounce: a button
chattering for a minute keeps one press a second rather than one in all, so a button that
never stops still shows on the TD's grid (it meets the per-power bound).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Protocol, TypeVar

#: two presses of one power and kind closer than this are one
DEBOUNCE = timedelta(seconds=1)


class Pushed(Protocol):
    """A recorded press or hold: the kiosk's outbox row, the hub's stored row, ``late.Press``."""

    @property
    def power(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def at(self) -> datetime: ...


P = TypeVar("P", bound=Pushed)


def bounces_after(kept: datetime | None, at: datetime) -> bool:
    """Whether a press at ``at`` is a bounce of its power's last kept press of its kind
    (stamped ``kept``, at or before ``at``; None: there is none)."""
    return kept is not None and kept <= at < kept + DEBOUNCE


def debounced(presses: Iterable[P]) -> list[P]:
    """``presses`` in time order with every bounce left out (stable: of two with the same
    stamp, the first given is kept)."""
    kept: dict[tuple[str, str], datetime] = {}
    out = []
    for p in sorted(presses, key=lambda p: p.at):
        key = (p.power, p.kind)
        if bounces_after(kept.get(key), p.at):
            continue
        kept[key] = p.at
        out.append(p)
    return out


__all__ = ["DEBOUNCE", "Pushed", "bounces_after", "debounced"]

"""Board clocks: where each board starts its next phase when it has finished adjudicating.

At many smaller events and at every club night there is no central clock: after a
deadline the board adjudicates, then starts the next phase itself. dipclock stops the
table's clock at each deadline (``dipclock.gameclock``, ``board_stops``) until the board
says it is ready, with the buttons it already has: two players hold their power buttons
together for 3 seconds (a *chord*: two holds of different powers within ``CHORD`` of each
other). One player cannot do it alone, and no one does it by accident; a single hold still
takes a power out of the game or brings it back, as on every clock.

The chord is read from the table's recorded holds, here, by the kiosk and the hub alike,
so both see the same start at the same second without a message of its own: a kiosk's
outbox carries the holds to the hub as it carries every press.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from dipclock.late import CHORD, Pressed, chords
from dipclock.schedule import BoardStart, Schedule


def ready_signals(presses: Iterable[Pressed]) -> list[datetime]:
    """The moments a board said it was ready: the second hold of each chord."""
    return sorted({second.at for _first, second in chords(presses)})


def with_board_starts(
    schedule: Schedule, presses: Iterable[Pressed], table: int | None
) -> Schedule:
    """``schedule`` with ``table``'s board starts read from its presses added: what both
    the kiosk and the hub put into the table's clock. Adding (not replacing) lets a side
    that holds only some of the table's presses keep the starts the other side read."""
    mine = {BoardStart(at=at, table=table) for at in ready_signals(presses)}
    new = mine - set(schedule.board_starts)
    if not new:
        return schedule
    starts = sorted(set(schedule.board_starts) | new, key=lambda s: (s.at, s.table or 0))
    return schedule.model_copy(update={"board_starts": tuple(starts)})


__all__ = ["CHORD", "ready_signals", "with_board_starts"]

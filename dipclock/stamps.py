"""Whether a press's stamp can be a press of the round it falls in: the hub files it there,
or refuses it with the reason.

A press is filed under the round whose start is the latest at or before its stamp, so a
clock's backlog uploaded after the TD set up the next round counts for the round it was
made in, however late it arrives. What a stamp cannot be:

- ``ahead``: further than ``AHEAD`` past the hub's time. A clock stamps a press with the
  hub's time it keeps in sync (``dipclock.sync``), when the button goes down, and sends it
  after: a true stamp is behind the hub's time, ahead of it only by the clock's error (a
  few milliseconds; a clock cut off from the hub for a day drifts by some seconds at
  most). A stamp minutes or years ahead is a clock whose time is wrong.
- ``before``: before its round's start. With the rounds filed by start, that is a stamp
  before the first round, or before a round set up in advance when it is the only one: a
  button test, or a clock whose time is wrong (years in the past). Filed, it would count
  against the round before the round began.
- ``after``: after its round is over on the table (``round_over``), when no press can
  count for it any more and the next round has not started: a button pushed between
  rounds, or a clock whose time is wrong. Filed, it would change a round that is a record.

A stamp in a break, or after a deadline, is a real press (orders late, perhaps): kept.
There is no bound into the past beyond the round's start: a backlog may be of any age.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from dipclock.gameclock import NEVER
from dipclock.late import LATE_WINDOW, last_close
from dipclock.timeline import TableClock

#: how far past the hub's time a true stamp can never be
AHEAD = timedelta(minutes=1)

StampFault = Literal["ahead", "before", "after"]


def round_over(clock: TableClock, window: timedelta = LATE_WINDOW) -> datetime | None:
    """After when no press belongs to the round on this table: the later of the game's end
    (its last deadline, or the call) and the close of the late window after its last
    deadline (a late press for it still counts). None while the end is not in view: no last
    year and no call, a board not ready for its next phase, an open-ended break or hold."""
    if len(clock.all_phases) < len(clock.marks):
        return None  # the walk stopped at a stop with no end: later deadlines are unknown
    timetable = clock.timetable()
    if timetable.ends == "horizon":
        return None
    ends = [m for m in (last_close(timetable.phases, window, clock.stops), timetable.ends_at)
            if m is not None]
    if not ends or NEVER in ends:
        return None
    return max(ends)


def stamp_fault(at: datetime, start: datetime, over: datetime | None,
                hub_now: datetime | None) -> StampFault | None:
    """What is wrong with a press stamped ``at`` filed under a round that starts at
    ``start`` and is over after ``over`` (``round_over``), at the hub's time ``hub_now``
    (None: the hub's own time is not settled, so a stamp is not judged against it)."""
    if hub_now is not None and at > hub_now + AHEAD:
        return "ahead"
    if at < start:
        return "before"
    if over is not None and at > over:
        return "after"
    return None


__all__ = ["AHEAD", "StampFault", "round_over", "stamp_fault"]

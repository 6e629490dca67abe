"""How many presses one button of a table may send in one round, and the words for a press
the hub refuses: a bound, so one clock cannot fill the hub, and one button cannot silence
its table.

A paired clock gone wrong (or in the hands of someone at the table) once stored 100,000
presses in 14 s: the database grew 115 MB a minute, the TD's dashboard slowed from 33 ms
to 1.5 s, and left running it would have filled the disk and stopped the hub for every
table. Then a box's Austria button, chattering or held down, sent 3,100 presses in 14 s,
and a bound for the whole table refused England's real press next. So the bound is each
power's own (``POWER_ROUND_MOST``), a bounce is merged before it counts
(``dipclock.debounce``), and past the bound a press is refused with its reason (the clock
keeps it, flagged, and does not send it again), the TD's grid names the power, and the
table's other buttons and every other table go on as before.

A press stamped where no round can hold it (``dipclock.stamps``) is refused the same way;
the table's grid line counts the refusals and says the last reason (``Refusals``).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo

from dipclock.late import Pressed
from dipclock.powers import LETTERS, POWERS
from dipclock.stamps import StampFault
from dipclock.venuetime import venue_naive

#: presses one power of a table may hold in one round: a long game is 60 timed phases, a
#: press and a second one in each and a hold now and then (about 130); three times that
POWER_ROUND_MOST = 400
#: so a table holds at most this many in a round
TABLE_ROUND_MOST = POWER_ROUND_MOST * len(LETTERS)


def refused(power: str, round_no: int) -> str:
    """Why a press past its power's bound is refused, for the clock's log."""
    return (f"{POWERS[power]} has sent {POWER_ROUND_MOST:,} presses in round {round_no} "
            "already, the most one power may: the hub takes no more of them (a button "
            "stuck or chattering?)")


def moment_text(moment: datetime, tz: tzinfo, today: datetime) -> str:
    """A stamp on the venue's clock: "09:31:05", with the date when it is not ``today``'s
    (a clock years off says so at a glance)."""
    local, now = venue_naive(moment, tz), venue_naive(today, tz)
    if local.date() == now.date():
        return local.strftime("%H:%M:%S")
    return local.strftime("%Y-%m-%d %H:%M:%S")


def stamp_refused(fault: StampFault, at: datetime, round_no: int, start: datetime,
                  over: datetime | None, hub_now: datetime, tz: tzinfo,
                  following: tuple[int, datetime] | None = None) -> str:
    """Why a press stamped ``at`` is refused (``dipclock.stamps.stamp_fault``), in the
    venue's time, for the clock's log and the TD's grid; ``following``: the next round's
    number and start, if one is set up."""
    def when(m: datetime) -> str:
        return moment_text(m, tz, hub_now)

    stamped = f"stamped {when(at)}"
    if fault == "ahead":
        return (f"{stamped}, ahead of the hub's time ({when(hub_now)}): this clock's time "
                "is wrong; not counted")
    if fault == "before":
        return (f"{stamped}, before round {round_no} starts at {when(start)}: a button "
                "test, or this clock's time is wrong; not counted")
    then = f"; round {following[0]} starts at {when(following[1])}" if following else ""
    over_at = f" at {when(over)}" if over is not None else ""
    return f"{stamped}, after round {round_no} was over{over_at}: not counted{then}"


@dataclass
class Refusals:
    """The presses the hub refused from one table's clock since it started, kept in memory
    with the rest of what the table's clock did (``server.kiosks.TableStatus``): the TD's
    grid says how many and the last reason, so a clock with a wrong time, a button gone
    wrong or a test before the round is seen, not silently lost."""

    count: int = 0
    last: str = ""
    at: datetime | None = None  # hub time of the last
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, reasons: Sequence[str], now: datetime) -> None:
        if not reasons:
            return
        with self.lock:
            self.count += len(reasons)
            self.last, self.at = reasons[-1], now


def grid_note(presses: Iterable[Pressed], refusals: Refusals | None, tz: tzinfo,
              now: datetime) -> str | None:
    """The TD's grid line for a table's presses this round: each power at its bound, and
    the presses refused (None: nothing to say)."""
    counts = Counter(p.power for p in presses)
    full = [letter for letter in LETTERS if counts[letter] >= POWER_ROUND_MOST]
    notes = [f"{POWERS[letter]}: {counts[letter]:,} presses this round, the most one power "
             "may send: its new presses are refused. A button stuck or chattering? Check it."
             for letter in full]
    if refusals is not None and refusals.count:
        with refusals.lock:
            count, last, at = refusals.count, refusals.last, refusals.at
        when = f" at {moment_text(at, tz, now)}" if at is not None else ""
        notes.append(f"{count:,} {'press' if count == 1 else 'presses'} from this clock "
                     f"refused; the last{when}: {last}")
    return " · ".join(notes) or None

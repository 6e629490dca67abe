"""What the hub keeps between requests so that a long event costs no more than a short one.

A table's presses and units change only when its kiosk or the TD stores some there, and the
store counts each such change in the table's revision (``Store.table_revs``). So the
dashboard's grid and the kiosks' snapshots read the current round's presses again only for
the tables whose revision rose, and the review judges a table's late orders again only when
its revision, its round's rules or schedule changed (a pause or a resume too), or a late
window closed since (``dipclock.late.judged_until``: later by every break or hold in it).
Finished rounds are judged once per hub start.

Both are read from the TD's worker thread and from the routes' threads at once: every
look-up and keep holds a lock, and the store reads happen outside it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from dipclock.events import EventProfile
from dipclock.schedule import Schedule
from server.responses import JudgedItem
from server.store import PressRow, Store


class PressBook:
    """The current round's presses, table by table (one round kept: the one last asked)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._round: int | None = None
        self._kept: dict[int, tuple[int, tuple[PressRow, ...]]] = {}

    def rows(self, store: Store, round_no: int,
             tables: Iterable[int]) -> dict[int, tuple[PressRow, ...]]:
        """Each of ``tables``' presses in round ``round_no``, oldest first."""
        revs = store.table_revs(round_no)  # read before the rows: a press stored between
        out = {}                           # the two is read again next time, never missed
        for n in tables:
            rev = revs.get(n, 0)
            with self._lock:
                if self._round != round_no:
                    self._round, self._kept = round_no, {}
                kept = self._kept.get(n)
            if kept is None or kept[0] != rev:
                kept = (rev, tuple(store.presses(round_no, n)) if rev else ())
                with self._lock:
                    if self._round == round_no:
                        self._kept[n] = kept
            out[n] = kept[1]
        return out


@dataclass(frozen=True)
class Judged:
    """One table's late orders and missed phases in one round, and what they were judged
    from: valid while all of it holds and, if ``until`` is set, until that instant."""

    rev: int
    profile: EventProfile
    schedule: Schedule
    until: datetime | None
    items: tuple[JudgedItem, ...]


class Judgments:
    """Each (round, table)'s last judgment."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[int, int], Judged] = {}
        #: each round's rules and schedule as last seen: equal ones read again are replaced
        #: by these, so a judgment's are checked by identity, not field by field
        self._seen: dict[int, tuple[EventProfile, Schedule]] = {}

    def same(self, round_no: int, profile: EventProfile,
             schedule: Schedule) -> tuple[EventProfile, Schedule]:
        """``profile`` and ``schedule``, or the equal ones seen before for the round."""
        with self._lock:
            seen = self._seen.get(round_no)
            if seen is not None and seen == (profile, schedule):
                return seen
            self._seen[round_no] = (profile, schedule)
            return profile, schedule

    def get(self, round_no: int, table: int, rev: int, profile: EventProfile,
            schedule: Schedule, now: datetime) -> Judged | None:
        with self._lock:
            j = self._kept.get((round_no, table))
        if (j is None or j.rev != rev or j.profile is not profile
                or j.schedule is not schedule or (j.until is not None and now > j.until)):
            return None
        return j

    def keep(self, round_no: int, table: int, judged: Judged) -> None:
        with self._lock:
            self._kept[(round_no, table)] = judged

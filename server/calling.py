"""Calling the round: where each table's game ends if the TD calls it at a moment.

The preview asks the core the very question the call answers once stored: the round's
schedule with ``call`` set, walked by ``dipclock.timeline`` for each table (its own holds
and extra time included). So the list the TD confirms is what every kiosk then shows, and
a table the call would rob of a nearly finished phase is named before, not after.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, tzinfo

from dipclock.callwords import cut_warning, preview_line
from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, Words
from dipclock.schedule import Schedule
from dipclock.timeline import Phase, table_clock
from dipclock.venuetime import venue_naive, zone
from server.responses import CallPreview, PhaseEnd, TableEnding
from server.views import iso

#: A table this close to a deadline the call would cut off is named in a warning: the
#: players have nearly finished that phase and will ask the TD why it does not count.
WARN_SECONDS = 300.0


def _end(p: Phase, tz: tzinfo) -> PhaseEnd:
    return PhaseEnd(phase=p.ref.code, title=p.ref.title, deadline=iso(p.deadline, tz))


def ending(
    profile: EventProfile,
    schedule: Schedule,
    at: datetime,
    table: int | None,
    warn_seconds: float = WARN_SECONDS,
    words: Words = ENGLISH,
) -> TableEnding:
    """``table``'s game under the schedule called at ``at`` (``dipclock.timeline``), its
    line and warning in ``words`` (the TD's phone's language)."""
    tz = zone(profile.timezone)
    called = table_clock(profile, schedule.model_copy(update={"call": at}), table)
    counted = called.timetable().phases
    fall = called.timetable().scoring_phase
    scoring = fall.code if fall is not None else None
    after = [p for p in called.all_phases if p.deadline > at]
    cut = after[0] if after and len(counted) < len(called.all_phases) else None
    short = (cut.deadline - at).total_seconds() if cut is not None else None
    last = counted[-1] if counted else None
    deadline = f"{venue_naive(last.deadline, tz):%H:%M:%S}" if last is not None else ""
    if cut is None or short is None or short > warn_seconds:
        text = preview_line(table, last.ref if last else None, fall, profile.call_ends,
                            deadline, words=words)
        return TableEnding(table=table, last=_end(last, tz) if last else None,
                           cut=None, seconds_short=None, warning="", scoring=scoring, text=text)
    warning = cut_warning(table, cut.ref, short, f"{venue_naive(cut.deadline, tz):%H:%M:%S}",
                          f"{venue_naive(at, tz):%H:%M:%S}", words)
    text = preview_line(table, last.ref if last else None, fall, profile.call_ends, deadline,
                        cut.ref, short, words)
    return TableEnding(table=table, last=_end(last, tz) if last else None, cut=_end(cut, tz),
                       seconds_short=short, warning=warning, scoring=scoring, text=text)


def preview(
    profile: EventProfile,
    schedule: Schedule,
    number: int,
    at: datetime,
    tables: Iterable[int],
    warn_seconds: float = WARN_SECONDS,
    words: Words = ENGLISH,
) -> CallPreview:
    """Every table's ending if round ``number`` is called at ``at`` (every table's clock
    when none is set up), in ``words``."""
    numbers: list[int | None] = list(tables) or [None]
    rows = [ending(profile, schedule, at, n, warn_seconds, words) for n in numbers]
    return CallPreview(at=iso(at, zone(profile.timezone)) or "", round=number, tables=rows,
                       warnings=sum(bool(r.warning) for r in rows))

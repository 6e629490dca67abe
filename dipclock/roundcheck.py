"""A round as the TD typed it, checked against its own timetable before anyone relies on it.

``dipclock plan`` and a standalone ``dipclock kiosk`` take ``--start``, ``--call`` and
``--pause``; parsing them (``dipclock.arguments``) cannot tell a break that falls after the
game, or a call a day late, from one the TD meant. This can, because it asks the built
clock: what cannot be meant is a ``UsageError`` naming the option, and what is odd but valid
comes back as a note to print, so nothing silently changes meaning. Both are sentences
(``dipclock.i18n.Said``) said in the reader's language: ``dipclock plan --lang fr``, or a
standalone table's screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from dipclock.arguments import UsageError
from dipclock.i18n import WEEKDAYS, Said, said
from dipclock.schedule import Pause
from dipclock.sentences import phase
from dipclock.timeline import TableClock
from dipclock.venuetime import venue_naive, zone

#: A call further than this after the start is a typo (a bare 09:00 before a 10:00 start
#: is read as the next day): the longest rounds of the five events run about 8 hours.
LONGEST_ROUND = timedelta(hours=16)


def _hm(moment: datetime, built: TableClock) -> str | Said:
    """A moment on the venue's clock: "14:48", or "Sat 09:30" on another day than the start
    (the weekday in the reader's language)."""
    local = venue_naive(moment, zone(built.profile.timezone))
    text = local.strftime("%H:%M:%S" if local.second else "%H:%M")
    if not _other_day(moment, built):
        return text
    # the weekday is the catalogue's own (``WEEKDAYS``, marked there)
    return said("{day} {time}", day=Said(WEEKDAYS[local.weekday()]), time=text)


def _other_day(moment: datetime, built: TableClock) -> bool:
    """On another day of the venue's calendar than the round's start."""
    tz = zone(built.profile.timezone)
    return venue_naive(moment, tz).date() != venue_naive(built.schedule.start, tz).date()


def _bare(typed: str) -> bool:
    """A clock time without a date (``19:00``), which the parser may put on the next day."""
    return "T" not in typed and "-" not in typed


def check_round(
    built: TableClock,
    typed_pauses: Sequence[str] = (),
    typed_call: str | None = None,
) -> list[Said]:
    """Refuse what the round cannot mean; return notes for what is odd but valid.

    ``typed_pauses`` are the ``--pause`` texts in the schedule's order, ``typed_call`` the
    ``--call`` text (None: the call, if any, is the event's published one).
    """
    schedule = built.schedule
    notes: list[Said] = []
    if schedule.call is not None:
        notes += _check_call(built, schedule.call, typed_call)
    table = built.timetable()
    game_end = table.ends_at if table.ends != "horizon" else None
    for typed, pause in zip(typed_pauses, schedule.pauses, strict=False):
        _check_pause(built, pause, typed, game_end)
    _check_overlaps(built, typed_pauses)
    return notes


def _check_call(built: TableClock, call: datetime, typed: str | None) -> list[Said]:
    start = built.schedule.start
    name: str | Said = f"--call {typed}" if typed is not None else \
        said("the published call ({time})", time=_hm(call, built))
    if call <= start:
        raise UsageError(said("{name}: at or before the start ({start})", name=name,
                              start=_hm(start, built)))
    if call - start > LONGEST_ROUND:
        hours = f"{(call - start).total_seconds() / 3600:.0f}"
        if _other_day(call, built) and typed is not None and _bare(typed):
            raise UsageError(said("{name}: a time before the start is the next day, {hours} h "
                                  "after the start ({start}), longer than any round can be",
                                  name=name, hours=hours, start=_hm(start, built)))
        raise UsageError(said("{name}: {hours} h after the start ({start}), longer than any "
                              "round can be", name=name, hours=hours, start=_hm(start, built)))
    table = built.timetable()
    if not table.phases:
        if built.profile.call_ends == "last_fall":
            raise UsageError(said("{name}: no Fall deadline of the round falls before it",
                                  name=name))
        raise UsageError(said("{name}: no deadline of the round falls before it", name=name))
    if built.last_year is None and len(built.phases) == len(built.all_phases):
        last = built.all_phases[-1].ref
        raise UsageError(said("{name}: after {phase}, the furthest a game is shown", name=name,
                              phase=phase(last.year, last.season)))
    if table.ends == "last_year" and table.last_year and table.ends_at is not None \
            and table.ends_at < call:
        return [said("the game ends after {phase} ({time}), before the call",
                     phase=phase(table.last_year, "fall"), time=_hm(table.ends_at, built))]
    return []


def _check_pause(
    built: TableClock, pause: Pause, typed: str, game_end: datetime | None
) -> None:
    start, name = built.schedule.start, f"--pause {typed}"
    if pause.at is not None:
        if pause.at < start:
            raise UsageError(said("{name}: starts before the round ({start}); to start later, "
                                  "move --start", name=name, start=_hm(start, built)))
        if game_end is not None and pause.at >= game_end:
            when, end = _hm(pause.at, built), _hm(game_end, built)
            if _other_day(pause.at, built) and _bare(typed.split("=", 1)[0]):
                raise UsageError(said("{name}: the game is over by then (a time before the "
                                      "start is the next day, {when}; it ends at {end})",
                                      name=name, when=when, end=end))
            raise UsageError(said("{name}: the game is over by then ({when}; it ends at {end})",
                                  name=name, when=when, end=end))
        return
    ref = pause.at_deadline
    if ref is None:
        return
    known = [p.ref for p in built.timetable().phases]
    if ref not in known:
        if not known:
            raise UsageError(said("{name}: no such deadline in this round (none)", name=name))
        # the phases' codes, as --pause takes them (at=F1903)
        raise UsageError(said("{name}: no such deadline in this round ({first} to {last})",
                              name=name, first=known[0].code, last=known[-1].code))
    if ref == known[-1] and built.timetable().ends != "horizon":
        raise UsageError(said("{name}: the game ends at that deadline, no clock runs after it",
                              name=name))


def _check_overlaps(built: TableClock, typed: Sequence[str]) -> None:
    windows: list[tuple[datetime, datetime, str]] = []
    for text, pause in zip(typed, built.schedule.pauses, strict=False):
        begins, ends = built.break_window(pause)
        if begins is not None:
            windows.append((begins, ends or datetime.max, text))
    windows.sort()
    for (b1, e1, t1), (b2, _e2, t2) in zip(windows, windows[1:], strict=False):
        if b2 < e1:
            raise UsageError(said("--pause {second} overlaps --pause {first} ({start} to "
                                  "{end}): make it one longer break", second=t2, first=t1,
                                  start=_hm(b1, built), end=_hm(e1, built)))


__all__ = ["LONGEST_ROUND", "check_round"]

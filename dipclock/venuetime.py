"""The venue's clock: the time zone at the edges of a core that counts in UTC.

Every moment inside dipclock (a schedule, a press, a deadline) is a naive UTC datetime, so
the length of a phase is the same number of real seconds whatever the wall clock does at a
daylight-saving change. A TD types and reads the venue's local time: this module turns one
into the other with the event's IANA zone (``EventProfile.timezone``; None: UTC here, and
the shell that loads an event fills in its machine's zone, ``dipclock.eventfiles``).

The stated rules for a local time that is not one instant:
- a time in the spring-forward gap (02:30 on the night clocks go from 02:00 to 03:00) does
  not exist: ``NoSuchTime``, with the hour either side to give instead;
- a time in the autumn repeat (02:30 when 03:00 goes back to 02:00) happens twice: the
  first, still on summer time, with a note saying so (``resolve``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo

from dipclock.errors import DipclockError
from dipclock.i18n import said


class NoSuchTime(DipclockError, ValueError):
    """A local time the venue's clock skips (the spring-forward gap)."""


@lru_cache(maxsize=64)
def zone(name: str | None) -> tzinfo:
    """The zone of an IANA name (validated where the event is read); None: UTC."""
    return UTC if name is None else ZoneInfo(name)


def resolve(local: datetime, tz: tzinfo) -> tuple[datetime, str | None]:
    """The naive UTC instant of a naive venue time, and a note when it was ambiguous."""
    first = local.replace(tzinfo=tz, fold=0)
    back = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if back != local.replace(fold=0):
        before = (local - timedelta(hours=1)).strftime("%H:%M")
        after = (local + timedelta(hours=1)).strftime("%H:%M")
        shown = local.strftime("%Y-%m-%d %H:%M")
        raise NoSuchTime(said(
            "{time} does not exist in {zone}: the clocks skip that hour that night; give "
            "{after} or {before}", time=shown, zone=str(tz), after=after, before=before))
    note = None
    second = local.replace(tzinfo=tz, fold=1)
    if first.utcoffset() != second.utcoffset():
        offset = first.strftime("%z")
        note = (f"{local:%Y-%m-%d %H:%M} happens twice in {tz} (the clocks go back that "
                f"night): taken as the first, at UTC{offset[:3]}:{offset[3:]}")
    return first.astimezone(UTC).replace(tzinfo=None), note


def to_utc(local: datetime, tz: tzinfo) -> datetime:
    """``resolve`` without the note: a naive venue time as a naive UTC instant."""
    return resolve(local, tz)[0]


def at_venue(moment: datetime, tz: tzinfo) -> datetime:
    """A naive UTC instant on the venue's clock (aware: it knows its offset)."""
    return moment.replace(tzinfo=UTC).astimezone(tz)


def venue_naive(moment: datetime, tz: tzinfo) -> datetime:
    """A naive UTC instant as the naive venue wall time a TD reads."""
    return at_venue(moment, tz).replace(tzinfo=None)


__all__ = ["NoSuchTime", "at_venue", "resolve", "to_utc", "venue_naive", "zone"]

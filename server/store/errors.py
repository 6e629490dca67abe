"""What the store refuses, as storage says it: no HTTP here. A change the store will not
make (it conflicts with what is stored) raises ``StoreConflict`` with one line the TD can
act on; the hub's shell (``server.app``) answers it as a 409 with that line as ``detail``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, Said, Words
from server.logline import shown as said_in
from server.sheets import Sheet, changed_since


class StoreConflict(DipclockError):
    """The change conflicts with what the store holds: not made. ``message``: one line
    for the TD (times in it on UTC; see ``text`` for the venue's clock)."""

    def __init__(self, message: str | Said | DipclockError) -> None:
        super().__init__(message)  # a sentence is kept: said in the reader's language
        self.message = str(message)

    def text(self, tz: tzinfo) -> str:
        """The one line, times on the venue's clock (``tz``): the same line unless a
        subclass has times in it."""
        return self.message


class Stale(StoreConflict):
    """Not done: ``changes`` ((when, log line, its kept sentence or None), oldest first)
    came after the screen the change was made from (``server.stale``)."""

    def __init__(self, changes: Sequence[tuple[datetime, str, str | None]]) -> None:
        self.changes = tuple(changes)
        super().__init__(self.text(UTC))

    def text(self, tz: tzinfo, words: Words = ENGLISH) -> str:
        """The one line, times on the venue's clock (``tz``), in ``words`` (the phone's
        language; each log line in it too, when its sentence was kept)."""
        shown = [f"{_local(at, tz):%H:%M:%S} {said_in(summary, kept, words)}"
                 for at, summary, kept in self.changes[-3:]]
        more = len(self.changes) - len(shown)
        listed = "; ".join(shown)
        if more > 0:
            listed = words.plural("{changes} (and {n} more)", "{changes} (and {n} more)",
                                  more, changes=listed)
        return words("Not done: this changed meanwhile: {changes}. The dashboard shows it "
                     "now: do it again if it is still needed.", changes=listed)


def _local(at: datetime, tz: tzinfo) -> datetime:
    return at.replace(tzinfo=UTC).astimezone(tz)


class SheetChanged(StoreConflict):
    """A change made against a version of the sheet that is no longer the stored one:
    ``changes`` ((when, ``SheetChange.words``), oldest first) came since, and ``unknown``
    more whose words were not kept (made by a hub before version 12 of the store)."""

    def __init__(self, now: Sheet | None, changes: Sequence[tuple[datetime, str]] = (),
                 unknown: int = 0) -> None:
        self.sheet, self.changes, self.unknown = now, tuple(changes), unknown
        super().__init__(self.text(UTC))

    def text(self, tz: tzinfo, words: Words = ENGLISH) -> str:
        """The one line, times on the venue's clock (``tz``), in ``words`` (the phone's
        language)."""
        return changed_since(self.changes, tz, self.unknown, words)


class _Unchanged(DipclockError):
    """Nothing to change: the transaction ends without a write."""

    def __init__(self, sheet: Sheet | None) -> None:
        self.sheet = sheet

"""The tables' vote on a restarted hub's time: when it moves, by how much, and who said so.

A hub that rebooted has only its machine's clock, which may be hours or weeks out; its
kiosks kept the hall's time on their own monotonic clocks meanwhile, and each says how far
the hub's time is from it (``server.kepttime``). That word moves every deadline of the
hall at once, so it is weighed as an attack would use it:

- **a quorum, not a loudest voice**: the hub moves only if more than half of the tables
  with a paired clock (and never fewer than two) kept one same time. A table's claimed
  round trip cannot win it a vote (it is the clock's own word), so the votes are not
  filtered by it: their median is taken, which one liar or a minority cannot move;
- **a bounded move**: the time the tables kept must come after the hub's own last record
  of its time (it cannot have gone back) and within ``KEPT_AWAY`` of it: a hub cannot have
  been away longer while its tables kept the time of the same day's rounds;
- **said in full**: the decision names every table's vote, for the TD's log, and the TD can
  undo a move (``server.hubtime``).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.sentences import plural
from dipclock.sync import KEPT_LIMIT

#: Votes this close to the tables' median kept the same time: a kiosk's kept time is off
#: by its sync error (milliseconds) and one sample by half its round trip (tens of ms on a
#: busy Wi-Fi); two clocks that kept different times differ by far more.
KEPT_AGREE = 0.25
#: The longest a hub may have been down while its tables kept the time: a power cut, a
#: restart over lunch, a night with the clocks left on. A vote beyond it is no kept time.
KEPT_AWAY = 18 * 3600.0


@dataclass(frozen=True)
class KeptVerdict:
    """What the votes decide: ``change`` (seconds to add to the hub's time; None: it
    stands), the tables whose vote carried it, how many it needed, and one line saying
    why, with every table's vote, for the TD's log: ``said`` in the TD's language,
    ``text`` in English."""

    change: float | None
    agreeing: tuple[int, ...]
    needed: int
    said: Said
    #: a table said the hub's time was wrong: the TD hears what was decided and why
    told: bool = True

    @property
    def text(self) -> str:
        return str(self.said)


def quorum(paired: int) -> int:
    """Tables needed to move hub time: more than half of those with a paired clock, and
    at least two (one table never moves the hall, however small the hall)."""
    return max(2, paired // 2 + 1)


def votes_text(votes: Mapping[int, float], words: Words = ENGLISH) -> str:
    """Each table's vote, hub time minus the time it kept: "table 1 +3600.02 s, ..."."""
    return ", ".join(words("table {table} {difference} s", table=t,
                           difference=format(votes[t], "+.2f")) for t in sorted(votes))


@dataclass(frozen=True)
class _Votes(Said):
    """Each table's vote (``votes_text``) as a sentence's value, in its reader's language;
    kept as JSON it is its English text."""

    votes: tuple[tuple[int, float], ...] = ()

    def in_(self, words: Words) -> str:
        return votes_text(dict(self.votes), words)


def kept_time_change(votes: Mapping[int, tuple[float, float]], paired: int, now: float,
                     last_seen: float | None) -> KeptVerdict:
    """Weigh the votes of a restarted hub's tables.

    ``votes``: table -> (hub time minus the time it kept, the round trip it measured that
    with); ``paired``: the tables with a paired clock; ``now``: the hub's time (not yet
    moved); ``last_seen``: the latest hub time the hub recorded before it restarted (None:
    it recorded nothing, so there is nothing to check the tables' time against)."""
    needed = quorum(paired)
    differences = {table: d for table, (d, _) in votes.items()}
    told = _Votes(votes_text(differences), votes=tuple(sorted(differences.items())))
    if not differences:
        return KeptVerdict(None, (), needed, said("no table had kept the time"), told=False)
    middle = statistics.median(differences.values())
    if abs(middle) <= KEPT_LIMIT:
        odd = sorted(t for t, d in differences.items() if abs(d) > KEPT_LIMIT)
        if not odd:
            return KeptVerdict(None, (), needed, said(
                "the tables agree with the hub's time ({votes})", votes=told), told=False)
        return KeptVerdict(None, (), needed, plural(
            "hub time kept: the tables that kept the time agree with it but table {tables} "
            "({votes})", "hub time kept: the tables that kept the time agree with it but "
            "tables {tables} ({votes})", len(odd), tables=", ".join(map(str, odd)),
            votes=told))
    agreeing = tuple(sorted(t for t, d in differences.items() if abs(d - middle) <= KEPT_AGREE))
    if len(agreeing) < needed:
        figures = {"n": len(agreeing), "paired": paired, "seconds": f"{abs(middle):.1f}",
                   "needed": needed, "votes": told}
        return KeptVerdict(None, agreeing, needed, said(
            "hub time kept: {n} of the {paired} paired tables kept a time {seconds} s behind "
            "the hub's, and moving it needs {needed} ({votes})", **figures) if middle > 0
            else said("hub time kept: {n} of the {paired} paired tables kept a time {seconds} "
                      "s ahead of the hub's, and moving it needs {needed} ({votes})",
                      **figures))
    change = -statistics.median(differences[t] for t in agreeing)
    kept = now + change
    if last_seen is None:
        return KeptVerdict(None, agreeing, needed, said(
            "hub time kept: the hub has no record of its time to check the tables' against "
            "({votes})", votes=told))
    if kept < last_seen - KEPT_AGREE:
        return KeptVerdict(None, agreeing, needed, said(
            "hub time kept: the time the tables kept is before the hub's last record of its "
            "own, so it cannot be the hall's ({votes}); set the hub's time from a phone if it "
            "is wrong", votes=told))
    if kept > last_seen + KEPT_AWAY:
        return KeptVerdict(None, agreeing, needed, said(
            "hub time kept: the time the tables kept is more than {hours} h after the hub's "
            "last record of its own, so it cannot be the hall's ({votes}); set the hub's time "
            "from a phone if it is wrong", hours=format(KEPT_AWAY / 3600, ".0f"), votes=told))
    return KeptVerdict(change, agreeing, needed, told)

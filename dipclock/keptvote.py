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
    why, with every table's vote, for the TD's log."""

    change: float | None
    agreeing: tuple[int, ...]
    needed: int
    text: str
    #: a table said the hub's time was wrong: the TD hears what was decided and why
    told: bool = True


def quorum(paired: int) -> int:
    """Tables needed to move hub time: more than half of those with a paired clock, and
    at least two (one table never moves the hall, however small the hall)."""
    return max(2, paired // 2 + 1)


def votes_text(votes: Mapping[int, float]) -> str:
    """Each table's vote, hub time minus the time it kept: "table 1 +3600.02 s, ..."."""
    return ", ".join(f"table {t} {votes[t]:+.2f} s" for t in sorted(votes))


def kept_time_change(votes: Mapping[int, tuple[float, float]], paired: int, now: float,
                     last_seen: float | None) -> KeptVerdict:
    """Weigh the votes of a restarted hub's tables.

    ``votes``: table -> (hub time minus the time it kept, the round trip it measured that
    with); ``paired``: the tables with a paired clock; ``now``: the hub's time (not yet
    moved); ``last_seen``: the latest hub time the hub recorded before it restarted (None:
    it recorded nothing, so there is nothing to check the tables' time against)."""
    needed = quorum(paired)
    differences = {table: d for table, (d, _) in votes.items()}
    said = votes_text(differences)
    if not differences:
        return KeptVerdict(None, (), needed, "no table had kept the time", told=False)
    middle = statistics.median(differences.values())
    if abs(middle) <= KEPT_LIMIT:
        odd = sorted(t for t, d in differences.items() if abs(d) > KEPT_LIMIT)
        if not odd:
            return KeptVerdict(None, (), needed, f"the tables agree with the hub's time "
                                                 f"({said})", told=False)
        named = ", ".join(map(str, odd))
        return KeptVerdict(None, (), needed, (
            f"hub time kept: the tables that kept the time agree with it but "
            f"table{'s' * (len(odd) > 1)} {named} ({said})"))
    agreeing = tuple(sorted(t for t, d in differences.items() if abs(d - middle) <= KEPT_AGREE))
    if len(agreeing) < needed:
        return KeptVerdict(None, agreeing, needed, (
            f"hub time kept: {len(agreeing)} of the {paired} paired tables kept a time "
            f"{abs(middle):.1f} s {'behind' if middle > 0 else 'ahead of'} the hub's, and "
            f"moving it needs {needed} ({said})"))
    change = -statistics.median(differences[t] for t in agreeing)
    kept = now + change
    if last_seen is None:
        return KeptVerdict(None, agreeing, needed, (
            f"hub time kept: the hub has no record of its time to check the tables' "
            f"against ({said})"))
    if not last_seen - KEPT_AGREE <= kept <= last_seen + KEPT_AWAY:
        where = "before" if kept < last_seen else f"more than {KEPT_AWAY / 3600:.0f} h after"
        return KeptVerdict(None, agreeing, needed, (
            f"hub time kept: the time the tables kept is {where} the hub's last record of "
            f"its own, so it cannot be the hall's ({said}); set the hub's time from a "
            "phone if it is wrong"))
    return KeptVerdict(change, agreeing, needed, said)

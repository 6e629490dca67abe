"""Which of the hub's snapshots a kiosk takes, and what each one changes (no I/O).

``seq`` is compared only between snapshots of the same hub (its ``hub`` id): a hub started
on an empty data dir has a new id and counts from 1 again, so its first snapshot is taken
whatever its seq. A hub restored from a backup has the old hub's id but counts on from the
backup, lower than what the table last took: its ``restored`` id (new at each restore) makes
it a new hub all the same. Part of ``kiosk.session``, which turns a ``Change`` into what to do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import ValidationError

from dipclock.hallmessage import HallMessage
from dipclock.snapshot import Snapshot, reason
from kiosk.round import Round, from_snapshot


@dataclass(frozen=True)
class Received:
    """A snapshot as the kiosk keeps it: the round to show and what orders snapshots."""

    seq: int
    round: Round | None  # None: the TD has not set up the event and round yet
    hub: str | None = None  # the hub's id: seq counts afresh on a hub with a new one
    claims: tuple[tuple[str, str], ...] = ()  # (kiosk id, address): 2+ kiosks on this table
    clock: int = 0  # the hub clock's epoch: +1 each time the TD sets the hub's time
    #: the TD's hall message (round or none), hidden at its ``until`` by the kiosk's own
    #: hub time, so a table cut off from the hub still takes it down on time
    message: HallMessage | None = None
    restored: str | None = None  # new at each restore of the hub from a backup

    @property
    def key(self) -> str | None:
        return self.round.key if self.round is not None else None


def parse_snapshot(data: Any, table: int) -> Received:
    """A snapshot as the protocol sends it -> what the kiosk keeps (ValueError: one reason)."""
    try:
        snap = Snapshot.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"bad snapshot: {reason(exc)}") from None
    return Received(snap.seq, from_snapshot(snap, table), snap.hub,
                    tuple((c.id, c.address) for c in snap.claims), snap.clock, snap.message,
                    snap.restored)


@dataclass(frozen=True)
class Change:
    """A snapshot taken, and what it changed."""

    taken: Received
    new_hub: bool  # another hub (or one started afresh, or restored): its clock is anchored anew
    new_clock: bool  # the TD set the hub's time: a new clock epoch
    new_round: bool


class Feed:
    """The last snapshot taken for one table."""

    def __init__(self, table: int, stored: Any = None):
        self.table = table
        self.received: Received | None = None
        if stored is not None:  # its claims are old news: only a live one says who is here
            self.received = replace(parse_snapshot(stored, table), claims=())

    def take(self, data: Any) -> Change | None:
        """Take ``data`` if it is newer (None: it is not); ValueError if it is bad."""
        snap = parse_snapshot(data, self.table)
        old = self.received
        same_hub = old is not None and (snap.hub, snap.restored) == (old.hub, old.restored)
        if old is not None and same_hub and snap.seq <= old.seq:
            # Without hub ids (an older hub) a restart from scratch is told apart only by
            # a different round.
            if snap.hub is not None or snap.key == old.key:
                return None
        self.received = snap
        new_hub = old is not None and not same_hub
        return Change(snap, new_hub=new_hub,
                      new_clock=old is not None and not new_hub and snap.clock != old.clock,
                      new_round=old is None or snap.key != old.key)

    def others(self, me: str | None) -> tuple[str, ...]:
        """The addresses of the other kiosks that say they are this table, in hub order.

        The hub lists claims only when two or more kiosks claim the table, so any id there
        but ours (``me``) is another kiosk on our table, whether or not our own report has
        reached the hub yet. Without an id of our own we cannot tell ourselves apart.
        """
        claims = self.received.claims if self.received is not None else ()
        if not claims or me is None:
            return ()
        return tuple(dict.fromkeys(addr for kid, addr in claims if kid != me))

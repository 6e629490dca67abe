"""What a table plays, as the kiosk keeps it: no screen, no network, no disk.

Its own module so the hub session and its drivers can name a round without importing the
screen loop (``kiosk.app`` imports pygame; a hub client must not need it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dipclock.events import EventProfile
from dipclock.schedule import PhaseRef, Schedule
from dipclock.snapshot import Snapshot, TableResult, TableVote
from kiosk.outbox import StoredPress


@dataclass(frozen=True)
class Round:
    """What the table plays: from the options (standalone) or the hub's snapshot."""

    profile: EventProfile
    schedule: Schedule
    table: int | None
    key: str  # the outbox's name for this round at this table
    hub_presses: tuple[StoredPress, ...] = ()
    hub_out: frozenset[str] = frozenset()
    #: (power letter, player) as the TD seated this table for the round: a tuple, so a
    #: Round stays hashable and compares by value
    players: tuple[tuple[str, str], ...] = ()
    #: the path of the table's result sheet on the hub ("/sheet/2/14#key"), from the snapshot
    sheet: str | None = None
    #: the same for the round played before this one: shown until this one starts
    sheet_before: str | None = None
    #: the table's sheet as entered, for its players to confirm on the clock (None: none yet)
    result: TableResult | None = None
    #: the id of the hub the round came from: a confirmation is of that hub's sheet
    hub: str | None = None
    #: the table's game-end vote, open or last closed (None: none, or an older hub)
    vote: TableVote | None = None
    #: the table's replacements, each (phase, power letter, player) from its phase on: the
    #: clock names who plays now by its own time (``dipclock.replacements.players_now``)
    players_from: tuple[tuple[PhaseRef, str, str], ...] = ()
    #: until when (hub time) the TD asked the clock to show its vote page's QR code, for
    #: players to propose a game end (``Snapshot.vote_code_until``; None: not asked)
    vote_code_until: datetime | None = None


def round_key(profile: EventProfile, schedule: Schedule, table: int | None) -> str:
    return f"{profile.id}|{schedule.start.isoformat()}|{table or 0}"


def from_snapshot(snap: Snapshot, table: int) -> Round | None:
    """The round a hub's snapshot describes for ``table``; None before the TD set one up."""
    if snap.event is None or snap.schedule is None:
        return None
    key = round_key(snap.event, snap.schedule, table)
    presses = tuple(StoredPress(p.id, key, p.power, p.kind, p.at, "hub", True)
                    for p in snap.presses)
    return Round(snap.event, snap.schedule, table, key, presses, frozenset(snap.out),
                 tuple(sorted(snap.players.items())), snap.sheet, snap.sheet_before,
                 snap.result, snap.hub, snap.vote,
                 tuple((PhaseRef.parse(f.phase), f.power, f.player) for f in snap.players_from),
                 snap.vote_code_until)

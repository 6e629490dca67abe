"""The hub's state in SQLite: schema, migrations and every SQL statement, in this package.

WAL with ``synchronous=FULL``, and every change is one transaction that also bumps the
snapshot sequence number and (for the TD's actions) writes the audit log, so a hub killed
at any instant comes back with either all of a change or none of it, and ``seq`` keeps
rising across restarts.

One module per area, so a maintainer finds a table's SQL by its name: ``migrations``
(the schema, version by version), ``rows`` (what the tables hold, as dataclasses),
``base`` (the connection, transactions, meta and the audit log), ``settings`` (hub time,
event, teams, hall message), ``rounds`` (rounds, records, calls, tables), ``pauses``,
``presses``, ``rulings`` (penalties and units), ``seating``, ``sheets``, ``clocks``
(pairing and TD sessions), ``errors`` (what the store refuses: storage errors, no HTTP),
``roster`` (the event's people), ``register`` (who plays each round), ``votes``
(game-end votes). ``Store`` is all of
them in one object.
"""

from __future__ import annotations

from dipclock.seating import Seat  # one player at one table in one round: the core's
from server.store.clocks import Clocks
from server.store.errors import SheetChanged, Stale, StoreConflict
from server.store.migrations import MIGRATIONS
from server.store.pauses import Pauses
from server.store.presses import Presses
from server.store.register import Register
from server.store.replacements import Replacements
from server.store.roster import Roster
from server.store.rows import (
    HALL_MESSAGE,
    SHEET_LINKS_CLOSED,
    TIME_SEEN,
    AuditRow,
    Decision,
    PairedClock,
    PressesAdded,
    PressRow,
    RoundRecord,
    RoundRow,
    Units,
    Waiting,
    takes_the_tables,
)
from server.store.rulings import Rulings
from server.store.seating import Seating
from server.store.settings import Settings
from server.store.sheets import Sheets
from server.store.votes import ClaimRow, VoteRow, Votes


class Store(Settings, Seating, Pauses, Presses, Rulings, Sheets, Clocks, Roster,
            Register, Replacements, Votes):
    """One SQLite connection under a lock: the hub's routes run in worker threads (off the
    event loop), and the lock makes each statement and each transaction one at a time."""


__all__ = [
    "HALL_MESSAGE", "MIGRATIONS", "SHEET_LINKS_CLOSED", "TIME_SEEN", "AuditRow", "Decision",
    "PairedClock", "PressRow", "PressesAdded", "RoundRecord", "RoundRow", "Seat",
    "SheetChanged", "Stale", "Store", "StoreConflict", "Units", "Waiting", "takes_the_tables",
    "ClaimRow", "VoteRow",
]

"""The event's roster, in the core: the people (``person``), their checks (``roster``:
a display name, a WDD id, a WDR id each one person's) and the CSV file (``csvfile``).

No storage here: the hub keeps the roster in its store (``server.store.roster``) and the
command line reads and writes it there (``dipclock roster``); both ask this package what a
person, a file and an import are.
"""

from __future__ import annotations

from dipclock.roster.csvfile import (
    COLUMNS,
    RosterFile,
    RosterFileError,
    decode,
    read_roster,
    write_roster,
)
from dipclock.roster.person import Person, PersonError, country, person
from dipclock.roster.roster import ROSTER_MAX, Combined, Index, Refusal, combine

__all__ = [
    "COLUMNS", "ROSTER_MAX", "Combined", "Index", "Person", "PersonError", "Refusal",
    "RosterFile", "RosterFileError", "combine", "country", "decode", "person", "read_roster",
    "write_roster",
]

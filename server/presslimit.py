"""How many presses one table's clock may send in one round: a bound, so one clock cannot
fill the hub.

A paired clock gone wrong (or in the hands of someone at the table) once stored 100,000
presses in 14 s: the database grew 115 MB a minute, the TD's dashboard slowed from 33 ms
to 1.5 s, and left running it would have filled the disk and stopped the hub for every
table. A real table's seven powers press once or twice a phase and hold now and then:
under 1,000 presses in a long game of 60 timed phases. Past ``TABLE_ROUND_MOST`` a press
is refused with its reason (the clock keeps it, flagged, and does not send it again), the
TD's grid says so for that table, and every other table goes on as before.
"""

from __future__ import annotations

#: presses one table may hold in one round: three times a long game's worth
TABLE_ROUND_MOST = 3000


def refused(table: int, round_no: int) -> str:
    """Why a press past the bound is refused, for the clock's log."""
    return (f"table {table} has {TABLE_ROUND_MOST:,} presses in round {round_no} already: "
            "the hub takes no more from it (a clock gone wrong?)")


def grid_note(presses: int) -> str | None:
    """The TD's grid line for a table at the bound (None: under it)."""
    if presses < TABLE_ROUND_MOST:
        return None
    return (f"{presses:,} presses this round, the most a table may send: its clock's new "
            "presses are refused. A clock gone wrong? Check it, or revoke it.")

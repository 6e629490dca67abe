"""A seating file: ``round,table,power,player`` lines, one seat a line.

One reader for both who take such a file, the hub's seating import and ``dipclock seat
--history``, so a file one takes the other takes too, and a bad line is named in the same
words. A header line (its first value ``round``), blank lines, spaces around a value and a
byte-order mark are fine; a power is its letter or its name, in any case.
"""

from __future__ import annotations

import csv
import io
import re

from dipclock.i18n import Said, said
from dipclock.names import spelling
from dipclock.powers import LETTERS, power_letter
from dipclock.seating.past import SEATS, Seat, SeatingError

#: the highest round and table numbers a hall has (the hub's limits: a number past them is
#: a typo, not a thousand rounds)
MOST_ROUNDS = 99
MOST_TABLES = 999
#: a hall's most players: every table full
MOST_PLAYERS = SEATS * MOST_TABLES
#: a player's name: one line of at most this many characters
NAME_MAX = 80
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def read_seats(text: str, *, clearing: bool = False) -> list[Seat]:
    """The seats of a seating file, in its order. A bad line is a ``SeatingError`` saying
    ``line N: ...`` (the caller says which file). ``clearing``: an empty player is a seat
    to clear (the hub's import), else a mistake. Who sits twice at a table is
    ``read_past``'s to say."""
    seats: list[Seat] = []
    n = 0
    try:
        for n, row in enumerate(csv.reader(io.StringIO(text.removeprefix("\ufeff"))), start=1):
            cells = [c.strip() for c in row]
            if not any(cells) or (n == 1 and cells[0].casefold() == "round"):
                continue
            seats.append(_seat(n, cells, clearing))
    except csv.Error as exc:  # a value past csv's limit (128 KiB), a NUL byte
        raise SeatingError(said("line {line}: not a CSV line ({reason})", line=n + 1,
                                reason=str(exc))) from None
    return seats


def _seat(n: int, cells: list[str], clearing: bool) -> Seat:
    if len(cells) != 4:
        raise SeatingError(said("line {line}: give round,table,power,player (4 values, "
                                "not {values})", line=n, values=len(cells)))
    rnd, table, power, player = cells
    number = _number(n, "round", rnd, MOST_ROUNDS)
    at = _number(n, "table", table, MOST_TABLES)
    try:
        letter = power_letter(power)
    except ValueError:
        raise SeatingError(said("line {line}: power: {value} is not a power (one of "
                                "{letters})", line=n, value=_shown(power),
                                letters=" ".join(LETTERS))) from None
    if not player and not clearing:
        raise SeatingError(said("line {line}: player: a player's name is empty", line=n))
    if player and not is_name(player):
        raise SeatingError(said("line {line}: player: a name is one line of at most {most} "
                                "characters", line=n, most=NAME_MAX))
    return Seat(number, at, letter, spelling(player))


def is_name(text: str) -> bool:
    """A player's name as the hub keeps it: one line of 1 to ``NAME_MAX`` characters."""
    return 0 < len(text) <= NAME_MAX and not _CONTROL.search(text)


def _number(n: int, what: str, text: str, most: int) -> int:
    """A round's or a table's number, 1 to ``most`` (ASCII digits only: ``int`` would take
    "²" for no number and 5,000 digits for a ValueError of its own)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(most))
            and 1 <= int(text) <= most):
        raise SeatingError(_not_a_number(n, what, _shown(text), most))
    return int(text)


def _not_a_number(n: int, what: str, shown: str, most: int) -> Said:
    """Line ``n``'s round or table (``what``, the file's column) is no number: each said
    whole, as a language says "a round number" and "a table number" its own way."""
    if what == "round":
        return said("line {line}: round: {value} is not a round number (a whole number from "
                    "1 to {most})", line=n, value=shown, most=most)
    return said("line {line}: table: {value} is not a table number (a whole number from 1 "
                "to {most})", line=n, value=shown, most=most)


def _shown(text: str, most: int = 24) -> str:
    """A value as a message quotes it: a line of 100,000 characters is cut, not echoed."""
    return repr(text if len(text) <= most else text[:most] + "…")


__all__ = ["MOST_PLAYERS", "MOST_ROUNDS", "MOST_TABLES", "NAME_MAX", "is_name", "read_seats"]

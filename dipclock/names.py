"""A person's name as dipclock keeps it, and when two spellings are one person.

A name typed on a phone, pasted from a spreadsheet or read from last round's CSV may come
in either Unicode form ("José" as one letter é, or e and a combining accent: NFC and NFD
look the same and compare different) and with other capitals or spaces. Kept as typed,
the same player would be two players, and a history in the other form would lose that
player's past without a word. So every name is kept in one form (``spelling``: NFC), and
two names are one person when their ``name_key`` (that form, spaces and capitals aside) is.
"""

from __future__ import annotations

import unicodedata


def spelling(name: str) -> str:
    """``name`` in the form dipclock keeps: NFC, no spaces around it (the spaces within as
    typed: a no-break space keeps a name on one line of a sheet)."""
    return unicodedata.normalize("NFC", name).strip()


def name_key(name: str) -> str:
    """What two spellings of one person share: the kept form with any run of spaces as one
    space, case-folded ("JOSÉ" and "José", "Ann  Smith" and "ann smith")."""
    return " ".join(spelling(name).split()).casefold()


__all__ = ["name_key", "spelling"]

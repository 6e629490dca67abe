"""The seven powers, in the order every table and every screen uses."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

POWERS: dict[str, str] = {
    "A": "Austria",
    "E": "England",
    "F": "France",
    "G": "Germany",
    "I": "Italy",
    "R": "Russia",
    "T": "Turkey",
}
LETTERS = tuple(POWERS)


#: a power's letter by its letter or its name, folded (``power_letter``: one look-up, as a
#: seating of 7,000 seats reads 7,000 of them)
_BY_WORD = {w.casefold(): letter for letter, name in POWERS.items() for w in (letter, name)}


def power_letter(text: str) -> str:
    """'I', 'i' or 'Italy' -> 'I'; anything else is a ValueError naming the choices."""
    letter = _BY_WORD.get(text.strip().casefold())
    if letter is None:
        raise ValueError(f"{text!r} is not a power (one of {' '.join(LETTERS)})")
    return letter


def _letter(letter: str) -> str:
    if letter not in POWERS:
        raise ValueError(f"{letter!r} is not a power (one of {' '.join(LETTERS)})")
    return letter


#: A power's letter in a model (a request, a snapshot): one of the seven, nothing else.
PowerLetter = Annotated[
    str, Field(max_length=1, json_schema_extra={"enum": list(LETTERS)}), AfterValidator(_letter)
]

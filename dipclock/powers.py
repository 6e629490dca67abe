"""The seven powers, in the order every table and every screen uses."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from dipclock.errors import DipclockError
from dipclock.i18n import POWER_NAMES, said

#: the English names (the catalogue's, ``dipclock.i18n.POWER_NAMES``: one spelling of each)
POWERS: dict[str, str] = dict(POWER_NAMES)
LETTERS = tuple(POWERS)


#: a power's letter by its letter or its name, folded (``power_letter``: one look-up, as a
#: seating of 7,000 seats reads 7,000 of them)
_BY_WORD = {w.casefold(): letter for letter, name in POWERS.items() for w in (letter, name)}


class PowerError(DipclockError, ValueError):
    """Not one of the seven powers; a ``ValueError`` too, as its callers (and a pydantic
    model's validator) expect, said in the reader's language."""


def _not_a_power(text: str) -> PowerError:
    return PowerError(said("{power} is not a power (one of {letters})", power=repr(text),
                           letters=" ".join(LETTERS)))


def power_letter(text: str) -> str:
    """'I', 'i' or 'Italy' -> 'I'; anything else is a ``PowerError`` naming the choices."""
    letter = _BY_WORD.get(text.strip().casefold())
    if letter is None:
        raise _not_a_power(text)
    return letter


def _letter(letter: str) -> str:
    if letter not in POWERS:
        raise _not_a_power(letter)
    return letter


#: A power's letter in a model (a request, a snapshot): one of the seven, nothing else.
PowerLetter = Annotated[
    str, Field(max_length=1, json_schema_extra={"enum": list(LETTERS)}), AfterValidator(_letter)
]

"""The seven powers, in the order every table and every screen uses."""

from __future__ import annotations

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


def power_letter(text: str) -> str:
    """'I', 'i' or 'Italy' -> 'I'; anything else is a ValueError naming the choices."""
    t = text.strip()
    if len(t) == 1 and t.upper() in POWERS:
        return t.upper()
    for letter, name in POWERS.items():
        if t.casefold() == name.casefold():
            return letter
    raise ValueError(f"{text!r} is not a power (one of {' '.join(LETTERS)})")

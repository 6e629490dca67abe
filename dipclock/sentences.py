"""The pieces a sentence said later is made of, in its reader's language: a power, a list
of powers, a phase, a count (``dipclock.i18n.Said``).

A refusal, a vote's result or a hub's log line is made where the rules are checked, before
it is known who reads it (a player's phone in French, the TD's dashboard in German,
``dipclock vote --lang it``), so it is a ``Said``: English as ``str()``, the reader's
language by ``in_(words)``. Its powers, lists of powers and phases are said by the reader's
``Words``, so an event's renamed terms ("Großbritannien") hold in them as on its screens;
each kind keeps itself as JSON (``Said.to_json``), so a stored log line is said again in
any language.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from dipclock.i18n import PHASE, POWER_NAMES, Said, _Phase, _Plural, _Power, _Powers, said
from dipclock.powers import LETTERS


def power(letter: str) -> Said:
    """A power's name, as the reader's language (or the event) calls it."""
    return _Power(POWER_NAMES[letter], letter=letter)


def powers(letters: Iterable[str]) -> Said:
    """"Austria, England, France": the powers given, in the order given."""
    shown = tuple(letters)
    return _Powers(", ".join(POWER_NAMES[p] for p in shown), letters=shown)


def and_powers(letters: Iterable[str]) -> Said:
    """"Austria, England and France", the powers in the order AEFGIRT."""
    shown = [p for p in LETTERS if p in set(letters)]
    return said("{first} and {second}", first=powers(shown[:-1]), second=power(shown[-1]))


def phase(year: int, season: str) -> Said:
    """"Fall 1905", "Automne 1905"."""
    return _Phase(PHASE, year=year, season=season)


def phase_of(code: str) -> Said:
    """A phase by its code, "S1901" -> "Spring 1901" (the log and the API's codes, made by
    ``dipclock.schedule.PhaseRef.code``: read here without the schedule, which reads the
    events, which make sentences); a code of no phase is said as it is."""
    season = {"S": "spring", "F": "fall"}.get(code[:1])
    if season is None or len(code) != 5 or not code[1:].isdigit():
        return Said("{code}", {"code": code})  # not a catalogue entry: said as written
    return phase(int(code[1:]), season)


def plural(one: str, many: str, n: int, /, **values: object) -> Said:
    """A sentence whose form follows ``n`` (marked for the catalogue as ``words.plural``
    is); ``n`` need not be one of its fields."""
    return _Plural(one, values, many=many, n=n)


def listed(first: Said | str, *more: Said | str) -> Said:
    """Items one after the other with commas, "Italy (Bob), Turkey" (each item a sentence
    of its own, or a name as written)."""
    start = first if isinstance(first, Said) else Said("{item}", {"item": first})  # a name:
    # not a catalogue entry, said as written
    return reduce(lambda a, b: said("{first}, {second}", first=a, second=b), more, start)


def clauses(first: Said, *more: Said) -> Said:
    """Clauses one after the other, "a; b; c" (a language may set its own semicolon)."""
    return reduce(lambda a, b: said("{first}; {second}", first=a, second=b), more, first)


__all__ = ["and_powers", "clauses", "listed", "phase", "phase_of", "plural", "power", "powers"]

"""The root of every error a user of dipclock can meet, as gpiozero's ``GPIOZeroError`` is.

A TD, an operator or a player never sees a traceback: whatever they got wrong (a command-line
option, an event file, a kiosk's settings, a GPIO pin, the hub's data folder) ends as one
``DipclockError`` carrying one clear message that says what is wrong, and where a fix is
known, the fix. Each command's shell (``dipclock``, ``dipclock kiosk``, ``dipclock hub``,
``dipclock doctor``) catches ``DipclockError`` and prints or draws its message; anything else
that escapes is a bug, not a message. Subclasses say who raises it (``EventError``,
``ConfigError``, ...) so a shell can still add the right fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class _Sayable(Protocol):
    """A sentence said in its reader's language (``dipclock.i18n.Said``; not imported
    here, as the catalogue's own errors are ``DipclockError`` themselves)."""

    def in_(self, words: Any) -> str: ...


class DipclockError(Exception):
    """An error with one clear message for whoever has to fix it; never a traceback. Raised
    with a ``dipclock.i18n.said(...)`` sentence, it is told in the reader's language
    (``in_``: a phone's page, the command line's ``--lang``); ``str()`` is English."""

    def __init__(self, *args: object) -> None:
        first = args[0] if args else None
        self.said: _Sayable | None = first if isinstance(first, _Sayable) else None
        super().__init__(*((str(first), *args[1:]) if self.said is not None else args))

    def in_(self, words: Any) -> str:
        """The message in ``words``' language (English where it was raised as a str)."""
        return self.said.in_(words) if self.said is not None else str(self)


def N_(text: str) -> str:  # noqa: N802 (``dipclock.i18n.N_``, which imports this module)
    """Marks ``text`` for the catalogue where it is defined; said where it is shown."""
    return text


#: How a problem of each pydantic error type is said (marked for the catalogue:
#: ``dipclock.validation.describe`` says it in the reader's language); any other type says
#: pydantic's words.
KEY_WORDS: Mapping[str, str] = {"extra_forbidden": N_("unknown key"),
                                "missing": N_("required key is missing")}
#: The whole document's name when a problem has no key (``describe``'s ``whole``)
TOP_LEVEL = "(top level)"


def first_problem(errors: Sequence[Mapping[str, Any]], within: Sequence[str] = ()
                  ) -> tuple[Mapping[str, Any] | None, str, int]:
    """The problem of a pydantic error list (``ValidationError.errors()``) to tell, its key
    ("" for the whole document) and how many problems there are: None and 0 when none is.

    A misspelt key explains the "missing" one beside it, so an unknown key is named first;
    a deeper error explains the one about its container ("too short" after a bad item), so
    only the deepest are counted. ``within``: the keys the document sits under."""
    # Linear in the number of problems (a request of 8,000 unknown fields once took 16 s
    # here, pairwise): a problem is deepest when no other one sits inside it, so the
    # strict prefixes of every location are gathered once and looked up.
    inside = {tuple(e["loc"][:n]) for e in errors for n in range(len(e["loc"]))}
    deepest = [e for e in errors if tuple(e["loc"]) not in inside]
    if not deepest:
        return None, "", 0
    err = next((e for e in deepest if e["type"] == "extra_forbidden"), deepest[0])
    key = ".".join(str(p) for p in (*within, *err["loc"]) if p != "")
    return err, key, len(deepest)


def describe(errors: Sequence[Mapping[str, Any]], whole: str = TOP_LEVEL,
             words: Mapping[str, str] = KEY_WORDS, within: Sequence[str] = ()) -> str:
    """The first problem of a pydantic error list as one English line, "key: what was
    expected" (``first_problem``), for a log; ``dipclock.validation.describe`` says the same
    line in the reader's language (the one formatter of every file, setting and request
    body). ``whole``: the name of a problem with the whole document (two keys that must
    come together); ``words``: how each type of problem is said (a request's body has
    fields, not keys); ``within``: the keys the document sits under."""
    err, key, count = first_problem(errors, within)
    if err is None:
        return f"{whole}: invalid"
    msg = words.get(err["type"], str(err.get("msg", "invalid")))
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"{key or whole}: {msg.removeprefix('Value error, ')}{more}"


__all__ = ["KEY_WORDS", "TOP_LEVEL", "DipclockError", "describe", "first_problem"]

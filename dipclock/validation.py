"""A pydantic problem said in its reader's language: every file, setting and request body.

pydantic speaks English only ("Input should be a valid integer, unable to parse string as an
integer"). ``describe`` says the first problem of a ``ValidationError`` as one line, "key:
what was expected" (``dipclock.errors.first_problem`` picks it), as a sentence
(``dipclock.i18n.Said``): ``str()`` is the English line as it always was, ``in_(words)`` the
reader's language (a TD's phone, a table's screen, ``--lang``). Its common problems are said
in our words, whose English is pydantic's message exactly; a validator's own error raised
with a sentence is said as it was raised; anything else in pydantic's words. The key, the
file and the values stay as written. Its own module, as ``dipclock.i18n`` imports
``dipclock.errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from dipclock.errors import KEY_WORDS, TOP_LEVEL, DipclockError, first_problem
from dipclock.i18n import Said, said
from dipclock.sentences import plural

#: Our sentence for a problem of one pydantic error type, from the error's context
Made = Callable[[Mapping[str, Any]], Said | None]


def describe(errors: Sequence[Mapping[str, Any]], whole: str = TOP_LEVEL,
             words: Mapping[str, str] = KEY_WORDS, within: Sequence[str] = ()) -> Said:
    """The first problem of a pydantic error list (``ValidationError.errors()``), "key: what
    was expected", said in the reader's language (``dipclock.errors.describe`` is its
    English). ``whole``: the name of a problem with the whole document (two keys that must
    come together); ``words``: how each type of problem is said, English marked for the
    catalogue (a request's body has fields, not keys); ``within``: the keys the document
    sits under."""
    err, key, count = first_problem(errors, within)
    named: Said | str = key or (said("(top level)") if whole == TOP_LEVEL else whole)
    if err is None:
        return said("{key}: invalid", key=named)
    problem = Said(words[err["type"]]) if err["type"] in words else _problem(err)
    if count > 1:
        return plural("{key}: {problem} (and {n} more)", "{key}: {problem} (and {n} more)",
                      count - 1, key=named, problem=problem)
    return said("{key}: {problem}", key=named, problem=problem)


def _problem(err: Mapping[str, Any]) -> object:
    """One pydantic problem: a validator's own sentence (an error raised with one), else our
    words for its type when their English is pydantic's message exactly (so the English
    line is what it always was, whatever pydantic's version says), else pydantic's own."""
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    ctx = err.get("ctx") or {}
    cause = ctx.get("error") if err["type"] == "value_error" else None
    if isinstance(cause, DipclockError) and cause.said is not None:
        return cause
    if isinstance(cause, Exception) and cause.args and isinstance(cause.args[0], Said):
        return cause.args[0]  # ValueError(said(...)) in a validator
    made = _pydantic().get(err["type"])
    try:
        ours = made(ctx) if made is not None else None
    except (KeyError, TypeError, ValueError):  # a context of another pydantic version
        ours = None
    return ours if ours is not None and str(ours) == msg else msg


def _number(value: object) -> object:
    """A bound as pydantic writes it: 30.0 as 30."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _either(expected: object) -> object:
    """pydantic's list of what may be given, "0, 90, 180 or 270", said with the reader's
    "or" (each choice as written)."""
    choices, sep, last = str(expected).rpartition(" or ")
    return said("{choices} or {last}", choices=choices, last=last) if sep else str(expected)


def _sized(kind: object, at_least: bool, ctx: Mapping[str, Any]) -> Said | None:
    """A list's or a table's length out of bounds ("too_short", "too_long")."""
    actual = ctx["actual_length"]
    if at_least:
        n = ctx["min_length"]
        if kind == "List":
            return plural("List should have at least {n} item after validation, not {actual}",
                          "List should have at least {n} items after validation, not {actual}",
                          n, actual=actual)
        if kind == "Dictionary":
            return plural("Dictionary should have at least {n} item after validation, not "
                          "{actual}", "Dictionary should have at least {n} items after "
                          "validation, not {actual}", n, actual=actual)
        return None
    n = ctx["max_length"]
    if kind == "List":
        return plural("List should have at most {n} item after validation, not {actual}",
                      "List should have at most {n} items after validation, not {actual}",
                      n, actual=actual)
    if kind == "Dictionary":
        return plural("Dictionary should have at most {n} item after validation, not "
                      "{actual}", "Dictionary should have at most {n} items after "
                      "validation, not {actual}", n, actual=actual)
    return None


@cache
def _pydantic() -> dict[str, Made]:
    """Our words for pydantic's common problems, by its error type."""
    return {
        "int_type": lambda c: said("Input should be a valid integer"),
        "int_parsing": lambda c: said("Input should be a valid integer, unable to parse "
                                      "string as an integer"),
        "int_from_float": lambda c: said("Input should be a valid integer, got a number "
                                         "with a fractional part"),
        "float_type": lambda c: said("Input should be a valid number"),
        "float_parsing": lambda c: said("Input should be a valid number, unable to parse "
                                        "string as a number"),
        "bool_type": lambda c: said("Input should be a valid boolean"),
        "bool_parsing": lambda c: said("Input should be a valid boolean, unable to "
                                       "interpret input"),
        "string_type": lambda c: said("Input should be a valid string"),
        "list_type": lambda c: said("Input should be a valid list"),
        "dict_type": lambda c: said("Input should be a valid dictionary"),
        "model_type": lambda c: said("Input should be an object"),  # read from JSON
        "datetime_type": lambda c: said("Input should be a valid datetime"),
        "greater_than": lambda c: said("Input should be greater than {bound}",
                                       bound=_number(c["gt"])),
        "greater_than_equal": lambda c: said("Input should be greater than or equal to "
                                             "{bound}", bound=_number(c["ge"])),
        "less_than": lambda c: said("Input should be less than {bound}",
                                    bound=_number(c["lt"])),
        "less_than_equal": lambda c: said("Input should be less than or equal to {bound}",
                                          bound=_number(c["le"])),
        "string_too_short": lambda c: plural(
            "String should have at least {n} character",
            "String should have at least {n} characters", c["min_length"]),
        "string_too_long": lambda c: plural(
            "String should have at most {n} character",
            "String should have at most {n} characters", c["max_length"]),
        "too_short": lambda c: _sized(c["field_type"], True, c),
        "too_long": lambda c: _sized(c["field_type"], False, c),
        "literal_error": lambda c: said("Input should be {expected}",
                                        expected=_either(c["expected"])),
        "enum": lambda c: said("Input should be {expected}", expected=_either(c["expected"])),
        "string_pattern_mismatch": lambda c: said("String should match pattern '{pattern}'",
                                                  pattern=c["pattern"]),
    }


__all__ = ["describe"]

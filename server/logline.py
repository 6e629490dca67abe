"""A log line in its reader's language (issue 38): the hub's log (``audit``) keeps each
action's English ``summary`` as the event's record (the archive, the exports and the tests
read it), and beside it, in ``said``, the sentence it was made from, so the TD's French
phone reads it in French.

``Said.to_json`` keeps a sentence with its kinds of piece (a power, a phase, a count:
``dipclock.sentences``), and ``Said.from_json`` reads it back. A line stored before
sentences were kept, or one that cannot be read, is shown as its English text.
"""

from __future__ import annotations

import json

from dipclock.i18n import Said, Words

#: a log line as an action gives it: English text, or a sentence to say in any language
Summary = str | Said


def kept(summary: str | Said) -> str | None:
    """What the ``said`` column keeps for ``summary``: its sentence as JSON, or None for
    plain English text."""
    return json.dumps(summary.to_json(), ensure_ascii=False) if isinstance(summary, Said) \
        else None


def shown(summary: str, stored: str | None, words: Words) -> str:
    """The log line ``summary`` (English) in ``words``, from its ``stored`` sentence when
    there is one; the English line when there is none, or it cannot be read or said."""
    if not stored:
        return summary
    try:
        sentence = Said.from_json(json.loads(stored))
        return summary if sentence is None else sentence.in_(words)
    except (ValueError, KeyError, IndexError, TypeError):  # a damaged line: still the record
        return summary


def restored(summary: str, stored: str | None) -> str | Said:
    """The log line's sentence again, to say inside another ("undo: {change}"), or its
    English text when none was kept (or it cannot be read)."""
    try:
        sentence = Said.from_json(json.loads(stored)) if stored else None
    except ValueError:
        sentence = None
    return summary if sentence is None else sentence


__all__ = ["Summary", "kept", "restored", "shown"]

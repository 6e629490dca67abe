"""The command line's language: ``--lang`` on each command that prints words for a person,
else the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English
(``dipclock.i18n``). ``--json`` keeps its English keys and values whatever the language:
scripts depend on them."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable

from dipclock import arguments
from dipclock.arguments import add_lang
from dipclock.eventfiles import os_reason as os_said
from dipclock.i18n import Said, Words


def words_for(args: argparse.Namespace) -> Words:
    """The words of this command: its ``--lang``, else the environment's."""
    return arguments.words_for(args, os.environ)


def words_in(argv: list[str]) -> Words:
    """The words of a command line that may not have parsed (``arguments.words_in``)."""
    return arguments.words_in(argv, os.environ)


#: A line for a person the launcher makes before it knows the reader's language: said
#: (translated when printed) or plain text (a core's or the hub's English note).
Note = Said | str


def told(exc: BaseException) -> Note:
    """An error's message as a ``Note`` (printed by ``print_notes``): its ``Said`` where it
    was raised with one, else its own (English) text. (As a field of another sentence, or
    a ``UsageError``'s message, the error itself is given: a ``Said`` says it.)"""
    sentence = getattr(exc, "said", None)
    return sentence if isinstance(sentence, Said) else str(exc)


def say_in(words: Words, line: Note) -> str:
    return line.in_(words) if isinstance(line, Said) else line


def print_notes(words: Words, notes: Iterable[Note]) -> None:
    """Each note on stderr as ``dipclock: note: ...``, in the command's language."""
    for note in notes:
        print(words("dipclock: note: {note}", note=say_in(words, note)), file=sys.stderr)


__all__ = ["Note", "add_lang", "os_said", "print_notes", "say_in", "told", "words_for",
           "words_in"]

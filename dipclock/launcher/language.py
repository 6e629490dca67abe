"""The command line's language: ``--lang`` on each command that prints words for a person,
else the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English
(``dipclock.i18n``). ``--json`` keeps its English keys and values whatever the language:
scripts depend on them."""

from __future__ import annotations

import argparse
import os
from typing import Any

from dipclock.i18n import Words, from_environment, language


def add_lang(parser: Any) -> None:
    parser.add_argument("--lang", help="the language of the words printed: en, fr, de, it "
                        "or nl (default: LANG's); --json keeps its English keys")


def words_for(args: argparse.Namespace) -> Words:
    """The words of this command: its ``--lang``, else the environment's."""
    lang = getattr(args, "lang", None)
    return Words(language(lang) if lang else from_environment(os.environ))


__all__ = ["add_lang", "words_for"]

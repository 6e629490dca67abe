"""The words a person reads, in their language: one gettext catalogue per language.

Every word a TD or a player reads goes through a ``Words``, always named ``words`` where it
is called (the catalogue's extraction looks for ``words(...)``, ``words.plural(...)`` and
``N_(...)``): ``words("Round")`` is the
catalogue's translation, ``words.power("E")`` and ``words.phase(ref)`` the game's own terms,
which an event may rename (``terms``: "Großbritannien" for England, without a new
catalogue). Code that is not shown a ``Words`` speaks English (``ENGLISH``), so each shell
passes the language it was given down as it is converted.

Why gettext: it is the ecosystem's standard (Python's own ``gettext`` module reads the
catalogues, so a table's Pi needs nothing more), translators' tools know its ``.po`` files,
and Babel extracts the Python, templates and page scripts alike into one ``.pot``
(``make i18n``; ``tests/test_catalogues.py`` fails CI when a catalogue lacks a string English
has, or its compiled ``.mo`` is older than its ``.po``). Babel itself is only a development
tool here: its locale data would add 30 MB to a table's card for what 7 weekday names do.

The JSON of the API and of the commands keeps its English keys and values: scripts depend
on them; only text meant for a person is translated. Pure: the catalogues are read from the
package once, on first use.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from importlib.resources import files
from typing import Protocol

from dipclock.errors import DipclockError

#: The languages with a complete catalogue, in their own words (a language switch lists
#: them so).
LANGUAGES: dict[str, str] = {
    "en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano", "nl": "Nederlands",
}
#: A pseudo-language for the layout tests: every string 40 % longer, accented, bracketed,
#: so a screen that cuts off a long translation, or shows an untranslated word, is seen.
PSEUDO = "xx"
DOMAIN = "dipclock"
#: the catalogues, inside the package (a wheel carries them: ``pyproject.toml``)
LOCALE_DIR = str(files("dipclock") / "locale")


def N_(text: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Marks ``text`` for the catalogue where it is defined (a table of words); it is
    translated where it is shown, by ``Words``."""
    return text


class LanguageError(DipclockError, ValueError):
    """A language dipclock has no catalogue for, with the ones it has."""


class _Catalogue(Protocol):
    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


#: The seasons as catalogue entries (``PhaseRef.season`` is the key, in English)
SEASONS: dict[str, str] = {"spring": N_("Spring"), "fall": N_("Fall")}
#: The powers' names as catalogue entries, by letter (``dipclock.powers.POWERS``, which
#: reads them from here: one English name for each)
POWER_NAMES: dict[str, str] = {
    "A": N_("Austria"), "E": N_("England"), "F": N_("France"), "G": N_("Germany"),
    "I": N_("Italy"), "R": N_("Russia"), "T": N_("Turkey"),
}
#: A phase as players say it: the season, then the year (a language may turn it round)
PHASE = N_("{season} {year}")
#: Weekdays, Monday first (``date.weekday()``), short as a timetable prints them
WEEKDAYS: tuple[str, ...] = (N_("Mon"), N_("Tue"), N_("Wed"), N_("Thu"), N_("Fri"),
                             N_("Sat"), N_("Sun"))


@dataclass(frozen=True)
class Words:
    """One language's words, with an event's renamed terms. ``terms``: an English term
    (a power's or a season's name) -> what the event calls it."""

    lang: str
    terms: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, text: str, /, **values: object) -> str:
        """``text`` in this language, its ``{name}`` fields filled from ``values``."""
        said = _catalogue(self.lang).gettext(text)
        return _fill(_pseudo(said) if self.lang == PSEUDO else said, values)

    def plural(self, one: str, many: str, n: int, /, **values: object) -> str:
        """The form for ``n`` ("1 table", "3 tables"); ``n`` is a field too."""
        said = _catalogue(self.lang).ngettext(one, many, n)
        return _fill(_pseudo(said) if self.lang == PSEUDO else said, {"n": n, **values})

    def term(self, english: str) -> str:
        """A game term (a power, a season) as the event calls it, else as the language
        does."""
        return self.terms.get(english) or self(english)

    def power(self, letter: str) -> str:
        return self.term(POWER_NAMES[letter])

    def season(self, season: str) -> str:
        return self.term(SEASONS[season])

    def phase(self, year: int, season: str) -> str:
        """"Spring 1903", "Printemps 1903", "Frühjahr 1903"."""
        return self(PHASE, season=self.season(season), year=year)

    def weekday(self, day: date) -> str:
        return self(WEEKDAYS[day.weekday()])


@dataclass(frozen=True)
class Said:
    """A sentence said now and read later, in whichever language its reader speaks: a
    hub's refusal is made before it is known which phone reads it. ``str()`` is English;
    ``in_(words)`` the reader's language. A field's value may be a ``Said`` itself, or a
    ``DipclockError`` (said as it was raised)."""

    text: str
    values: Mapping[str, object] = field(default_factory=dict)

    def in_(self, words: Words) -> str:
        return words(self.text, **_said_values(self.values, words))

    def __str__(self) -> str:
        return self.in_(ENGLISH_WORDS)

    def to_json(self) -> dict[str, object]:
        """What a store keeps to say it again later (a log line read on a French phone):
        ``{"text": ..., "values": {...}}`` and, for a sentence of its own kind (a power, a
        phase, a count), its ``kind`` and what it needs; a value a number, a string, None or
        a sentence of its own; any other value is kept as its English text."""
        def kept(v: object) -> object:
            if isinstance(v, DipclockError) and isinstance(v.said, Said):
                v = v.said
            if isinstance(v, Said):
                return v.to_json()
            return v if v is None or isinstance(v, str | int | float | bool) else str(v)
        return {"text": self.text, "values": {k: kept(v) for k, v in self.values.items()},
                **self._kind()}

    def _kind(self) -> dict[str, object]:
        return {}

    @classmethod
    def from_json(cls, data: object) -> Said | None:
        """The sentence ``to_json`` kept, or None for anything else (a line stored before
        sentences were kept, a damaged one: its English text is shown instead)."""
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            return None
        values = data.get("values")
        if not isinstance(values, dict):
            return None

        def back(v: object) -> object:
            inner = Said.from_json(v) if isinstance(v, dict) else None
            return inner if inner is not None else v
        plain = Said(data["text"], {str(k): back(v) for k, v in values.items()})
        kind = data.get("kind")
        if kind is None:
            return plain
        made = _KINDS.get(kind)
        return made(plain, data) if made is not None else None


@dataclass(frozen=True)
class _Power(Said):
    """A power's name by its letter, as the reader's language (or the event) calls it."""

    letter: str = "A"

    def in_(self, words: Words) -> str:
        return words.power(self.letter)

    def _kind(self) -> dict[str, object]:
        return {"kind": "power", "letter": self.letter}


@dataclass(frozen=True)
class _Powers(Said):
    """Powers listed with commas, "Austria, England, France"."""

    letters: tuple[str, ...] = ()

    def in_(self, words: Words) -> str:
        return ", ".join(words.power(p) for p in self.letters)

    def _kind(self) -> dict[str, object]:
        return {"kind": "powers", "letters": list(self.letters)}


@dataclass(frozen=True)
class _Phase(Said):
    """A phase, "Fall 1905", "Automne 1905"."""

    year: int = 1901
    season: str = "spring"

    def in_(self, words: Words) -> str:
        return words.phase(self.year, self.season)

    def _kind(self) -> dict[str, object]:
        return {"kind": "phase", "year": self.year, "season": self.season}


@dataclass(frozen=True)
class _Plural(Said):
    """``text`` is the singular; the form follows ``n`` in the reader's language."""

    many: str = ""
    n: int = 1

    def in_(self, words: Words) -> str:
        return words.plural(self.text, self.many, self.n, **_said_values(self.values, words))

    def _kind(self) -> dict[str, object]:
        return {"kind": "count", "many": self.many, "n": self.n}


def _power_back(plain: Said, data: dict[str, object]) -> Said | None:
    letter = data.get("letter")
    return _Power(plain.text, letter=letter) if letter in POWER_NAMES else None


def _powers_back(plain: Said, data: dict[str, object]) -> Said | None:
    letters = data.get("letters")
    ok = isinstance(letters, list) and all(p in POWER_NAMES for p in letters)
    return _Powers(plain.text, letters=tuple(letters)) if ok else None  # type: ignore[arg-type]


def _phase_back(plain: Said, data: dict[str, object]) -> Said | None:
    year, season = data.get("year"), data.get("season")
    ok = isinstance(year, int) and season in SEASONS
    return _Phase(plain.text, year=year, season=str(season)) if ok else None  # type: ignore[arg-type]


def _count_back(plain: Said, data: dict[str, object]) -> Said | None:
    many, n = data.get("many"), data.get("n")
    ok = isinstance(many, str) and isinstance(n, int)
    return _Plural(plain.text, plain.values, many=many, n=n) if ok else None  # type: ignore[arg-type]


_KINDS = {"power": _power_back, "powers": _powers_back, "phase": _phase_back,
          "count": _count_back}


def _said_values(values: Mapping[str, object], words: Words) -> dict[str, object]:
    """A sentence's values in ``words``' language: a ``Said``, or an error raised with one
    (``said("seating: {error}", error=exc)``), is said in it; anything else as it is."""
    return {k: v.in_(words) if isinstance(v, Said | DipclockError) else v
            for k, v in values.items()}


def said(text: str, /, **values: object) -> Said:
    """``text`` (marked for the catalogue, like ``words(...)``) with its fields, to be said
    in the reader's language."""
    return Said(text, values)


ENGLISH_WORDS = Words("en")


def _fill(text: str, values: Mapping[str, object]) -> str:
    return text.format(**values) if values else text


_FIELD = re.compile(r"(\{[^{}]*\})")
_ACCENTED = str.maketrans("aeiouAEIOUcnsyCNSY", "àéîõüÅÉÎÕÜçñšýÇÑŠÝ")


def _pseudo(text: str) -> str:
    """``text`` accented and 40 % longer, its ``{fields}`` kept, in brackets."""
    parts = _FIELD.split(text)
    out = "".join(p if _FIELD.fullmatch(p) else p.translate(_ACCENTED) for p in parts)
    pad = "·" * max(1, math.ceil(len(text) * 0.4) - 2)
    return f"[{out}{pad}]"


@cache
def _catalogue(lang: str) -> _Catalogue:
    if lang in ("en", PSEUDO):
        return gettext.NullTranslations()
    if lang not in LANGUAGES:
        raise LanguageError(said("language {language}: one of {languages}",
                                 language=repr(lang), languages=", ".join(LANGUAGES)))
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


#: The hub's pages' own words (``server/static``): a catalogue of their own, sent to a page
#: as JSON (``page_words``), so a page carries no word of its own but English.
PAGES = "pages"


@dataclass(frozen=True)
class PageWords:
    """The pages' catalogue in one language, as a page takes it: ``words`` (English ->
    the language), ``plurals`` (a plural's English singular -> the language's forms, by
    gettext's index) and ``zero_is_one`` (0 takes the singular form: French)."""

    lang: str
    words: dict[str, str]
    plurals: dict[str, list[str]]
    zero_is_one: bool


@cache
def page_words(lang: str) -> PageWords:
    """The pages' catalogue for ``lang`` (none for English: a page's text is English); a
    ``LanguageError`` for a language dipclock has no catalogue for."""
    code = language(lang)
    if code == "en":
        return PageWords(code, {}, {}, False)
    # the pseudo-language says every page string 40 % longer: its keys are any catalogue's
    pages = gettext.translation(PAGES, LOCALE_DIR, languages=["fr" if code == PSEUDO else code])
    table: dict[object, str] = getattr(pages, "_catalog", {})  # gettext's own table
    words = {k: v for k, v in table.items() if isinstance(k, str) and k}
    plurals: dict[str, list[str]] = {}
    for key in sorted((k for k in table if isinstance(k, tuple)), key=str):
        plurals.setdefault(str(key[0]), []).append(table[key])
    if code == PSEUDO:  # a plural's English plural is not in a compiled catalogue: its
        # singular stands for it, as long (what the pseudo-language is for is length)
        return PageWords(code, {k: _pseudo(k) for k in words},
                         {one: [_pseudo(one)] * 2 for one in plurals}, False)
    return PageWords(code, words, plurals, pages.plural(0) == 0)  # type: ignore[attr-defined]


def language(code: str) -> str:
    """``fr``, ``fr_FR.UTF-8``, ``de-CH`` -> the catalogue's language, or a
    ``LanguageError`` naming those there are."""
    base = code.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    if base in LANGUAGES or base == PSEUDO:
        return base
    raise LanguageError(said("language {language}: one of {languages}",
                             language=repr(code), languages=", ".join(LANGUAGES)))


def from_environment(env: Mapping[str, str]) -> str:
    """The language the command line speaks when not told: the first of ``LANGUAGE`` (a
    list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that names a catalogue, as gettext
    looks; English otherwise (``C``, ``POSIX`` or nothing set)."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for code in (env.get(key) or "").split(":"):
            if code and code not in ("C", "POSIX") and not code.startswith("C."):
                try:
                    return language(code)
                except LanguageError:
                    continue
    return "en"


ENGLISH = ENGLISH_WORDS

#: The terms an event may rename (``[terms]`` in its file): the powers' and the seasons'
#: English names.
TERMS: tuple[str, ...] = (*POWER_NAMES.values(), *SEASONS.values())


class _Speaks(Protocol):
    """An event as far as its words go (``dipclock.events.EventProfile``)."""

    @property
    def language(self) -> str: ...
    @property
    def terms(self) -> tuple[tuple[str, str], ...]: ...


def words_of(profile: _Speaks) -> Words:
    """The words of an event's hall: its ``language``, with its renamed ``terms``. Typed by
    what it reads, as ``dipclock.events`` itself marks its words with this module."""
    return Words(profile.language, dict(profile.terms))


def check_terms(terms: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """An event's ``[terms]`` as the profile keeps them (hashable, in ``TERMS`` order), or
    a ``LanguageError`` (a ``ValueError``) naming the unknown key and the terms there
    are."""
    for key, word in terms.items():
        if key not in TERMS:
            raise LanguageError(said("{key} is not a term an event can rename: one of "
                                     "{terms}", key=repr(key), terms=", ".join(TERMS)))
        if not isinstance(word, str) or not word.strip():
            raise LanguageError(said("{key}: the event's word for it, in quotes",
                                     key=repr(key)))
    return tuple((t, terms[t].strip()) for t in TERMS if t in terms)


__all__ = ["ENGLISH", "LANGUAGES", "LOCALE_DIR", "PAGES", "POWER_NAMES", "PSEUDO", "SEASONS",
           "TERMS", "WEEKDAYS", "LanguageError", "N_", "Said", "Words", "check_terms", "said",
           "PageWords", "from_environment", "language", "page_words", "words_of"]

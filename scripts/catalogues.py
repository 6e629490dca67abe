"""``make i18n``: the catalogues brought up to date with the code.

Extracts every string marked for a person to read (``words(...)``, ``words.plural(...)``,
``N_(...)``: ``dipclock.i18n``) from the Python into ``dipclock/locale/dipclock.pot`` with
Babel, merges it into each language's ``.po`` (a new string comes in untranslated, for a
translator; one gone is dropped) and compiles each ``.po`` to the ``.mo`` the code reads.
``tests/test_catalogues.py`` fails while any language lacks a translation.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "dipclock" / "locale"
DOMAIN = "dipclock"
LANGUAGES = ("fr", "de", "it", "nl")
#: where the words are, and how each kind of file is read
SOURCES = ("dipclock", "kiosk", "server", "hardware", "machine")
METHODS = [("**.py", "python")]
KEYWORDS = {"words": None, "N_": None, "plural": (1, 2)}


def extracted() -> Catalog:
    """Every marked string of the code, with where it is used."""
    pot = Catalog(project="dipclock", domain=DOMAIN, charset="utf-8")
    for source in SOURCES:
        for name, line, message, comments, context in extract_from_dir(
                ROOT / source, METHODS, keywords=KEYWORDS, comment_tags=("i18n:",),
                strip_comment_tags=True):
            pot.add(message, locations=[(f"{source}/{name}", line)],
                    auto_comments=comments, context=context,
                    flags=("python-brace-format",) if "{" in str(message) else ())
    return pot


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    pot = extracted()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, pot, omit_header=True, sort_output=True)
    missing = 0
    for lang in LANGUAGES:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        po = read(lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        po.update(pot, no_fuzzy_matching=True)
        with path.open("wb") as f:
            write_po(f, po, omit_header=True, sort_output=True, ignore_obsolete=True)
        path.with_suffix(".mo").write_bytes(compiled(read(lang)))
        left = [m.id for m in read(lang) if m.id and not m.string]
        missing += len(left)
        print(f"{lang}: {len(pot)} strings, {len(left)} to translate")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

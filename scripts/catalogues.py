"""``make i18n``: the catalogues brought up to date with the code.

Two catalogues, one per kind of reader (``dipclock.i18n``):

- ``dipclock``: every string marked for a person to read in the Python (``words(...)``,
  ``words.plural(...)``, ``N_(...)``, ``said(...)``), for the table screens, the hub's own
  words and the command line;
- ``pages``: the hub's page scripts' own words (``words(...)``, ``plural(...)`` in
  ``server/static/*.js``) and the pages' fixed text (an HTML element marked ``data-w``),
  which the hub sends a page as JSON (``GET /api/words/{lang}``).

Each is extracted with Babel into ``dipclock/locale/<domain>.pot``, merged into each
language's ``.po`` (a new string comes in untranslated, for a translator; one gone is
dropped) and compiled to the ``.mo`` the code reads. ``tests/test_catalogues.py`` fails
while any language lacks a translation.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "dipclock" / "locale"
LANGUAGES = ("fr", "de", "it", "nl")
KEYWORDS = {"words": None, "N_": None, "plural": (1, 2), "said": None}
#: a page script's own: its words(...) and plural(...) alone (a script's said() is no mark)
PAGE_KEYWORDS = {"words": None, "plural": (1, 2)}
#: each catalogue: the folders its words are in, and how each kind of file is read
DOMAINS: dict[str, tuple[tuple[str, ...], list[tuple[str, str]]]] = {
    "dipclock": (("dipclock", "kiosk", "server", "hardware", "machine"),
                 [("**.py", "python")]),
    "pages": (("server/static",),
              [("**.js", "javascript"), ("**.html", "scripts.catalogues:extract_html")]),
}


#: elements with no end tag (``<input>``): their attributes only
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})


class _Marked(HTMLParser):
    """The text of each element marked ``data-w`` (its own text, one string), and each
    attribute an element names in ``data-w-attrs`` ("placeholder title")."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marked = any(name == "data-w" for name, _ in attrs)
        said = dict(attrs)
        for name in (said.get("data-w-attrs") or "").split():
            text = " ".join((said.get(name) or "").split())
            if text:
                self.found.append((self.getpos()[0], text))
        if tag in _VOID:  # no end tag comes: nothing of its own to keep open
            return
        self._open.append((tag, self.getpos()[0], []) if marked else None)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            top = self._open.pop()
            if top is not None and top[0] == tag:
                text = " ".join("".join(top[2]).split())
                if text:
                    self.found.append((top[1], text))
                return
            if top is None:
                return

    def handle_data(self, data: str) -> None:
        for open_ in reversed(self._open):
            if open_ is not None:
                open_[2].append(data)
                return


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for a page: each ``data-w`` element's text and ``data-w-attrs``
    attribute, where it starts."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, "words", text, []


def extracted(domain: str = "dipclock") -> Catalog:
    """Every marked string of the domain's code, with where it is used."""
    sources, methods = DOMAINS[domain]
    pot = Catalog(project="dipclock", domain=domain, charset="utf-8")
    for source in sources:
        for name, line, message, comments, context in extract_from_dir(
                ROOT / source, methods,
                keywords=PAGE_KEYWORDS if domain == "pages" else KEYWORDS, comment_tags=("i18n:",),
                strip_comment_tags=True):
            flags = ("python-brace-format",) if "{" in str(message) else ()
            pot.add(message, locations=[(f"{source}/{name}", line)],
                    auto_comments=comments, context=context, flags=flags)
    return pot


def translated(message: Any) -> bool:
    """A message has its translation: every form of a plural."""
    said = message.string
    return all(said) if isinstance(said, tuple | list) else bool(said)


def po_path(lang: str, domain: str = "dipclock") -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str = "dipclock") -> Catalog:
    with po_path(lang, domain).open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> int:
    missing = 0
    LOCALE.mkdir(parents=True, exist_ok=True)
    for domain in DOMAINS:
        pot = extracted(domain)
        with (LOCALE / f"{domain}.pot").open("wb") as f:
            write_po(f, pot, omit_header=True, sort_output=True)
        for lang in LANGUAGES:
            path = po_path(lang, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            po = read(lang, domain) if path.exists() else Catalog(locale=lang, domain=domain)
            po.update(pot, no_fuzzy_matching=True)
            with path.open("wb") as f:
                write_po(f, po, omit_header=True, sort_output=True, ignore_obsolete=True)
            path.with_suffix(".mo").write_bytes(compiled(read(lang, domain)))
            left = [m.id for m in read(lang, domain) if m.id and not translated(m)]
            missing += len(left)
            print(f"{domain} {lang}: {len(pot)} strings, {len(left)} to translate")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

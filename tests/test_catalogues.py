"""The catalogues (issue 38): CI fails when a language lacks a string English has, when a
translation drops or invents a ``{field}``, or when a compiled ``.mo`` (what the code reads)
or the ``.pot`` is older than the code. ``make i18n`` brings them up to date."""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.pofile import read_po

from scripts.catalogues import (
    DOMAINS,
    LANGUAGES,
    LOCALE,
    ROOT,
    extracted,
    po_path,
    read,
    translated,
)

FIELD = re.compile(r"\{[^{}]*\}")
EACH = [(d, lang) for d in DOMAINS for lang in LANGUAGES]


@pytest.fixture(scope="module")
def code_strings() -> dict[str, dict[str, object]]:
    return {d: {m.id: m for m in extracted(d) if m.id} for d in DOMAINS}


@pytest.mark.parametrize(("domain", "lang"), EACH)
def test_every_string_english_has_is_translated(domain, lang, code_strings):
    po = read(lang, domain)
    missing = [k for k in code_strings[domain] if k not in po or not translated(po[k])]
    assert not missing, (f"{domain} {lang}: {len(missing)} strings untranslated (make i18n, "
                         f"then translate {po_path(lang, domain)}): {missing[:5]}")
    fuzzy = [m.id for m in po if m.id and m.fuzzy]
    assert not fuzzy, f"{domain} {lang}: fuzzy translations to check: {fuzzy[:5]}"


@pytest.mark.parametrize(("domain", "lang"), EACH)
def test_a_translation_keeps_every_field_of_its_string(domain, lang):
    for m in read(lang, domain):
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = sorted(set(FIELD.findall(ids[-1])))
        for said in strings:
            assert sorted(set(FIELD.findall(said))) == wanted, (lang, m.id, said)


@pytest.mark.parametrize(("domain", "lang"), EACH)
def test_the_compiled_catalogue_is_its_po(domain, lang):
    """What the code reads (the .mo, by Python's gettext) says what the .po says, every
    string (its header's dates aside: Babel stamps a compile with the time)."""
    with po_path(lang, domain).with_suffix(".mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    stale = f"{domain} {lang}: the .mo is older than its .po: make i18n"
    for m in read(lang, domain):
        if not m.id or not m.string:
            continue
        if isinstance(m.id, tuple):
            for n, said in ((1, m.string[0]), (2, m.string[-1])):
                assert mo.ngettext(m.id[0], m.id[1], n) == said, stale
        else:
            assert mo.gettext(m.id) == m.string, stale
    table = getattr(mo, "_catalog", {})
    assert len([k for k in table if k]) >= len([m for m in read(lang, domain) if m.id]), stale


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_is_the_code_s(domain, code_strings):
    with (LOCALE / f"{domain}.pot").open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert template == set(code_strings[domain]), (
        f"the {domain}.pot is older than the code: make i18n")


#: a page script's words(...) whose text is not written out: the extraction cannot see it
#: (``words(cond ? "a" : "b")`` once left "a" untranslated); common.js's own lookups of a
#: marked element's English (``e.dataset``) aside
UNSEEN = re.compile(r"\b(?:words|plural)\(\s*(?![\"'`])")


def test_every_page_word_is_written_out_for_the_catalogue():
    found = []
    for script in sorted((ROOT / "server" / "static").glob("*.js")):
        for n, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if UNSEEN.search(code) and "function " not in code \
                    and not (script.name == "common.js" and "e.dataset" in code):
                found.append(f"{script.name}:{n}: {line.strip()}")
    assert not found, "words(...) without a written-out string: " + "; ".join(found)

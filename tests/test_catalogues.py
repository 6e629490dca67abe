"""The catalogues (issue 38): CI fails when a language lacks a string English has, when a
translation drops or invents a ``{field}``, or when a compiled ``.mo`` (what the code reads)
or the ``.pot`` is older than the code. ``make i18n`` brings them up to date."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from scripts.catalogues import LANGUAGES, LOCALE, compiled, extracted, po_path, read

FIELD = re.compile(r"\{[^{}]*\}")


@pytest.fixture(scope="module")
def code_strings() -> dict[str, object]:
    return {m.id: m for m in extracted() if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_english_has_is_translated(lang, code_strings):
    po = read(lang)
    missing = [k for k in code_strings if k not in po or not po[k].string]
    assert not missing, (f"{lang}: {len(missing)} strings untranslated (make i18n, then "
                         f"translate {po_path(lang)}): {missing[:5]}")
    fuzzy = [m.id for m in po if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy translations to check: {fuzzy[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_keeps_every_field_of_its_string(lang):
    for m in read(lang):
        if not m.id or not m.string:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = sorted(set(FIELD.findall(ids[-1])))
        for said in strings:
            assert sorted(set(FIELD.findall(said))) == wanted, (lang, m.id, said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_is_its_po(lang):
    assert po_path(lang).with_suffix(".mo").read_bytes() == compiled(read(lang)), (
        f"{lang}: the .mo is older than its .po: make i18n")


def test_the_template_is_the_code_s(code_strings):
    with (LOCALE / "dipclock.pot").open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert template == set(code_strings), "the .pot is older than the code: make i18n"

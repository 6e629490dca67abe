"""The card's ``dipclock.txt`` in the venue's language, from one source (``machine.cardfile``):
the committed file is its English render, a card built with ``CARD_LANGUAGE=fr`` has it in
French with ``language = fr`` in use, and every render is a file the card reads whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from card import build
from dipclock.i18n import ENGLISH, LANGUAGES, Words
from machine.cardfile import PARTS, WIDTH, Heading, Note, render
from machine.identity import parse_boot_file

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "card/files/boot/dipclock.txt"
F = Path("/boot/firmware/dipclock.txt")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def test_the_committed_file_is_the_english_render() -> None:
    """Edit ``machine/cardfile.py``, then write the file again:
    ``python -c 'import sys; from machine.cardfile import render; sys.stdout.write(render())'
    > card/files/boot/dipclock.txt``."""
    assert COMMITTED.read_text(encoding="utf-8") == render(ENGLISH)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_language_s_file_is_read_whole_and_says_its_language(lang: str) -> None:
    text = render(Words(lang))
    boot = parse_boot_file(text, F)  # strict: no line refused
    assert boot.settings() == ({} if lang == "en" else {"language": lang})
    assert all(len(line) <= WIDTH for line in text.splitlines() if "`" not in line)
    # the keys are the same in every language: only the notes are translated
    keys = [line.lstrip("# ").split(" = ")[0] for line in text.splitlines()
            if " = " in line and not line.startswith("# ----")]
    english = [line.lstrip("# ").split(" = ")[0] for line in render().splitlines()
               if " = " in line and not line.startswith("# ----")]
    assert keys == english


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_note_of_the_file_is_translated(lang: str) -> None:
    """A note left English in a French card's file: its catalogue lacks the string."""
    words = Words(lang)
    left = [p.text for p in PARTS if isinstance(p, Note | Heading) and p.text
            and words(p.text) == p.text]
    assert not left, f"{lang}: {left}"


def test_the_build_writes_the_file_in_card_language(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text("")
    monkeypatch.setenv("CARD_LANGUAGE", "de_DE.UTF-8")
    boot = build.boot_files(root, tmp_path / "work")
    assert (boot / "dipclock.txt").read_text(encoding="utf-8") == render(Words("de"))
    monkeypatch.delenv("CARD_LANGUAGE")
    (root / "boot/firmware/config.txt").write_text("")  # moved to the boot partition
    boot = build.boot_files(root, tmp_path / "work")
    assert (boot / "dipclock.txt").read_text(encoding="utf-8") == COMMITTED.read_text()


@pytest.mark.parametrize(("given", "lang"), [("", "en"), ("fr", "fr"), (" NL ", "nl"),
                                             ("it_IT.UTF-8", "it")])
def test_card_language_is_one_dipclock_speaks(given: str, lang: str) -> None:
    assert build.card_words({"CARD_LANGUAGE": given}).lang == lang
    assert build.card_words({}).lang == "en"


@pytest.mark.parametrize("given", ["es", "xx", "français"])
def test_a_card_language_without_a_catalogue_stops_the_build_first(given: str) -> None:
    with pytest.raises(build.BuildError, match="CARD_LANGUAGE=.*one of en, fr, de, it, nl"):
        build.card_words({"CARD_LANGUAGE": given})

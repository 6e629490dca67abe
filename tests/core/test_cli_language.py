"""The command line's error lines and notes in its language: ``--lang``, else ``LANG``
(``dipclock.launcher.language``), English otherwise, exit status 2 either way. Run through
the real ``main()``, as a TD types the commands."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from dipclock.arguments import ARGPARSE, Parser, argparse_said
from dipclock.i18n import Said, Words
from dipclock.launcher.cli import main

#: The variables gettext reads for the language, cleared so the machine's own do not count.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def no_language(monkeypatch):
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


ENGLISH_START = "dipclock: error: 'nonsense' is not a time like 2003-02-14T19:00 or 19:00\n"


def test_a_bad_start_in_english_without_a_language(capsys):
    assert run(capsys, "plan", "wdc2019", "--start", "nonsense") == (2, "", ENGLISH_START)


def test_a_bad_start_in_french_with_lang_fr(capsys):
    code, out, err = run(capsys, "plan", "wdc2019", "--lang", "fr", "--start", "nonsense")
    assert (code, out) == (2, "")
    assert err == ("dipclock : erreur : 'nonsense' n'est pas une heure comme "
                   "2003-02-14T19:00 ou 19:00\n")


def test_a_bad_start_in_german_from_lang(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, _, err = run(capsys, "plan", "wdc2019", "--start", "nonsense")
    assert code == 2
    assert err == "dipclock: Fehler: 'nonsense' ist keine Zeit wie 2003-02-14T19:00 oder 19:00\n"


def test_lang_wins_over_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, _, err = run(capsys, "plan", "wdc2019", "--start", "nonsense", "--lang=en")
    assert (code, err) == (2, ENGLISH_START)


def test_an_unknown_event_in_german(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, _, err = run(capsys, "plan", "nowhere", "--start", "19:00")
    assert code == 2
    assert err.startswith("dipclock: Fehler: unbekanntes Turnier 'nowhere': nimm eines von "
                          "wdc2003, ")
    assert err.endswith(" oder eine .toml-Datei\n")


def test_an_event_file_not_found_in_french_and_english(capsys, tmp_path):
    missing = tmp_path / "missing.toml"
    code, _, err = run(capsys, "plan", missing, "--start", "19:00", "--lang", "fr")
    assert code == 2
    assert err == (f"dipclock : erreur : {missing} : impossible de lire le fichier du "
                   "tournoi : Aucun fichier ou dossier de ce nom\n")
    code, _, err = run(capsys, "plan", missing, "--start", "19:00")
    assert (code, err) == (2, f"dipclock: error: {missing}: cannot read event file: No such "
                              "file or directory\n")


def test_a_penalty_out_of_range_in_dutch(capsys):
    code, _, err = run(capsys, "penalty", "wdc2019", "--late", "99999999", "--lang=nl")
    assert code == 2
    assert err == ("dipclock: fout: --late 1e+08: seconden na de deadline, van 0 tot 86400 "
                   "(een dag)\n")


@pytest.mark.parametrize(("argv", "english", "italian"), [
    (["plan", "wdc2019"], "the following arguments are required: --start",
     "i seguenti argomenti sono obbligatori: --start"),
    (["plan", "wdc2019", "--start"], "argument --start: expected one argument",
     "argomento --start: atteso un argomento"),
    (["penalty", "wdc2019", "--late", "x"], "argument --late: invalid float value: 'x'",
     "argomento --late: valore float non valido: 'x'"),
    (["plan", "wdc2019", "--start", "19:00", "--bogus"], "unrecognized arguments: --bogus",
     "argomenti non riconosciuti: --bogus"),
])
def test_argparse_refusals_in_the_language(capsys, argv, english, italian):
    """argparse's own messages (Python's, in English) are read back into the catalogue's."""
    assert run(capsys, *argv) == (2, "", f"dipclock: error: {english}\n")
    assert run(capsys, *argv, "--lang", "it") == (2, "", f"dipclock: errore: {italian}\n")


def test_an_unknown_command_in_french(capsys):
    code, _, err = run(capsys, "blah", "--lang", "fr")
    assert code == 2
    assert err.startswith("dipclock : erreur : argument command : choix invalide : 'blah' "
                          "(choisir parmi 'events', ")


def test_argparse_said_keeps_english_exactly_and_what_it_does_not_know():
    nested = argparse_said("argument --phase: invalid choice: 'winter' (choose from "
                           "'spring', 'fall')")
    assert isinstance(nested, Said)
    assert str(nested) == "argument --phase: invalid choice: 'winter' (choose from " \
                          "'spring', 'fall')"
    assert isinstance(nested.values["message"], Said)
    assert argparse_said("something argparse never says") == "something argparse never says"


def test_every_argparse_sentence_is_one_the_parser_can_read_back():
    """Each sentence, filled, is read back into itself: its fields are found again."""
    for text in ARGPARSE:
        filled = Said(text, {k: f"<{k}>" for k in ("argument", "message", "arguments",
                                                  "value", "choices", "type", "option",
                                                  "matches") if "{" + k + "}" in text})
        again = argparse_said(str(filled))
        assert isinstance(again, Said) and again.text == text, text


def test_a_parser_refusal_is_said_in_the_reader_language():
    with pytest.raises(Exception) as caught:
        Parser(prog="x").parse_args(["--nope"])
    assert str(caught.value) == "unrecognized arguments: --nope"
    assert caught.value.in_(Words("de")) == "unbekannte Argumente: --nope"


def test_a_note_in_german(capsys, monkeypatch, tmp_path: Path):
    """``dipclock: note: ...`` and the note itself: the seed a seating was drawn with."""
    players = tmp_path / "players.csv"
    with players.open("w", newline="") as f:
        csv.writer(f).writerows([["player"], *([f"P{n}"] for n in range(7))])
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    code, _, err = run(capsys, "seat", "wdc2019", "--players", players, "--round", "1")
    assert code == 0
    seed = re.fullmatch(r"dipclock: Hinweis: Startwert (\d+): --seed \1 setzt wieder genauso\n",
                        err)
    assert seed is not None, err
    monkeypatch.delenv("LANG")
    code, _, err = run(capsys, "seat", "wdc2019", "--players", players, "--round", "1")
    assert re.fullmatch(r"dipclock: note: seed (\d+): --seed \1 seats the same again\n", err)


def test_a_file_error_of_seat_in_italian(capsys, tmp_path: Path):
    players = tmp_path / "players.csv"
    players.write_text("player\nAda\n", encoding="utf-8")
    code, _, err = run(capsys, "seat", "wdc2019", "--players", players, "--round", "1",
                       "--lang", "it")
    assert code == 2
    assert err == f"dipclock: errore: {players}: 1 giocatori: un tavolo ne richiede 7\n"

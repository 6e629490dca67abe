"""Words in the venue's language (issue 38): the catalogues' lookup, the language from the
environment or ``--lang``, an event's renamed terms, the pseudo-language, and ``dipclock
plan`` in German and French with its JSON unchanged."""

from __future__ import annotations

import json
from datetime import date

import pytest

from dipclock.i18n import (
    ENGLISH,
    LANGUAGES,
    POWER_NAMES,
    PSEUDO,
    LanguageError,
    Words,
    from_environment,
    language,
)
from dipclock.launcher.cli import main
from dipclock.powers import POWERS


def test_the_powers_and_seasons_as_players_call_them():
    """Issue 38's list: Autriche-Hongrie, Österreich-Ungarn, Austria-Ungheria,
    Oostenrijk-Hongarije; printemps/automne, Frühjahr/Herbst, primavera/autunno,
    lente/herfst."""
    said = {lang: [Words(lang).power(p) for p in "AEFGIRT"] for lang in LANGUAGES}
    assert said["en"] == list(POWERS.values())
    assert said["fr"] == ["Autriche-Hongrie", "Angleterre", "France", "Allemagne", "Italie",
                          "Russie", "Turquie"]
    assert said["de"] == ["Österreich-Ungarn", "England", "Frankreich", "Deutschland",
                          "Italien", "Russland", "Türkei"]
    assert said["it"] == ["Austria-Ungheria", "Inghilterra", "Francia", "Germania", "Italia",
                          "Russia", "Turchia"]
    assert said["nl"] == ["Oostenrijk-Hongarije", "Engeland", "Frankrijk", "Duitsland",
                          "Italië", "Rusland", "Turkije"]
    assert [Words(x).phase(1903, "fall") for x in ("fr", "de", "it", "nl")] == [
        "Automne 1903", "Herbst 1903", "Autunno 1903", "Herfst 1903"]
    assert Words("de").weekday(date(2026, 11, 28)) == "Sa"
    assert set(POWER_NAMES.values()) == set(POWERS.values())


def test_an_event_renames_a_term_without_a_catalogue():
    """"An event can rename terms (say "Großbritannien" for England)"."""
    words = Words("de", {"England": "Großbritannien", "Spring": "Frühling"})
    assert words.power("E") == "Großbritannien" and words.power("F") == "Frankreich"
    assert words.phase(1901, "spring") == "Frühling 1901"


def test_the_language_from_lang_or_an_option():
    assert language("fr_FR.UTF-8") == "fr" and language("de-CH") == "de"
    assert language("nl_BE@euro") == "nl" and language("IT") == "it"
    with pytest.raises(LanguageError, match="language 'es': one of en, fr, de, it, nl"):
        language("es")
    assert from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert from_environment({"LANGUAGE": "es:it", "LANG": "de_DE.UTF-8"}) == "it"
    assert from_environment({"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}) == "fr"
    assert from_environment({"LANG": "C"}) == "en" and from_environment({}) == "en"


def test_the_pseudo_language_is_longer_and_keeps_its_fields():
    words = Words(PSEUDO)
    said = words("break {start} to {end}", start="12:00", end="12:45")
    assert "12:00" in said and "12:45" in said and said.startswith("[")
    assert len(words("the starting centres count")) >= 1.4 * len(
        ENGLISH("the starting centres count"))


def run(capsys, monkeypatch, env: dict[str, str], *argv: str) -> tuple[int, str, str]:
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


PLAN = ("plan", "wdc2019", "--start", "2019-09-06T10:00")


def test_plan_follows_lang_and_the_lang_option(capsys, monkeypatch):
    """Done when: `LANG=de_DE.UTF-8 dipclock plan wdc2019` and `dipclock plan wdc2019
    --lang fr` print the phases in those languages; `--json` is unchanged."""
    code, out, _ = run(capsys, monkeypatch, {"LANG": "de_DE.UTF-8"}, *PLAN)
    assert code == 0
    assert "Runde: Beginn Fr 2019-09-06 10:00" in out
    assert "Frühjahr 1901" in out and "Herbst 1907" in out and "Spring" not in out
    assert "Abgabe" in out and "Deadline" not in out
    code, out, _ = run(capsys, monkeypatch, {"LANG": "de_DE.UTF-8"}, *PLAN, "--lang", "fr")
    assert code == 0 and "Printemps 1901" in out and "Automne 1907" in out
    assert "La partie se termine à l'échéance de l'automne 1907." in out
    _, english, _ = run(capsys, monkeypatch, {}, *PLAN, "--json")
    for env, extra in (({"LANG": "de_DE.UTF-8"}, ()), ({}, ("--lang", "nl"))):
        _, other, _ = run(capsys, monkeypatch, env, *PLAN, "--json", *extra)
        assert json.loads(other) == json.loads(english)
    code, _, err = run(capsys, monkeypatch, {}, *PLAN, "--lang", "es")
    assert code == 2 and err == "dipclock: error: language 'es': one of en, fr, de, it, nl\n"


def test_every_command_speaks_the_language_asked(capsys, monkeypatch, tmp_path):
    """Issue 38: "the command line follows LANG and a --lang option"; --json keeps its
    English keys and values."""
    code, out, _ = run(capsys, monkeypatch, {"LANG": "fr_FR.UTF-8"}, "events")
    assert code == 0 and "jusqu'à l'automne 1909" in out and "to Fall" not in out
    code, out, _ = run(capsys, monkeypatch, {}, "penalty", "graduated20", "--late", "45",
                       "--units", "A Bud, A Vie, F Tri", "--lang", "de")
    assert code == 0 and out.strip() == "NMR für 3 Einh.: alle 3 Befehle streichen " \
        "(A Bud, F Tri, A Vie)"
    score = ("score", "wdc2018", "--centres", "A=5,E=4,F=6,G=0,I=7,R=6,T=6", "--year",
             "1907", "--eliminated", "G=1905")
    code, out, _ = run(capsys, monkeypatch, {}, *score, "--lang", "it")
    assert code == 0 and "Germania" in out and "Germany" not in out
    _, english, _ = run(capsys, monkeypatch, {}, *score, "--json")
    _, italian, _ = run(capsys, monkeypatch, {}, *score, "--json", "--lang", "it")
    assert json.loads(italian) == json.loads(english)
    scores = tmp_path / "scores.csv"
    scores.write_text("round,player,score\n1,Ann,20\n2,Ann,10\n1,Bob,15\n", encoding="utf-8")
    code, out, _ = run(capsys, monkeypatch, {"LANG": "nl_NL.UTF-8"}, "standings",
                       "graduated20", "--scores", str(scores))
    assert code == 0 and "stand na 2 rondes" in out and "(2 spellen)" in out
    code, out, _ = run(capsys, monkeypatch, {}, "vote", "wdc2006", "--form", "dias",
                       "--year", "1905", "--phase", "fall", "--centres",
                       "A=5,E=6,F=5,G=0,I=6,R=6,T=6", "--votes",
                       "A=yes,E=yes,F=yes,I=yes,R=yes,T=yes", "--lang", "fr")
    assert code == 0 and out.splitlines()[:2] == [
        "wdc2006 : Nulle entre tous les survivants, voté en Printemps 1906 (après Automne 1905)",
        "  adopté : Nulle acceptée, Printemps 1906 : les centres de 1905 comptent"]

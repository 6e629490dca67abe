"""The event file's problems, the round's checks and the core's other refusals in the
reader's language (issue 38): a TD's ``dipclock plan --lang de`` of a bad event file, a
French TD's round, the hall message, the WDD's files, the tables' vote on the hub's time.
Each is raised with a sentence (``dipclock.i18n.said``): ``str()`` stays the English
every other test matches. Most pass once the lead merges the catalogue (HD's table)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from dipclock import hallmessage, wdd
from dipclock.events import BUILTIN, EventError, parse_event_toml
from dipclock.i18n import Words
from dipclock.keptvote import kept_time_change
from dipclock.launcher.cli import main
from dipclock.powers import power_letter
from dipclock.schedule import PhaseRef

DAY = "2006-08-04T10:00"
FR, DE, IT, NL = Words("fr"), Words("de"), Words("it"), Words("nl")
#: An event file whose language is none dipclock has (a validator's own sentence)
NO_LANGUAGE = """name = "Open"
language = "xx-no"
[[phase_lengths]]
spring = 15
fall = 15
[penalty]
model = "nmr"
"""


@pytest.fixture(autouse=True)
def no_language(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_of_a_bad_event_file_says_its_problem_in_german(tmp_path: Path, capsys):
    event = tmp_path / "open.toml"
    event.write_text(NO_LANGUAGE)
    code, out, err = run(capsys, "plan", event, "--start", DAY, "--lang", "de")
    assert (code, out) == (2, "")
    assert err == (f"dipclock: Fehler: {event}: language: 'xx-no' ist keine Sprache, die "
                   "dipclock spricht: eine von en, fr, de, it, nl\n")
    code, _, err = run(capsys, "plan", event, "--start", DAY)
    assert err == (f"dipclock: error: {event}: language: 'xx-no' is not a language dipclock "
                   "speaks: one of en, fr, de, it, nl\n")


def test_an_event_file_that_is_not_toml_says_so_in_french(tmp_path: Path, capsys):
    event = tmp_path / "broken.toml"
    event.write_text("name = = 1\n")
    code, _, err = run(capsys, "plan", event, "--start", DAY, "--lang", "fr")
    # tomllib's own words (where it stopped) stay as it says them
    assert code == 2 and err.startswith(f"dipclock : erreur : {event} : TOML non valide : ")


def test_an_event_file_s_own_rules_are_said_in_each_language():
    text = NO_LANGUAGE.replace('language = "xx-no"\n', "").replace(
        'model = "nmr"', 'model = "graduated"')
    with pytest.raises(EventError) as got:
        parse_event_toml(text, "open.toml")
    assert str(got.value) == "open.toml: penalty: the graduated model needs [[penalty.bands]]"
    assert got.value.in_(DE) == \
        "open.toml: penalty: das gestaffelte Modell braucht [[penalty.bands]]"
    assert got.value.in_(IT) == \
        "open.toml: penalty: il modello a scaglioni richiede [[penalty.bands]]"
    with pytest.raises(EventError) as got:
        BUILTIN["wdc2019"].round(9)
    assert str(got.value) == "wdc2019 has no round 9 (rounds: 1, 2, 3, 4)"
    assert got.value.in_(FR) == "wdc2019 n'a pas de ronde 9 (rondes : 1, 2, 3, 4)"
    assert got.value.in_(NL) == "wdc2019 heeft geen ronde 9 (rondes: 1, 2, 3, 4)"


def test_a_round_that_cannot_be_meant_is_refused_in_french(capsys):
    code, out, err = run(capsys, "plan", "wdc2006", "--start", DAY, "--pause", "20:00=15",
                         "--lang", "fr")
    assert (code, out) == (2, "")
    assert err == ("dipclock : erreur : --pause 20:00=15 : la partie est finie d'ici là "
                   "(20:00 ; elle se termine à 14:48)\n")


def test_the_next_day_s_weekday_is_said_in_german(capsys):
    code, _, err = run(capsys, "plan", "wdc2006", "--start", DAY, "--pause", "09:30=15",
                       "--lang", "de")
    assert (code, err) == (2, "dipclock: Fehler: --pause 09:30=15: die Partie ist bis dahin "
                           "vorbei (eine Uhrzeit vor dem Beginn ist am nächsten Tag, Sa 09:30; "
                           "sie endet um 14:48)\n")
    _, _, err = run(capsys, "plan", "wdc2006", "--start", DAY, "--pause", "09:30=15")
    assert err == ("dipclock: error: --pause 09:30=15: the game is over by then (a time "
                   "before the start is the next day, Sat 09:30; it ends at 14:48)\n")


def test_a_call_after_the_last_year_notes_it_in_french_with_the_season(capsys):
    code, _, err = run(capsys, "plan", "wdc2006", "--start", DAY, "--call", "16:00",
                       "--lang", "fr")
    assert code == 0
    assert err.endswith("la partie se termine après Automne 1909 (14:48), avant l'arrêt\n")


def test_a_hall_message_s_problem_in_the_td_s_language():
    with pytest.raises(hallmessage.MessageError) as got:
        hallmessage.clean_text("x" * 121)
    assert str(got.value) == "a hall message is at most 120 characters; this one has 121"
    assert got.value.in_(FR) == \
        "un message à la salle a au plus 120 caractères ; celui-ci en a 121"
    with pytest.raises(hallmessage.MessageError) as got:
        hallmessage.check_minutes(0)
    assert got.value.in_(DE) == \
        "eine Saalnachricht dauert 1 bis 720 Minuten (12 Std.), nicht 0"


def test_a_phase_and_a_power_that_are_none_in_french():
    with pytest.raises(ValueError) as phase:
        PhaseRef.parse("X1903")
    assert str(phase.value) == "'X1903' is not a phase like S1903 or F1904"
    assert phase.value.in_(FR) == "'X1903' n'est pas une phase comme S1903 ou F1904"  # type: ignore[attr-defined]
    with pytest.raises(ValueError) as power:
        power_letter("Spain")
    assert str(power.value) == "'Spain' is not a power (one of A E F G I R T)"
    assert power.value.in_(FR) == "'Spain' n'est pas une puissance (une de A E F G I R T)"  # type: ignore[attr-defined]


def test_the_wdd_s_files_refusal_in_german():
    with pytest.raises(wdd.WddError) as got:
        wdd.number(math.nan)
    assert str(got.value) == "the score nan is not a number"
    assert got.value.in_(DE) == "die Punktzahl nan ist keine Zahl"
    with pytest.raises(wdd.WddError) as got:
        wdd.country_code("FRA", "'Ann Lee'")
    assert str(got.value) == \
        "'Ann Lee': nationality 'FRA' is not a two-letter country code (FR, GB, US...)"
    assert got.value.in_(FR) == ("'Ann Lee' : la nationalité 'FRA' n'est pas un code de pays "
                                 "à deux lettres (FR, GB, US...)")
    board = wdd.Board(round=2, board="3", result=None, players={"France": "Ann", "F": "Bob"},  # type: ignore[arg-type]
                      scores={"France": 10.0})
    with pytest.raises(wdd.WddError) as got:
        wdd._seated(board)
    assert str(got.value) == "round 2, board 3: France is given twice"
    assert got.value.in_(DE) == "Runde 2, Tisch 3: Frankreich ist doppelt angegeben"


def test_the_tables_vote_on_the_hub_s_time_is_said_in_french():
    verdict = kept_time_change({7: (3600.0, 0.0)}, paired=1, now=1e9, last_seen=1e9 - 60)
    assert verdict.text == ("hub time kept: 1 of the 1 paired tables kept a time 3600.0 s "
                            "behind the hub's, and moving it needs 2 (table 7 +3600.00 s)")
    assert verdict.said.in_(FR) == (
        "heure du hub gardée : 1 des 1 tables appairées ont gardé une heure en retard de "
        "3600.0 s sur celle du hub, et la déplacer en demande 2 (table 7 +3600.00 s)")

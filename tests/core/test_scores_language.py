"""A result sheet's refusals and notes, a replacement's refusals and the standings' share
note in the reader's language (issue 38): the core says them as sentences (``Said``), so
the TD's phone, the table's screen and ``dipclock score --lang`` each say them in theirs;
``str()`` stays the English the tests and the logs have always read."""

from __future__ import annotations

import pytest

from dipclock.events import BUILTIN, EventError, parse_event_toml
from dipclock.eventscoring import endings, score_result, unagreed_end
from dipclock.i18n import Words
from dipclock.launcher.cli import main
from dipclock.replacements import Replacement, ReplacementError, check, sheet_words, split
from dipclock.schedule import PhaseRef
from dipclock.scoring import GameResult, ResultError
from dipclock.scoring.result import parse_centres
from dipclock.standings import GameScore

FR, DE, IT, NL = Words("fr"), Words("de"), Words("it"), Words("nl")
#: Italy at the threshold, the sheet saying a draw (Russia and Turkey out)
WON = GameResult(centres=dict(A=4, E=4, F=4, G=4, I=18, R=0, T=0), year=1907,
                 eliminated={"R": 1904, "T": 1906})


def refused(**board: object) -> ResultError:
    with pytest.raises(ResultError) as caught:
        GameResult(**board)  # type: ignore[arg-type]
    return caught.value


# --- the sheet's refusals ------------------------------------------------------------------


def test_a_sheet_missing_powers_is_refused_with_the_powers_in_the_language():
    exc = refused(centres=dict(A=5, E=5, F=5, G=5, I=5), year=1905)
    assert str(exc) == "the centres of every power are needed: Russia, Turkey missing"
    assert exc.in_(FR) == "il faut les centres de chaque puissance : manquent Russie, Turquie"
    assert exc.in_(DE) == "die Zentren jeder Macht werden gebraucht: es fehlen Russland, Türkei"


def test_a_count_off_the_board_takes_the_language_s_plural():
    exc = refused(centres=dict(A=40, E=0, F=0, G=0, I=0, R=0, T=0), year=1905)
    assert str(exc) == "Austria has 40 centres: from 0 to 34"
    assert exc.in_(FR) == "Autriche-Hongrie a 40 centres : de 0 à 34"
    assert exc.in_(IT) == "Austria-Ungheria ha 40 centri: da 0 a 34"


def test_a_soloist_short_of_the_threshold_is_refused_in_german():
    short = GameResult(centres=dict(A=17, E=5, F=4, G=4, I=4, R=0, T=0), year=1907, solo="A",
                       eliminated={"R": 1904, "T": 1906})
    with pytest.raises(ResultError) as caught:
        score_result(BUILTIN["wdc2018"], short)
    assert str(caught.value) == "Austria has 17 centres: a solo in 1907 needs 18"
    assert caught.value.in_(DE) == "Österreich-Ungarn hat 17 Zentren: ein Solo 1907 braucht 18"


def test_two_endings_are_refused_with_both_named_in_the_language():
    exc = refused(centres=dict(A=18, E=4, F=4, G=4, I=4, R=0, T=0), year=1907, solo="A",
                  conceded_to="E", eliminated={"R": 1904, "T": 1906})
    assert str(exc) == "a game ends in one way: a solo and a concession are given"
    assert exc.in_(FR) == ("une partie se termine d'une seule façon : la feuille indique un "
                           "solo et une concession")


def test_a_power_given_twice_on_the_command_line_is_refused_in_dutch():
    with pytest.raises(ResultError) as caught:
        parse_centres("A=5,Austria=6")
    assert str(caught.value) == "centres: Austria is given twice (5 and 6): give it once"
    assert caught.value.in_(NL) == ("centres: Oostenrijk-Hongarije is twee keer opgegeven (5 en "
                                    "6): geef het één keer")


def test_the_event_s_own_refusals_are_said_in_the_language():
    draw = GameResult(centres=dict(A=6, E=6, F=6, G=6, I=5, R=5, T=0), year=1903,
                      eliminated={"T": 1903})
    with pytest.raises(ResultError) as caught:
        score_result(BUILTIN["wdc2006"], draw)
    assert str(caught.value) == ("wdc2006's games end by vote from 1905: a draw in 1903 is not "
                                 "one of them")
    assert caught.value.in_(FR) == ("les parties de wdc2006 ne se terminent par un vote qu'à "
                                    "partir de 1905 : une nulle en 1903 n'est pas possible")


def test_an_event_file_s_draws_its_system_cannot_score_in_italian():
    text = ('name = "Open"\n[[phase_lengths]]\nspring = 15\nfall = 15\n[penalty]\n'
            'model = "nmr"\n[scoring]\nsystem = "sum-of-squares"\ndraws = "any"\n')
    with pytest.raises(EventError) as caught:
        parse_event_toml(text, "open.toml")
    assert str(caught.value) == ("open.toml: scoring: draws = 'any': Sum of Squares scores "
                                 "every draw as one of all survivors")
    assert caught.value.in_(IT).endswith("draws = 'any': Sum of Squares conta ogni patta come "
                                         "una patta tra tutti i sopravvissuti")


# --- the notes beside the scores -----------------------------------------------------------


def test_a_victory_the_sheet_called_a_draw_is_noted_in_the_language():
    note, = score_result(BUILTIN["wdc2018"], WON).notes
    assert str(note) == ("Italy holds 18 centres at the end of 1907 (a victory needs 18): the "
                         "game ended in its solo, not a draw")
    assert note.in_(FR) == ("Italie détient 18 centres à la fin de 1907 (une victoire en "
                            "demande 18) : la partie s'est terminée par son solo, pas par une "
                            "nulle")
    assert note.in_(DE) == ("Italien hält Ende 1907 18 Zentren (ein Sieg braucht 18): die "
                            "Partie endete mit ihrem Solo (auf dem Bogen: ein Remis)")
    # an event's renamed power holds in the note too
    assert "Italia Unita" in note.in_(Words("it", {"Italy": "Italia Unita"}))


def test_an_end_no_vote_agreed_is_flagged_in_german():
    line = unagreed_end(BUILTIN["wdc2006"], WON, clock_year=1909)
    assert line is not None and str(line).startswith("no vote passed at this table: wdc2006 "
                                                     "(rule 16) scores")
    assert line.in_(DE).startswith("an diesem Tisch wurde keine Abstimmung angenommen: "
                                   "wdc2006 (rule 16) wertet")


def test_the_endings_under_the_sheet_s_form_in_the_language():
    wdc2006 = endings(BUILTIN["wdc2006"], 1)
    assert wdc2006.text == "A vote can end a game from 1905. Games end with Fall 1909."
    assert wdc2006.in_(FR) == ("Un vote peut terminer une partie à partir de 1905. Fin des "
                               "parties : Automne 1909.")


# --- a replacement -------------------------------------------------------------------------

SEATED = {4: {p: f"{p}4" for p in "AEFGIRT"}}


def rec(phase: str, player: str | None, share: float | None = None) -> Replacement:
    return Replacement(round=2, table=4, power="G", phase=PhaseRef.parse(phase), player=player,
                       share=share)


def test_a_replacement_s_refusal_names_the_power_and_phase_in_the_language():
    with pytest.raises(ReplacementError) as caught:
        check(rec("F1903", None), [rec("F1903", "Zoe")], SEATED)
    assert str(caught.value) == ("Germany at round 2 table 4: Zoe already plays it from Fall "
                                 "1903; undo that first")
    assert caught.value.in_(FR) == ("Allemagne à la ronde 2 table 4 : Zoe la joue déjà à partir "
                                    "de Automne 1903 ; annulez cela d'abord")
    with pytest.raises(ReplacementError) as caught:
        check(rec("S1901", "Zoe"), [], SEATED)
    assert caught.value.in_(DE) == ("Deutschland in Runde 2 Tisch 4: Frühjahr 1901 ist der "
                                    "Beginn der Partie; setzen Sie den neuen Spieler "
                                    "stattdessen in der Sitzordnung")


def test_the_sheet_line_of_a_replaced_power_in_the_language():
    chain = [rec("F1903", "Zoe"), rec("S1905", None)]
    assert sheet_words("Ann", chain) == ("Ann, then Zoe from Fall 1903, then civil disorder "
                                         "from Spring 1905")
    assert sheet_words("Ann", chain, FR) == ("Ann, puis Zoe à partir de Automne 1903, puis "
                                             "désordre civil à partir de Printemps 1905")


def test_the_standings_share_note_in_the_language():
    ann = GameScore(round=2, player="Ann", score=50.0, board="4", power="Germany", centres=5)
    _, note = split(ann, [rec("F1903", "Zoe", 40), rec("S1905", None)], "original", 1907)
    assert str(note) == ("Germany at round 2 table 4: 60 % to Ann, 40 % to Zoe, as the TD "
                         "decided")
    assert note.in_(DE) == ("Deutschland in Runde 2 Tisch 4: 60 % an Ann, 40 % an Zoe, wie die "
                            "Turnierleitung entschieden hat")
    _, lost = split(ann, [rec("F1903", None)], "split_by_years", 1907)
    assert str(lost) == ("Germany at round 2 table 4: 36 % to Ann, 64 % to civil disorder "
                         "(no one), shared by the years each played, as the event says")
    assert lost.in_(FR) == ("Allemagne à la ronde 2 table 4 : 36 % à Ann, 64 % au désordre "
                            "civil (personne), partagée selon les années jouées par chacun, "
                            "comme le prévoit le tournoi")


# --- the command line ----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_language(monkeypatch):
    """The machine's own language variables do not count: ``--lang`` says it."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)


def test_dipclock_score_notes_a_victory_in_french(capsys):
    code = main(["score", "wdc2018", "--centres", "A=4,E=4,F=4,G=4,I=18,R=0,T=0", "--year",
                 "1907", "--eliminated", "R=1904,T=1906", "--lang", "fr"])
    _, err = capsys.readouterr()
    assert code == 0 and err.strip() == (
        "dipclock : note : Italie détient 18 centres à la fin de 1907 (une victoire en demande "
        "18) : la partie s'est terminée par son solo, pas par une nulle")


def test_dipclock_score_refuses_a_sheet_in_german(capsys):
    code = main(["score", "wdc2018", "--centres", "A=17,E=5,F=4,G=4,I=4,R=0,T=0", "--year",
                 "1907", "--eliminated", "R=1904,T=1906", "--solo", "A", "--lang", "de"])
    _, err = capsys.readouterr()
    assert code == 2 and err.strip() == ("dipclock: Fehler: Österreich-Ungarn hat 17 Zentren: "
                                         "ein Solo 1907 braucht 18")
    code = main(["score", "wdc2018", "--centres", "A=5,X=3", "--year", "1907", "--lang", "de"])
    _, err = capsys.readouterr()
    assert code == 2 and err.strip() == ("dipclock: Fehler: 'X' ist keine Macht (eine von "
                                         "A E F G I R T)")

"""The seating's and the roster's words in their reader's language (issue 38): an error, a
refused line, a note or an import's summary made by the core is a sentence (``Said``), read
in French on a French TD's phone and in German by ``dipclock roster import --lang de``;
``str()`` stays the English the tests and the log match."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from dipclock.i18n import Words
from dipclock.launcher.cli import main
from dipclock.roster import Person, RosterFileError, combine, decode, person, read_roster
from dipclock.roster.person import PersonError
from dipclock.seating import Past, Seat, SeatingError, Table, problems, read_past, seat_round
from dipclock.seating.seat import seating_problems, table_plan
from dipclock.seating.seatfile import read_seats
from dipclock.seating.teams import check_teams
from dipclock.seating.topboard import top_board_round
from dipclock.standings import GameScore, StandingsRules
from server.settings import Settings
from server.store import Store

FR, DE = Words("fr"), Words("de")
NAMES = [f"P{i:02}" for i in range(14)]


def refused(call, *args, **kwargs) -> SeatingError:
    with pytest.raises(SeatingError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_a_seating_error_is_english_as_str_and_french_or_german_when_said_so():
    exc = refused(seat_round, NAMES[:5], Past(), 1, random.Random(1))
    assert str(exc) == "players: 5 players, a table needs 7"
    assert exc.in_(FR) == "players : 5 joueurs, une table en demande 7"
    assert exc.in_(DE) == "players: 5 Spieler, ein Tisch braucht 7"


def test_a_bad_seating_file_line_is_refused_in_the_readers_language():
    exc = refused(read_seats, "round,table,power,player\n1,1,X,Ann\n")
    assert str(exc).startswith("line 2: power: 'X' is not a power")
    assert exc.in_(DE).startswith("Zeile 2: power: 'X' ist keine Großmacht")
    exc = refused(read_seats, "1,0,A,Ann\n")
    assert exc.in_(FR) == ("ligne 1 : table : '0' n'est pas un numéro de table (un nombre "
                           "entier de 1 à 999)")


def test_a_power_seated_twice_is_named_as_the_reader_calls_it():
    seats = [Seat(1, 2, "A", "Ann"), Seat(1, 2, "A", "Bob")]
    exc = refused(read_past, seats)
    assert str(exc) == "round 1, table 2: Austria is seated twice (Ann and Bob)"
    assert exc.in_(DE) == ("Runde 1, Tisch 2: Österreich-Ungarn ist zweimal besetzt (Ann und "
                           "Bob)")


def test_a_team_without_a_power_names_the_powers_in_french():
    teams = {f"T{i}": {p: f"T{i}{p}" for p in "AEFGIRT"} for i in range(7)}
    teams["T0"] = {p: "T0" + p for p in "AEFGI"}
    exc = refused(check_teams, teams, [n for t in teams.values() for n in t.values()])
    assert str(exc).startswith("team T0 has no player for Russia, Turkey")
    assert exc.in_(FR).startswith("l'équipe T0 n'a pas de joueur pour Russie, Turquie :")


def test_a_seating_error_crosses_the_back_room_with_its_sentence():
    """The hub's draft runs in a process of its own: its error comes back pickled, and is
    still said in the phone's language."""
    exc = refused(seat_round, NAMES[:5], Past(), 1, random.Random(1))
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is SeatingError and str(again) == str(exc)
    assert again.in_(FR) == exc.in_(FR) != str(exc)


def test_a_drafts_problems_and_the_plan_in_german():
    tables = [Table(3, {"A": "Ann", "E": "Bob", "F": "Cy", "G": "Di", "I": "Ed", "R": "Flo"})]
    assert [str(p) for p in problems(tables)] == ["table 3: no player for Turkey"]
    assert [p.in_(DE) for p in problems(tables)] == ["Tisch 3: kein Spieler für Türkei"]
    assert [p.in_(FR) for p in seating_problems(tables)] == ["aucun joueur pour Turquie"]
    # a list of players present the seating refuses, as the dashboard's plan says it
    assert table_plan(["Ann", "ann", *NAMES[:6]], words=FR) == (
        "players : Ann et ann sont un même nom (aux majuscules et accents près) : inscrivez "
        "le joueur une fois, ou distinguez les deux")


def test_the_top_boards_notes_are_said_in_the_readers_language():
    rules = StandingsRules(top_board_round=2, top_board_powers="chosen")
    scores = [GameScore(1, p, 100 - i) for i, p in enumerate(NAMES[:9])]
    top = top_board_round(2, NAMES[:9], scores, rules, Past(), random.Random(1))
    assert str(top.notes[0]) == "table 1 is the top board: " + ", ".join(NAMES[:7])
    assert top.notes[0].in_(DE) == "Tisch 1 ist der Finaltisch: " + ", ".join(NAMES[:7])
    assert top.notes[1].in_(FR).startswith("La table finale choisit ses puissances")
    none_yet = top_board_round(2, NAMES[:9], [], rules, Past(), random.Random(1))
    assert none_yet.notes[0].in_(DE).startswith("Runde 2 ist die des Finaltischs")


def test_a_roster_files_refused_lines_notes_and_errors_in_french_and_german():
    read = read_roster("given,family,nationality,Shoe size\nAnn,Lee,XX,38\n,Bo,,\n")
    assert [str(r.text()) for r in read.refused] == [
        "line 2: nationality: 'XX' is not a country code (ISO 3166-1, two letters: FR, GB, "
        "US...)", "line 3: given name: missing"]
    assert [r.text().in_(FR) for r in read.refused] == [
        "ligne 2 : nationality : 'XX' n'est pas un code de pays (ISO 3166-1, deux lettres : "
        "FR, GB, US...)", "ligne 3 : given name : manquant"]
    assert read.notes[0].in_(DE) == ("die Spalte 'Shoe size' führt die Spielerliste nicht: "
                                     "übergangen")
    with pytest.raises(RosterFileError) as empty:
        read_roster("\n")
    assert empty.value.in_(DE).startswith("die Datei ist leer:")
    _, note = decode("given,family\nJosé,Ruiz\n".encode("cp1252"))
    assert note is not None and note.in_(FR).startswith("le fichier n'est pas en UTF-8")
    with pytest.raises(PersonError) as bad:
        person("Ann", "Lee", email="nope")
    assert bad.value.in_(DE) == "email: 'nope' ist keine E-Mail-Adresse"


def test_an_imports_summary_and_a_clash_in_german():
    done = combine([Person("Ann", "Lee", wdd=5), Person("Bo", "Ek")],
                   [(2, Person("Bo", "Ek", club="Paris")), (3, Person("Cy", "Dee", wdd=5)),
                    (4, Person("Di", "Fa"))])
    assert done.summary() == "roster import: 1 added, 1 updated, 1 line refused"
    assert done.summary(DE) == ("Import der Spielerliste: 1 hinzugefügt, 1 geändert, 1 Zeile "
                                "abgelehnt")
    assert done.refused[0].text().in_(DE) == (
        "Zeile 3: die WDD-Kennung 5 gehört schon Ann Lee (auf der Spielerliste)")
    # a clash within the file names the line, in the reader's words
    read = read_roster("given,family\nAnn,Lee\nann,lee\n")
    assert read.refused[0].text().in_(FR).startswith(
        "ligne 3 : ann lee est déjà à la ligne 2 : deux personnes du même nom")


def test_dipclock_roster_import_speaks_its_lang(capsys, tmp_path: Path):
    folder = tmp_path / "data"
    folder.mkdir()
    Store(Settings(data_dir=folder).db_path).close()
    good = tmp_path / "good.csv"
    good.write_text("given,family\nAnn,Lee\n", encoding="utf-8")
    assert main(["roster", "import", str(good), "--data", str(folder), "--lang", "de"]) == 0
    out, _ = capsys.readouterr()
    assert out == "Import der Spielerliste: 1 hinzugefügt, 0 geändert\n"
    bad = tmp_path / "bad.csv"
    bad.write_text("given,family,email\nBo,Ek,nope\n", encoding="utf-8")
    assert main(["roster", "import", str(bad), "--data", str(folder), "--lang", "fr"]) == 2
    _, err = capsys.readouterr()
    assert "ligne 2 : email : 'nope' n'est pas une adresse e-mail" in err

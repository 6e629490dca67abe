"""A game-end vote's refusals and result in their reader's language (issue 38): the rules
refuse in a ``said(...)`` sentence, so a phone in French, a dashboard in German or
``dipclock vote --lang fr`` reads it in its own words; ``str()`` and the outcome's ``why``
stay the hub's English, word for word (``tests/core/test_votes.py``)."""

from __future__ import annotations

import json

import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import ENGLISH, Words
from dipclock.launcher.cli import main
from dipclock.votes.ballot import Outcome, cast, count, propose
from dipclock.votes.proposal import Board, Moment, Proposal, VoteRefused, parse_form

CHART = {"A": 5, "E": 6, "F": 5, "G": 0, "I": 6, "R": 6, "T": 6}
CENTRES = "A=5,E=6,F=5,G=0,I=6,R=6,T=6"
FR, DE = Words("fr"), Words("de")


def refusal(call, *args: object) -> VoteRefused:
    with pytest.raises(VoteRefused) as caught:
        call(*args)
    return caught.value


def said_as(exc: VoteRefused, english: str, french: str, german: str) -> None:
    assert str(exc) == english and exc.in_(ENGLISH) == english
    assert exc.in_(FR) == french
    assert exc.in_(DE) == german


def test_a_proposal_before_the_first_chart_is_refused_in_the_reader_s_words():
    exc = refusal(count, BUILTIN["wdc2006"], parse_form("dias"), Moment(1901, "fall"),
                  Board(CHART), {})
    said_as(exc, "wdc2006 (rule 16): no proposal before the 1905 centre chart (from "
                 "Spring 1906)",
            "wdc2006 (rule 16) : pas de proposition avant les centres de 1905 (à partir de "
            "Printemps 1906)",
            "wdc2006 (rule 16): kein Vorschlag vor den Zentren von 1905 (ab Frühjahr 1906)")


def test_one_vote_each_and_a_closed_vote_name_the_power_and_the_proposal():
    ballot = propose(BUILTIN["wdc2006"], parse_form("dias"), Moment(1905, "fall"), Board(CHART))
    ballot = cast(ballot, "E", "yes")
    said_as(refusal(cast, ballot, "E", "no"), "England has voted: one vote each",
            "Angleterre a voté : un vote chacun",
            "England hat schon abgestimmt: eine Stimme pro Spieler")
    closed = cast(ballot, "F", "veto")
    said_as(refusal(cast, closed, "I", "yes"), "the vote on a draw of all survivors is over",
            "le vote sur une nulle entre tous les survivants est terminé",
            "die Abstimmung über ein Remis aller Überlebenden ist vorbei")


def test_a_veto_without_centres_is_refused_naming_the_power():
    ballot = propose(BUILTIN["wdc2018"], parse_form("dias"), Moment(1905, "fall"), Board(CHART))
    said_as(refusal(cast, ballot, "G", "veto"),
            "wdc2018 (Votes): only a player with centres may veto: Germany has none",
            "wdc2018 (Votes) : seul un joueur ayant des centres peut mettre son veto : "
            "Allemagne n'en a aucun",
            "wdc2018 (Votes): nur wer Zentren hat, darf ein Veto einlegen: Deutschland hat "
            "keine")


def test_a_draw_with_a_power_without_a_centre_is_refused():
    exc = refusal(propose, BUILTIN["wdc2006"], parse_form("draw:A,G"), Moment(1905, "fall"),
                  Board(CHART))
    said_as(exc, "Germany holds no centre: it cannot be in a draw",
            "Allemagne n'a aucun centre : elle ne peut pas faire partie d'une nulle",
            "Deutschland hat kein Zentrum und kann nicht am Remis teilnehmen")


def test_a_list_of_voters_and_a_named_draw_are_said_whole():
    ballot = propose(BUILTIN["wdc2003"], Proposal("draw", frozenset("AEFIRT")),
                     Moment(1905, "fall"), Board(CHART))
    said_as(refusal(cast, ballot, "G", "yes"),
            "wdc2003 (Tournament System): only a player with a centre votes: Germany has none",
            "wdc2003 (Tournament System) : seul un joueur ayant un centre vote : Allemagne "
            "n'en a aucun",
            "wdc2003 (Tournament System): nur wer ein Zentrum hat, stimmt ab: Deutschland "
            "hat keines")
    concession = Proposal("concede", frozenset("F"))
    assert concession.words == "a concession to France"
    assert concession.said.in_(DE) == "eine Aufgabe zugunsten von Frankreich"
    draw = Proposal("draw", frozenset("EAF"))
    assert draw.words == "a draw of Austria, England and France"
    assert draw.said.in_(FR) == "une nulle entre Autriche-Hongrie, Angleterre et France"


def test_an_event_s_own_term_holds_in_a_refusal():
    ballot = propose(BUILTIN["wdc2006"], parse_form("dias"), Moment(1905, "fall"), Board(CHART))
    exc = refusal(cast, cast(ballot, "E", "yes"), "E", "yes")
    assert exc.in_(Words("de", {"England": "Großbritannien"})) == \
        "Großbritannien hat schon abgestimmt: eine Stimme pro Spieler"


def test_a_passed_vote_s_why_in_french_and_german_its_english_kept():
    result = count(BUILTIN["wdc2019"], parse_form("dias", "A"), Moment(1904, "spring"),
                   Board(CHART), {p: "yes" for p in "EFIRT"})
    english = ("passes (wdc2019 (II.4g)): unanimous among England, France, Italy, Russia, "
               "Turkey; Austria proposed and counts as in favour; the 1903 centre chart counts")
    assert result.passes and result.why == english and result.why_in(ENGLISH) == english
    assert result.why_in(FR) == (
        "acceptée (wdc2019 (II.4g)) : unanimité parmi Angleterre, France, Italie, Russie, "
        "Turquie ; Autriche-Hongrie a proposé et compte comme favorable ; les centres de 1903 "
        "comptent")
    assert result.why_in(DE) == (
        "angenommen (wdc2019 (II.4g)): einstimmig unter England, Frankreich, Italien, "
        "Russland, Türkei; Österreich-Ungarn hat vorgeschlagen und zählt als dafür; es zählen "
        "die Zentren von 1903")


def test_a_failed_vote_s_why_says_its_notes_with_their_plural():
    result = count(BUILTIN["wdc2006"], parse_form("dias"), Moment(1905, "fall"),
                   Board(CHART, frozenset("RT")), {"A": "yes", "E": "no", "F": "yes",
                                                   "I": "abstain"})
    assert not result.passes
    assert result.why == ("fails (wdc2006 (rule 16)): not unanimous; the figures are not "
                          "told; abstentions count as yes; Russia, Turkey left the game and "
                          "vote by the rule; the game goes on")
    assert result.why_in(FR) == (
        "rejetée (wdc2006 (rule 16)) : pas d'unanimité ; les chiffres ne sont pas donnés ; "
        "les abstentions comptent comme oui ; Russie, Turquie ont quitté la partie et votent "
        "selon la règle ; la partie continue")
    assert result.why_in(DE) == (
        "abgelehnt (wdc2006 (rule 16)): nicht einstimmig; die Zahlen werden nicht genannt; "
        "Enthaltungen zählen als Ja; Russland, Türkei haben die Partie verlassen und stimmen "
        "nach der Regel ab; die Partie geht weiter")


def test_an_outcome_rebuilt_from_the_hub_s_record_says_its_stored_why():
    """The hub keeps ``why`` in English (``server.resultsdesk`` rebuilds an ``Outcome``
    from it): with no sentence kept, it is said as stored."""
    result = count(BUILTIN["wdc2006"], parse_form("dias"), Moment(1905, "fall"), Board(CHART),
                   {p: "yes" for p in "AEFIRT"})
    rebuilt = Outcome(True, result.why, result.chart_year, result.voters, result.proposal,
                      result.moment)
    assert rebuilt == result and rebuilt.why_in(FR) == result.why


VOTE = ("vote", "graduated20", "--form", "concede:F", "--year", "1906", "--phase", "spring",
        "--centres", CENTRES, "--votes", "A=yes,E=yes,F=yes,I=yes,R=yes,T=abstain")


def test_dipclock_vote_says_why_in_french_and_keeps_its_json_english(capsys):
    assert main([*VOTE, "--lang", "fr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == (
        "  pourquoi : acceptée (graduated20 (rule 16)) : personne contre parmi "
        "Autriche-Hongrie, Angleterre, France, Italie, Russie, Turquie ; les abstentions "
        "comptent comme oui ; les centres de 1905 comptent")
    assert main([*VOTE, "--json", "--lang", "fr"]) == 0
    assert json.loads(capsys.readouterr().out)["why"].startswith(
        "passes (graduated20 (rule 16)): none against among Austria, England")


def test_dipclock_vote_refuses_in_french(capsys):
    code = main(["vote", "wdc2018", "--form", "dias", "--year", "1905", "--phase", "fall",
                 "--centres", CENTRES, "--votes", "G=veto", "--lang", "fr"])
    err = capsys.readouterr().err
    assert code == 2 and "wdc2018 (Votes) : seul un joueur ayant des centres peut mettre " \
        "son veto : Allemagne n'en a aucun" in err

"""A sentence made before its reader is known (``dipclock.i18n.Said``): a hub's refusal is
made in the request, then said in the language the reader's page asks for."""

from __future__ import annotations

from dipclock.i18n import PSEUDO, Said, Words, said


def test_a_sentence_is_said_in_the_reader_s_language_its_fields_too():
    phase = said("{season} {year}", season=said("Spring"), year=1903)
    assert str(phase) == "Spring 1903"
    assert phase.in_(Words("fr")) == "Printemps 1903"
    assert phase.in_(Words("de")) == "Frühjahr 1903"
    assert phase.in_(Words(PSEUDO)).startswith("[")


def test_a_sentence_keeps_its_values_as_given():
    s = said("Round", extra="ignored")
    assert isinstance(s, Said) and s.values == {"extra": "ignored"}
    assert s.in_(Words("it")) == "Turno"


def test_a_sentence_kept_as_json_is_said_again_in_any_language():
    import json

    phase = said("{season} {year}", season=said("Spring"), year=1903)
    kept = json.loads(json.dumps(phase.to_json()))
    back = Said.from_json(kept)
    assert back == phase and back.in_(Words("fr")) == "Printemps 1903"
    assert said("Round", at=object()).to_json()["values"]["at"].startswith("<object")
    for damaged in (None, "text", {"text": 3}, {"text": "x", "values": []}):
        assert Said.from_json(damaged) is None


def test_an_error_given_as_a_value_is_said_as_it_was_raised():
    """The hub wraps a core error in its own words ("seating: {error}"): the error's own
    sentence follows the reader's language, and is kept as a sentence in the log."""
    from dipclock.errors import DipclockError
    inner = DipclockError(said("Round {number}", number=3))
    outer = said("seating: {error}", error=inner)
    assert str(outer) == "seating: Round 3"
    assert outer.in_(Words("fr")) == "placement : Ronde 3"
    again = Said.from_json(outer.to_json())
    assert again is not None and again.in_(Words("de")) == "Sitzordnung: Runde 3"
    plain = said("seating: {error}", error=DipclockError("no such table"))
    assert plain.in_(Words("fr")) == "placement : no such table"
    assert plain.to_json()["values"] == {"error": "no such table"}

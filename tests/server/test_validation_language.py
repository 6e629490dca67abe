"""A malformed request is answered in the language it asks for (issue 38): its
``Accept-Language`` decides, the field's name stays as written, and pydantic's own English
is said in our words (``dipclock.validation.describe``). No header: English, as before."""

from __future__ import annotations

from dipclock.i18n import Words

FR, DE = Words("fr"), Words("de")


def test_a_body_fastapi_reads_is_refused_in_french(hub, td):
    r = hub.client.post("/api/td/adjustments", json={"seconds": "ten"},
                        headers=td | {"Accept-Language": "fr-FR,fr;q=0.9"})
    assert r.status_code == 422
    assert r.json()["detail"] == FR("{key}: {problem}", key="seconds", problem=FR(
        "Input should be a valid number, unable to parse string as a number"))
    assert "Input should" not in r.json()["detail"]  # passes after merge
    english = hub.client.post("/api/td/adjustments", json={"seconds": "ten"}, headers=td)
    assert english.json()["detail"] == (
        "seconds: Input should be a valid number, unable to parse string as a number")


def test_a_body_read_off_the_event_loop_is_refused_in_german(hub, td):
    """``server.bodies``: a route's ``Parsed[...]`` body, its unknown field."""
    r = hub.client.post("/api/td/roster/people",
                        json={"given_name": "Ada", "family_name": "Byron", "tabel": 1},
                        headers=td | {"Accept-Language": "de"})
    assert r.status_code == 422
    assert r.json()["detail"] == DE("{key}: {problem}", key="tabel",
                                    problem=DE("unknown field"))
    assert "unknown field" not in r.json()["detail"]  # passes after merge


def test_broken_json_is_refused_in_french(hub, td):
    r = hub.client.post("/api/td/pauses", content=b"{not json",
                        headers=td | {"Content-Type": "application/json",
                                      "Accept-Language": "fr"})
    assert r.status_code == 422
    assert r.json()["detail"] == FR("{where}: not valid JSON", where="body")
    assert r.json()["detail"] != "body: not valid JSON"  # passes after merge


def test_a_count_of_more_problems_takes_the_language_s_plural():
    from dipclock.validation import describe

    problems = [{"loc": ("a",), "type": "extra_forbidden", "msg": "x"},
                {"loc": ("b",), "type": "extra_forbidden", "msg": "x"},
                {"loc": ("c",), "type": "int_type", "msg": "Input should be a valid integer"}]
    line = describe(problems)
    assert str(line) == "a: unknown key (and 2 more)"
    assert line.in_(FR) == FR.plural("{key}: {problem} (and {n} more)",
                                     "{key}: {problem} (and {n} more)", 2, key="a",
                                     problem=FR("unknown key"))
    assert line.in_(FR) != str(line)  # passes after merge

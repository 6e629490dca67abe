"""The five built-in events, checked against their organisers' rule texts (each profile's
``source`` names its own; the texts are kept beside this repository, not in it)."""

from datetime import time

import pytest

from dipclock.eventfiles import load_event
from dipclock.events import BUILTIN, EventError, parse_event_toml


def test_the_five_events_exist_with_their_ids():
    assert list(BUILTIN) == ["wdc2003", "wdc2006", "wdc2018", "wdc2019", "graduated20"]


@pytest.mark.parametrize(
    "event, year, spring, fall",
    [
        ("wdc2003", 1901, 20, 17),
        ("wdc2003", 1905, 20, 17),
        ("wdc2003", 1906, 18, 15),
        ("wdc2003", 1915, 18, 15),
        ("wdc2006", 1901, 17, 15),
        ("wdc2006", 1909, 17, 15),
        ("wdc2018", 1906, 18, 16),
        ("wdc2018", 1907, 17, 15),
        ("wdc2019", 1904, 18, 16),
        ("graduated20", 1911, 20, 20),
    ],
)
def test_phase_lengths_follow_the_rules(event, year, spring, fall):
    profile = BUILTIN[event]
    assert profile.phase_minutes(year, "spring") == spring
    assert profile.phase_minutes(year, "fall") == fall


def test_wdc2003_victory_thresholds():
    p = BUILTIN["wdc2003"]
    expected = {1901: 18, 1905: 18, 1906: 17, 1907: 16, 1908: 15, 1909: 14, 1910: 12,
                1911: 10, 1912: 8, 1913: 6, 1920: 6}
    assert {y: p.victory_centres(y) for y in expected} == expected
    assert BUILTIN["wdc2006"].victory_centres(1905) is None


def test_last_years_and_rounds():
    assert BUILTIN["wdc2006"].last_year == 1909
    assert BUILTIN["wdc2019"].last_year == 1907
    assert BUILTIN["wdc2003"].last_year is None
    assert BUILTIN["wdc2018"].last_year is None
    g = BUILTIN["graduated20"]
    assert [r.last_year for r in g.rounds] == [1909, 1911, 1911]
    assert [r.start for r in BUILTIN["wdc2006"].rounds] == [
        time(10), time(19), time(10), time(19), time(9, 30)]
    assert [r.start for r in BUILTIN["wdc2018"].rounds][1] == time(17, 30)
    assert BUILTIN["wdc2019"].writing_minutes == 1
    assert all(p.central_clock for p in BUILTIN.values())


def test_unknown_round_is_a_clear_error():
    with pytest.raises(EventError, match="no round 9"):
        BUILTIN["wdc2006"].round(9)


def test_the_documented_example_file_loads():
    profile = load_event("examples/events/my-open.toml")
    assert profile.id == "my-open"
    assert profile.phase_minutes(1901, "spring") == 15
    assert profile.writing_minutes == 1
    assert profile.penalty.model == "graduated"


GOOD = """
name = "Club night"
last_year = 1905
penalty = { model = "yellow_red" }
[[phase_lengths]]
spring = 15
fall = 12
"""


def test_a_minimal_toml_event(tmp_path):
    f = tmp_path / "club.toml"
    f.write_text(GOOD)
    profile = load_event(str(f))
    assert (profile.id, profile.last_year) == ("club", 1905)
    assert profile.phase_minutes(1903, "fall") == 12


@pytest.mark.parametrize(
    "text, expected",
    [
        (GOOD.replace("fall = 12", "fal = 12"), "phase_lengths.0.fal: unknown key"),
        (GOOD.replace("spring = 15", 'spring = "long"'), "phase_lengths.0.spring: Input should be"),
        (GOOD.replace('name = "Club night"', ""), "name: required key is missing"),
        (GOOD.replace("yellow_red", "firing_squad"), "penalty.model: Input should be"),
        (
            "writing_minutes = 5\n" + GOOD.replace("fall = 12", "fall = 4"),
            "writing_minutes must be shorter",
        ),
        ("name = [", "not valid TOML"),
        (GOOD.replace("yellow_red", "graduated"), "graduated model needs"),
    ],
)
def test_a_malformed_event_file_gets_one_line_naming_file_and_key(tmp_path, text, expected):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(EventError) as info:
        load_event(str(f))
    message = str(info.value)
    assert message.startswith(str(f) + ": ")
    assert expected in message
    assert "\n" not in message


def test_unknown_event_names_the_choices():
    with pytest.raises(EventError, match="wdc2003, wdc2006"):
        load_event("wdc1999")


def test_parse_event_toml_keeps_an_explicit_id():
    profile = parse_event_toml('id = "x1"\n' + GOOD, "somewhere/else.toml")
    assert profile.id == "x1"


def test_a_file_that_is_not_text_gets_one_line(tmp_path):
    f = tmp_path / "binary.toml"
    f.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(EventError, match="not a text file"):
        load_event(str(f))


def test_a_file_name_outside_the_id_alphabet_still_gives_an_id(tmp_path):
    f = tmp_path / "Coupe d'été.toml"
    f.write_text(GOOD, encoding="utf-8")
    assert load_event(str(f)).id == "Coupe-d-t"


def test_years_past_2100_are_refused_in_a_file(tmp_path):
    f = tmp_path / "far.toml"
    f.write_text("last_year = 3000\n" + GOOD.replace("last_year = 1905\n", ""))
    with pytest.raises(EventError, match="last_year: Input should be less than or equal to 2100"):
        load_event(str(f))

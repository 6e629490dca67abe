"""The standard map's provinces, and units as a TD types them (graduated20, rule 6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipclock.launcher.cli import main
from dipclock.provinces import (
    PROVINCES,
    UnknownUnit,
    alphabetical,
    parse_unit,
    parse_units,
    province,
)


def test_the_standard_map_has_75_spaces_34_centres_and_19_seas() -> None:
    assert len(PROVINCES) == 75
    assert sum(p.centre for p in PROVINCES) == 34
    assert sum(p.sea for p in PROVINCES) == 19
    assert not any(p.centre and p.sea for p in PROVINCES)
    assert len({p.abbr.casefold() for p in PROVINCES}) == 75
    assert len({p.name for p in PROVINCES}) == 75
    # the home centres of the seven powers are all centres
    homes = ("Vie Bud Tri Lon Edi Lvp Par Bre Mar Ber Kie Mun Rom Ven Nap Mos StP War Sev "
             "Ank Con Smy").split()
    assert len(homes) == 22 and all(province(a).centre for a in homes)


@pytest.mark.parametrize(("typed", "name"), [
    ("Mao", "Mid-Atlantic Ocean"), ("MAO", "Mid-Atlantic Ocean"), ("mid", "Mid-Atlantic Ocean"),
    ("Mat", "Mid-Atlantic Ocean"), ("mid-atlantic ocean", "Mid-Atlantic Ocean"),
    ("GoB", "Gulf of Bothnia"), ("bot", "Gulf of Bothnia"), ("Nrg", "Norwegian Sea"),
    ("NAt", "North Atlantic Ocean"), ("Lpl", "Liverpool"), ("Lvo", "Livonia"),
    ("St Petersburg", "St. Petersburg"), ("stp", "St. Petersburg"), ("Eng", "English Channel"),
    ("ECH", "English Channel"), ("Tyn", "Tyrrhenian Sea"), ("Marseille", "Marseilles"),
])
def test_abbreviations_and_alternatives_are_accepted_in_any_case(typed: str, name: str) -> None:
    assert province(typed).name == name


@pytest.mark.parametrize(("typed", "shown"), [
    ("A Vie", "A Vie"), ("f stp/sc", "F StP/sc"), ("Fleet Spa (nc)", "F Spa/nc"),
    ("F Bul/ec", "F Bul/ec"), ("army mos", "A Mos"), ("Mid", "Mao"), ("Fin", "Fin"),
    ("A Arm", "A Arm"), ("F StP (south coast)", "F StP/sc"),
])
def test_a_unit_is_written_back_in_the_usual_short_form(typed: str, shown: str) -> None:
    assert parse_unit(typed).text == shown


@pytest.mark.parametrize(("typed", "words"), [
    ("Xyz", "'Xyz' is not a province of the standard map"),
    ("Marsielles", "did you mean Marseilles (Mar)?"),
    ("Bohmia", "did you mean Bohemia (Boh)?"),
    ("Bud/nc", "Budapest has no coasts"),
    ("F Spa/ec", "Spain has no east coast (only /nc or /sc)"),
    ("", "is not a unit"),
])
def test_an_unknown_unit_is_refused_with_the_nearest_name(typed: str, words: str) -> None:
    with pytest.raises(UnknownUnit, match=words.replace("(", r"\(").replace(")", r"\)")
                       .replace("?", r"\?")):
        parse_unit(typed)


def test_the_order_is_the_english_names_not_the_abbreviations() -> None:
    def order(typed: str) -> list[str]:
        return [u.text for u in alphabetical(parse_units(typed.split(",")))]

    assert order("Mao,Mar") == ["Mar", "Mao"]  # Marseilles < Mid-Atlantic Ocean
    assert order("Lvn,Lvp") == ["Lvp", "Lvn"]  # Liverpool < Livonia
    assert order("Bot,Bud") == ["Bud", "Bot"]  # Budapest < Gulf of Bothnia
    assert order("F StP/nc,A Spa,A Swe") == ["A Spa", "F StP/nc", "A Swe"]


def test_a_unit_given_twice_counts_once() -> None:
    assert [u.text for u in parse_units(["Bud", "bud", "A Bud", " ", "Budapest"])] == ["Bud"]


spellings = {
    p.abbr: sorted({p.abbr, p.abbr.upper(), p.abbr.lower(), p.name, p.name.upper(), *p.also})
    for p in PROVINCES
}


@given(st.lists(st.sampled_from(sorted(spellings)), min_size=1, max_size=12, unique=True),
       st.data())
def test_the_order_never_depends_on_how_a_name_was_typed(abbrs: list[str],
                                                       data: st.DataObject) -> None:
    typed = [data.draw(st.sampled_from(spellings[a])) for a in abbrs]
    ordered = [u.province.abbr for u in alphabetical(parse_units(typed))]
    assert ordered == [u.province.abbr for u in alphabetical(parse_units(abbrs))]
    assert sorted(ordered, key=lambda a: province(a).order) == ordered
    # merging is idempotent: the units written back read back the same
    again = parse_units([u.text for u in parse_units(typed)])
    assert again == parse_units(typed)


@pytest.mark.parametrize(("argv", "words"), [
    (["--late", "80", "--units", "Xyz,Foo"],
     "--units: 'Xyz' is not a province of the standard map"),
    (["--late", "20", "--units", ""], "--units: no unit given"),
    (["--late", "-5"], "--late -5: seconds after the deadline, from 0 to 86400"),
    (["--late", "1e308"], "--late 1e+308: seconds after the deadline"),
    (["--late", "20", "--units", "Spa/ec"], "--units: 'Spa/ec': Spain has no east coast"),
])
def test_the_penalty_command_refuses_bad_units_and_lateness(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["penalty", "graduated20", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err


@pytest.mark.parametrize(("units", "text"), [
    ("Mao,Mar", "10-unit NMR: delete all 2 orders (Mar, Mao)"),
    ("Lvn,Lvp", "10-unit NMR: delete all 2 orders (Lvp, Lvn)"),
    ("Bud,bud", "10-unit NMR: delete the only order (Bud)"),
])
def test_the_issue_s_cases_delete_in_the_right_order(
    capsys: pytest.CaptureFixture[str], units: str, text: str
) -> None:
    assert main(["penalty", "graduated20", "--late", "80", "--units", units]) == 0
    assert capsys.readouterr().out == text + "\n"

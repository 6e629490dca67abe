"""The roster in the core (issue 36, "A roster on the hub"): a person's fields, the display
name every other part of the hub keys by, the CSV file read line by line with each bad line
refused by its number, written back in one shape, and what an import does to a roster."""

from __future__ import annotations

import codecs
import unicodedata

import pytest

from dipclock.roster import (
    COLUMNS,
    Person,
    PersonError,
    RosterFileError,
    combine,
    decode,
    person,
    read_roster,
    write_roster,
)

HEADER = ",".join(COLUMNS)


def refusals(text: str) -> list[str]:
    return [str(r.text()) for r in read_roster(text).refused]


# --- the person -----------------------------------------------------------------------


def test_the_display_name_tells_two_people_of_one_name_apart():
    assert person("John", "Smith").name == "John Smith"
    assert person("John", "Smith", homonym=2).name == "John Smith (2)"
    assert person("John", "Smith", note="Leeds").name == "John Smith (Leeds)"
    assert person("  Ann ", "Lee\u00a0Wong").name == "Ann Lee\u00a0Wong"  # kept as typed inside


def test_names_are_kept_in_one_form():
    nfd = unicodedata.normalize("NFD", "José")
    assert person(nfd, "García").given == "José"  # NFC, as dipclock.names keeps every name
    assert person("JOSÉ", "garcía").key == person("José", "García").key


@pytest.mark.parametrize(("fields", "field"), [
    ({"given": ""}, "given name"), ({"family": "  "}, "family name"),
    ({"given": "A\nB"}, "given name"), ({"given": "A\0B"}, "given name"),
    ({"given": "A\u2028B"}, "given name"), ({"family": "x" * 81}, "family name"),
    ({"given": "x" * 40, "family": "y" * 40}, "name"),  # "given family" past 80
    ({"homonym": "0"}, "homonym"), ({"homonym": "100"}, "homonym"),
    ({"wdd": "0"}, "wdd"), ({"wdd": "-3"}, "wdd"), ({"wdd": "12a"}, "wdd"),
    ({"wdd": "²"}, "wdd"), ({"wdr": "1234567890"}, "wdr"), ({"wdd": True}, "wdd"),
    ({"nationality": "XX"}, "nationality"), ({"nationality": "FRA"}, "nationality"),
    ({"preregistered": "maybe"}, "preregistered"),
    ({"email": "ann"}, "email"), ({"email": "ann@host"}, "email"),
    ({"email": "a b@x.org"}, "email"), ({"note": "n" * 31}, "note"),
])
def test_a_bad_field_is_named(fields, field):
    given = {"given": "Ann", "family": "Lee"} | fields
    with pytest.raises(PersonError) as caught:
        person(given.pop("given"), given.pop("family"), **given)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_a_country_is_an_iso_code_in_capitals_and_a_near_miss_says_the_code():
    assert person("A", "B", nationality="fr").nationality == "FR"
    assert person("A", "B", nationality="").nationality == ""
    for given, hint in (("UK", "United Kingdom is GB"), ("France", "France is FR"),
                        ("DEU", "Germany is DE")):
        with pytest.raises(PersonError, match=hint):
            person("A", "B", nationality=given)


def test_ids_yes_no_and_email_as_a_spreadsheet_gives_them():
    p = person("A", "B", wdd=" 42 ", wdr="7", preregistered="Y", email=" Ann.Lee+wdc@x.co.uk ")
    assert (p.wdd, p.wdr, p.preregistered, p.email) == (42, 7, True, "Ann.Lee+wdc@x.co.uk")
    for word, meant in (("yes", True), ("TRUE", True), ("1", True), ("n", False),
                        ("0", False), ("false", False), ("", False)):
        assert person("A", "B", preregistered=word).preregistered is meant
    assert person("A", "B", wdd="", homonym="").wdd is None


# --- reading the file -----------------------------------------------------------------


def test_the_header_takes_the_obvious_spellings_in_any_order_and_case():
    text = ("Surname,First Name,E-mail,Country,WDD ID,wdr,Club or team,Pre-registered,"
            "HOMONYME,Location,Note\n"
            "García,José,jg@x.es,es,12,3,Paris Dip,yes,2,Madrid,\n")
    read = read_roster(text)
    assert read.refused == () and read.notes == ()
    assert read.people == ((2, Person("José", "García", 2, 12, 3, "ES", "Paris Dip", True,
                                      "jg@x.es", "Madrid")),)
    for given, family in (("given", "family"), ("GIVEN_NAME", "last name"),
                          ("forename", "Name"), ("first", "last")):
        assert len(read_roster(f"{given},{family}\nAnn,Lee\n").people) == 1


def test_each_bad_line_is_refused_by_its_number_and_the_good_lines_are_kept():
    text = ("given_name,family_name,nationality,wdd,email\n"
            "John,Smith,GB,1,\n"
            "\n"                        # a blank line: skipped, still counted
            "john,SMITH,GB,,\n"         # the same name, capitals aside
            "Ann,Lee,ZZ,,\n"            # unknown country
            "Bob,Ray,FR,x1,\n"          # bad id
            "Cy,Dee,FR,,cy@\n"          # bad email
            ",Eve,FR,,\n"               # missing name
            "Fay,Gee,FR,1,\n"           # John Smith's WDD id
            "John,Smith,GB,,,extra\n"   # too many values
            "John,Smith,GB,,\n")        # told apart from line 2? no: refused too
    read = read_roster(text)
    assert [n for n, _ in read.people] == [2]
    assert [r.line for r in read.refused] == [4, 5, 6, 7, 8, 9, 10, 11]
    said = refusals(text)
    assert said[0] == ("line 4: john SMITH is already on line 2: two people of one name are "
                       "told apart by a homonym number (2, 3...) or a note")
    assert said[1].startswith("line 5: nationality: 'ZZ' is not a country code")
    assert said[2].startswith("line 6: wdd: 'x1' is not a positive whole number")
    assert said[3] == "line 7: email: 'cy@' is not an email address"
    assert said[4] == "line 8: given name: missing"
    assert said[5] == "line 9: WDD id 1 is already John Smith's (on line 2)"
    assert said[6] == "line 10: 6 values, and the first line names 5 columns"


def test_two_people_of_one_name_are_kept_when_told_apart():
    text = ("given_name,family_name,homonym,note\nJohn,Smith,,\nJohn,Smith,2,\n"
            "John,Smith,,York\n")
    names = [p.name for _, p in read_roster(text).people]
    assert names == ["John Smith", "John Smith (2)", "John Smith (York)"]


def test_nfd_and_nfc_spellings_in_one_file_are_one_name():
    nfd = unicodedata.normalize("NFD", "José")
    assert refusals(f"given,family\nJosé,Ruiz\n{nfd},Ruiz\n") == [
        "line 3: José Ruiz is already on line 2: two people of one name are told apart by a "
        "homonym number (2, 3...) or a note"]


def test_a_column_the_roster_does_not_keep_is_noted_and_ignored():
    read = read_roster("given,family,Shoe size\nAnn,Lee,38\n")
    assert tuple(map(str, read.notes)) == (
        "column 'Shoe size' is not one the roster keeps: ignored",)
    assert read.people[0][1] == Person("Ann", "Lee")


@pytest.mark.parametrize(("text", "said"), [
    ("", "the file is empty"),
    ("\n\n", "the file is empty"),
    ("name\nAnn Lee\n", "line 1: the first line names the columns, and names no given name"),
    ("given,surname,last\n", "line 1: two columns are family_name"),
    ("given,family\nAnn,Lee\nBob," + "x" * 200_000 + "\n", "line 3: not a CSV line"),
])
def test_a_file_that_cannot_be_read_is_refused_whole(text, said):
    with pytest.raises(RosterFileError, match=said):
        read_roster(text)


def test_semicolons_and_tabs_separate_as_the_header_does():
    for sep in (";", "\t"):
        read = read_roster(f"given{sep}family{sep}club\nAnn{sep}Lee{sep}A, B and C\n")
        assert read.people[0][1].club == "A, B and C"


def test_the_bytes_a_spreadsheet_saves():
    text = "given,family\nJosé,García\n"
    assert decode(codecs.BOM_UTF8 + text.encode()) == (text, None)
    assert decode(text.encode()) == (text, None)
    utf16 = decode(text.replace(",", "\t").encode("utf-16"))
    assert utf16 == (text.replace(",", "\t"), None)
    ansi, note = decode(text.encode("cp1252"))
    assert ansi == text and note is not None and "Windows-1252" in str(note)
    with pytest.raises(RosterFileError, match="CSV UTF-8"):
        decode(b"given,family\n\x81\x8d,\xff\n")  # neither UTF-8 nor Windows-1252


# --- writing it back ------------------------------------------------------------------


PEOPLE = [
    Person("José", "García", 1, 12, 3, "ES", "Paris, Dip \"Club\"", True, "jg@x.es", "Madrid"),
    Person("John", "Smith"),
    Person("John", "Smith", homonym=2, nationality="GB"),
    Person("John", "Smith", note="York"),
    Person("=cmd|'/c calc'!A0", "-minus", club="@club", location="+33"),  # formulas quoted
]


def test_the_file_written_reads_back_as_the_same_people_and_the_same_text():
    text = write_roster(PEOPLE)
    assert text.splitlines()[0] == HEADER
    assert text.splitlines()[5] == "'=cmd|'/c calc'!A0,'-minus,1,,,,,'@club,no,,'+33"
    read = read_roster(text)
    assert read.refused == () and read.notes == ()
    assert [p for _, p in read.people] == PEOPLE
    assert write_roster([p for _, p in read.people]) == text


def test_a_canonical_file_round_trips_exactly():
    text = (f"{HEADER}\n"
            "Ann,Lee,1,,5,,FR,Club A,yes,ann@x.fr,Lyon\n"
            "Ann,Lee,2,,,,,,no,,\n")
    assert write_roster([p for _, p in read_roster(text).people]) == text


# --- an import into a roster ----------------------------------------------------------


def test_merging_updates_the_people_named_again_and_adds_the_others():
    current = [Person("Ann", "Lee", wdd=5), Person("Bob", "Ray")]
    lines = [(2, Person("ANN", "lee", wdd=5, club="X")), (3, Person("Cy", "Dee"))]
    done = combine(current, lines)
    assert [p.name for p in done.people] == ["ANN lee", "Bob Ray", "Cy Dee"]
    assert done.updated == ((current[0], lines[0][1]),) and done.removed == ()
    assert done.summary() == "roster import: 1 added, 1 updated"


def test_merging_refuses_a_new_line_that_takes_a_kept_person_s_id():
    done = combine([Person("Ann", "Lee", wdd=5)], [(4, Person("Cy", "Dee", wdd=5))])
    assert [str(r.text()) for r in done.refused] == [
        "line 4: WDD id 5 is already Ann Lee's (on the roster)"]
    assert [p.name for p in done.people] == ["Ann Lee"]


def test_replacing_removes_the_people_the_file_does_not_name():
    current = [Person("Ann", "Lee", wdd=5), Person("Bob", "Ray")]
    done = combine(current, [(2, Person("Cy", "Dee", wdd=5)), (3, Person("Bob", "Ray"))],
                   replace=True)
    assert [p.name for p in done.people] == ["Bob Ray", "Cy Dee"]
    assert done.removed == (current[0],) and done.updated == ()
    assert done.summary() == "roster import: 1 added, 0 updated, 1 removed"


def test_a_line_may_not_rename_a_person_a_seat_names():
    current = [Person("Ann", "Lee"), Person("Bob", "Ray")]
    lines = [(2, Person("ANN", "LEE", club="X")), (3, Person("Bob", "Ray", club="Y"))]
    done = combine(current, lines, seated={current[0].key: "round 1 table 3 (Austria)",
                                           current[1].key: "round 2 table 1 (France)"})
    assert [str(r.text()) for r in done.refused] == [
        "line 2: Ann Lee is seated in round 1 table 3 (Austria): the name stays as the seat "
        "has it (ANN LEE refused)"]
    assert [p.club for p in done.people] == ["", "Y"]  # the seated Bob Ray's club changes

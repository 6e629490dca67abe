"""One person of the event's roster, each field checked as a TD types it or a file gives it.

The roster is the one list of the event's people: seating, sheets, penalties, scores,
standings and teams all name a player by one string, the person's display name (``name``),
so it is typed once per event and must be unique, by ``dipclock.names.name_key``, across the
roster. Two people who share both names (the World Diplomacy Database's HOMONYME: a number,
1 unless two people share both names) are told apart in it: "John Smith" and "John Smith
(2)", or by a note the TD gives ("John Smith (Leeds)").

Nationality is an ISO 3166-1 alpha-2 code, checked against ``pycountry``'s copy of the ISO
list: Python itself carries no list of countries, and pycountry is the well-kept packaging
of the Debian iso-codes data, updated when ISO changes a code.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import pycountry

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said
from dipclock.names import name_key, spelling
from dipclock.seating.seatfile import NAME_MAX, is_name

#: a given or a family name, a club, a location: one line of at most this many characters
TEXT_MAX = NAME_MAX
#: the note that tells two people of one name apart: short, it is shown in the name
NOTE_MAX = 30
#: the most homonyms of one name (WDD's HOMONYME is a small number)
HOMONYM_MAX = 99
#: an id of the World Diplomacy Database or Reference: a positive whole number this long
ID_DIGITS = 9
#: an email address is checked loosely: something@somewhere.tld, one line (RFC 5321's most)
EMAIL_MAX = 254
_EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")
#: characters no name holds: controls, line and paragraph breaks
_NOT_TEXT = frozenset({"Cc", "Zl", "Zp"})
#: a code people give that ISO does not have (the hint for a refused code)
_CALLED: dict[str, str] = {"UK": "GB"}


class PersonError(DipclockError):
    """A field of a person that cannot be kept: ``field`` names it (as the file's column and
    the API's field do: kept as written), the message says why, in the reader's language
    (``in_``)."""

    def __init__(self, field: str, message: Said) -> None:
        super().__init__(said("{field}: {message}", field=field, message=message))
        self.field = field


@dataclass(frozen=True)
class Person:
    """One of the event's people, every field checked (``person`` builds one)."""

    given: str
    family: str
    homonym: int = 1
    wdd: int | None = None
    wdr: int | None = None
    nationality: str = ""
    club: str = ""
    #: wdc2019, 1b3: "If the organisation need some players to sit out, they will choose
    #: first the non-preregistered players" (the register's sit-out order reads this)
    preregistered: bool = False
    email: str = ""
    location: str = ""
    #: what tells this person apart from another of both names, in the name: "Leeds"
    note: str = ""

    @property
    def name(self) -> str:
        """The display name every other part of the hub keys by: "Given Family", then the
        note or, for a second homonym on, its number: "John Smith (2)"."""
        base = f"{self.given} {self.family}"
        if self.note:
            return f"{base} ({self.note})"
        return f"{base} ({self.homonym})" if self.homonym > 1 else base

    @property
    def key(self) -> str:
        """Two people are one name when their keys are (capitals and spaces aside)."""
        return name_key(self.name)

    @property
    def both_names(self) -> str:
        """The key of the given and family names alone: homonyms share it."""
        return name_key(f"{self.given} {self.family}")


def person(given: str, family: str, *, homonym: int | str | None = 1,
           wdd: int | str | None = None, wdr: int | str | None = None,
           nationality: str = "", club: str = "", preregistered: bool | str = False,
           email: str = "", location: str = "", note: str = "") -> Person:
    """A ``Person`` from what was typed; ``PersonError`` names the first field that is
    wrong. Texts are kept in one form (``dipclock.names.spelling``); a country code in any
    case is kept in capitals; numbers and yes/no may come as text (a CSV cell)."""
    made = Person(
        given=_name(given, "given name"), family=_name(family, "family name"),
        homonym=_homonym(homonym), wdd=_id(wdd, "wdd"), wdr=_id(wdr, "wdr"),
        nationality=country(nationality), club=_text(club, "club", TEXT_MAX),
        preregistered=yes_no(preregistered, "preregistered"), email=_email(email),
        location=_text(location, "location", TEXT_MAX), note=_text(note, "note", NOTE_MAX))
    if not is_name(made.name):
        raise PersonError("name", said("{name}... is longer than the {most} characters a "
                                       "name has on a sheet", name=made.name[:NAME_MAX],
                                       most=NAME_MAX))
    return made


def _text(value: str, field: str, most: int) -> str:
    """One line (a no-break space is fine: it keeps a name on one line of a sheet)."""
    text = spelling(value)
    if len(text) > most or any(unicodedata.category(c) in _NOT_TEXT for c in text):
        raise PersonError(field, said("one line of at most {most} characters", most=most))
    return text


def _name(value: str, field: str) -> str:
    text = _text(value, field, TEXT_MAX)
    if not text:
        raise PersonError(field, said("missing"))
    return text


def _whole(value: int | str, field: str, most_digits: int) -> int:
    """A positive whole number, as a number or ASCII digits (``int`` would take "²" for no
    number and 5,000 digits for a ValueError of its own)."""
    if isinstance(value, bool):
        raise PersonError(field, said("{value} is not a whole number", value=value))
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= most_digits
            and int(text) >= 1):
        raise PersonError(field, said("{value} is not a positive whole number (at most "
                                      "{digits} digits)", value=repr(text),
                                      digits=most_digits))
    return int(text)


def _homonym(value: int | str | None) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 1
    number = _whole(value, "homonym", 2)
    if number > HOMONYM_MAX:
        raise PersonError("homonym", said("{value}: at most {most}", value=number,
                                          most=HOMONYM_MAX))
    return number


def _id(value: int | str | None, field: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _whole(value, field, ID_DIGITS)


def country(value: str) -> str:
    """An ISO 3166-1 alpha-2 code in capitals ("" for none given); a country's name or its
    three-letter code is refused with the two letters to give."""
    code = value.strip().upper()
    if not code:
        return ""
    if len(code) == 2 and code.isascii() and pycountry.countries.get(alpha_2=code):
        return code
    given = repr(value.strip()[:40])
    if code in _CALLED:
        hint: tuple[str, str] | None = (_country_name(_CALLED[code]), _CALLED[code])
    else:
        try:
            found = pycountry.countries.lookup(value.strip())
            hint = (str(found.name), str(found.alpha_2))
        except LookupError:
            hint = None
    if hint is None:
        raise PersonError("nationality", said("{value} is not a country code (ISO 3166-1, "
                                              "two letters: FR, GB, US...)", value=given))
    # the country's name is ISO's English one, as pycountry gives it
    raise PersonError("nationality", said("{value} is not a country code (ISO 3166-1, two "
                                          "letters: FR, GB, US...): {country} is {code}",
                                          value=given, country=hint[0], code=hint[1]))


def _country_name(code: str) -> str:
    found = pycountry.countries.get(alpha_2=code)
    return str(found.name) if found else code


#: how a spreadsheet says yes or no
YES = frozenset({"yes", "y", "1", "true"})
NO = frozenset({"no", "n", "0", "false", ""})


def yes_no(value: bool | str, field: str) -> bool:
    if isinstance(value, bool):
        return value
    word = value.strip().casefold()
    if word in YES or word in NO:
        return word in YES
    raise PersonError(field, said("{value}: give yes or no", value=repr(value.strip()[:20])))


def _email(value: str) -> str:
    """Checked loosely (something@somewhere.tld), kept as given: nothing is sent to it, and
    a strict check refuses real addresses."""
    text = value.strip()
    if text and (len(text) > EMAIL_MAX or not _EMAIL.fullmatch(text)):
        raise PersonError("email", said("{value} is not an email address",
                                        value=repr(text[:60])))
    return text


__all__ = ["Person", "PersonError", "country", "person", "yes_no"]

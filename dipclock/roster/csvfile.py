"""The roster as a CSV file: read from a spreadsheet's export, written back in one shape.

Reading: the first line names the columns, in any order and any case, by the obvious
spellings ("First name", "Surname", "WDD id", "Country", "Pre-registered"...; ``HEADERS``),
and only the given and family names are required. Each other line is one person; a bad
line is refused by its line number with why (a missing name, an unknown country code, a bad
id or email, a name already on an earlier line), and the good lines are kept in
``RosterFile.people`` for the caller to store only if the TD accepts the import so.

Bytes come in as a spreadsheet saves them (``decode``): UTF-8 with or without its
byte-order mark; UTF-16 with its mark (Excel's "Unicode text", tab-separated); else
Windows-1252, Excel's "CSV" in Western Europe, with a note to check the accents. That
fallback is safe: UTF-8 is tried first and strictly, and a file that is neither is refused.
The separator is the header line's: a comma, a semicolon (Excel where a comma is the
decimal point) or a tab.

Writing (``write_roster``): the columns of ``COLUMNS`` in that order, UTF-8; reading that
back gives the same people, and writing them again the same text. A cell a spreadsheet
would run as a formula is written with a leading apostrophe, as every CSV of the hub writes
it (``server.csvcells``), and read back without it.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said
from dipclock.roster.person import Person, PersonError, person
from dipclock.roster.roster import ROSTER_MAX, Index, Refusal

#: the columns written, in order (reading takes these names too)
COLUMNS = ("given_name", "family_name", "homonym", "note", "wdd", "wdr", "nationality",
           "club", "preregistered", "email", "location")

#: each column's header spellings, once lower-cased and without spaces, ``_``, ``-``, ``.``
HEADERS: dict[str, tuple[str, ...]] = {
    "given_name": ("givenname", "given", "firstname", "first", "forename"),
    "family_name": ("familyname", "family", "lastname", "last", "surname", "name"),
    "homonym": ("homonym", "homonyme"),
    "note": ("note",),
    "wdd": ("wdd", "wddid"),
    "wdr": ("wdr", "wdrid"),
    "nationality": ("nationality", "country", "nation"),
    "club": ("club", "team", "clubteam", "cluborteam"),
    "preregistered": ("preregistered", "preregistration", "prereg"),
    "email": ("email", "mail", "emailaddress"),
    "location": ("location",),
}
_HEADER = {spelled: column for column, spellings in HEADERS.items() for spelled in spellings}
#: what a spreadsheet runs as a formula (``server.csvcells.FORMULA_STARTS``, in the core)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SEPARATORS = (",", ";", "\t")


class RosterFileError(DipclockError):
    """The file as a whole cannot be read (no header line, not text): nothing is kept. Said
    in the reader's language (``in_``)."""


@dataclass(frozen=True)
class RosterFile:
    """A roster file read: the good lines ((line number, person)), the lines refused, and
    notes for the TD (columns ignored, the encoding guessed), said in the reader's
    language."""

    people: tuple[tuple[int, Person], ...]
    refused: tuple[Refusal, ...]
    notes: tuple[Said, ...] = ()


def decode(data: bytes) -> tuple[str, Said | None]:
    """The text of a file's bytes, and a note when it was not UTF-8 (``RosterFileError``
    when it is no text this reads)."""
    if data.startswith(codecs.BOM_UTF8):
        return _decoded(data[len(codecs.BOM_UTF8):], "utf-8"), None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decoded(data, "utf-16"), None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    text = _decoded(data, "cp1252")
    return text, said("the file is not UTF-8: read as Windows-1252 (Excel's CSV in Western "
                      "Europe); check the accents, or save it as \"CSV UTF-8\"")


def _decoded(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise RosterFileError(said('the file is not text this reads: save it from the '
                                   'spreadsheet as "CSV UTF-8"')) from None


def read_roster(text: str) -> RosterFile:
    """The people of a roster file's text, each line checked on its own and against the
    lines before it (``Index``); a line refused is left out, with why."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise RosterFileError(said("the file is empty: its first line names the columns "
                                   "(given_name,family_name,...)"))
    separator = max(SEPARATORS, key=lines[first].count)
    columns, notes = _header(lines[first], separator, first + 1)
    good: list[tuple[int, Person]] = []
    refused: list[Refusal] = []
    index = Index()
    reader = csv.reader(io.StringIO(text), delimiter=separator)
    n = start = 0
    try:
        for row in reader:
            n, start = start + 1, reader.line_num
            if n <= first + 1 or not any(c.strip() for c in row):
                continue
            if len(good) + len(refused) >= ROSTER_MAX:
                raise RosterFileError(said("line {line}: more than {most} people: a roster "
                                           "holds at most that many", line=n,
                                           most=format(ROSTER_MAX, ",")))
            if len(row) > len(columns):
                refused.append(Refusal(n, said("{values} values, and the first line names "
                                               "{columns} columns", values=len(row),
                                               columns=len(columns))))
                continue
            try:
                p = _person(columns, row)
            except PersonError as exc:
                refused.append(Refusal(n, said("{error}", error=exc)))
                continue
            why = index.clash(p)
            if why is not None:
                refused.append(Refusal(n, why))
                continue
            index.add(said("on line {line}", line=n), p)
            good.append((n, p))
    except csv.Error as exc:  # a value past csv's limit (128 KiB), a NUL byte
        raise RosterFileError(said("line {line}: not a CSV line ({reason})", line=start + 1,
                                   reason=str(exc))) from None
    return RosterFile(tuple(good), tuple(refused), tuple(notes))


def _header(line: str, separator: str, n: int) -> tuple[list[str | None], list[Said]]:
    """Each column's field (None: not one the roster keeps, noted), from the first line."""
    try:
        cells = next(csv.reader([line], delimiter=separator))
    except csv.Error as exc:
        raise RosterFileError(said("line {line}: not a CSV line ({reason})", line=n,
                                   reason=str(exc))) from None
    columns: list[str | None] = []
    notes: list[Said] = []
    for cell in cells:
        spelled = "".join(c for c in cell.casefold() if c not in " _-.\ufeff")
        column = _HEADER.get(spelled)
        if column is not None and column in columns:
            raise RosterFileError(said("line {line}: two columns are {column}", line=n,
                                       column=column))
        if column is None and cell.strip():
            notes.append(said("column {column} is not one the roster keeps: ignored",
                              column=repr(cell.strip()[:40])))
        columns.append(column)
    missing = [c for c in ("given_name", "family_name") if c not in columns]
    if len(missing) == 2:
        raise RosterFileError(said(
            "line {line}: the first line names the columns, and names no given name and no "
            "family name column (give {columns}; any order, only the two names are "
            "required)", line=n, columns=",".join(COLUMNS)))
    if missing == ["given_name"]:
        raise RosterFileError(said(
            "line {line}: the first line names the columns, and names no given name column "
            "(give {columns}; any order, only the two names are required)", line=n,
            columns=",".join(COLUMNS)))
    if missing:
        raise RosterFileError(said(
            "line {line}: the first line names the columns, and names no family name column "
            "(give {columns}; any order, only the two names are required)", line=n,
            columns=",".join(COLUMNS)))
    return columns, notes


def _person(columns: Sequence[str | None], row: Sequence[str]) -> Person:
    cells = {c: _unquoted(v) for c, v in zip(columns, row, strict=False) if c is not None}
    return person(
        cells.get("given_name", ""), cells.get("family_name", ""),
        homonym=cells.get("homonym"), wdd=cells.get("wdd"), wdr=cells.get("wdr"),
        nationality=cells.get("nationality", ""), club=cells.get("club", ""),
        preregistered=cells.get("preregistered", ""), email=cells.get("email", ""),
        location=cells.get("location", ""), note=cells.get("note", ""))


def _unquoted(value: str) -> str:
    """A cell as written: without the apostrophe ``_cell`` puts before a formula's start."""
    text = value.strip()
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def _cell(value: object) -> str:
    """A value as a cell: text a spreadsheet would run as a formula gets an apostrophe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def person_row(p: Person) -> list[str]:
    """``p`` as a row of ``COLUMNS``."""
    return [_cell(v) for v in (p.given, p.family, p.homonym, p.note, p.wdd, p.wdr,
                               p.nationality, p.club, p.preregistered, p.email,
                               p.location)]


def write_roster(people: Sequence[Person]) -> str:
    """The roster as CSV text: a header line of ``COLUMNS``, then a person a line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(person_row(p) for p in people)
    return out.getvalue()


__all__ = ["COLUMNS", "HEADERS", "RosterFile", "RosterFileError", "decode", "person_row",
           "read_roster", "write_roster"]

"""The standard map's 75 spaces, and a power's units as a TD types them.

graduated20's rule 6 deletes "the unit in the alphabetically earliest province" first, so
the order is the provinces' English names (Marseilles before Mid-Atlantic Ocean, Liverpool
before Livonia, Budapest before Gulf of Bothnia), never their abbreviations. A TD types
units the way their scoresheet has them: "A Vie", "F StP/sc", "Mid", "mao"; each is
checked against the map (a typo gets the nearest name), written back in the usual short
form, and given once.

Names and abbreviations are those of the rulebook and of DATC; alternatives are the
spellings other tools and scoresheets use (jDip, webDiplomacy, Backstabbr): MAO as Mid or
Mat, Gulf of Bothnia as GoB, Norwegian Sea as Nrg, Livonia as Lvo, Liverpool as Lpl.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from dipclock.errors import DipclockError

UnitType = Literal["A", "F"]


@dataclass(frozen=True)
class Province:
    """One space of the standard map."""

    abbr: str  # "Mao": the short form written back
    name: str  # "Mid-Atlantic Ocean"
    sea: bool = False
    centre: bool = False  # a supply centre
    coasts: tuple[str, ...] = ()  # Spain, St. Petersburg: ("nc", "sc"); Bulgaria: ("ec", "sc")
    also: tuple[str, ...] = ()  # other names and abbreviations in common use

    @property
    def order(self) -> str:
        """The key "alphabetically" means: the English name, case and punctuation aside."""
        return _plain(self.name)


def _p(abbr: str, name: str, *also: str, sc: bool = False, sea: bool = False,
       coasts: tuple[str, ...] = ()) -> Province:
    return Province(abbr, name, sea, sc, coasts, also)


PROVINCES: tuple[Province, ...] = (
    # the 19 sea spaces
    _p("Adr", "Adriatic Sea", sea=True),
    _p("Aeg", "Aegean Sea", sea=True),
    _p("Bal", "Baltic Sea", sea=True),
    _p("Bar", "Barents Sea", sea=True),
    _p("Bla", "Black Sea", sea=True),
    _p("Eas", "Eastern Mediterranean", "EMS", "East Med", "Eastern Med", sea=True),
    _p("Eng", "English Channel", "ECH", "Channel", sea=True),
    _p("Bot", "Gulf of Bothnia", "GoB", "Bothnia", sea=True),
    _p("Lyo", "Gulf of Lyon", "GoL", "Gulf of Lyons", "Lyon", sea=True),
    _p("Hel", "Heligoland Bight", "Heligoland", sea=True),
    _p("Ion", "Ionian Sea", sea=True),
    _p("Iri", "Irish Sea", sea=True),
    _p("Mao", "Mid-Atlantic Ocean", "Mid", "Mat", "Mid-Atlantic", sea=True),
    _p("Nao", "North Atlantic Ocean", "NAt", "North Atlantic", sea=True),
    _p("Nth", "North Sea", sea=True),
    _p("Nwg", "Norwegian Sea", "Nrg", sea=True),
    _p("Ska", "Skagerrak", sea=True),
    _p("Tys", "Tyrrhenian Sea", "Tyn", sea=True),
    _p("Wes", "Western Mediterranean", "WMS", "West Med", "Western Med", sea=True),
    # the 56 land spaces, 34 of them supply centres
    _p("Alb", "Albania"),
    _p("Ank", "Ankara", sc=True),
    _p("Apu", "Apulia"),
    _p("Arm", "Armenia"),
    _p("Bel", "Belgium", sc=True),
    _p("Ber", "Berlin", sc=True),
    _p("Boh", "Bohemia"),
    _p("Bre", "Brest", sc=True),
    _p("Bud", "Budapest", sc=True),
    _p("Bul", "Bulgaria", sc=True, coasts=("ec", "sc")),
    _p("Bur", "Burgundy"),
    _p("Cly", "Clyde"),
    _p("Con", "Constantinople", sc=True),
    _p("Den", "Denmark", sc=True),
    _p("Edi", "Edinburgh", sc=True),
    _p("Fin", "Finland"),
    _p("Gal", "Galicia"),
    _p("Gas", "Gascony"),
    _p("Gre", "Greece", sc=True),
    _p("Hol", "Holland", sc=True),
    _p("Kie", "Kiel", sc=True),
    _p("Lvp", "Liverpool", "Lpl", sc=True),
    _p("Lvn", "Livonia", "Lvo"),
    _p("Lon", "London", sc=True),
    _p("Mar", "Marseilles", "Marseille", sc=True),
    _p("Mos", "Moscow", sc=True),
    _p("Mun", "Munich", sc=True),
    _p("Nap", "Naples", sc=True),
    _p("Naf", "North Africa"),
    _p("Nwy", "Norway", "Nor", sc=True),
    _p("Par", "Paris", sc=True),
    _p("Pic", "Picardy"),
    _p("Pie", "Piedmont"),
    _p("Por", "Portugal", sc=True),
    _p("Pru", "Prussia"),
    _p("Rom", "Rome", sc=True),
    _p("Ruh", "Ruhr"),
    _p("Rum", "Rumania", "Romania", sc=True),
    _p("Ser", "Serbia", sc=True),
    _p("Sev", "Sevastopol", "Sebastopol", sc=True),
    _p("Sil", "Silesia"),
    _p("Smy", "Smyrna", sc=True),
    _p("Spa", "Spain", sc=True, coasts=("nc", "sc")),
    _p("StP", "St. Petersburg", "St Petersburg", "Saint Petersburg", sc=True,
       coasts=("nc", "sc")),
    _p("Swe", "Sweden", sc=True),
    _p("Syr", "Syria"),
    _p("Tri", "Trieste", sc=True),
    _p("Tun", "Tunis", "Tunisia", sc=True),
    _p("Tus", "Tuscany"),
    _p("Tyr", "Tyrolia", "Tyrol", "Tyl"),
    _p("Ukr", "Ukraine"),
    _p("Ven", "Venice", sc=True),
    _p("Vie", "Vienna", sc=True),
    _p("Wal", "Wales"),
    _p("War", "Warsaw", sc=True),
    _p("Yor", "Yorkshire"),
)

_COASTS = {"nc": "north coast", "sc": "south coast", "ec": "east coast"}


def _plain(text: str) -> str:
    """Case, dots, hyphens and spacing aside: "St. Petersburg" ~ "st petersburg"."""
    return " ".join(re.sub(r"[.\-_']", " ", text).casefold().split())


def _index() -> dict[str, Province]:
    found: dict[str, Province] = {}
    for p in PROVINCES:
        for key in {p.abbr, p.name, *p.also}:
            for k in {_plain(key), _plain(key).replace(" ", "")}:
                other = found.setdefault(k, p)
                if other is not p:
                    raise AssertionError(f"{key!r} names both {other.name} and {p.name}")
    return found


_BY_NAME = _index()


class UnknownUnit(DipclockError, ValueError):
    """A unit the standard map does not have, with the nearest name suggested."""


def province(text: str) -> Province:
    """"Mao", "mid", "Mid-Atlantic Ocean" -> the Mid-Atlantic Ocean; else ``UnknownUnit``."""
    key = _plain(text)
    found = _BY_NAME.get(key) or _BY_NAME.get(key.replace(" ", ""))
    if found is not None:
        return found
    # difflib (stdlib) is enough for 75 names: the nearest by shared runs of letters
    close = difflib.get_close_matches(key, _BY_NAME, n=1, cutoff=0.4)
    hint = (f"did you mean {_BY_NAME[close[0]].name} ({_BY_NAME[close[0]].abbr})?" if close
            else "give a name like Vienna or its abbreviation, Vie")
    raise UnknownUnit(f"{text.strip()!r} is not a province of the standard map: {hint}")


@dataclass(frozen=True)
class Unit:
    """An army or fleet (type optional, as a TD may leave it out) in a province."""

    province: Province
    type: UnitType | None = None
    coast: str | None = None

    @property
    def text(self) -> str:
        """The short form a scoresheet uses: "A Bud", "F StP/sc", "Mao"."""
        where = self.province.abbr + (f"/{self.coast}" if self.coast else "")
        return f"{self.type} {where}" if self.type else where


_UNIT = re.compile(
    r"^\s*(?:(?P<type>army|fleet|a|f)\s+)?(?P<where>.+?)"
    r"(?:\s*[/(]\s*(?P<coast>[nse]c|north coast|south coast|east coast)\s*\)?)?\s*$",
    re.IGNORECASE,
)


def parse_unit(text: str) -> Unit:
    """"A Vie", "F StP/sc", "fleet Spa (nc)", "Mid": a unit on the standard map."""
    m = _UNIT.match(text)
    if m is None or not m["where"].strip():
        raise UnknownUnit(f"{text.strip()!r} is not a unit, like A Vie or F StP/sc")
    where = province(m["where"])
    coast = None
    if m["coast"]:
        coast = {v: k for k, v in _COASTS.items()}.get(m["coast"].casefold(),
                                                      m["coast"].casefold())
        if coast not in where.coasts:
            has = " or ".join(f"/{c}" for c in where.coasts)
            raise UnknownUnit(
                f"{text.strip()!r}: {where.name} has "
                + (f"no {_COASTS[coast]} (only {has})" if has else "no coasts")
            )
    kind = m["type"][0].upper() if m["type"] else None
    return Unit(where, "A" if kind == "A" else "F" if kind == "F" else None, coast)


def parse_units(texts: Iterable[str]) -> tuple[Unit, ...]:
    """Each unit once (the first as typed wins: one unit stands in a province), in the
    order the TD gave; empty entries are skipped."""
    seen: dict[Province, Unit] = {}
    for text in texts:
        if text.strip():
            unit = parse_unit(text)
            seen.setdefault(unit.province, unit)
    return tuple(seen.values())


def alphabetical(units: Iterable[Unit]) -> list[Unit]:
    """The units in the order of their provinces' English names (graduated20, rule 6)."""
    return sorted(units, key=lambda u: u.province.order)


__all__ = ["PROVINCES", "Province", "Unit", "UnknownUnit", "alphabetical", "parse_unit",
           "parse_units", "province"]

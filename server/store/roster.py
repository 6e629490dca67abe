"""The roster in the store: the event's people and the pairs kept apart.

What a person is and what an import does are the core's (``dipclock.roster``); here they are
kept, each change one transaction with its log line (action ``roster``), checked against
the roster as it is in that transaction, so two phones cannot add one name twice.

A person's display name is what the seating, the sheets and the standings key by: a person
seated in a round is not removed, nor renamed, while that seat names them (the records
would lose them); the refusal says where they sit. Kept-apart pairs are by person, so they
follow an edit, and go with a person removed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dipclock.i18n import Said, said
from dipclock.names import name_key
from dipclock.powers import POWERS
from dipclock.roster import Combined, Index, Person, RosterFile, combine
from dipclock.roster.roster import ON_THE_ROSTER
from dipclock.seating import pair
from dipclock.sentences import clauses, plural
from dipclock.sentences import power as said_power
from server.logline import kept
from server.store.base import Base
from server.store.errors import StoreConflict

_FIELDS = ("given", "family", "homonym", "note", "wdd", "wdr", "nationality", "club",
           "preregistered", "email", "location")
_COLUMNS = ", ".join(_FIELDS)

@dataclass(frozen=True)
class Imported:
    """What an import did (``stored``) or would have done: ``combined`` says it."""

    combined: Combined
    stored: bool


def _person(row: Sequence[object]) -> Person:
    given, family, homonym, note, wdd, wdr, nat, club, pre, email, location = row
    return Person(given=str(given), family=str(family), homonym=int(str(homonym)),
                  note=str(note), wdd=None if wdd is None else int(str(wdd)),
                  wdr=None if wdr is None else int(str(wdr)), nationality=str(nat),
                  club=str(club), preregistered=bool(pre), email=str(email),
                  location=str(location))


def _values(p: Person) -> tuple[object, ...]:
    return (p.name, p.key, p.given, p.family, p.homonym, p.note, p.wdd, p.wdr,
            p.nationality, p.club, int(p.preregistered), p.email, p.location)


_INSERT = (f"INSERT INTO people(name, name_key, {_COLUMNS}) "
           f"VALUES({', '.join('?' * (len(_FIELDS) + 2))})")
_UPDATE = (f"UPDATE people SET name = ?, name_key = ?, "
           f"{', '.join(f'{f} = ?' for f in _FIELDS)} WHERE id = ?")


class Roster(Base):
    """The event's people and the pairs kept apart."""

    def people(self) -> list[tuple[int, Person]]:
        """Every person with their id, in the order they joined the roster."""
        return [(int(r[0]), _person(r[1:]))
                for r in self._all(f"SELECT id, {_COLUMNS} FROM people ORDER BY id")]

    def person(self, person_id: int) -> Person | None:
        row = self._one(f"SELECT {_COLUMNS} FROM people WHERE id = ?", (person_id,))
        return _person(row) if row else None

    def add_person(self, p: Person, now: datetime, *, base: int | None = None) -> int:
        """Add ``p`` (refused, ``StoreConflict``, if the roster has the name or an id)."""
        with self.change(now, "roster", said("roster: {name} added", name=p.name),
                         bump=False, base=base) as db:
            why = Index((ON_THE_ROSTER, q) for _, q in _read(db)).clash(p)
            if why is not None:
                raise StoreConflict(why)
            return int(db.execute(_INSERT, _values(p)).lastrowid or 0)

    def edit_person(self, person_id: int, p: Person, now: datetime, *,
                    base: int | None = None) -> Person:
        """Person ``person_id`` becomes ``p``; returns who they were. Refused if another
        person has the name or an id, or if the name changes while a seat names them."""
        with self.change(now, "roster", said("roster: {name} changed", name=p.name),
                         bump=False, base=base) as db:
            people = dict(_read(db))
            was = people.pop(person_id, None)
            if was is None:
                raise StoreConflict(_gone(person_id))
            why = Index((ON_THE_ROSTER, q) for q in people.values()).clash(p)
            if why is not None:
                raise StoreConflict(why)
            if p.name != was.name:
                _not_seated(_seated(db), was,
                            said("{name}'s name stays as it is while a seat names them",
                                 name=was.name))
            db.execute(_UPDATE, (*_values(p), person_id))
            return was

    def remove_person(self, person_id: int, now: datetime, *,
                      base: int | None = None) -> Person:
        """Take person ``person_id`` off the roster (and out of their kept-apart pairs);
        refused while a seat of any round names them."""
        was = self.person(person_id)
        if was is None:
            raise StoreConflict(_gone(person_id))
        with self.change(now, "roster", said("roster: {name} removed", name=was.name), bump=False,
                         base=base) as db:
            _not_seated(_seated(db), was, said("{name} stays on the roster while a seat "
                                               "names them (take them out of that seating "
                                               "first)", name=was.name))
            if db.execute("DELETE FROM people WHERE id = ?", (person_id,)).rowcount != 1:
                raise StoreConflict(_gone(person_id))
        return was

    def import_roster(self, read: RosterFile, now: datetime, *, replace: bool = False,
                      keep_good: bool = False, base: int | None = None) -> Imported:
        """The file's people into the roster (``dipclock.roster.combine``: merged, or
        replacing it). With lines refused, nothing is stored unless ``keep_good``; a
        replacement that would remove someone seated is refused whole."""
        with self.change(now, "roster", "roster import", bump=False, base=base,
                         log=False) as db:
            current, seated = _read(db), _seated(db)
            done = combine([p for _, p in current], read.people, read.refused,
                           replace=replace, seated={k: _where(v) for k, v in seated.items()})
            if (done.refused and not keep_good) or not (done.added or done.updated
                                                        or done.removed):
                return Imported(done, stored=False)  # nothing written: the log says nothing
            ids = {p.key: i for i, p in current}
            for gone in done.removed:
                _not_seated(seated, gone, said("the roster is not replaced (keep them in "
                                               "the file, or merge instead)"))
                db.execute("DELETE FROM people WHERE id = ?", (ids[gone.key],))
            # ids first let go, then given: two people may swap theirs in one file
            db.executemany("UPDATE people SET wdd = NULL, wdr = NULL WHERE id = ?",
                           [(ids[old.key],) for old, _ in done.updated])
            db.executemany(_UPDATE, [(*_values(new), ids[old.key]) for old, new in done.updated])
            db.executemany(_INSERT, [_values(p) for p in done.added])
            line = done.told()  # kept as a sentence: each phone reads it in its language
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "roster", str(line), "roster", kept(line)))
        return Imported(done, stored=True)

    # --- pairs kept apart ---------------------------------------------------------------

    def apart(self) -> list[tuple[int, int, str, str]]:
        """The pairs kept apart: each person's id (the lower first), then their names."""
        return [(int(a), int(b), str(x), str(y)) for a, b, x, y in self._all(
            "SELECT a, b, pa.name, pb.name FROM apart JOIN people AS pa ON pa.id = a "
            "JOIN people AS pb ON pb.id = b ORDER BY a, b")]

    def set_apart(self, first: int, second: int, together: bool, now: datetime, *,
                  base: int | None = None) -> tuple[str, str]:
        """Keep persons ``first`` and ``second`` apart (or no longer, ``together``); returns
        their names. Refused for one person twice or an id not on the roster."""
        if first == second:
            raise StoreConflict(said("a pair kept apart is two people"))
        a, b = sorted((first, second))
        with self.change(now, "roster", "", bump=False, base=base, log=False) as db:
            names = dict(db.execute("SELECT id, name FROM people WHERE id IN (?, ?)",
                                    (a, b)).fetchall())
            missing = next((i for i in (a, b) if i not in names), None)
            if missing is not None:
                raise StoreConflict(_gone(missing))
            if together:
                db.execute("DELETE FROM apart WHERE a = ? AND b = ?", (a, b))
                line = said("roster: {first} and {second} no longer kept apart",
                            first=names[a], second=names[b])
            else:
                db.execute("INSERT OR IGNORE INTO apart(a, b) VALUES(?, ?)", (a, b))
                line = said("roster: {first} and {second} kept apart", first=names[a],
                            second=names[b])
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "roster", str(line), "roster", kept(line)))
        return str(names[first]), str(names[second])


def apart_pairs(store: Roster) -> set[tuple[str, str]]:
    """The roster's kept-apart pairs by display name, as the seating takes them
    (``dipclock.seating.pair``: the lower name first), for the seating desk."""
    return {pair(x, y) for _, _, x, y in store.apart()}


def _read(db: sqlite3.Connection) -> list[tuple[int, Person]]:
    return [(int(r[0]), _person(r[1:])) for r in db.execute(
        f"SELECT id, {_COLUMNS} FROM people ORDER BY id").fetchall()]


def _seated(db: sqlite3.Connection) -> dict[str, list[tuple[int, int, str]]]:
    """Every seat of every round, by the key of the name it names (one scan of the seating,
    however many people an import checks)."""
    seats: dict[str, list[tuple[int, int, str]]] = {}
    for r, t, power, player in db.execute(
            "SELECT round, table_no, power, player FROM seating ORDER BY round, table_no"):
        seats.setdefault(name_key(player), []).append((int(r), int(t), str(power)))
    return seats


def _where(seats: Sequence[tuple[int, int, str]]) -> Said:
    """"round 1 table 3 (Austria)", and how many more."""
    shown = clauses(*(said("round {round} table {table} ({power})", round=r, table=t,
                           power=said_power(w) if w in POWERS else w)
                      for r, t, w in seats[:3]))
    return plural("{seats} and {n} more", "{seats} and {n} more", len(seats) - 3,
                  seats=shown) if len(seats) > 3 else shown


def _not_seated(seated: dict[str, list[tuple[int, int, str]]], p: Person, stays: Said
                ) -> None:
    """Refuse (``StoreConflict``) when a seat of any round names ``p``, saying where."""
    if p.key in seated:
        raise StoreConflict(said("{name} is seated in {seats}: {stays}", name=p.name,
                                 seats=_where(seated[p.key]), stays=stays))


def _gone(person_id: int) -> Said:
    return said("no person {number} on the roster: reload the roster", number=person_id)


__all__ = ["Imported", "Roster", "apart_pairs"]

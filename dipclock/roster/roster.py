"""The roster's checks: a display name, a WDD id and a WDR id are each one person's.

Every other part of the hub names a player by the display name (``Person.name``), so two
people whose names differ only in capitals or spaces would be one player there: the roster
refuses the second, and says how to tell the two apart. An id of the World Diplomacy
Database or Reference is one person's too (the WDD's upload files key by it).

``combine``: what an import does to the roster, person by person, so a store applies it
and a screen can say it before it is done. Merging (the default) adds the file's new people
and updates those it names again (by display name); replacing also removes the people the
file does not name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.roster.person import Person
from dipclock.sentences import plural

#: a roster's most people: a hall of 999 full tables is 6,993 players, and an event's
#: roster holds those who come and go as well (a bigger file is a mistake, refused whole)
ROSTER_MAX = 10_000


#: where a person of the roster itself is, as ``Index`` names it ("is already on the
#: roster")
ON_THE_ROSTER = said("on the roster")


@dataclass(frozen=True)
class Refusal:
    """One line of an import refused, and why (said in the reader's language: ``why.in_``;
    English as ``str``)."""

    line: int
    why: Said

    def text(self) -> Said:
        return said("line {line}: {why}", line=self.line, why=self.why)


class Index:
    """The people so far, by display name and by id, each with where it is ("on line 3",
    ``ON_THE_ROSTER``): ``clash`` says why one more cannot join them."""

    def __init__(self, people: Iterable[tuple[str | Said, Person]] = ()) -> None:
        self._names: dict[str, tuple[str | Said, Person]] = {}
        self._wdd: dict[int, tuple[str | Said, Person]] = {}
        self._wdr: dict[int, tuple[str | Said, Person]] = {}
        for where, p in people:
            self.add(where, p)

    def add(self, where: str | Said, p: Person) -> None:
        self._names[p.key] = (where, p)
        if p.wdd is not None:
            self._wdd[p.wdd] = (where, p)
        if p.wdr is not None:
            self._wdr[p.wdr] = (where, p)

    def clash(self, p: Person) -> Said | None:
        """Why ``p`` cannot join the people indexed, or None."""
        if p.key in self._names:
            where, other = self._names[p.key]
            if p.both_names == other.both_names:
                return said("{name} is already {where}: two people of one name are told "
                            "apart by a homonym number (2, 3...) or a note", name=p.name,
                            where=where)
            return said("{name} is already {where} as {other} (capitals and spaces aside)",
                        name=p.name, where=where, other=other.name)
        for label, ids, number in (("WDD", self._wdd, p.wdd), ("WDR", self._wdr, p.wdr)):
            if number is not None and number in ids:
                where, other = ids[number]
                return said("{database} id {number} is already {name}'s ({where})",
                            database=label, number=number, name=other.name, where=where)
        return None


@dataclass(frozen=True)
class Combined:
    """What an import does: ``added`` (new people, in the file's order), ``updated``
    ((as the roster has them, as the file gives them)), ``removed`` (replacing only), and
    the lines ``refused``. ``people``: the roster after it, in its order."""

    people: tuple[Person, ...]
    added: tuple[Person, ...]
    updated: tuple[tuple[Person, Person], ...]
    removed: tuple[Person, ...]
    refused: tuple[Refusal, ...]

    def told(self) -> Said:
        """One line for the log and the TD, said in the reader's language: "roster import:
        3 added, 1 updated"."""
        line = said("roster import: {added} added, {updated} updated",
                    added=len(self.added), updated=len(self.updated))
        if self.removed:
            line = said("{summary}, {removed} removed", summary=line,
                        removed=len(self.removed))
        if self.refused:
            line = said("{summary}, {refused}", summary=line,
                        refused=plural("{n} line refused", "{n} lines refused",
                                       len(self.refused)))
        return line

    def summary(self, words: Words = ENGLISH) -> str:
        """``told`` in ``words`` (English: the log's text)."""
        return self.told().in_(words)


def combine(current: Sequence[Person], lines: Sequence[tuple[int, Person]],
            refused: Sequence[Refusal] = (), *, replace: bool = False,
            seated: Mapping[str, str | Said] = MappingProxyType({})) -> Combined:
    """The roster ``current`` after an import of ``lines`` ((line number, person), each
    already checked against the file's other lines: ``dipclock.roster.csvfile``).

    A line naming a person of the roster (same display name, capitals aside) updates that
    person; any other adds one. Merging keeps everyone else, so a new line must not take a
    kept person's id (refused by its line); replacing removes them. ``seated``: where a
    seat names a person, by ``Person.key``: their line may not change the name the seat
    has (the records would lose them), so it is refused."""
    by_key = {p.key: p for p in current}
    named = {p.key for _, p in lines}
    kept = [] if replace else [p for p in current if p.key not in named]
    index = Index((ON_THE_ROSTER, p) for p in kept)
    refusals = list(refused)
    added: list[Person] = []
    updated: dict[str, Person] = {}
    for n, p in lines:
        why = index.clash(p)
        if why is not None:
            refusals.append(Refusal(n, why))
            continue
        if p.key in by_key:
            had = by_key[p.key].name
            if p.key in seated and p.name != had:
                refusals.append(Refusal(n, said("{name} is seated in {where}: the name stays "
                                                "as the seat has it ({other} refused)",
                                                name=had, where=seated[p.key],
                                                other=p.name)))
                continue
            updated[p.key] = p
        else:
            added.append(p)
    # replacing: the roster becomes the file's good lines (a person of the roster whose
    # line was refused goes too); merging keeps everyone
    people = [updated.get(p.key, p) for p in current if not replace or p.key in updated]
    people += added
    removed = [p for p in current if replace and p.key not in updated]
    return Combined(
        people=tuple(people), added=tuple(added),
        updated=tuple((by_key[k], p) for k, p in updated.items() if by_key[k] != p),
        removed=tuple(removed), refused=tuple(sorted(refusals, key=lambda r: r.line)))


__all__ = ["ON_THE_ROSTER", "ROSTER_MAX", "Combined", "Index", "Refusal", "combine"]

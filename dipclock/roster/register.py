"""Registration for a round: who of the roster plays it, and who sits out first.

wdc2019 II.1b2: "Only a player physically present can register. He has to contact the
Tournament Director." So each person is, for each round, one of:

- ``present``: registered for the round, to be seated;
- ``absent``: not here (yet): nobody is present until the TD marks them;
- ``sitting_out``: here, and asked to sit out (a volunteer): seated only if the hall
  needs them, the first to sit out otherwise;
- ``withdrawn``: gone from the event, from this round on: later rounds keep them withdrawn
  until the TD marks them otherwise in one (brings them back).

A person may be marked present until the round's board call (its seating called: the hub
then holds seats for it); after it, marking present is refused with why, since the tables
are drawn: the late arrival is seated by seating the round again with the tables kept.

Who sits out when the players are not a multiple of seven follows the event's order
(``sit_out_order``), groups of players sat out before the rest: wdc2019 II.1b3 "If the
organisation need some players to sit out, they will choose first the non-preregistered
players. A bonus may be given to the player who ask to sit out." A volunteer comes first
everywhere (they asked); the non-pre-registered next where the event says so
(``StandingsRules.sit_out_not_preregistered_first``). The bonus is the event's
``sit_out_bonus`` (the text gives no figure: the TD's event file does), for a volunteer
who did sit out.

Pure: the store keeps the marks (``server.store.register``), the seating takes what
``for_seating`` gives (``dipclock.seating.seat_round``'s ``sit_out_first``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from dipclock.errors import DipclockError
from dipclock.roster.person import Person

Status = Literal["present", "absent", "sitting_out", "withdrawn"]
STATUSES: tuple[Status, ...] = get_args(Status)

#: how each status reads on the TD's screen
WORDS: dict[Status, str] = {
    "present": "present", "absent": "not here yet", "sitting_out": "asks to sit out",
    "withdrawn": "withdrawn from the event",
}


class RegisterError(DipclockError):
    """A mark the register refuses, and why, in the TD's words."""


#: the marks the TD made: (round, person id) -> status; a round unmarked is read from them
Marks = Mapping[tuple[int, int], Status]


def status_of(marks: Marks, round_no: int, person_id: int) -> Status:
    """A person's status in round ``round_no``: the TD's mark for that round, else
    ``withdrawn`` if their latest mark of an earlier round is (a withdrawal holds until
    the TD brings them back), else ``absent``."""
    mark = marks.get((round_no, person_id))
    if mark is not None:
        return mark
    earlier = [r for r, p in marks if p == person_id and r < round_no]
    if earlier and marks[(max(earlier), person_id)] == "withdrawn":
        return "withdrawn"
    return "absent"


def check_mark(who: Person, round_no: int, status: Status, called: bool) -> None:
    """Refuse (``RegisterError``) marking ``who`` ``status`` in round ``round_no`` whose
    board call is ``called``: once the tables are called, a player is no longer added to
    them by the register (anyone may still be marked absent, asking out or withdrawn)."""
    if status not in STATUSES:
        raise RegisterError(f"{status!r}: a status is one of {', '.join(STATUSES)}")
    if called and status in ("present", "sitting_out"):
        raise RegisterError(
            f"round {round_no}'s seating is called: {who.name} is not added to it by the "
            "register. Seat them by seating the round again with the tables kept: on the "
            "Seating card, add them to the players, give the tables already called, seat "
            "and call it")


def later_marks(marks: Marks, round_no: int, person_id: int) -> list[int]:
    """The rounds after ``round_no`` a withdrawal clears the TD's marks of (withdrawn
    "from this round on": a later present mark made before would bring them back)."""
    return sorted(r for r, p in marks if p == person_id and r > round_no)


def preregistered_to_mark(people: Sequence[tuple[int, Person]], marks: Marks,
                          round_no: int) -> list[int]:
    """"All pre-registered present": the pre-registered not yet marked for the round and
    not withdrawn (a withdrawn person comes back one tap at a time, never in bulk)."""
    return [i for i, p in people
            if p.preregistered and status_of(marks, round_no, i) == "absent"]


@dataclass(frozen=True)
class ForSeating:
    """What the seating takes from a round's register: ``players`` (those present and the
    volunteers, in the roster's order) and ``sit_out_first``, groups of them sat out
    before the rest, in order (``dipclock.seating.sitting_out``)."""

    players: tuple[str, ...]
    sit_out_first: tuple[tuple[str, ...], ...]
    #: the groups' names, as the TD reads them (one per group of ``sit_out_first``)
    groups: tuple[str, ...]


def for_seating(people: Sequence[tuple[int, Person]], marks: Marks, round_no: int, *,
                not_preregistered_first: bool = False) -> ForSeating:
    """Round ``round_no``'s players and sit-out order from its register: volunteers sit out
    first; then, where the event says so (wdc2019 II.1b3), the non-pre-registered."""
    status = {i: status_of(marks, round_no, i) for i, _ in people}
    players = tuple(p.name for i, p in people if status[i] in ("present", "sitting_out"))
    groups: list[tuple[str, ...]] = []
    named: list[str] = []
    volunteers = tuple(p.name for i, p in people if status[i] == "sitting_out")
    if volunteers:
        groups.append(volunteers)
        named.append("asked to sit out")
    if not_preregistered_first:
        late = tuple(p.name for i, p in people
                     if status[i] == "present" and not p.preregistered)
        if late:
            groups.append(late)
            named.append("not pre-registered")
    return ForSeating(players, tuple(groups), tuple(named))


def bonuses(sat_out: Sequence[str], volunteers: Sequence[str],
            bonus: float | None) -> dict[str, float]:
    """The event's ``sit_out_bonus`` for each volunteer who did sit out (wdc2019 II.1b3:
    "A bonus may be given to the player who ask to sit out"); none without a bonus."""
    if not bonus:
        return {}
    return {p: bonus for p in sat_out if p in set(volunteers)}


def counts(statuses: Mapping[int, Status]) -> dict[Status, int]:
    """How many of each status, every status named (a screen's summary)."""
    return {s: sum(1 for v in statuses.values() if v == s) for s in STATUSES}


__all__ = ["STATUSES", "WORDS", "ForSeating", "Marks", "RegisterError", "Status", "bonuses",
           "check_mark", "counts", "for_seating", "later_marks", "preregistered_to_mark",
           "status_of"]

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
(``StandingsRules.sit_out_order``), groups of players sat out before the rest: wdc2019
II.1b3 "If the organisation need some players to sit out, they will choose first the
non-preregistered players. A bonus may be given to the player who ask to sit out";
wdc2006 2: volunteers, late sign-ups, "Players from Berlin", "Players from Germany";
wdc2018: local board members, local club members, other locals, then travellers; wdc2003:
"ARMADA members will be asked to sit out". The bonus is the event's
``sit_out_bonus`` (the text gives no figure: the TD's event file does), for a volunteer
who did sit out.

Pure: the store keeps the marks (``server.store.register``), the seating takes what
``for_seating`` gives (``dipclock.seating.seat_round``'s ``sit_out_first``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

import pycountry

from dipclock.errors import DipclockError
from dipclock.i18n import N_, Said, said
from dipclock.names import name_key
from dipclock.roster.person import Person
from dipclock.standings.rules import SitOutGroup, StandingsRules

Status = Literal["present", "absent", "sitting_out", "withdrawn"]
STATUSES: tuple[Status, ...] = get_args(Status)

#: how each status reads on the TD's screen
WORDS: dict[Status, str] = {
    "present": N_("present"), "absent": N_("not here yet"), "sitting_out": N_("asks to sit out"),
    "withdrawn": N_("withdrawn from the event"),
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
        raise RegisterError(said("{status!r}: a status is one of {statuses}", status=status,
                                 statuses=", ".join(STATUSES)))
    if called and status in ("present", "sitting_out"):
        raise RegisterError(said(
            "round {round}'s seating is called: {name} is not added to it by the register. "
            "Seat them by seating the round again with the tables kept: on the Seating "
            "card, add them to the players, give the tables already called, seat and call "
            "it", round=round_no, name=who.name))


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
                not_preregistered_first: bool = False, rules: StandingsRules | None = None,
                late: Collection[int] = ()) -> ForSeating:
    """Round ``round_no``'s players and sit-out order from its register: the groups of the
    event's ``sit_out_order`` (``rules``; without them volunteers, then, where
    ``not_preregistered_first``, the non-pre-registered: wdc2019 II.1b3), each of the
    players not in an earlier group (a group of all those left is none). ``late``: the
    ids of those who signed up after the round's deadline (wdc2006 2:
    ``signed_up_late``)."""
    status = {i: status_of(marks, round_no, i) for i, _ in people}
    playing = [(i, p) for i, p in people if status[i] in ("present", "sitting_out")]
    order: tuple[SitOutGroup, ...] = rules.sit_out_groups if rules is not None else (
        ("volunteers", "not_preregistered") if not_preregistered_first else ("volunteers",))
    groups: list[tuple[str, ...]] = []
    named: list[str] = []
    taken: set[int] = set()
    for group in order:
        test, words = _group(group, rules, status, set(late))
        rest = [(i, p) for i, p in playing if i not in taken]
        members = [(i, p) for i, p in rest if test(i, p)]
        # a group of every player left orders nothing: not named (not "all signed up late")
        if members and len(members) < len(rest):
            groups.append(tuple(p.name for _, p in members))
            named.append(words)
            taken.update(i for i, _ in members)
    return ForSeating(tuple(p.name for _, p in playing), tuple(groups), tuple(named))


def _group(group: SitOutGroup, rules: StandingsRules | None, status: Mapping[int, Status],
           late: Collection[int]) -> tuple[Callable[[int, Person], bool], str]:
    """Who of the players is in ``group``, and the group's name as the TD reads it. A
    place, a club or a name is compared as one name is (capitals and spaces aside)."""
    country = rules.country if rules else ""
    locality = name_key(rules.locality) if rules and rules.locality else ""
    club = name_key(rules.host_club) if rules and rules.host_club else ""
    board = {name_key(n) for n in rules.host_board} if rules else set()
    tests: dict[SitOutGroup, tuple[Callable[[int, Person], bool], str]] = {
        "volunteers": (lambda i, p: status[i] == "sitting_out", "asked to sit out"),
        "late": (lambda i, p: i in late, "signed up late"),
        "local": (lambda i, p: bool(locality) and name_key(p.location) == locality,
                  f"from {rules.locality if rules else ''}"),
        "home_country": (lambda i, p: bool(country) and p.nationality == country,
                         f"from {_country_name(country)}"),
        "host_board": (lambda i, p: p.key in board,
                       f"{rules.host_club if rules else ''} board members".strip()),
        "host_club": (lambda i, p: bool(club) and name_key(p.club) == club,
                      f"{rules.host_club if rules else ''} members"),
        "not_preregistered": (lambda i, p: not p.preregistered, "not pre-registered"),
    }
    return tests[group]


def _country_name(code: str) -> str:
    """"Germany" for "DE" (pycountry, as the roster checks a code); the code if unknown."""
    found = pycountry.countries.get(alpha_2=code) if code else None
    return str(getattr(found, "name", code))


def signed_up_late(lines: Iterable[tuple[int, datetime, Status]],
                   deadline: datetime) -> list[int]:
    """The people who signed up for the round after its ``deadline`` (wdc2006 2: "There
    is a nominal signup deadline 30min before the start of the round", and those after it
    are dropped second), in the order they signed up. ``lines``: the TD's marks of the
    round, oldest first, (person id, when, status); a person signs up when first marked
    present or asking to sit out since their last mark of absent or withdrawn, and is late
    if that was after ``deadline``. Those marked with "all pre-registered present" have
    no line of their own: they signed up before the event (not late)."""
    since: dict[int, datetime] = {}
    for who, at, status in lines:
        if status in ("present", "sitting_out"):
            since.setdefault(who, at)
        else:
            since.pop(who, None)
    return sorted((w for w, at in since.items() if at > deadline), key=lambda w: since[w])


def bonuses(sat_out: Sequence[str], volunteers: Sequence[str],
            bonus: float | None) -> dict[str, float]:
    """The event's ``sit_out_bonus`` for each volunteer who did sit out (wdc2019 II.1b3:
    "A bonus may be given to the player who ask to sit out"); none without a bonus."""
    if not bonus:
        return {}
    return {p: bonus for p in sat_out if p in set(volunteers)}


def event_bonuses(people: Mapping[int, str], marks: Marks,
                  seated: Mapping[int, Collection[str]], bonus: float | None,
                  ) -> tuple[dict[str, float], list[Said]]:
    """Each volunteer's bonus over the rounds seated (``seated``: round -> the players it
    seated): in each, those the TD marked as asking to sit out and whom the seating did sit
    out (``bonuses``), added up; and a line for each ("Ann Lee: 5 points for sitting out
    round 1, as the event gives a volunteer"), for the standings to say why, in whichever
    language they are read."""
    total: dict[str, float] = {}
    lines: list[Said] = []
    if not bonus:
        return total, lines
    for round_no in sorted(seated):
        volunteers = [name for pid, name in people.items()
                      if status_of(marks, round_no, pid) == "sitting_out"]
        out = [v for v in volunteers if v not in seated[round_no]]
        for player, points in bonuses(out, volunteers, bonus).items():
            total[player] = total.get(player, 0.0) + points
            lines.append(said("{player}: {points} points for sitting out round {round}, as "
                              "the event gives a volunteer", player=player,
                              points=format(points, "g"), round=round_no))
    return total, lines


def counts(statuses: Mapping[int, Status]) -> dict[Status, int]:
    """How many of each status, every status named (a screen's summary)."""
    return {s: sum(1 for v in statuses.values() if v == s) for s in STATUSES}


__all__ = ["STATUSES", "WORDS", "ForSeating", "Marks", "RegisterError", "Status", "bonuses",
           "check_mark", "counts", "event_bonuses", "for_seating", "later_marks",
           "preregistered_to_mark", "signed_up_late", "status_of"]

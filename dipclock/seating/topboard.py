"""The top board: its seven at one table, and how they get their powers by the event's rule.

Who qualifies is the standings' (``dipclock.standings.top_board_seeds``); this module seats
them and says how the powers are given. Where the event has its players choose
(wdc2006, wdc2019), the software cannot choose for them: the table is seated with the
powers each played least, as a start, and the TD is told the event's order of choice, to
move the players to the powers they chose before calling the seating.

``top_board_round`` is the one step both the hub's seating desk and ``dipclock seat`` take,
so they seat the same top board from the same scores and say the same of a tie.

A tie for the last seat: wdc2006 19.8 seats "the top 7 of the ranking after round 4", and
its ranking's tie-breaks (19.7) end in "position is shared"; wdc2019 is as silent. When the
tie-breaks leave the seventh seat shared, no rule says who takes it, so the software picks
nobody: the round is seated without a top board and the TD is told who is level, to decide
and seat the top board by hand. Refusing the whole round instead would leave the TD no
seating to work from.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from dipclock.i18n import Said, said
from dipclock.seating.past import SEATS, Chance, Past, SeatingError
from dipclock.seating.powers import give_powers
from dipclock.seating.seat import Table
from dipclock.standings import GameScore, SeatTie, StandingsRules, top_board_seeds
from dipclock.standings.rules import TopBoardPowers


def top_board(seeds: Sequence[str], past: Past, rng: Chance, number: int = 1) -> Table:
    """The top board at table ``number``: the seven ``seeds``, the powers each played least
    (what the event's choice, if it has one, starts from)."""
    if len(seeds) != SEATS or len(set(seeds)) != SEATS:
        raise SeatingError(said("the top board needs {seats} different players, not {n}",
                                seats=SEATS, n=len(seeds)))
    return Table(number, give_powers(list(seeds), past, rng))


def choosing(rule: TopBoardPowers, seeds: Sequence[str]) -> Said | None:
    """How the top board's powers are given, in a line for the TD (None where they are
    given as at every table)."""
    if rule == "placed_then_chosen":
        placing = _then(list(reversed(seeds)))
        return said("The top board chooses its powers. First the order of choice: {placing} "
                    "place their names, each before or after those placed; then each chooses "
                    "a power in that order, the last takes the one left. Move the players to "
                    "the powers chosen before calling the seating.", placing=placing)
    if rule == "chosen":
        return said("The top board chooses its powers by the event's country-assignment "
                    "rules. Move the players to the powers chosen before calling the "
                    "seating.")
    return None


def _then(names: Sequence[str]) -> Said | str:
    """"Ann, then Bob, then Cy": the names one after the other, in order."""
    if len(names) < 2:
        return "".join(names)
    return said("{first}, then {then}", first=_then(names[:-1]), then=names[-1])


def seat_top_board(seeds: Sequence[str], rule: TopBoardPowers, past: Past, rng: Chance,
                   taken: Collection[int] = ()) -> tuple[Table, list[Said]]:
    """The top board at the first table number not ``taken`` (tables already called), and
    what the TD is told, said in the reader's language: which table it is, and how its
    powers are given."""
    number = next(n for n in range(1, len(taken) + 2) if n not in taken)
    notes = [said("table {table} is the top board: {players}", table=number,
                  players=", ".join(seeds))]
    how = choosing(rule, seeds)
    return top_board(seeds, past, rng, number), notes + ([how] if how is not None else [])


@dataclass(frozen=True)
class TopBoard:
    """A round's top board: its table (none: not this round's, or not seated, and
    ``notes`` say why), its seven best first, and what the TD is told (each said in the
    reader's language)."""

    tables: tuple[Table, ...] = ()
    seeds: tuple[str, ...] = ()
    notes: tuple[Said, ...] = ()


def top_board_round(number: int, players: Collection[str], scores: Sequence[GameScore],
                    rules: StandingsRules | None, past: Past, rng: Chance,
                    taken: Collection[int] = (), chosen: Collection[str] = ()) -> TopBoard:
    """Round ``number``'s top board, where it is the event's top-board round: its seven by
    the standings of ``scores`` before it, those not among ``players`` (present) passed
    over ("the following player in the ranking may replace him"), at the first table not
    ``taken``. Not seated, with a note, before any score or on a tie for the last seat
    (see above) that the TD's ``chosen`` names do not settle. Another ``StandingsError``
    (scores that cannot be) is the caller's."""
    if rules is None or rules.top_board_round != number:
        return TopBoard()
    present = set(players)
    try:
        seeds = top_board_seeds(scores, rules,
                                absent={s.player for s in scores} - present, chosen=chosen)
    except SeatTie as exc:  # its sentence, not the error: a note crosses the hub's back
        # room pickled, and an error with arguments of its own does not unpickle
        tie = exc.said if isinstance(exc.said, Said) else str(exc)
        return TopBoard(notes=(said("{tie}: the top board is not seated; the TD decides who "
                                    "takes the seat, and seats the top board by hand",
                                    tie=tie),))
    if not seeds:
        return TopBoard(notes=(said("round {number} is the top board's: no game before it "
                                    "has a score yet, so the top board is not seated",
                                    number=number),))
    table, notes = seat_top_board(seeds, rules.top_board_powers, past, rng, taken)
    return TopBoard((table,), tuple(seeds), tuple(notes))


__all__ = ["TopBoard", "choosing", "seat_top_board", "top_board", "top_board_round"]

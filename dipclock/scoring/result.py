"""A finished game as every scoring system reads it: what the board's result sheet says.

One model for the five events' systems and the TOML-selectable ones, so a sheet filled in on
a phone, a line typed at ``dipclock score`` and a test's hand-made board are checked by the
same rules and scored by the same functions. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dipclock.errors import DipclockError
from dipclock.i18n import said
from dipclock.powers import LETTERS, POWERS, power_letter
from dipclock.sentences import plural
from dipclock.sentences import power as said_power
from dipclock.sentences import powers as said_powers

#: The board's supply centres: no power, and no board, holds more.
TOTAL_CENTRES = 34
#: The standard rules' victory, where an event names no threshold of its own.
SOLO_CENTRES = 18
FIRST_YEAR = 1901
#: Far past any game, as in ``dipclock.events``: a typo (19077) is caught, not scored.
LAST_YEAR = 2100


class ResultError(DipclockError, ValueError):
    """A result sheet that cannot be scored, with one line saying what to correct (a
    ``Said``: the TD's phone and ``dipclock score --lang`` say it in their language)."""


def not_a_power(given: object) -> ResultError:
    """"'X' is not a power (one of A E F G I R T)"."""
    return ResultError(said("{power} is not a power (one of {letters})", power=repr(given),
                            letters=" ".join(LETTERS)))


@dataclass(frozen=True)
class GameResult:
    """How one game ended.

    ``year``: the game year whose Fall centre count scores (the final year).
    ``solo``: the winner's letter, if the game ended in a victory.
    ``draw``: the letters of a draw's participants; ``None`` is a draw including all
    survivors, the usual end of a tournament game (and of every game the TD calls).
    ``conceded_to``: the power the others conceded the game to (wdc2003: "vote unanimously
    to concede the game to a specific single power"; graduated20 rule 16), at any count.
    ``eliminated``: each power with no centres and the year it lost its last one.
    ``leader_grew``: False where the sheet says the largest power did not gain a centre in
    the final year: wdc2003's victory needs it to ("has increased its supply center count in
    the just-completed game-year"), so such a board may end in a draw.
    """

    centres: Mapping[str, int]
    year: int
    solo: str | None = None
    draw: frozenset[str] | None = None
    eliminated: Mapping[str, int] = field(default_factory=dict)
    conceded_to: str | None = None
    leader_grew: bool = True

    def __post_init__(self) -> None:
        _check(self)

    @property
    def survivors(self) -> tuple[str, ...]:
        """Powers holding at least one centre, in the order AEFGIRT."""
        return tuple(p for p in LETTERS if self.centres[p] > 0)

    @property
    def winner(self) -> str | None:
        """The soloist, or the power conceded to: every system scores a concession as the
        victory it concedes (the others lost to it in the final year)."""
        return self.solo if self.solo is not None else self.conceded_to

    @property
    def drawing(self) -> tuple[str, ...]:
        """A draw's participants (none in a solo or a concession), in the order AEFGIRT."""
        if self.winner is not None:
            return ()
        if self.draw is None:
            return self.survivors
        return tuple(p for p in LETTERS if p in self.draw)

    def years_played(self, power: str) -> int:
        """Game years a power took part in: to its elimination, else to the end."""
        return self.eliminated.get(power, self.year) - (FIRST_YEAR - 1)

    def top(self) -> int:
        return max(self.centres.values())


def _check(result: GameResult) -> None:
    """Every rule of a sheet that holds whatever the event: one message per mistake."""
    missing = [p for p in LETTERS if p not in result.centres]
    extra = [p for p in result.centres if p not in POWERS]
    if extra:
        raise not_a_power(extra[0])
    if missing:
        raise ResultError(said("the centres of every power are needed: {powers} missing",
                               powers=said_powers(missing)))
    if not FIRST_YEAR <= result.year <= LAST_YEAR:
        raise ResultError(said("year {year}: a game year from {first}", year=result.year,
                               first=FIRST_YEAR))
    for p in LETTERS:
        c = result.centres[p]
        if not 0 <= c <= TOTAL_CENTRES:
            raise ResultError(plural("{power} has {n} centre: from 0 to {total}",
                                     "{power} has {n} centres: from 0 to {total}", c,
                                     power=said_power(p), total=TOTAL_CENTRES))
    total = sum(result.centres.values())
    if total > TOTAL_CENTRES:
        raise ResultError(said("the centres add up to {total}: the board has {board}",
                               total=total, board=TOTAL_CENTRES))
    _check_eliminations(result)
    survivors = result.survivors
    if not survivors:
        raise ResultError(said("no power holds a centre: the last one standing has won "
                               "(give its centres)"))
    endings = [name for name, given in ((said("a solo"), result.solo),
                                        (said("a draw"), result.draw),
                                        (said("a concession"), result.conceded_to)) if given]
    if len(endings) > 1:
        given = endings[0]
        for more in endings[1:]:
            given = said("{first} and {second}", first=given, second=more)
        raise ResultError(said("a game ends in one way: {endings} are given",
                               endings=given))
    for winner, conceded in ((result.solo, False), (result.conceded_to, True)):
        if winner is not None:
            if winner not in POWERS:
                raise not_a_power(winner)
            if result.centres[winner] == 0:
                raise ResultError(
                    said("{power} has no centres: it cannot have been conceded to",
                         power=said_power(winner)) if conceded else
                    said("{power} has no centres: it cannot have won",
                         power=said_power(winner)))
    if result.draw is not None:
        _check_draw(result, result.draw)
    if len(survivors) == 1 and result.solo is None:
        raise ResultError(said("only {power} survives: it has won (a solo)",
                               power=said_power(survivors[0])))


def _check_eliminations(result: GameResult) -> None:
    for p, year in result.eliminated.items():
        if p not in POWERS:
            raise not_a_power(p)
        if result.centres[p] > 0:
            raise ResultError(plural("{power} holds {n} centre: it was not eliminated",
                                     "{power} holds {n} centres: it was not eliminated",
                                     result.centres[p], power=said_power(p)))
        if not FIRST_YEAR <= year <= result.year:
            raise ResultError(said("{power} eliminated in {year}: a year from {first} to the "
                                   "game's last, {last}", power=said_power(p), year=year,
                                   first=FIRST_YEAR, last=result.year))
    for p in LETTERS:
        if result.centres[p] == 0 and p not in result.eliminated:
            raise ResultError(said("{power} has no centres: give the year it was eliminated "
                                   "({letter}=YEAR)", power=said_power(p), letter=p))


def _check_draw(result: GameResult, draw: frozenset[str]) -> None:
    for p in sorted(draw):
        if p not in POWERS:
            raise not_a_power(p)
        if result.centres[p] == 0:
            raise ResultError(said("{power} was eliminated: it cannot be in the draw",
                                   power=said_power(p)))
    if len(draw) < 2:
        raise ResultError(said("a draw has at least two powers (one power alone is a solo)"))


def check_solo(result: GameResult, threshold: int) -> None:
    """A soloist holds the event's victory threshold and more centres than any other power,
    and grew in the final year where the sheet says whether it did. A power conceded to
    needs neither: the others gave it the game."""
    if result.solo is None:
        return
    mine = result.centres[result.solo]
    name = said_power(result.solo)
    if result.survivors == (result.solo,):
        return  # the last power standing has won, whatever it holds
    if mine < threshold:
        raise ResultError(plural("{power} has {n} centre: a solo in {year} needs {threshold}",
                                 "{power} has {n} centres: a solo in {year} needs {threshold}",
                                 mine, power=name, year=result.year, threshold=threshold))
    rival = max(c for p, c in result.centres.items() if p != result.solo)
    if rival >= mine:
        raise ResultError(plural("{power} has {n} centre and another power {rival}: a solo "
                                 "needs the most centres", "{power} has {n} centres and "
                                 "another power {rival}: a solo needs the most centres",
                                 mine, power=name, rival=rival))
    if not result.leader_grew:
        raise ResultError(said("{power} did not grow in {year}, the sheet says: a solo needs "
                               "the largest power to have grown that year", power=name,
                               year=result.year))


def parse_centres(text: str) -> dict[str, int]:
    """``"A=5,E=4,..."`` or ``"Austria=5, ..."`` -> {letter: centres}; every power once."""
    return _once(_pairs(text, "centres"), "centres")


def parse_eliminated(text: str) -> dict[str, int]:
    """``"G=1905,T=1907"`` -> {letter: year}; every power once: of two years for one
    power the software cannot tell which the sheet meant, so neither is kept silently."""
    return _once(_pairs(text, "eliminated"), "eliminated")


def parse_powers(text: str) -> frozenset[str]:
    """``"A,F,I"`` or ``"Austria, France, Italy"`` -> letters."""
    return frozenset(parse_power(part) for part in text.split(",") if part.strip())


def parse_power(text: str) -> str:
    try:
        return power_letter(text)
    except ValueError:
        raise not_a_power(text) from None


def _once(pairs: list[tuple[str, int]], what: str) -> dict[str, int]:
    """The pairs by power; a power given twice is refused, naming both values."""
    out: dict[str, int] = {}
    for letter, value in pairs:
        if letter in out:
            raise ResultError(said("{what}: {power} is given twice ({first} and {second}): "
                                   "give it once", what=what, power=said_power(letter),
                                   first=out[letter], second=value))
        out[letter] = value
    return out


def _pairs(text: str, what: str) -> list[tuple[str, int]]:
    pairs = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise ResultError(said("{what}: {given} is not POWER=NUMBER (like A=5)",
                                   what=what, given=repr(part.strip())))
        letter = parse_power(name)
        try:
            pairs.append((letter, int(value.strip())))
        except ValueError:
            raise ResultError(said("{what}: {given}: {value} is not a whole number",
                                   what=what, given=repr(part.strip()),
                                   value=repr(value.strip()))) from None
    return pairs


__all__ = [
    "FIRST_YEAR",
    "SOLO_CENTRES",
    "TOTAL_CENTRES",
    "GameResult",
    "ResultError",
    "check_solo",
    "parse_centres",
    "parse_eliminated",
    "parse_power",
    "parse_powers",
]

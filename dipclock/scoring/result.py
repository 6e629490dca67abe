"""A finished game as every scoring system reads it: what the board's result sheet says.

One model for the five events' systems and the TOML-selectable ones, so a sheet filled in on
a phone, a line typed at ``dipclock score`` and a test's hand-made board are checked by the
same rules and scored by the same functions. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dipclock.errors import DipclockError
from dipclock.powers import LETTERS, POWERS, power_letter

#: The board's supply centres: no power, and no board, holds more.
TOTAL_CENTRES = 34
#: The standard rules' victory, where an event names no threshold of its own.
SOLO_CENTRES = 18
FIRST_YEAR = 1901
#: Far past any game, as in ``dipclock.events``: a typo (19077) is caught, not scored.
LAST_YEAR = 2100


class ResultError(DipclockError, ValueError):
    """A result sheet that cannot be scored, with one line saying what to correct."""


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
        raise ResultError(f"{extra[0]!r} is not a power (one of {' '.join(LETTERS)})")
    if missing:
        names = ", ".join(POWERS[p] for p in missing)
        raise ResultError(f"the centres of every power are needed: {names} missing")
    if not FIRST_YEAR <= result.year <= LAST_YEAR:
        raise ResultError(f"year {result.year}: a game year from {FIRST_YEAR}")
    for p in LETTERS:
        c = result.centres[p]
        if not 0 <= c <= TOTAL_CENTRES:
            raise ResultError(f"{POWERS[p]} has {c} centres: from 0 to {TOTAL_CENTRES}")
    total = sum(result.centres.values())
    if total > TOTAL_CENTRES:
        raise ResultError(f"the centres add up to {total}: the board has {TOTAL_CENTRES}")
    _check_eliminations(result)
    survivors = result.survivors
    if not survivors:
        raise ResultError("no power holds a centre: the last one standing has won (give "
                          "its centres)")
    endings = [name for name, given in (("a solo", result.solo), ("a draw", result.draw),
                                        ("a concession", result.conceded_to)) if given]
    if len(endings) > 1:
        raise ResultError(f"a game ends in one way: {' and '.join(endings)} are given")
    for winner, how in ((result.solo, "won"), (result.conceded_to, "been conceded to")):
        if winner is not None:
            if winner not in POWERS:
                raise ResultError(f"{winner!r} is not a power (one of {' '.join(LETTERS)})")
            if result.centres[winner] == 0:
                raise ResultError(f"{POWERS[winner]} has no centres: it cannot have {how}")
    if result.draw is not None:
        _check_draw(result, result.draw)
    if len(survivors) == 1 and result.solo is None:
        raise ResultError(f"only {POWERS[survivors[0]]} survives: it has won (a solo)")


def _check_eliminations(result: GameResult) -> None:
    for p, year in result.eliminated.items():
        if p not in POWERS:
            raise ResultError(f"{p!r} is not a power (one of {' '.join(LETTERS)})")
        if result.centres[p] > 0:
            raise ResultError(f"{POWERS[p]} holds {result.centres[p]} centres: it was not "
                              "eliminated")
        if not FIRST_YEAR <= year <= result.year:
            raise ResultError(f"{POWERS[p]} eliminated in {year}: a year from {FIRST_YEAR} "
                              f"to the game's last, {result.year}")
    for p in LETTERS:
        if result.centres[p] == 0 and p not in result.eliminated:
            raise ResultError(f"{POWERS[p]} has no centres: give the year it was eliminated "
                              f"({p}=YEAR)")


def _check_draw(result: GameResult, draw: frozenset[str]) -> None:
    for p in sorted(draw):
        if p not in POWERS:
            raise ResultError(f"{p!r} is not a power (one of {' '.join(LETTERS)})")
        if result.centres[p] == 0:
            raise ResultError(f"{POWERS[p]} was eliminated: it cannot be in the draw")
    if len(draw) < 2:
        raise ResultError("a draw has at least two powers (one power alone is a solo)")


def check_solo(result: GameResult, threshold: int) -> None:
    """A soloist holds the event's victory threshold and more centres than any other power,
    and grew in the final year where the sheet says whether it did. A power conceded to
    needs neither: the others gave it the game."""
    if result.solo is None:
        return
    mine = result.centres[result.solo]
    name = POWERS[result.solo]
    if result.survivors == (result.solo,):
        return  # the last power standing has won, whatever it holds
    if mine < threshold:
        raise ResultError(f"{name} has {mine} centres: a solo in {result.year} needs "
                          f"{threshold}")
    rival = max(c for p, c in result.centres.items() if p != result.solo)
    if rival >= mine:
        raise ResultError(f"{name} has {mine} centres and another power {rival}: a solo "
                          "needs the most centres")
    if not result.leader_grew:
        raise ResultError(f"{name} did not grow in {result.year}, the sheet says: a solo "
                          "needs the largest power to have grown that year")


def parse_centres(text: str) -> dict[str, int]:
    """``"A=5,E=4,..."`` or ``"Austria=5, ..."`` -> {letter: centres}; every power once."""
    return _once(_pairs(text, "centres"), "centres")


def parse_eliminated(text: str) -> dict[str, int]:
    """``"G=1905,T=1907"`` -> {letter: year}; every power once: of two years for one
    power the software cannot tell which the sheet meant, so neither is kept silently."""
    return _once(_pairs(text, "eliminated"), "eliminated")


def parse_powers(text: str) -> frozenset[str]:
    """``"A,F,I"`` or ``"Austria, France, Italy"`` -> letters."""
    try:
        return frozenset(power_letter(part) for part in text.split(",") if part.strip())
    except ValueError as exc:
        raise ResultError(str(exc)) from None


def parse_power(text: str) -> str:
    try:
        return power_letter(text)
    except ValueError as exc:
        raise ResultError(str(exc)) from None


def _once(pairs: list[tuple[str, int]], what: str) -> dict[str, int]:
    """The pairs by power; a power given twice is refused, naming both values."""
    out: dict[str, int] = {}
    for letter, value in pairs:
        if letter in out:
            raise ResultError(f"{what}: {POWERS[letter]} is given twice ({out[letter]} and "
                              f"{value}): give it once")
        out[letter] = value
    return out


def _pairs(text: str, what: str) -> list[tuple[str, int]]:
    pairs = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise ResultError(f"{what}: {part.strip()!r} is not POWER=NUMBER (like A=5)")
        letter = parse_power(name)
        try:
            pairs.append((letter, int(value.strip())))
        except ValueError:
            raise ResultError(f"{what}: {part.strip()!r}: {value.strip()!r} is not a whole "
                              "number") from None
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

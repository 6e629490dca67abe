"""The tie-breaks between players level on total, each a small function of the tied group.

Each criterion gives every player of the group a key, higher better. They are applied in the
event's order, each one only within a group the previous ones left level: head to head looks
at the players still tied, not at the whole group that started level.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from dipclock.i18n import said
from dipclock.standings.model import GameScore, StandingsError, settle
from dipclock.standings.order import by_name, group_by
from dipclock.standings.rules import TieBreak

Board = tuple[int, str]


@dataclass(frozen=True)
class Field:
    """Everyone's games, by player and by board: what the criteria look at."""

    games: Mapping[str, Sequence[GameScore]]
    boards: Mapping[Board, Sequence[GameScore]]

    @classmethod
    def of(cls, games: Mapping[str, Sequence[GameScore]]) -> Field:
        boards: dict[Board, list[GameScore]] = {}
        for mine in games.values():
            for g in mine:
                if g.board is not None:
                    boards.setdefault((g.round, g.board), []).append(g)
        return cls(games, boards)

    def opponents(self, game: GameScore) -> list[GameScore]:
        """The others' results in ``game``: none known when its board is not given."""
        if game.board is None:
            return []
        return [o for o in self.boards[game.round, game.board] if o.player != game.player]


Keys = dict[str, float]
Criterion = Callable[[Field, Sequence[str]], Keys]


def each(value: Callable[[Field, str], float]) -> Criterion:
    """A criterion that looks at one player at a time, whoever else is tied."""
    return lambda field, group: {p: value(field, p) for p in group}


def nth_best_game(n: int) -> Callable[[Field, str], float]:
    """The n-th best single-game score; a player with fewer games has 0 there."""
    def value(field: Field, player: str) -> float:
        best = sorted((g.score for g in field.games[player]), reverse=True)
        return best[n - 1] if len(best) >= n else 0.0
    return value


def all_rounds(field: Field, player: str) -> float:
    """Every result added at weight 1 (wdc2003: "the highest score considering all four
    rounds of play"), whatever the weights dropped."""
    return math.fsum(g.score for g in field.games[player])


def fewer_games(field: Field, player: str) -> float:
    """wdc2019: "Priority to the player who played the fewer games"."""
    return -len(field.games[player])


def opponents_average(field: Field, player: str) -> float:
    """Strength of schedule (wdc2003): the mean, over each opponent faced (once however often
    met), of that opponent's average game score over the whole tournament."""
    faced = {o.player for g in field.games[player] for o in field.opponents(g)}
    if not faced:
        return 0.0
    return fmean(fmean(g.score for g in field.games[o]) for o in faced)


def fewer_home_centres(field: Field, player: str) -> float:
    """wdc2019: "Fewest supply centers of the countries played during the tournament": the
    starting centres of each game's power added up (Russia 4, every other power 3)."""
    return -sum(4 if g.power == "Russia" else 3 for g in field.games[player])


def _meetings(field: Field, group: Sequence[str]) -> dict[str, list[GameScore]] | None:
    """Each player's games against another of ``group``; None when one of them met none of
    the others, as then nothing says how they would have fared: the criterion then leaves
    the whole group level."""
    tied = set(group)
    met = {p: [g for g in field.games[p] if any(o.player in tied for o in field.opponents(g))]
           for p in group}
    return met if all(met.values()) else None


def head_to_head(field: Field, group: Sequence[str]) -> Keys:
    """The highest score each obtained in a game where the tied players opposed each other."""
    met = _meetings(field, group)
    return {p: max(g.score for g in met[p]) if met else 0.0 for p in group}


def head_to_head_total(field: Field, group: Sequence[str]) -> Keys:
    """The summed score of each in the games where the tied players opposed each other."""
    met = _meetings(field, group)
    return {p: math.fsum(g.score for g in met[p]) if met else 0.0 for p in group}


CRITERIA: dict[TieBreak, Criterion] = {
    "best_game": each(nth_best_game(1)),
    "second_best_game": each(nth_best_game(2)),
    "third_best_game": each(nth_best_game(3)),
    "fourth_best_game": each(nth_best_game(4)),
    "head_to_head": head_to_head,
    "head_to_head_total": head_to_head_total,
    "all_rounds": each(all_rounds),
    "fewer_games": each(fewer_games),
    "opponents_average": each(opponents_average),
    "fewer_home_centres": each(fewer_home_centres),
}

#: The criteria that need a field of every score: who met whom, or the power played.
NEEDS: dict[TieBreak, str] = {
    "head_to_head": "board",
    "head_to_head_total": "board",
    "opponents_average": "board",
    "fewer_home_centres": "power",
}


def check_data(scores: Iterable[GameScore], tie_breaks: Sequence[TieBreak]) -> None:
    """Refuse, before any tie arises, scores a listed criterion cannot read: a tie-break
    that fails only on the day two players tie is found too late. A replacement's share
    (``shared``) has neither by design: it met no one there and played no power for them."""
    needs = [(name, NEEDS[name]) for name in tie_breaks if name in NEEDS]
    for s in scores:
        if s.shared:
            continue
        for name, attr in needs:
            if getattr(s, attr) is None:
                raise StandingsError(said("tie_breaks: {name!r} needs each game's {field}: "
                                          "{player!r} in round {round} has none", name=name,
                                          field=attr, player=s.player, round=s.round))


def separate(field: Field, group: Sequence[str],
             tie_breaks: Sequence[TieBreak]) -> list[list[str]]:
    """``group`` (players level so far) in order, as groups that no criterion separates."""
    if len(group) < 2 or not tie_breaks:
        return [by_name(group)]
    keys = CRITERIA[tie_breaks[0]](field, group)
    out: list[list[str]] = []
    for level in group_by(group, lambda p: (settle(keys[p]),)):
        out += separate(field, level, tie_breaks[1:])
    return out

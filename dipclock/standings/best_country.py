"""Best country awards: for each power, the best result anyone had with it."""

from __future__ import annotations

from collections.abc import Sequence

from dipclock.powers import POWERS
from dipclock.standings.model import GameScore, StandingsError, settle
from dipclock.standings.rules import StandingsRules

Board = tuple[int, str]


def best_countries(scores: Sequence[GameScore], rules: StandingsRules | None = None, *,
                   solo_boards: frozenset[Board] = frozenset()) -> dict[str, list[GameScore]]:
    """The winning result(s) of each power played, several when level, in the powers' order.

    ``best_country_by``: ``"score"``, the highest single-game score (wdc2006 19.10, wdc2018,
    wdc2019); ``"centres_then_score"``, most centres, then the highest score (graduated20
    19.9). With ``best_country_solo_rule`` (graduated20), a player on one of ``solo_boards``
    ((round, board) pairs) who is not its soloist wins only if no one played that power on
    a board without a solo. Only results with a power count."""
    rules = rules or StandingsRules()
    played = [s for s in scores if s.power is not None]
    key = _by_score
    if rules.best_country_by == "centres_then_score":
        for s in played:
            if s.centres is None:
                raise StandingsError(f"best_country_by = 'centres_then_score' needs centres: "
                                     f"{s.player!r} in round {s.round} has none")
        key = _by_centres_then_score
    if rules.best_country_solo_rule:
        played = _eligible(played, scores, solo_boards)
    out: dict[str, list[GameScore]] = {}
    for power in POWERS.values():
        mine = [s for s in played if s.power == power]
        if mine:
            best = max(map(key, mine))
            out[power] = [s for s in mine if key(s) == best]
    return out


def _by_score(s: GameScore) -> tuple[float, ...]:
    return (settle(s.score),)


def _by_centres_then_score(s: GameScore) -> tuple[float, ...]:
    return (s.centres or 0, settle(s.score))


def _board(s: GameScore) -> Board | None:
    return None if s.board is None else (s.round, s.board)


def _eligible(played: list[GameScore], scores: Sequence[GameScore],
              solo_boards: frozenset[Board]) -> list[GameScore]:
    """``played`` less the soloed-against results of a power someone played elsewhere. The
    soloist of a board is its player with most centres (a solo is 18 or more), by score
    where centres are not given."""
    soloists = {max((s for s in scores if _board(s) == board), key=_by_centres_then_score)
                for board in solo_boards if any(_board(s) == board for s in scores)}
    clean = {s.power for s in played if _board(s) not in solo_boards}

    def beaten(s: GameScore) -> bool:
        return _board(s) in solo_boards and s not in soloists

    return [s for s in played if not beaten(s) or s.power not in clean]

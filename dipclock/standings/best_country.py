"""Best country awards: for each power, the best result anyone had with it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from dipclock.i18n import said
from dipclock.powers import POWERS
from dipclock.standings.boards import SEATS, check_boards, one_per_round
from dipclock.standings.model import GameScore, StandingsError, settle
from dipclock.standings.rules import StandingsRules

Board = tuple[int, str]


def best_countries(scores: Sequence[GameScore], rules: StandingsRules | None = None, *,
                   solo_boards: frozenset[Board] = frozenset()) -> dict[str, list[GameScore]]:
    """The winning result(s) of each power played, several when level, in the powers' order.

    ``best_country_by``: ``"score"``, the highest single-game score (wdc2006 19.10, wdc2018);
    ``"centres_then_score"``, most centres, then the highest score (graduated20 19.9);
    ``"score_then_centres"``, the highest score, then more centres, then the smaller gap to
    the player above and the larger to the player below on the board (wdc2019 6c; the gaps
    where the board's seven counts are known). With ``best_country_solo_rule``
    (graduated20), a player on one of ``solo_boards`` ((round, board) pairs: a solo or a
    concession) who is not its winner wins only if no player achieved a draw with that
    power. Only results with a power count; with ``two_boards = "higher"`` (wdc2018) the
    lower game of a round counts for nothing."""
    rules = rules or StandingsRules()
    check_boards(scores)
    counted = one_per_round(scores, "higher") if rules.two_boards == "higher" else scores
    played = [s for s in counted if s.power is not None]
    key = _by_score
    if rules.best_country_by == "centres_then_score":
        for s in played:
            if s.centres is None:
                raise StandingsError(said("best_country_by = 'centres_then_score' needs "
                                          "centres: {player!r} in round {round} has none",
                                          player=s.player, round=s.round))
        key = _by_centres_then_score
    if rules.best_country_solo_rule:
        played = _eligible(played, scores, solo_boards)
    out: dict[str, list[GameScore]] = {}
    for power in POWERS.values():
        mine = [s for s in played if s.power == power]
        if mine:
            best = max(map(key, mine))
            out[power] = [s for s in mine if key(s) == best]
            if rules.best_country_by == "score_then_centres":
                out[power] = _by_centres_then_gaps(out[power], _boards(scores))
    return out


def _by_score(s: GameScore) -> tuple[float, ...]:
    return (settle(s.score),)


def _by_centres_then_score(s: GameScore) -> tuple[float, ...]:
    return (s.centres or 0, settle(s.score))


def _board(s: GameScore) -> Board | None:
    return None if s.board is None else (s.round, s.board)


def _boards(scores: Sequence[GameScore]) -> dict[Board, list[GameScore]]:
    out: dict[Board, list[GameScore]] = {}
    for s in scores:
        board = _board(s)
        if board is not None:
            out.setdefault(board, []).append(s)
    return out


def _gaps(s: GameScore, boards: Mapping[Board, Sequence[GameScore]]) -> tuple[int, int] | None:
    """The centres between ``s`` and the player above it on its board, and the player below
    (0 for the first, the last, or a level neighbour); None where the board's seven counts
    are not all known."""
    board = _board(s)
    seated = boards.get(board, []) if board is not None else []
    if s.centres is None or len(seated) != SEATS or any(o.centres is None for o in seated):
        return None
    others = [o.centres or 0 for o in seated if o.player != s.player]
    above = min((c - s.centres for c in others if c >= s.centres), default=0)
    below = min((s.centres - c for c in others if c <= s.centres), default=0)
    return above, below


def _by_centres_then_gaps(tied: list[GameScore],
                          boards: Mapping[Board, Sequence[GameScore]]) -> list[GameScore]:
    """wdc2019 6c's "More centers", then "Weakest gap with the preceding player", then
    "Largest gap with the following player", each as far as the data reaches: a criterion
    some of the tied cannot be read for leaves them level."""
    steps: list[Callable[[GameScore], tuple[int, ...] | None]] = [
        lambda s: None if s.centres is None else (s.centres,),
        lambda s: None if (g := _gaps(s, boards)) is None else (-g[0], g[1]),
    ]
    for step in steps:
        if len(tied) < 2:
            break
        keys = {id(s): step(s) for s in tied}
        if any(k is None for k in keys.values()):
            break
        best = max(k for k in keys.values() if k is not None)
        tied = [s for s in tied if keys[id(s)] == best]
    return tied


def _eligible(played: list[GameScore], scores: Sequence[GameScore],
              solo_boards: frozenset[Board]) -> list[GameScore]:
    """``played`` less the results lost to another's solo with a power someone achieved a
    draw with: survived a board without a solo (19.9: "unless no player achieves a draw
    with that country"; one eliminated on a drawn board did not). A solo board's winner is
    its highest score (the soloist, or the power conceded to, outscores every loser in
    every system); a result without centres on a drawn board counts as a draw."""
    boards = _boards(scores)
    winners = {max(boards[board], key=lambda s: settle(s.score))
               for board in solo_boards if board in boards}
    drew = {s.power for s in played
            if _board(s) not in solo_boards and (s.centres is None or s.centres > 0)}

    def beaten(s: GameScore) -> bool:
        return _board(s) in solo_boards and s not in winners

    return [s for s in played if not beaten(s) or s.power not in drew]

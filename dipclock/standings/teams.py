"""The team competition: a team scores its members' scores in one round (``team_round``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from dipclock.i18n import said
from dipclock.standings.aggregate import by_player
from dipclock.standings.model import GameScore, StandingsError, TeamStanding, settle
from dipclock.standings.order import group_by, ranks
from dipclock.standings.rules import StandingsRules

#: Which member's score a team tie-break reads: 1 is the team's best.
MEMBER: dict[str, int] = {"best_member": 1, "second_member": 2, "third_member": 3}


def team_standings(scores: Sequence[GameScore], teams: Mapping[str, Sequence[str]],
                   rules: StandingsRules) -> list[TeamStanding]:
    """Every team, best first: by the sum of its members' scores in ``team_round`` (wdc2006,
    graduated20, wdc2019), then by ``team_tie_breaks`` in order (wdc2006 19.9: the third
    member's score, then the second's, then the best); teams still level share the rank.
    A member who did not play that round adds 0; a member with no score at all, a player
    in two teams or a team of the wrong size is an error: each is a typo far more often."""
    if rules.team_round is None:
        raise StandingsError(said("team_round is not set: no round makes a team's score"))
    games = by_player(scores, rules)
    seen: dict[str, str] = {}
    for team, members in teams.items():
        if rules.team_size is not None and len(members) != rules.team_size:
            raise StandingsError(said("team {team!r} has {n} members; team_size is {size}",
                                      team=team, n=len(members), size=rules.team_size))
        for m in members:
            if m in seen:
                raise StandingsError(said("{player!r} is in two teams: {first!r} and "
                                          "{second!r}", player=m, first=seen[m], second=team))
            if m not in games:
                raise StandingsError(said("{player!r} of team {team!r} has no scores",
                                          player=m, team=team))
            seen[m] = team
    in_round = {g.player: g.score for mine in games.values() for g in mine
                if g.round == rules.team_round}
    member_scores = {team: sorted((in_round.get(m, 0.0) for m in members), reverse=True)
                     for team, members in teams.items()}
    total = {team: settle(math.fsum(s)) for team, s in member_scores.items()}

    def key(team: str) -> tuple[float, ...]:
        s = member_scores[team]
        nth = [MEMBER[name] for name in rules.team_tie_breaks]
        return (total[team], *(settle(s[n - 1]) if len(s) >= n else 0.0 for n in nth))

    return [TeamStanding(rank, team, total[team], shared)
            for rank, team, shared in ranks(group_by(teams, key))]

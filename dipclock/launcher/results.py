"""``dipclock score`` and ``dipclock standings``: a game's scores and an event's standings.

The launcher's part is only the reading and the printing: the sheet's rules and each
system's arithmetic are the core's (``dipclock.scoring``), the event's aggregation and
tie-breaks too (``dipclock.standings``). Powers are named in English on the way out, and
letters or names are taken on the way in.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from dipclock.arguments import UsageError
from dipclock.eventfiles import load_event
from dipclock.events import EventProfile
from dipclock.powers import POWERS
from dipclock.scoring import SYSTEMS, GameResult, score_game
from dipclock.scoring.result import (
    parse_centres,
    parse_eliminated,
    parse_power,
    parse_powers,
)

#: Scores are printed as the rule texts' tables print them.
DECIMALS = 2


def add_score_parser(sub: Any) -> None:
    score = sub.add_parser("score", help="score one finished game under an event's system")
    score.add_argument("event", help="built-in id (see `dipclock events`) or a .toml file")
    score.add_argument("--centres", required=True, metavar='"A=5,E=4,..."',
                       help="every power's centres at the end (letters or names)")
    score.add_argument("--year", type=int, required=True,
                       help="the game year whose Fall centres count")
    score.add_argument("--solo", metavar="POWER", help="the power that won")
    score.add_argument("--draw", metavar='"A,F,I"',
                       help="a draw's participants (left out: all survivors)")
    score.add_argument("--eliminated", default="", metavar='"G=1905"',
                       help="each power with no centres and the year it was eliminated")
    score.add_argument("--json", action="store_true", help="print JSON")


def scoring_of(profile: EventProfile) -> str:
    if profile.scoring is None:
        raise UsageError(f"{profile.id} names no scoring system: add [scoring] system = one "
                         f"of {', '.join(SYSTEMS)} to its file")
    return profile.scoring.system


def run_score(args: argparse.Namespace) -> str:
    profile = load_event(args.event)
    system = scoring_of(profile)
    result = GameResult(
        centres=parse_centres(args.centres),
        year=args.year,
        solo=parse_power(args.solo) if args.solo else None,
        draw=parse_powers(args.draw) if args.draw is not None else None,
        eliminated=parse_eliminated(args.eliminated),
    )
    scores = score_game(system, result, profile.solo_centres(result.year))
    named = {POWERS[p]: round(scores[p], DECIMALS) for p in POWERS}
    if args.json:
        return json.dumps({"event": profile.id, "scores": named})
    width = max(len(n) for n in named)
    lines = [f"{profile.id}: {SYSTEMS[system].name}, {result.year}"]
    lines += [f"  {name:<{width}}  {result.centres[p]:>2}  {named[name]:>9.{DECIMALS}f}"
              for p, name in POWERS.items()]
    return "\n".join(lines)

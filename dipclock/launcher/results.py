"""``dipclock score`` and ``dipclock standings``: a game's scores and an event's standings.

The launcher's part is only the reading and the printing: the sheet's rules and each
system's arithmetic are the core's (``dipclock.scoring``), the event's aggregation and
tie-breaks too (``dipclock.standings``). Powers are named in English on the way out, and
letters or names are taken on the way in.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path
from typing import Any

from dipclock.arguments import UsageError
from dipclock.eventfiles import load_event
from dipclock.events import EventError, EventProfile
from dipclock.eventscoring import check_rounds, score_result
from dipclock.i18n import said
from dipclock.launcher.language import Note, add_lang, os_said, told, words_for
from dipclock.powers import POWERS
from dipclock.scoring import SYSTEMS, GameResult
from dipclock.scoring.result import (
    parse_centres,
    parse_eliminated,
    parse_power,
    parse_powers,
)
from dipclock.standings import (
    GameScore,
    StandingsError,
    StandingsRules,
    mixed_note,
    standings,
)
from dipclock.standings.tiebreaks import NEEDS

#: Scores are printed as the rule texts' tables print them.
DECIMALS = 2
REQUIRED = ("round", "player", "score")
OPTIONAL = ("board", "power", "centres", "system")


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
    score.add_argument("--conceded-to", metavar="POWER",
                       help="the power the game was conceded to, where the event allows it")
    score.add_argument("--eliminated", default="", metavar='"G=1905"',
                       help="each power with no centres and the year it was eliminated")
    score.add_argument("--round", type=int, help="the round, where the event's last year "
                       "depends on it")
    score.add_argument("--leader-did-not-grow", action="store_true",
                       help="the largest power did not grow in the final year (wdc2003: "
                            "no victory)")
    score.add_argument("--json", action="store_true", help="print JSON")
    add_lang(score)


def scoring_of(profile: EventProfile) -> str:
    if profile.scoring is None:
        raise UsageError(said("{event} names no scoring system: add [scoring] system = one "
                              "of {systems} to its file", event=profile.id,
                              systems=", ".join(SYSTEMS)))
    return profile.scoring.system


def run_score(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """The scores to print, and notes for stderr (a victory the command called a draw)."""
    profile = load_event(args.event)
    system = scoring_of(profile)
    if args.round is not None:
        check_rounds(profile, [args.round])
    result = GameResult(
        centres=parse_centres(args.centres),
        year=args.year,
        solo=parse_power(args.solo) if args.solo else None,
        draw=parse_powers(args.draw) if args.draw is not None else None,
        conceded_to=parse_power(args.conceded_to) if args.conceded_to else None,
        eliminated=parse_eliminated(args.eliminated),
        leader_grew=not args.leader_did_not_grow,
    )
    scored = score_result(profile, result, round_no=args.round)
    named = {POWERS[p]: round(scored.scores[p], DECIMALS) for p in POWERS}
    notes: list[Note] = list(scored.notes)
    if args.json:
        return json.dumps({"event": profile.id, "scores": named}), notes
    words = words_for(args)
    said = {p: words.power(p) for p in POWERS}
    width = max(len(n) for n in said.values())
    lines = [f"{profile.id}: {SYSTEMS[system].name}, {result.year}"]
    lines += [f"  {said[p]:<{width}}  {result.centres[p]:>2}  {named[name]:>9.{DECIMALS}f}"
              for p, name in POWERS.items()]
    return "\n".join(lines), notes


def add_standings_parser(sub: Any) -> None:
    st = sub.add_parser("standings", help="an event's standings from a file of game scores")
    st.add_argument("event", help="built-in id (see `dipclock events`) or a .toml file")
    st.add_argument("--scores", required=True, metavar="FILE.csv",
                    help="header round,player,score (and, for the tie-breaks that need them, "
                         "board, power, centres; system, to tell rounds scored under "
                         "different systems)")
    st.add_argument("--top-board", metavar='"NAME,NAME,..."',
                    help="the top board's seven players, where the event has a top board "
                         "(they play it in the event's top-board round)")
    st.add_argument("--json", action="store_true", help="print JSON")
    add_lang(st)


def read_scores(text: str, origin: str) -> tuple[list[GameScore], set[str]]:
    """The scores of a ``round,player,score[,board,power,centres,system]`` file, and its
    columns."""
    try:
        return _read_scores(text, origin)
    except csv.Error as exc:  # a field past csv's limit (128 KiB), a NUL byte
        raise UsageError(said("{file}: not a scores file: {reason}", file=origin,
                              reason=str(exc))) from None


def _read_scores(text: str, origin: str) -> tuple[list[GameScore], set[str]]:
    rows = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(rows, [])]
    if header[:3] != list(REQUIRED):
        found = _shown(",".join(header))
        raise UsageError(said("{file}: the first line must be {columns} (found {found})",
                              file=origin, columns=",".join(REQUIRED), found=found)
                         if found else
                         said("{file}: the first line must be {columns} (found nothing)",
                              file=origin, columns=",".join(REQUIRED)))
    unknown = [h for h in header if h not in REQUIRED + OPTIONAL]
    if unknown:
        raise UsageError(said("{file}: unknown column {column} (columns: {columns})",
                              file=origin, column=repr(_shown(unknown[0])),
                              columns=", ".join(REQUIRED + OPTIONAL)))
    twice = next((h for i, h in enumerate(header) if h in header[:i]), None)
    if twice is not None:
        raise UsageError(said("{file}: the column {column} is named twice", file=origin,
                              column=repr(twice)))
    out = []
    for n, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise UsageError(said("{file}: line {line} has {fields} fields, the header "
                                  "{header}", file=origin, line=n, fields=len(row),
                                  header=len(header)))
        cells = dict(zip(header, (c.strip() for c in row), strict=True))
        try:
            out.append(GameScore(
                round=int(cells["round"]), player=cells["player"],
                score=float(cells["score"]), board=cells.get("board") or None,
                power=cells.get("power") or None,
                centres=int(cells["centres"]) if cells.get("centres") else None,
                system=cells.get("system") or None))
        except ValueError as exc:  # a StandingsError too: one line naming the player
            raise UsageError(said("{file}: line {line}: {reason}", file=origin, line=n,
                                  reason=_short(exc))) from None
    if not out:
        raise UsageError(said("{file}: no scores after the header", file=origin))
    return out, set(header)


#: A message quotes at most this much of what the file holds.
SHOWN = 80


def _shown(text: str) -> str:
    """``text`` cut to ``SHOWN`` characters: one line for the screen, not a field of 100 KB."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _short(exc: ValueError) -> Note:
    """A line's problem, cut to ``SHOWN``: Python's own words for a bad number are said
    as the file's columns need."""
    text = str(exc)
    if text.startswith(("invalid literal", "could not convert")):
        return said("round and centres are whole numbers, score a number")
    reason = told(exc)  # a core's sentence, said in the reader's language if it is short
    return reason if len(text) <= SHOWN else _shown(text)


def usable_rules(rules: StandingsRules, columns: set[str]
                 ) -> tuple[StandingsRules, list[Note]]:
    """The event's rules without the tie-breaks the file cannot feed, and a note for each."""
    missing = [(name, need) for name, need in NEEDS.items()
               if name in rules.tie_breaks and need not in columns]
    if not missing:
        return rules, []
    left = tuple(t for t in rules.tie_breaks if t not in dict(missing))
    notes: list[Note] = [said("tie-break {name} needs a {column} column: left out", name=name,
                              column=need) for name, need in missing]
    return rules.model_copy(update={"tie_breaks": left}), notes


def run_standings(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """The standings to print, and notes for stderr."""
    profile = load_event(args.event)
    try:
        text = Path(args.scores).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(said("--scores {file}: {reason}", file=args.scores,
                              reason=os_said(exc))) from None
    except UnicodeDecodeError:
        raise UsageError(said("--scores {file}: not a text file (UTF-8)", file=args.scores)) \
            from None
    scores, columns = read_scores(text, args.scores)
    try:
        check_rounds(profile, (s.round for s in scores))
    except EventError as exc:
        raise UsageError(said("{file}: {reason}", file=args.scores, reason=exc)) \
            from None
    rules, notes = usable_rules(profile.standings or StandingsRules(), columns)
    top = top_board_of(profile, rules, args.top_board, scores, args.scores)
    notes += mixed_notes(scores)
    try:
        table = standings(scores, rules, top_board=top)
    except StandingsError as exc:
        raise UsageError(said("{file}: {reason}", file=args.scores, reason=exc)) \
            from None
    if args.json:
        rows = [{"rank": s.rank, "player": s.player, "total": round(s.total, DECIMALS)}
                for s in table]
        return json.dumps({"event": profile.id, "standings": rows}), notes
    words = words_for(args)
    width = max(len(s.player) for s in table)
    rounds = words.plural("standings from {n} round", "standings from {n} rounds",
                          len({s.round for s in scores}))
    lines = [f"{profile.id}: {rounds}"]
    games = {n: words.plural("{n} game", "{n} games", n) for n in {s.games for s in table}}
    lines += [f"{s.rank:>4}{'=' if s.shared else ' '} {s.player:<{width}}  "
              f"{s.total:>9.{DECIMALS}f}  ({games[s.games]})" for s in table]
    return "\n".join(lines), notes


def top_board_of(profile: EventProfile, rules: StandingsRules, given: str | None,
                 scores: list[GameScore], origin: str) -> frozenset[str]:
    """``--top-board``'s names: the event must have a top board, and each name a score."""
    top = frozenset(n.strip() for n in (given or "").split(",") if n.strip())
    if given is not None and rules.top_board_round is None:
        raise UsageError(said("--top-board: {event} has no top board", event=profile.id))
    unknown = sorted(top - {s.player for s in scores})
    if unknown:
        raise UsageError(said("--top-board: {name} has no score in {file}",
                              name=repr(unknown[0]), file=origin))
    return top


def mixed_notes(scores: list[GameScore]) -> list[Note]:
    """A note where the file's rounds were scored under different systems (said in the
    command's language)."""
    note = mixed_note(scores)
    return [note] if note is not None else []

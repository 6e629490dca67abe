"""``dipclock seat``: seat a round from the players, the earlier rounds and the pairs to keep
apart.

The launcher's part is the reading and the printing; who sits where is the core's
(``dipclock.seating``). Powers are named in English on the way out; letters or names are
taken on the way in, as the hub's seating import takes them.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dipclock.arguments import UsageError
from dipclock.eventfiles import load_event
from dipclock.events import EventError, EventProfile
from dipclock.eventscoring import check_rounds
from dipclock.launcher.results import read_scores, usable_rules
from dipclock.names import name_key, spelling
from dipclock.powers import POWERS, power_letter
from dipclock.seating import (
    SEATS,
    Past,
    Seat,
    Seating,
    SeatingError,
    Table,
    one_spelling,
    pair,
    read_past,
    seat_round,
    two_boards_allowed,
)
from dipclock.seating.seatfile import MOST_TABLES, NAME_MAX, is_name, read_seats
from dipclock.seating.teams import team_apart
from dipclock.seating.topboard import top_board_round
from dipclock.standings import StandingsError


def add_seat_parser(sub: Any) -> None:
    seat = sub.add_parser("seat", help="seat a round: tables, powers, who sits out")
    seat.add_argument("event", help="built-in id (see `dipclock events`) or a .toml file")
    seat.add_argument("--players", required=True, metavar="PLAYERS.csv",
                      help="the players present: a `player` column (others are ignored)")
    seat.add_argument("--round", type=int, required=True, help="the round to seat")
    seat.add_argument("--history", metavar="SEATING.csv",
                      help="the earlier rounds, round,table,power,player (the hub's format)")
    seat.add_argument("--apart", metavar="APART.csv",
                      help="player,player lines: pairs never to seat at one table")
    seat.add_argument("--teams", metavar="TEAMS.csv",
                      help="team,player[,power] lines: team-mates are kept apart in the "
                           "rounds the event says; a team round seated from its teams "
                           "(graduated20) needs each member's power")
    seat.add_argument("--seed", type=int,
                      help="the random seed: the same seed and files seat the same again")
    seat.add_argument("--keep", metavar="TABLES",
                      help="tables of this round already called, kept as --history has "
                           "them (1,4-6): the rest are seated again")
    seat.add_argument("--two-boards", metavar='"NAME,NAME"',
                      help="players willing to play two boards, where the event allows it: "
                           "they fill the last table instead of the surplus sitting out")
    seat.add_argument("--scores", metavar="SCORES.csv",
                      help="the scores so far (as `dipclock standings` reads them): in the "
                           "event's top-board round, the top board is seated by the "
                           "standings at table 1 (the first table not kept)")
    seat.add_argument("--json", action="store_true", help="print JSON")


def run_seat(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The seating to print, and notes for stderr."""
    profile = load_event(args.event)
    if args.round < 1:
        raise UsageError(f"--round: {args.round} is not a round (1 or more)")
    try:
        check_rounds(profile, [args.round])
    except EventError as exc:
        raise UsageError(f"--round: {exc}") from None
    players = read_players(_text(args.players, "--players"), args.players)
    history = (read_history(_text(args.history, "--history"), args.history)
               if args.history else [])
    notes: list[str] = []
    apart = (read_apart(_text(args.apart, "--apart"), args.apart, set(players), notes)
             if args.apart else set())
    two_boards = _names(args.two_boards, "--two-boards", players)
    teams, team_powers = (read_teams(_text(args.teams, "--teams"), args.teams, players)
                          if args.teams else ({}, {}))
    if two_boards and not two_boards_allowed(profile.standings):
        raise UsageError(f"--two-boards: {profile.id}'s rules do not let a player play two "
                         "boards")
    history = one_spelling(history, players)  # "JOSÉ" last round is today's "José"
    earlier = [s for s in history if s.round < args.round]
    kept = kept_tables(history, args.round, args.keep)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if args.seed is None:
        notes.append(f"seed {seed}: --seed {seed} seats the same again")
    rng = random.Random(seed)
    past = read_past(earlier)
    mates = team_apart(teams, profile.standings, args.round, past)
    if mates:
        notes.append(f"round {args.round}: {len(mates)} team-mate pair(s) kept apart, as "
                     f"{profile.id}'s rules say")
    try:
        kept += top_board_table(profile, args, players, past, rng, kept, notes)
        seating = seat_round(players, past, args.round, rng, apart=apart | mates, fixed=kept,
                             two_boards=two_boards, rules=profile.standings,
                             teams=team_powers or None)
    except SeatingError as exc:
        raise UsageError(str(exc)) from None
    if seating.played_enough:
        notes.append(f"sitting out, having played the most rounds {profile.id} allows: "
                     f"{', '.join(seating.played_enough)}")
    if seating.apart_together:
        notes.append(f"{seating.apart_together} kept-apart pair(s) had to share a table: "
                     "no seating keeps them all apart")
    if args.json:
        return json.dumps(seating_json(profile, seating), ensure_ascii=False), notes
    return seating_text(profile, seating), notes


def top_board_table(profile: EventProfile, args: argparse.Namespace, players: list[str],
                    past: Past, rng: random.Random, kept: list[Table],
                    notes: list[str]) -> list[Table]:
    """In the event's top-board round, with ``--scores``: the top board, at the first table
    not kept, seated by the standings; how its powers are given, as a note. The seating
    desk's step (``top_board_round``): a tie for the last seat seats no top board and says
    so, as the hub does."""
    rules = profile.standings
    at = rules.top_board_round if rules is not None else None
    if rules is None or at is None or args.round != at:
        if args.scores:
            where = f"round {at} is its top-board round" if at else "it has no top board"
            raise UsageError(f"--scores: {profile.id} seats no top board in round "
                             f"{args.round} ({where})")
        return []
    if not args.scores:
        notes.append(f"round {at} is {profile.id}'s top-board round: --scores seats the top "
                     "board by the standings")
        return []
    scores, columns = read_scores(_text(args.scores, "--scores"), args.scores)
    rules, left_out = usable_rules(rules, columns)
    notes += left_out
    try:
        top = top_board_round(args.round, players, scores, rules, past, rng,
                              {t.number for t in kept})
    except StandingsError as exc:  # scores the standings cannot rank
        raise UsageError(f"--scores: {exc}") from None
    notes += top.notes
    return list(top.tables)


def seating_json(profile: EventProfile, s: Seating) -> dict[str, object]:
    return {
        "event": profile.id,
        "round": s.round,
        "tables": [{"table": t.number,
                    "seats": {POWERS[p]: t.seats[p] for p in POWERS if p in t.seats}}
                   for t in s.tables],
        "sitting_out": list(s.sitting_out),
        "quality": {"pairs_met_before": s.pairs_met_before,
                    "powers_repeated": s.powers_repeated},
    }


def seating_text(profile: EventProfile, s: Seating) -> str:
    seated = {p for t in s.tables for p in t.seats.values()}
    lines = [f"{profile.id}: round {s.round}, {len(seated)} players at "
             f"{len(s.tables)} tables"]
    for t in s.tables:
        lines.append(f"Table {t.number}")
        lines += [f"  {POWERS[p]:<8} {t.seats[p]}" for p in POWERS if p in t.seats]
    if s.sitting_out:
        lines.append(f"Sitting out: {', '.join(s.sitting_out)}")
    if s.two_boards:
        lines.append(f"On two boards: {', '.join(s.two_boards)}")
    lines.append(f"Pairs met before: {s.pairs_met_before}; powers repeated: "
                 f"{s.powers_repeated}")
    return "\n".join(lines)


def _text(path: str, option: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"{option} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{option} {path}: not a text file (UTF-8)") from None


def _rows(text: str, origin: str) -> Iterator[tuple[int, list[str]]]:
    """A CSV file's non-blank lines, numbered from 1, each cell stripped."""
    try:
        for n, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            cells = [c.strip() for c in row]
            if any(cells):
                yield n, cells
    except csv.Error as exc:  # a field past csv's limit (128 KiB), a NUL byte
        raise UsageError(f"{origin}: not a CSV file: {exc}") from None


def _name(text: str, origin: str, n: int) -> str:
    if not text:
        raise UsageError(f"{origin}: line {n}: a player's name is empty")
    if not is_name(text):
        raise UsageError(f"{origin}: line {n}: a name is one line of at most {NAME_MAX} "
                         "characters")
    return spelling(text)


def read_players(text: str, origin: str) -> list[str]:
    """The ``player`` column of a CSV file with a header line; a name twice is an error."""
    rows = _rows(text, origin)
    first = next(rows, None)
    header = [h.casefold() for h in first[1]] if first else []
    if "player" not in header:
        raise UsageError(f"{origin}: the first line must name a player column")
    col = header.index("player")
    players: dict[str, int] = {}
    keys: dict[str, str] = {}
    for n, cells in rows:
        name = _name(cells[col] if col < len(cells) else "", origin, n)
        same = keys.setdefault(name_key(name), name)
        if same != name:
            raise UsageError(f"{origin}: line {n}: {name} and {same} (line {players[same]}) "
                             "are one name, capitals aside: list the player once, or tell "
                             "the two apart")
        if name in players:
            raise UsageError(f"{origin}: line {n}: {name} is listed twice (line "
                             f"{players[name]})")
        players[name] = n
    if len(players) < SEATS:
        raise UsageError(f"{origin}: {len(players)} players: a table needs {SEATS}")
    return list(players)


def read_history(text: str, origin: str) -> list[Seat]:
    """``round,table,power,player`` lines, read as the hub's seating import reads them
    (``dipclock.seating.seatfile``); a table naming a power or a player twice is an
    error."""
    try:
        seats = read_seats(text)
        read_past(seats)
    except SeatingError as exc:
        raise UsageError(f"{origin}: {exc}") from None
    return seats


def read_apart(text: str, origin: str, players: set[str],
               notes: list[str]) -> set[tuple[str, str]]:
    """``player,player`` lines; a name not playing this round is noted, not an error (the
    event's list outlives a withdrawal)."""
    apart: set[tuple[str, str]] = set()
    known = {name_key(p): p for p in players}
    for n, cells in _rows(text, origin):
        if n == 1 and [c.casefold() for c in cells] == ["player", "player"]:
            continue
        if len(cells) != 2:
            raise UsageError(f"{origin}: line {n}: give player,player (2 values, not "
                             f"{len(cells)})")
        a, b = (known.get(name_key(name), name) for name in (_name(c, origin, n) for c in cells))
        if a == b:
            raise UsageError(f"{origin}: line {n}: {a} is named twice")
        absent = [p for p in (a, b) if p not in players]
        if absent:
            notes.append(f"{origin}: line {n}: {absent[0]} is not among the players")
        apart.add(pair(a, b))
    return apart


def read_teams(text: str, origin: str, players: list[str]
               ) -> tuple[dict[str, list[str]], dict[str, dict[str, str]]]:
    """``team,player`` or ``team,player,power`` lines (a ``team,player[,power]`` header
    may come first): each team's members, and, where the lines give powers, each team's
    player of each power (a team round seated from its teams). A player in two teams, a
    power twice in a team or a power on some lines only is an error naming the line."""
    known = {name_key(p): p for p in players}
    members: dict[str, list[str]] = {}
    powers: dict[str, dict[str, str]] = {}
    team_of: dict[str, tuple[str, int]] = {}
    widths: set[int] = set()
    for n, cells in _rows(text, origin):
        if n == 1 and [c.casefold() for c in cells] in (["team", "player"],
                                                        ["team", "player", "power"]):
            continue
        if len(cells) not in (2, 3) or not cells[0]:
            raise UsageError(f"{origin}: line {n}: give team,player or team,player,power")
        widths.add(len(cells))
        if len(widths) > 1:
            raise UsageError(f"{origin}: line {n}: give a power on every line or none")
        team = cells[0]
        who = known.get(name_key(cells[1]), _name(cells[1], origin, n))
        if who in team_of:
            raise UsageError(f"{origin}: line {n}: {who} is already in team "
                             f"{team_of[who][0]} (line {team_of[who][1]})")
        team_of[who] = (team, n)
        members.setdefault(team, []).append(who)
        if len(cells) == 3:
            try:
                letter = power_letter(cells[2])
            except ValueError as exc:
                raise UsageError(f"{origin}: line {n}: {exc}") from None
            mine = powers.setdefault(team, {})
            if letter in mine:
                raise UsageError(f"{origin}: line {n}: team {team} has {POWERS[letter]} "
                                 f"already ({mine[letter]})")
            mine[letter] = who
    return members, powers


def kept_tables(history: list[Seat], number: int, keep: str | None) -> list[Table]:
    """The tables of round ``number`` named by ``--keep``, as ``--history`` has them."""
    if not keep:
        return []
    wanted = _table_numbers(keep)
    tables: dict[int, dict[str, str]] = {}
    for s in history:
        if s.round == number and s.table in wanted:
            tables.setdefault(s.table, {})[s.power] = s.player
    missing = sorted(wanted - set(tables))
    if missing:
        raise UsageError(f"--keep: --history has no table {missing[0]} in round {number}")
    short = next((n for n, seats in sorted(tables.items()) if len(seats) != SEATS), None)
    if short is not None:
        raise UsageError(f"--keep: table {short} of round {number} has "
                         f"{len(tables[short])} seats in --history, not {SEATS}")
    return [Table(n, seats) for n, seats in sorted(tables.items())]


def _table_numbers(text: str) -> set[int]:
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise UsageError(f"--keep: {part!r} is not a table or a range (1,4-6)")
        first, last = int(low), int(high or low)
        if not 1 <= first <= last <= MOST_TABLES:
            raise UsageError(f"--keep: {part}: table numbers run from 1 to {MOST_TABLES}")
        out.update(range(first, last + 1))
    return out


def _names(text: str | None, option: str, players: list[str]) -> list[str]:
    known = {name_key(p): p for p in players}
    names = [known.get(name_key(n), spelling(n)) for n in (text or "").split(",") if n.strip()]
    unknown = [n for n in names if n not in players]
    if unknown:
        raise UsageError(f"{option}: {unknown[0]} is not among the players")
    return names


__all__ = ["add_seat_parser", "read_apart", "read_history", "read_players", "read_teams",
           "run_seat"]


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
from dipclock.i18n import ENGLISH, POWER_NAMES, Words, said
from dipclock.launcher.language import Note, add_lang, os_said, words_for
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
    add_lang(seat)


def run_seat(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """The seating to print, and notes for stderr."""
    profile = load_event(args.event)
    if args.round < 1:
        raise UsageError(said("--round: {round} is not a round (1 or more)",
                              round=args.round))
    try:
        check_rounds(profile, [args.round])
    except EventError as exc:
        raise UsageError(said("--round: {reason}", reason=exc)) from None
    players = read_players(_text(args.players, "--players"), args.players)
    history = (read_history(_text(args.history, "--history"), args.history)
               if args.history else [])
    notes: list[Note] = []
    apart = (read_apart(_text(args.apart, "--apart"), args.apart, set(players), notes)
             if args.apart else set())
    two_boards = _names(args.two_boards, "--two-boards", players)
    teams, team_powers = (read_teams(_text(args.teams, "--teams"), args.teams, players)
                          if args.teams else ({}, {}))
    if two_boards and not two_boards_allowed(profile.standings):
        raise UsageError(said("--two-boards: {event}'s rules do not let a player play two "
                              "boards", event=profile.id))
    history = one_spelling(history, players)  # "JOSÉ" last round is today's "José"
    earlier = [s for s in history if s.round < args.round]
    kept = kept_tables(history, args.round, args.keep)
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    if args.seed is None:
        notes.append(said("seed {seed}: --seed {seed} seats the same again", seed=seed))
    rng = random.Random(seed)
    past = read_past(earlier)
    mates = team_apart(teams, profile.standings, args.round, past)
    if mates:
        notes.append(said("round {round}: {pairs} team-mate pair(s) kept apart, as "
                          "{event}'s rules say", round=args.round, pairs=len(mates),
                          event=profile.id))
    try:
        kept += top_board_table(profile, args, players, past, rng, kept, notes)
        seating = seat_round(players, past, args.round, rng, apart=apart | mates, fixed=kept,
                             two_boards=two_boards, rules=profile.standings,
                             teams=team_powers or None)
    except SeatingError as exc:
        raise UsageError(exc) from None
    if seating.played_enough:
        notes.append(said("sitting out, having played the most rounds {event} allows: "
                          "{players}", event=profile.id,
                          players=", ".join(seating.played_enough)))
    if seating.apart_together:
        notes.append(said("{pairs} kept-apart pair(s) had to share a table: no seating "
                          "keeps them all apart", pairs=seating.apart_together))
    if args.json:
        return json.dumps(seating_json(profile, seating), ensure_ascii=False), notes
    return seating_text(profile, seating, words_for(args)), notes


def top_board_table(profile: EventProfile, args: argparse.Namespace, players: list[str],
                    past: Past, rng: random.Random, kept: list[Table],
                    notes: list[Note]) -> list[Table]:
    """In the event's top-board round, with ``--scores``: the top board, at the first table
    not kept, seated by the standings; how its powers are given, as a note. The seating
    desk's step (``top_board_round``): a tie for the last seat seats no top board and says
    so, as the hub does."""
    rules = profile.standings
    at = rules.top_board_round if rules is not None else None
    if rules is None or at is None or args.round != at:
        if args.scores:
            where = (said("round {round} is its top-board round", round=at) if at else
                     said("it has no top board"))
            raise UsageError(said("--scores: {event} seats no top board in round {round} "
                                  "({why})", event=profile.id, round=args.round, why=where))
        return []
    if not args.scores:
        notes.append(said("round {round} is {event}'s top-board round: --scores seats the "
                          "top board by the standings", round=at, event=profile.id))
        return []
    scores, columns = read_scores(_text(args.scores, "--scores"), args.scores)
    rules, left_out = usable_rules(rules, columns)
    notes += left_out
    try:
        top = top_board_round(args.round, players, scores, rules, past, rng,
                              {t.number for t in kept})
    except StandingsError as exc:  # scores the standings cannot rank
        raise UsageError(said("--scores: {reason}", reason=exc)) from None
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


def seating_text(profile: EventProfile, s: Seating, words: Words = ENGLISH) -> str:
    seated = {p for t in s.tables for p in t.seats.values()}
    lines = [words.plural("{event}: round {round}, {players} players at {n} table",
                          "{event}: round {round}, {players} players at {n} tables",
                          len(s.tables), event=profile.id, round=s.round,
                          players=len(seated))]
    names = {p: words.power(p) for p in POWERS}
    width = max(8, *(len(n) for n in names.values()))
    for t in s.tables:
        lines.append(words("Table {number}", number=t.number))
        lines += [f"  {names[p]:<{width}} {t.seats[p]}" for p in POWERS if p in t.seats]
    if s.sitting_out:
        lines.append(words("Sitting out: {players}", players=", ".join(s.sitting_out)))
    if s.two_boards:
        lines.append(words("On two boards: {players}", players=", ".join(s.two_boards)))
    lines.append(words("Pairs met before: {pairs}; powers repeated: {powers}",
                       pairs=s.pairs_met_before, powers=s.powers_repeated))
    return "\n".join(lines)


def _text(path: str, option: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(said("{option} {file}: {reason}", option=option, file=path,
                              reason=os_said(exc))) from None
    except UnicodeDecodeError:
        raise UsageError(said("{option} {file}: not a text file (UTF-8)", option=option,
                              file=path)) from None


def _rows(text: str, origin: str) -> Iterator[tuple[int, list[str]]]:
    """A CSV file's non-blank lines, numbered from 1, each cell stripped."""
    try:
        for n, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            cells = [c.strip() for c in row]
            if any(cells):
                yield n, cells
    except csv.Error as exc:  # a field past csv's limit (128 KiB), a NUL byte
        raise UsageError(said("{file}: not a CSV file: {reason}", file=origin,
                              reason=str(exc))) from None


def _name(text: str, origin: str, n: int) -> str:
    if not text:
        raise UsageError(said("{file}: line {line}: a player's name is empty", file=origin,
                              line=n))
    if not is_name(text):
        raise UsageError(said("{file}: line {line}: a name is one line of at most {most} "
                              "characters", file=origin, line=n, most=NAME_MAX))
    return spelling(text)


def read_players(text: str, origin: str) -> list[str]:
    """The ``player`` column of a CSV file with a header line; a name twice is an error."""
    rows = _rows(text, origin)
    first = next(rows, None)
    header = [h.casefold() for h in first[1]] if first else []
    if "player" not in header:
        raise UsageError(said("{file}: the first line must name a player column",
                              file=origin))
    col = header.index("player")
    players: dict[str, int] = {}
    keys: dict[str, str] = {}
    for n, cells in rows:
        name = _name(cells[col] if col < len(cells) else "", origin, n)
        same = keys.setdefault(name_key(name), name)
        if same != name:
            raise UsageError(said("{file}: line {line}: {name} and {same} (line {other}) "
                                  "are one name, capitals aside: list the player once, or "
                                  "tell the two apart", file=origin, line=n, name=name,
                                  same=same, other=players[same]))
        if name in players:
            raise UsageError(said("{file}: line {line}: {name} is listed twice (line "
                                  "{other})", file=origin, line=n, name=name,
                                  other=players[name]))
        players[name] = n
    if len(players) < SEATS:
        raise UsageError(said("{file}: {players} players: a table needs {seats}",
                              file=origin, players=len(players), seats=SEATS))
    return list(players)


def read_history(text: str, origin: str) -> list[Seat]:
    """``round,table,power,player`` lines, read as the hub's seating import reads them
    (``dipclock.seating.seatfile``); a table naming a power or a player twice is an
    error."""
    try:
        seats = read_seats(text)
        read_past(seats)
    except SeatingError as exc:
        raise UsageError(said("{file}: {reason}", file=origin, reason=exc)) from None
    return seats


def read_apart(text: str, origin: str, players: set[str],
               notes: list[Note]) -> set[tuple[str, str]]:
    """``player,player`` lines; a name not playing this round is noted, not an error (the
    event's list outlives a withdrawal)."""
    apart: set[tuple[str, str]] = set()
    known = {name_key(p): p for p in players}
    for n, cells in _rows(text, origin):
        if n == 1 and [c.casefold() for c in cells] == ["player", "player"]:
            continue
        if len(cells) != 2:
            raise UsageError(said("{file}: line {line}: give player,player (2 values, not "
                                  "{values})", file=origin, line=n, values=len(cells)))
        a, b = (known.get(name_key(name), name) for name in (_name(c, origin, n) for c in cells))
        if a == b:
            raise UsageError(said("{file}: line {line}: {name} is named twice", file=origin,
                                  line=n, name=a))
        absent = [p for p in (a, b) if p not in players]
        if absent:
            notes.append(said("{file}: line {line}: {name} is not among the players",
                              file=origin, line=n, name=absent[0]))
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
            raise UsageError(said("{file}: line {line}: give team,player or "
                                  "team,player,power", file=origin, line=n))
        widths.add(len(cells))
        if len(widths) > 1:
            raise UsageError(said("{file}: line {line}: give a power on every line or none",
                                  file=origin, line=n))
        team = cells[0]
        who = known.get(name_key(cells[1]), _name(cells[1], origin, n))
        if who in team_of:
            raise UsageError(said("{file}: line {line}: {name} is already in team {team} "
                                  "(line {other})", file=origin, line=n, name=who,
                                  team=team_of[who][0], other=team_of[who][1]))
        team_of[who] = (team, n)
        members.setdefault(team, []).append(who)
        if len(cells) == 3:
            try:
                letter = power_letter(cells[2])
            except ValueError as exc:
                raise UsageError(said("{file}: line {line}: {reason}", file=origin, line=n,
                                      reason=exc)) from None
            mine = powers.setdefault(team, {})
            if letter in mine:
                raise UsageError(said("{file}: line {line}: team {team} has {power} already "
                                      "({name})", file=origin, line=n, team=team,
                                      power=said(POWER_NAMES[letter]),
                                      name=mine[letter]))
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
        raise UsageError(said("--keep: --history has no table {table} in round {round}",
                              table=missing[0], round=number))
    short = next((n for n, seats in sorted(tables.items()) if len(seats) != SEATS), None)
    if short is not None:
        raise UsageError(said("--keep: table {table} of round {round} has {seats} seats in "
                              "--history, not {needed}", table=short, round=number,
                              seats=len(tables[short]), needed=SEATS))
    return [Table(n, seats) for n, seats in sorted(tables.items())]


def _table_numbers(text: str) -> set[int]:
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise UsageError(said("--keep: {part} is not a table or a range (1,4-6)",
                                  part=repr(part)))
        first, last = int(low), int(high or low)
        if not 1 <= first <= last <= MOST_TABLES:
            raise UsageError(said("--keep: {part}: table numbers run from 1 to {most}",
                                  part=part, most=MOST_TABLES))
        out.update(range(first, last + 1))
    return out


def _names(text: str | None, option: str, players: list[str]) -> list[str]:
    known = {name_key(p): p for p in players}
    names = [known.get(name_key(n), spelling(n)) for n in (text or "").split(",") if n.strip()]
    unknown = [n for n in names if n not in players]
    if unknown:
        raise UsageError(said("{option}: {name} is not among the players", option=option,
                              name=unknown[0]))
    return names


__all__ = ["add_seat_parser", "read_apart", "read_history", "read_players", "read_teams",
           "run_seat"]


"""The results desk: every board's sheet with what to check, the scores, the standings.

What the sheet page, the dashboard's Results card, the projector's standings page and the
CSV files show, computed in one place from the store so they never disagree. Scoring and
standings are the core's (``dipclock.scoring``, ``dipclock.standings``); this module only
gathers the round's sheets, its seating and the event's rules, and shapes the answer.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from dipclock.events import EventProfile
from dipclock.powers import LETTERS, POWERS
from dipclock.scoring import SYSTEMS, ResultError
from dipclock.standings import GameScore, Standing, StandingsError, StandingsRules, standings
from dipclock.timeline import table_clock
from server.responses import Out
from server.rounds import round_profile, schedule_for
from server.sheets import Sheet, SheetIn, Status, flags, named, scored, sheet_key, status
from server.store import RoundRow, Store

SECRET_KEY = "sheet_secret"


class SheetView(Out):
    """One board's sheet as its page and the dashboard show it."""

    round: int
    round_title: str
    table: int
    event: str
    system: str | None  # "Sum of Squares"; None: the event names no system
    notes: list[str]  # the event's readings of its rule text
    #: the year whose Fall centres count, where the table's clock knows its end (the last
    #: year, or the TD's call); None: the game may still end early, the players say
    year: int | None
    counts: str  # "Fall 1906 centres count"
    draws_by_size: bool  # ARMADA: the page asks who is in the draw
    players: dict[str, str]  # power name -> player, as seated
    sheet: SheetIn | None
    confirmed: list[str]  # power names
    status: Status
    by_td: bool
    flags: list[str]
    scores: dict[str, float] | None  # power name -> score, when the sheet scores


class RoundSheets(Out):
    """``GET /api/td/results``: every board's sheet of one round."""

    round: int
    sheets: list[SheetView]


class StandingRow(Out):
    rank: int
    player: str
    total: float
    games: int
    shared: bool


class StandingsView(Out):
    """``GET /api/td/standings``: after round ``round``, from the sheets the TD confirmed."""

    event: str
    round: int
    sheets_final: int
    sheets_waiting: list[int]  # this round's tables whose sheet the TD has not confirmed
    standings: list[StandingRow]
    problem: str  # "" or why the standings cannot be made


def sheet_secret(store: Store) -> str:
    """The data dir's sheet secret, made once (read without a write after that)."""
    return store.meta(SECRET_KEY) or store.set_meta_once(SECRET_KEY, secrets.token_hex(32))


def sheet_link(secret: str, round_no: int, table: int) -> str:
    """The path a kiosk's QR code opens: the key after '#', so no log on the way keeps it."""
    return f"/sheet/{round_no}/{table}#{sheet_key(secret, round_no, table)}"


def players_of(store: Store, round_no: int) -> dict[int, dict[str, str]]:
    """Each table's seated players by power letter."""
    out: dict[int, dict[str, str]] = {}
    for s in store.seating(round_no):
        out.setdefault(s.table, {})[s.power] = s.player
    return out


@dataclass(frozen=True)
class Board:
    """What a sheet needs to know of its round: the rules and where its game ends."""

    rnd: RoundRow
    profile: EventProfile


def board_of(store: Store, round_no: int) -> Board | None:
    rnd = store.round(round_no)
    if rnd is None:
        return None
    profile = round_profile(store, rnd)
    return None if profile is None else Board(rnd, profile)


def scoring_year(store: Store, board: Board, table: int) -> int | None:
    """The year whose Fall centres count on ``table`` by its clock, once its end is known
    (the round's last year or the TD's call, by the event's call rule)."""
    schedule = schedule_for(store, board.rnd)
    if schedule.call is None and (schedule.last_year or board.profile.last_year) is None:
        return None
    fall = table_clock(board.profile, schedule, table).timetable().scoring_phase
    return fall.year if fall is not None else None


def sheet_view(store: Store, board: Board, table: int, sheet: Sheet | None,
               seated: dict[str, str]) -> SheetView:
    profile = board.profile
    year = scoring_year(store, board, table)
    system = SYSTEMS[profile.scoring.system] if profile.scoring else None
    scores: dict[str, float] | None = None
    found: list[str] = []
    if sheet is not None:
        found = flags(profile, sheet.body)
        try:
            scores = named(scored(profile, sheet.body))
        except ResultError:
            scores = None
    counts = f"Fall {year} centres count" if year else "the last Fall played counts"
    return SheetView(
        round=board.rnd.number, round_title=board.rnd.title or f"Round {board.rnd.number}",
        table=table, event=profile.name, system=system.name if system else None,
        notes=list(profile.scoring.notes) if profile.scoring else [], year=year,
        counts=counts, draws_by_size=bool(system and system.draws_by_size),
        players={POWERS[p]: n for p, n in sorted(seated.items(), key=lambda i:
                                                   LETTERS.index(i[0]))},
        sheet=sheet.body if sheet else None,
        confirmed=[POWERS[p] for p in LETTERS if sheet and p in sheet.confirmed],
        status=status(sheet, list(seated)), by_td=bool(sheet and sheet.by_td),
        flags=found, scores=scores,
    )


def round_sheets(store: Store, board: Board) -> list[SheetView]:
    """Every table of the round (set up, seated or with a sheet), in number order."""
    sheets = {s.table: s for s in store.sheets(board.rnd.number)}
    seated = players_of(store, board.rnd.number)
    tables = sorted(set(store.tables()) | set(sheets) | set(seated))
    return [sheet_view(store, board, t, sheets.get(t), seated.get(t, {})) for t in tables]


def game_scores(store: Store, up_to: int | None = None) -> list[GameScore]:
    """One ``GameScore`` per seated power of every sheet the TD confirmed (rounds up to
    ``up_to``), each scored under its own round's event. A power with no player seated
    has no one to credit and is left out."""
    out: list[GameScore] = []
    seating: dict[int, dict[int, dict[str, str]]] = {}
    for sheet in store.sheets():
        if not sheet.td or (up_to is not None and sheet.round > up_to):
            continue
        board = board_of(store, sheet.round)
        if board is None:
            continue
        try:
            scores = scored(board.profile, sheet.body)
        except ResultError:
            continue  # the TD cannot confirm such a sheet; one confirmed before a rule
            # change is shown flagged on the dashboard, not counted
        if sheet.round not in seating:
            seating[sheet.round] = players_of(store, sheet.round)
        for power, player in seating[sheet.round].get(sheet.table, {}).items():
            out.append(GameScore(round=sheet.round, player=player, score=scores[power],
                                 board=str(sheet.table), power=POWERS[power],
                                 centres=sheet.body.centres.get(power)))
    return out


def rules_of(profile: EventProfile) -> StandingsRules:
    return profile.standings or StandingsRules()


def standings_view(store: Store, round_no: int) -> StandingsView:
    """The standings after ``round_no`` under that round's event."""
    board = board_of(store, round_no)
    if board is None:
        return StandingsView(event="", round=round_no, sheets_final=0, sheets_waiting=[],
                             standings=[], problem=f"no round {round_no} is set up")
    scores = game_scores(store, round_no)
    waiting = [v.table for v in round_sheets(store, board) if v.status != "final"]
    rows: list[Standing] = []
    problem = ""
    try:
        rows = standings(scores, rules_of(board.profile))
    except StandingsError as exc:
        problem = str(exc)
    return StandingsView(
        event=board.profile.name, round=round_no,
        sheets_final=len({(s.round, s.board) for s in scores if s.round == round_no}),
        sheets_waiting=waiting,
        standings=[StandingRow(rank=s.rank, player=s.player, total=round(s.total, 2),
                               games=s.games, shared=s.shared) for s in rows],
        problem=problem)


def results_csv(scores: Iterable[GameScore]) -> str:
    """Every confirmed game's scores: ``round,table,power,player,centres,score``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["round", "table", "power", "player", "centres", "score"])
    for s in sorted(scores, key=lambda s: (s.round, int(s.board or 0),
                                           LETTERS.index(s.power[0] if s.power else "A"))):
        w.writerow([s.round, s.board, s.power, s.player, s.centres, f"{s.score:.2f}"])
    return out.getvalue()


def standings_csv(view: StandingsView) -> str:
    """``rank,player,total``, best first: what ``dipclock standings`` reads back."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "player", "total"])
    for row in view.standings:
        w.writerow([row.rank, row.player, f"{row.total:.2f}"])
    return out.getvalue()

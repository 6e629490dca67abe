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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dipclock.events import EventProfile
from dipclock.eventscoring import Endings, Scored, endings, unagreed_end
from dipclock.i18n import ENGLISH, Said, Words
from dipclock.powers import LETTERS, POWERS
from dipclock.replacements import Replacement, sheet_words, split
from dipclock.roster.register import event_bonuses
from dipclock.schedule import Schedule
from dipclock.scoring import SYSTEMS, ResultError
from dipclock.scoring.result import FIRST_YEAR, LAST_YEAR, TOTAL_CENTRES
from dipclock.sheetlines import ending_words
from dipclock.standings import (
    GameScore,
    SeatTie,
    Standing,
    StandingsError,
    StandingsRules,
    best_countries,
    mixed_text,
    standings,
    team_standings,
    top_board_seeds,
)
from dipclock.timeline import table_clock
from dipclock.votes.ballot import Outcome
from dipclock.votes.proposal import Moment, Proposal, parse_form
from dipclock.votewords import headline_words
from server.auth import same_secret
from server.csvcells import cell
from server.responses import (
    CountryBest,
    EndingChoice,
    PowerLine,
    Result,
    SheetEndings,
    SheetView,
    SheetVote,
    StandingRow,
    StandingsView,
    TeamRow,
    TopBoard,
)
from server.rounds import round_profile, schedule_for
from server.sheets import (
    Sheet,
    SheetIn,
    Where,
    ending_text,
    missing_lines,
    named,
    problem,
    scored_result,
    sheet_key,
    status,
    warnings,
)
from server.store import RoundRow, Store, VoteRow

SECRET_KEY = "sheet_secret"


def sheet_secret(store: Store) -> str:
    """The data dir's sheet secret, made once (read without a write after that)."""
    return store.meta(SECRET_KEY) or store.set_meta_once(SECRET_KEY, secrets.token_hex(32))


def sheet_key_fits(store: Store, round_no: int, table: int, key: str) -> bool:
    """Whether ``key`` is table ``table``'s sheet key for round ``round_no`` (constant time)."""
    return same_secret(key, sheet_key(sheet_secret(store), round_no, table))


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
    """What a sheet needs to know of its round: the rules and where its game ends (read
    once per request, not once per table)."""

    rnd: RoundRow
    profile: EventProfile
    schedule: Schedule


def board_of(store: Store, round_no: int) -> Board | None:
    rnd = store.round(round_no)
    if rnd is None:
        return None
    profile = round_profile(store, rnd)
    return None if profile is None else Board(rnd, profile, schedule_for(store, rnd))


def scoring_year(board: Board, table: int) -> int | None:
    """The year whose Fall centres count on ``table`` by its clock, once its end is known
    (the round's last year or the TD's call, by the event's call rule)."""
    schedule = board.schedule
    if schedule.call is None and (schedule.last_year or board.profile.last_year) is None:
        return None
    fall = table_clock(board.profile, schedule, table).timetable().scoring_phase
    return fall.year if fall is not None else None


def where(board: Board, table: int) -> Where:
    """Where table ``table``'s game of the round was played, as its sheet's scoring needs
    it: a game counted at the Fall its clock ended it with ended by no vote. Whether an
    earlier end was agreed by a vote is left unknown: a TD may have run it by hand, so a
    sheet without a vote on the hub is flagged (``sheet_view``), not scored zero."""
    return Where(board.rnd.number, board.rnd.last_year, scoring_year(board, table))


def board_result(board: Board, table: int, body: SheetIn) -> Scored:
    """Table ``table``'s sheet scored under its round's rules (a ``ResultError`` if it
    cannot be)."""
    return scored_result(board.profile, body, where(board, table))


def board_problem(board: Board, table: int, body: SheetIn, words: Words = ENGLISH
                  ) -> str | None:
    """Why table ``table``'s sheet cannot be scored (None: it can), in ``words``."""
    return problem(board.profile, body, where(board, table), words)


def vote_prefill(row: VoteRow | None, words: Words = ENGLISH) -> SheetVote | None:
    """What a passed vote gives the table's sheet to start from (``Outcome.sheet``: the
    ending, its powers, the year whose chart counts), its headline in ``words``' language."""
    if row is None or row.chart_year is None:
        return None
    proposal = parse_form(row.form, row.proposer)
    if proposal.form == "dias":
        proposal = Proposal("dias", frozenset(p for p in LETTERS if row.centres.get(p, 0) > 0))
    moment = Moment(row.year, "spring" if row.season == "spring" else "fall")
    start = Outcome(True, row.why, row.chart_year, row.voters, proposal, moment).sheet()
    return SheetVote.model_validate({"headline": headline_words(row.headline, words), **start})


def sheet_view(board: Board, table: int, sheet: Sheet | None, seated: dict[str, str],
               replaced: Sequence[Replacement] = (), voted: VoteRow | None = None,
               words: Words = ENGLISH) -> SheetView:
    """``replaced``: the table's replacements this round: a replaced power's line names
    who started and who played it from which phase (``sheet_words``). ``voted``: the
    passed vote that ended the game, whose result an empty sheet starts from. ``words``:
    the language of the phone it is shown on (its text, a replaced power's line too; the
    keys a page compares stay English: the powers' ``name``, ``players``', ``scores``')."""
    profile = board.profile
    seated = {p: sheet_words(n, [r for r in replaced if r.power == p], words)
              for p, n in seated.items()}
    year = scoring_year(board, table)
    system = SYSTEMS[profile.scoring.system] if profile.scoring else None
    scores: dict[str, float] | None = None
    found: list[str] = []
    refused = board_problem(board, table, sheet.body, words) if sheet is not None else None
    if sheet is not None:
        found = ([refused] if refused else []) + warnings(sheet.body, words)
        if year is not None and sheet.body.year > year:
            # the call rule, or the last year, ended the game before: a later Fall is not
            # the one that counts (an earlier one may be: a vote or a solo ends a game)
            found.append(words("the table's clock ended the game with {phase}: {given} "
                               "cannot count", phase=words.phase(year, "fall"),
                               given=words.phase(sheet.body.year, "fall")))
        if voted is not None and voted.chart_year not in (None, sheet.body.year):
            found.append(words("a vote ended the game on the {year} centre chart: the sheet "
                               "says {given}", year=voted.chart_year, given=sheet.body.year))
        if refused is None:
            unvoted = unagreed_end(profile, sheet.body.result(), year) if voted is None \
                else None
            found += [unvoted.in_(words)] if unvoted else []
            done = board_result(board, table, sheet.body)
            scores = named(done.scores)
            # a victory the sheet called a draw: scored as the solo
            found += [note.in_(words) for note in done.notes]
    counts = (words("{phase} centres count", phase=words.phase(year, "fall")) if year
              else words("the last Fall played counts"))
    if voted is not None and voted.chart_year is not None:
        counts = words("{phase} centres count (the vote)",
                       phase=words.phase(voted.chart_year, "fall"))
    allowed = endings(profile, board.rnd.number, board.rnd.last_year) if system else None
    offered, ask_draw = offered_endings(allowed, year, bool(system and system.draws_by_size),
                                        words)
    return SheetView(
        round=board.rnd.number,
        round_title=board.rnd.title or words("Round {number}", number=board.rnd.number),
        table=table, event=profile.name, system=system.name if system else None,
        notes=list(profile.scoring.notes) if profile.scoring else [], year=year,
        counts=counts, draws_by_size=bool(system and system.draws_by_size),
        endings=_endings(board, words),
        powers=[PowerLine(letter=p, name=POWERS[p], said=words.power(p)) for p in LETTERS],
        total_centres=TOTAL_CENTRES, lines=len(seated) or len(LETTERS),
        offered=offered, ask_draw=ask_draw, eliminated_at=0, first_year=FIRST_YEAR,
        latest_year=(allowed.last_year if allowed else None) or LAST_YEAR,
        players={POWERS[p]: n for p, n in sorted(seated.items(), key=lambda i:
                                                   LETTERS.index(i[0]))},
        sheet=sheet.body if sheet else None,
        ending=ending_words(ending_text(sheet.body), words) if sheet else "",
        version=sheet.version if sheet else 0,
        confirmed=[POWERS[p] for p in LETTERS if sheet and p in sheet.confirmed],
        confirmations={POWERS[p]: how for p, how in sorted(
            sheet.confirmations.items(), key=lambda i: LETTERS.index(i[0]))} if sheet else {},
        missing=[_line(p, seated, words) for p in missing_lines(sheet, list(seated))]
        if sheet else [],
        td_without=[_line(p, seated, words) for p in sheet.td_without] if sheet else [],
        status=status(sheet, list(seated)), by_td=bool(sheet and sheet.by_td),
        flags=found, blocked=refused is not None, scores=scores,
        vote=vote_prefill(voted, words) if sheet is None else None,
    )


def _line(power: str, seated: dict[str, str], words: Words = ENGLISH) -> str:
    """"Italy (Bob Smith)": a line of the sheet with its player, as the TD reads it (in
    ``words``, the phone's language)."""
    name = words.power(power)
    return f"{name} ({seated[power]})" if power in seated else name


def offered_endings(rules: Endings | None, year: int | None, by_size: bool,
                    words: Words = ENGLISH) -> tuple[list[EndingChoice], bool]:
    """The endings a sheet offers, the default first, and whether it asks who is in the
    draw. A game whose clock ended it (with Fall ``year``) before a vote could end one
    (``Endings.votes_in``) ended on the clock or by a solo: its centres count, and no draw
    or concession is offered (issue 34: a game called in 1901 offered "A draw of all
    survivors" under "A vote can end a game from 1905")."""
    solo = EndingChoice(ending="solo", words=words("A solo by"))
    if rules is not None and year is not None and not rules.votes_in(year):
        return [EndingChoice(ending="draw", words=words(
            "The game ended on the clock: the {phase} centres count",
            phase=words.phase(year, "fall"))), solo], False
    draw = EndingChoice(ending="draw", words=words("A draw of the powers ticked") if by_size
                        else words("A draw of all survivors"))
    conceded = ([EndingChoice(ending="concession", words=words("Conceded to"))]
                if rules is not None and rules.concession else [])
    return [draw, solo, *conceded], by_size


def _endings(board: Board, words: Words = ENGLISH) -> SheetEndings | None:
    if board.profile.scoring is None:
        return None
    e = endings(board.profile, board.rnd.number, board.rnd.last_year)
    return SheetEndings(draws=e.draws, concession=e.concession,
                        leader_growth=e.leader_growth, votes_from=e.votes_from,
                        last_year=e.last_year, text=endings_text(e, words))


def endings_text(e: Endings, words: Words = ENGLISH) -> str:
    """``Endings.text`` in ``words``' language: the endings under the sheet's form (the
    core's own words, ``Endings.in_``)."""
    return e.in_(words)


def round_sheets(store: Store, board: Board, words: Words = ENGLISH) -> list[SheetView]:
    """Every table of the round (set up, seated or with a sheet), in number order, in
    ``words``' language (``sheet_view``)."""
    sheets = {s.table: s for s in store.sheets(board.rnd.number)}
    seated = players_of(store, board.rnd.number)
    tables = sorted(set(store.tables()) | set(sheets) | set(seated))
    replaced = [r for _, r in store.replacements(board.rnd.number)]
    voted = {v.table: v for v in store.passed_votes(board.rnd.number)}
    return [sheet_view(board, t, sheets.get(t), seated.get(t, {}),
                       [r for r in replaced if r.table == t], voted.get(t), words)
            for t in tables]


def game_scores(store: Store, up_to: int | None = None) -> list[GameScore]:
    """One ``GameScore`` per seated power of every sheet the TD confirmed (rounds up to
    ``up_to``), each scored under its own round's event. A power with no player seated
    has no one to credit and is left out; a replaced power's score is shared
    (``scores_and_notes``)."""
    return scores_and_notes(store, up_to)[0]


def scores_and_notes(store: Store, up_to: int | None = None
                     ) -> tuple[list[GameScore], list[Said]]:
    """``game_scores``, with a replaced power's score split among its players by the
    event's ``replaced_score`` or the TD's shares (``dipclock.replacements.split``), and the
    standings' note of each split (a sentence, said in its reader's language where it is
    shown). The split enters here, where a seat becomes a player's game, so every table
    after it (totals, tie-breaks, top board) takes it unchanged."""
    out: list[GameScore] = []
    notes: list[Said] = []
    records: dict[tuple[int, int, str], list[Replacement]] = {}
    for _, r in store.replacements():
        records.setdefault((r.round, r.table, r.power), []).append(r)
    seating: dict[int, dict[int, dict[str, str]]] = {}
    boards: dict[int, Board | None] = {}
    for sheet in store.sheets():
        if not sheet.td or (up_to is not None and sheet.round > up_to):
            continue
        if sheet.round not in boards:
            boards[sheet.round] = board_of(store, sheet.round)
        board = boards[sheet.round]
        if board is None:
            continue
        try:
            scores = board_result(board, sheet.table, sheet.body).scores
        except ResultError:
            continue  # the TD cannot confirm such a sheet; one confirmed before a rule
            # change is shown flagged on the dashboard, not counted
        if sheet.round not in seating:
            seating[sheet.round] = players_of(store, sheet.round)
        for power, player in seating[sheet.round].get(sheet.table, {}).items():
            game = GameScore(round=sheet.round, player=player, score=scores[power],
                             board=str(sheet.table), power=POWERS[power],
                             centres=sheet.body.centres.get(power),
                             system=board.profile.scoring.system
                             if board.profile.scoring else None)
            mine = records.get((sheet.round, sheet.table, power))
            if not mine:
                out.append(game)
                continue
            games, note = split(game, mine, rules_of(board.profile).replaced_score,
                                sheet.body.year)
            out.extend(games)
            notes.append(note)
    return out, notes


def rules_of(profile: EventProfile) -> StandingsRules:
    return profile.standings or StandingsRules()


def standings_view(store: Store, round_no: int, words: Words = ENGLISH) -> StandingsView:
    """The standings after ``round_no`` under that round's event, with the top board's
    seeding and the best countries; the powers and every line (a problem, mixed systems, a
    bonus, the teams') in ``words``' language: the CSV files keep English."""
    board = board_of(store, round_no)
    if board is None:
        return StandingsView(event="", round=round_no, sheets_final=0, sheets_waiting=[],
                             standings=[], problem=words("no round {number} is set up",
                                                         number=round_no))
    scores, replaced = scores_and_notes(store, round_no)
    rules = rules_of(board.profile)
    waiting = [v.table for v in round_sheets(store, board) if v.status != "final"]
    rows: list[Standing] = []
    problem = ""
    top = None
    try:
        top, rows, countries = ranked(store, rules, scores, round_no, words)
    except StandingsError as exc:
        problem, countries = exc.in_(words), {}
    team_rows, team_problem = team_table(store, rules, scores, board.profile.name, words)
    team_games = [s for s in scores if s.round == rules.team_round]
    return StandingsView(
        event=board.profile.name, round=round_no,
        sheets_final=len({(s.round, s.board) for s in scores if s.round == round_no}),
        sheets_waiting=waiting,
        standings=[StandingRow(rank=s.rank, player=s.player, total=round(s.total, 2),
                               games=s.games, shared=s.shared) for s in rows],
        problem=problem, top_board=top, mixed=mixed_text(scores, words),
        best_countries=[CountryBest(power=_power_said(power, words), winners=[
            Result(player=w.player, round=w.round, table=w.board or "", centres=w.centres,
                   score=round(w.score, 2)) for w in won])
            for power, won in countries.items()],
        teams=team_rows, team_problem=team_problem,
        teams_mixed=mixed_text(team_games, words) if team_rows else "",
        replaced=[note.in_(words) for note in replaced],
        bonuses=[line.in_(words) for line in sit_out_bonuses(store, rules, round_no)[1]])


def _power_said(name: str, words: Words) -> str:
    """A power's English name (as the standings keep it) in ``words``' language."""
    letter = next((p for p in LETTERS if POWERS[p] == name), None)
    return words.power(letter) if letter else name


def ranked(store: Store, rules: StandingsRules, scores: list[GameScore], round_no: int,
           words: Words = ENGLISH
           ) -> tuple[TopBoard | None, list[Standing], dict[str, list[GameScore]]]:
    """After ``round_no``: the top board (its problem in ``words``), the standings (its
    result counted once it is) and the best countries, one computation for the Results
    card and the exports; a ``StandingsError`` as the standings raise it."""
    top = top_board_of(store, rules, scores, round_no, words)
    seated = frozenset(top.players) if top is not None and top.counts else frozenset()
    rows = standings(scores, rules, top_board=seated,
                     top_board_round=top.round if seated and top else None,
                     bonuses=sit_out_bonuses(store, rules, round_no)[0])
    return top, rows, best_countries(scores, rules, solo_boards=solo_boards(store, round_no))


def sit_out_bonuses(store: Store, rules: StandingsRules, round_no: int
                    ) -> tuple[dict[str, float], list[Said]]:
    """The event's bonus to each volunteer the seating sat out, in the rounds to
    ``round_no`` (``dipclock.roster.register.event_bonuses``), and a line for each, said
    in the reader's language."""
    if not rules.sit_out_bonus:
        return {}, []
    seated: dict[int, set[str]] = {}
    for s in store.seating():
        if s.round <= round_no:
            seated.setdefault(s.round, set()).add(s.player)
    people = {pid: p.name for pid, p in store.people()}
    return event_bonuses(people, store.marks(round_no), seated, rules.sit_out_bonus)


def team_table(store: Store, rules: StandingsRules, scores: list[GameScore],
               event: str = "this event", words: Words = ENGLISH
               ) -> tuple[list[TeamRow], str]:
    """The teams ranked by their members' scores in the event's team round; teams set
    under an ``event`` with no team prize are kept and said to be unscored, never hidden
    (why the table is empty in ``words``' language)."""
    teams = store.teams()
    if not teams:
        return [], ""
    if rules.team_round is None:
        return [], teams_note(teams, event, None, words)
    if not any(s.round == rules.team_round for s in scores):
        return [], words("the team round (round {round}) has no confirmed sheet yet",
                         round=rules.team_round)
    try:
        ranked = team_standings(scores, teams, rules)
    except StandingsError as exc:
        return [], exc.in_(words)
    return [TeamRow(rank=t.rank, team=t.team, total=round(t.total, 2), shared=t.shared)
            for t in ranked], ""


def teams_note(teams: dict[str, list[str]], event: str, team_round: int | None,
               words: Words = ENGLISH) -> str:
    """What becomes of the teams set under ``event`` (its standings' ``team_round``; None:
    no team prize), in words for the TD (``words``, their language); "" when no teams are
    set. An event change never drops the teams: the TD is told when the new event will
    not score them."""
    if not teams:
        return ""
    players = words.plural("{n} player", "{n} players", sum(len(m) for m in teams.values()))
    if team_round is None:
        return words.plural("{event} has no team prize: the {n} team set ({players}) is kept, "
                            "but not scored",
                            "{event} has no team prize: the {n} teams set ({players}) are "
                            "kept, but not scored", len(teams), event=event, players=players)
    return words.plural("the {n} team set ({players}) stays: {event}'s team round is round "
                        "{round}",
                        "the {n} teams set ({players}) stay: {event}'s team round is round "
                        "{round}", len(teams), event=event, players=players, round=team_round)


def event_teams_note(store: Store, profile: EventProfile, words: Words = ENGLISH) -> str:
    """``teams_note`` for the teams stored now, under ``profile``'s standings rules."""
    return teams_note(store.teams(), profile.name, rules_of(profile).team_round, words)


def top_board_of(store: Store, rules: StandingsRules, scores: list[GameScore],
                 round_no: int, words: Words = ENGLISH) -> TopBoard | None:
    """The top board: seeded from the rounds before its own by the event's rules; its
    table is the one of that round seating most of the seeds (at least four, so a stand-in
    or two still find it); its result counts once its sheet is confirmed. A tie on its
    last seat is its ``problem``, in ``words``' language."""
    if rules.top_board_round is None or round_no < rules.top_board_round - 1:
        return None
    at = rules.top_board_round
    seeds: list[str] = []
    problem = ""
    try:
        seeds = top_board_seeds(scores, rules)
    except SeatTie as exc:
        problem = exc.in_(words)
    table, players = None, []
    if seeds:
        best = max(players_of(store, at).items(), default=None,
                   key=lambda item: len(set(item[1].values()) & set(seeds)))
        if best is not None and len(set(best[1].values()) & set(seeds)) >= 4:
            table, players = best[0], sorted(best[1].values())
    final = table is not None and any(s.round == at and s.board == str(table) for s in scores)
    return TopBoard(round=at, seeds=seeds, problem=problem, table=table, players=players,
                    counts=final and round_no >= at)


def solo_boards(store: Store, up_to: int) -> frozenset[tuple[int, str]]:
    """The (round, table) of every confirmed sheet that ended in a solo or a concession, as
    the core scores it (a board a power won is a solo whatever its sheet says)."""
    boards: dict[int, Board | None] = {}
    out = set()
    for s in store.sheets():
        if not s.td or s.round > up_to:
            continue
        if s.round not in boards:
            boards[s.round] = board_of(store, s.round)
        board = boards[s.round]
        try:
            won = board is not None and board_result(
                board, s.table, s.body).result.winner is not None
        except ResultError:
            continue
        if won:
            out.add((s.round, str(s.table)))
    return frozenset(out)


def table_text(header: Sequence[str], rows: Iterable[Sequence[object]], note: str = ""
               ) -> str:
    """A CSV file's text: the header line, then the rows; scores with two decimals, names
    that a spreadsheet would run as a formula quoted (``server.csvcells``).

    A ``note`` (totals that mix scoring systems) is a last column, ``note``, on every row:
    the file stays one header and its rows (a comment line would be read as the header),
    the columns before it keep their names and places, and a row copied or sorted away
    from the rest still says it."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    said = [note[:1].upper() + note[1:]] if note else []
    w.writerow([*header, "note"] if note else header)
    w.writerows([*(f"{c:.2f}" if isinstance(c, float) else cell(c) for c in row), *said]
                for row in rows)
    return out.getvalue()


def results_csv(scores: Iterable[GameScore]) -> str:
    """Every confirmed game's scores: ``round,table,power,player,centres,score``."""
    ordered = sorted(scores, key=lambda s: (s.round, int(s.board or 0),
                                            LETTERS.index(s.power[0] if s.power else "A")))
    return table_text(["round", "table", "power", "player", "centres", "score"],
                      ([s.round, s.board, s.power, s.player, s.centres, float(s.score)]
                       for s in ordered))


def best_countries_csv(view: StandingsView) -> str:
    """``power,player,round,table,centres,score``: each power's best result(s)."""
    return table_text(["power", "player", "round", "table", "centres", "score"],
                      ([c.power, r.player, r.round, r.table, r.centres, float(r.score)]
                       for c in view.best_countries for r in c.winners), view.mixed)


def top_board_csv(view: StandingsView) -> str:
    """``seed,player``: the top board's qualifiers, best first (empty before its seeding)."""
    seeds = view.top_board.seeds if view.top_board else []
    return table_text(["seed", "player"], enumerate(seeds, start=1), view.mixed)


def teams_csv(view: StandingsView) -> str:
    """``rank,team,total``, best first."""
    return table_text(["rank", "team", "total"],
                      ([t.rank, t.team, float(t.total)] for t in view.teams), view.teams_mixed)


def standings_csv(view: StandingsView) -> str:
    """``rank,player,total``, best first."""
    return table_text(["rank", "player", "total"],
                      ([r.rank, r.player, float(r.total)] for r in view.standings), view.mixed)

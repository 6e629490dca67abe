"""The World Diplomacy Database's two upload files: ``classification.csv`` and ``boards.csv``.

The WDD keeps the results of the world's face-to-face tournaments; a tournament's organiser
sends it two CSV files, one row per player (``classification.csv``) and one row per player
per board (``boards.csv``). Pure: plain data in (the roster's people, the standings, each
board's result sheet), the two files' text out; the hub gathers the data and writes them.

Sources, and which was followed:

* The WDD's own upload guide (world-diplomacy-database.com) could not be read from here: it
  is in none of the stored pages and the site cannot be reached. Where it is quoted below it
  is as Dipvis quotes it ("User Guide says ...").
* Dipvis (github UEWBot/dipvis), the tournament software TDs use, exported exactly these
  files: ``visualiser/tournament/wdd_views.py`` (``view_classification_csv``,
  ``view_boards_csv``; last at the parent of commit d523c33, which removed it in 2026) and
  ``visualiser/tournament/wdd.py`` (the country codes, the power codes, 8 rounds, 20
  years). Every column below is filled by the rule Dipvis uses, read there, not copied,
  except where dipclock knows more than Dipvis did (HOMONYME; see ``docs/wdd.md``).

The columns, and the rule each follows (``docs/wdd.md`` says the same for a TD):

``classification.csv``, one row per player who played, best first:
  FIRST NAME, NAME: given and family name, as the roster keeps them (NFC).
  HOMONYME: the WDD's number telling apart two people of one name; 1 unless the WDD told
  them apart (Dipvis always writes 1: "User Guide says 'Set to 1'").
  RANK: the place in the final standings; EXAEQUO: how many players share that place
  (1 when alone). Dipvis: "Last of the mandatory ones".
  LOCATION: the WDD's code of the country the player lives in, read from the roster's
  location ("Leeds, United Kingdom": its last part); empty when no country is recognised.
  NATIONALITY: the WDD's code of the player's nationality; ZZZ (the WDD's "n.c.") for a
  country the WDD has no flag for; empty when none is known.
  SCORE: the tournament total. R1..R8: the player's score in each round played, empty in a
  round not played; the WDD's file has eight.
  RK_0AU, PT_0AU, CT_0AU, HEAT_0AU, BOARD_0AU (and 0EN, 0FR, 0GE, 0IT, 0RU, 0TU): for a
  best-country winner, 1, the game's score, its final centres, its round and its board.
  NAME_TOPBOARD ("A"), HEAT_TOPBOARD, BOARD_TOPBOARD, RK_TOPBOARD, CT_TOPBOARD,
  COUNTRY_TOPBOARD: for a top-board player, the board's round, number, the player's place
  on it, final centres and power; the columns only when the event had a top board.
  TEAM, TEAM_SCORE, TEAM_RANK: the player's team, its score and place; only with teams.
``boards.csv``, one row per player per board:
  FIRST NAME, NAME, HOMONYME as above; ROUND; BOARD: its number within the round;
  COUNTRY: the power (0AU...); RANK: the place on the board by score, EXAEQUO: how many
  share it; SCORE; NB_CENTRE: final centres; YEAR_ELIMINATION: the game year (1 for 1901)
  at whose end the power had no centre, empty for a survivor; DRAW: 1 for the winner of a
  solo (or the power conceded to) and 0 for the rest of its board, the size of the draw for
  each power in it and 0 for each not; CT_01..CT_20: the centres at the end of 1901..1920,
  where known.

Both files: UTF-8, comma-separated, CRLF line ends, the header first (Dipvis: Python's
``csv`` module's defaults, served as UTF-8).
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import pycountry

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said
from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS, POWERS, power_letter
from dipclock.scoring.result import FIRST_YEAR, GameResult
from dipclock.sentences import power as said_power
from dipclock.standings.boards import one_per_round
from dipclock.standings.model import GameScore, Standing, TeamStanding, settle
from dipclock.standings.rules import TwoBoards

CLASSIFICATION = "classification.csv"
BOARDS = "boards.csv"
#: Dipvis serves both files as Django's default, UTF-8, without a byte-order mark.
ENCODING = "utf-8"
#: The round columns R1..R8 (Dipvis's WDD_MAX_ROUNDS).
MAX_ROUNDS = 8
#: The centre-count columns CT_01..CT_20, game years 1901..1920 (Dipvis's WDD_MAX_YEAR).
MAX_YEAR = 20
#: The WDD's country code shown as "n.c." (not communicated).
UNKNOWN_COUNTRY = "ZZZ"
#: NAME_TOPBOARD: the top board's name; Dipvis writes "A" ("This seems to be arbitrary").
TOP_BOARD_NAME = "A"

#: ISO 3166-1 alpha-2 -> the WDD's own country code (three letters for the older countries,
#: the ISO code for the later ones): the WDD's list of flags
#: (world-diplomacy-database.com/php/admin/affiche_drapeaux_dispo.php, as Dipvis's wdd.py
#: read it on 21 February 2024). A country not in it is UNKNOWN_COUNTRY.
WDD_COUNTRY: Mapping[str, str] = {
    "AD": "AD", "AO": "AO", "AR": "ARG", "AT": "AUT", "AU": "AUS", "BE": "BEL", "BF": "BF",
    "BI": "BI", "BJ": "BEN", "BR": "BRE", "BW": "BOT", "BY": "BLR", "CA": "CAN", "CD": "RDC",
    "CF": "CF", "CG": "CG", "CH": "SUI", "CI": "CI", "CM": "CAM", "CN": "CHI", "CV": "CV",
    "CZ": "CZE", "DE": "ALL", "DJ": "DJI", "DK": "DAN", "DZ": "ALG", "EG": "EGY", "ER": "ER",
    "ES": "ESP", "ET": "ETH", "FI": "FIN", "FR": "FRA", "GA": "GAB", "GB": "ANG", "GE": "GEO",
    "GH": "GH", "GM": "GM", "GN": "GU", "GQ": "GQ", "GR": "GRE", "GW": "GW", "HU": "HON",
    "IE": "IRL", "IL": "ISR", "IN": "IN", "IR": "IRN", "IS": "ISL", "IT": "ITA", "JP": "JAP",
    "KE": "KEN", "KM": "COM", "KR": "COR", "KZ": "KAZ", "LB": "LB", "LI": "LI", "LR": "LR",
    "LS": "LS", "LU": "LUX", "LY": "LY", "MA": "MAR", "MC": "MON", "MD": "MOL", "MG": "MG",
    "ML": "ML", "MR": "MR", "MT": "MT", "MU": "MU", "MW": "MW", "MX": "MEX", "MZ": "MZ",
    "NA": "NA", "NE": "NE", "NG": "NG", "NL": "HOL", "NO": "NGE", "NZ": "NZE", "PH": "PHI",
    "PK": "PAK", "PL": "POL", "PT": "POR", "RO": "ROU", "RU": "RUS", "RW": "RW", "SC": "SEY",
    "SD": "SD", "SE": "SUE", "SG": "SG", "SL": "SL", "SM": "SM", "SN": "SN", "SO": "SO",
    "ST": "ST", "SY": "SY", "SZ": "SZ", "TD": "TD", "TG": "TG", "TH": "THA", "TJ": "TJ",
    "TN": "TUN", "TR": "TUR", "TZ": "TZ", "UA": "UKR", "UG": "UG", "US": "USA", "VN": "VN",
    "ZA": "SA", "ZM": "ZM", "ZW": "ZW",
}
#: What people write for a country that ISO's names and codes do not find (Dipvis's
#: SPECIAL_CASE_COUNTRIES has the first two).
_CALLED = {"UK": "GB", "USA": "US", "ENGLAND": "GB", "SCOTLAND": "GB", "WALES": "GB"}


class WddError(DipclockError, ValueError):
    """Data the WDD's files cannot hold, with one line naming what to correct."""


class Person(Protocol):
    """What the files need of a person: the roster's ``Person`` has these attributes.

    ``nationality``: an ISO 3166-1 alpha-2 code, "" or None when not known; ``location``:
    where the player lives, as typed ("Leeds, United Kingdom"), "" or None."""

    @property
    def given(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def homonym(self) -> int: ...
    @property
    def nationality(self) -> str | None: ...
    @property
    def location(self) -> str | None: ...


@dataclass(frozen=True)
class Board:
    """One board of one round as its result sheet ended it.

    ``players`` and ``scores``: each seated power's player (the name the standings use) and
    score, by power letter or name; a power no one played (civil disorder from the start)
    is left out and has no row. ``ranks``: each power's place on the board where the event
    gave them; None ranks by score, powers level sharing the place (as Dipvis does).
    ``counts``: each power's centres at the end of each game year, where known."""

    round: int
    board: str
    result: GameResult
    players: Mapping[str, str]
    scores: Mapping[str, float]
    ranks: Mapping[str, int] | None = None
    counts: Mapping[str, Mapping[int, int]] = field(default_factory=dict)

    @property
    def where(self) -> Said:
        return said("round {round}, board {board}", round=self.round, board=self.board)


@dataclass(frozen=True)
class Event:
    """Everything the two files hold, as the hub computes it.

    ``people``: the roster by the name the standings use (``Person.name``); ``standings``
    and ``scores`` as ``dipclock.standings.standings`` took and gave them (``two_boards``:
    the event's rule, to take one score per round); ``best``: ``best_countries``' result;
    ``top_board``: the top board's (round, board), None without one; ``teams``: each
    player's team and ``team_standings`` the teams' table, empty without teams."""

    people: Mapping[str, Person]
    standings: Sequence[Standing]
    scores: Sequence[GameScore]
    boards: Sequence[Board]
    best: Mapping[str, Sequence[GameScore]] = field(default_factory=dict)
    top_board: tuple[int, str] | None = None
    teams: Mapping[str, str] = field(default_factory=dict)
    team_standings: Sequence[TeamStanding] = ()
    two_boards: TwoBoards = "refuse"


def power_code(power: str) -> str:
    """The WDD's code of a power: 0 (the standard map) and its English name's first two
    letters, "0AU" for Austria (Dipvis's ``power_name_to_wdd``)."""
    return "0" + POWERS[power_letter(power)][:2].upper()


def country_code(iso: str | None, who: str = "") -> str:
    """The WDD's code for an ISO 3166-1 alpha-2 code: "" for none, UNKNOWN_COUNTRY for a
    country the WDD has no flag for; a nationality that is no two-letter code is a
    ``WddError`` naming ``who``."""
    code = (iso or "").strip().upper()
    if not code:
        return ""
    if len(code) != 2 or not code.isalpha() or not code.isascii():
        if who:
            raise WddError(said("{who}: nationality {code} is not a two-letter country code "
                                "(FR, GB, US...)", who=who, code=repr(iso)))
        raise WddError(said("nationality {code} is not a two-letter country code (FR, GB, "
                            "US...)", code=repr(iso)))
    return WDD_COUNTRY.get(code, UNKNOWN_COUNTRY)


def location_code(location: str | None) -> str:
    """The WDD's code of the country a location names in its last part ("Leeds, United
    Kingdom", "Paris, FR", "Germany"), by ISO's names and codes (pycountry: the well-kept
    copy of the ISO list, which the roster checks nationalities against too); "" when no
    country the WDD knows is recognised: a town alone tells no country (Dipvis leaves
    LOCATION empty then too)."""
    text = spelling(location or "").rpartition(",")[2].strip()
    if not text:
        return ""
    iso = _CALLED.get(text.upper())
    if iso is None:
        try:
            iso = str(pycountry.countries.lookup(text).alpha_2)
        except LookupError:
            return ""
    return WDD_COUNTRY.get(iso, "")


def classification_csv(event: Event) -> str:
    """``classification.csv``: one row per player in the standings, best first."""
    people = _people(event.people)
    numbers = board_numbers(event.boards)
    powers = [power_code(p) for p in LETTERS]
    header = ["FIRST NAME", "NAME", "HOMONYME", "RANK", "EXAEQUO", "LOCATION", "NATIONALITY",
              "SCORE", *(f"R{n}" for n in range(1, MAX_ROUNDS + 1))]
    for code in powers:
        header += [f"RK_{code}", f"PT_{code}", f"CT_{code}", f"HEAT_{code}", f"BOARD_{code}"]
    top = _top_board(event, numbers) if event.top_board is not None else None
    if top is not None:
        header += ["NAME_TOPBOARD", "HEAT_TOPBOARD", "BOARD_TOPBOARD", "RK_TOPBOARD",
                   "CT_TOPBOARD", "COUNTRY_TOPBOARD"]
    if event.teams:
        header += ["TEAM", "TEAM_SCORE", "TEAM_RANK"]
    shared = Counter(s.rank for s in event.standings)
    rounds = _round_scores(event.scores, event.two_boards)
    best = _best(event, numbers)
    teams = {t.team: t for t in event.team_standings}
    rows = []
    for s in event.standings:
        person = _person(people, s.player)
        row = _names(person) | {
            "RANK": str(s.rank), "EXAEQUO": str(shared[s.rank]),
            "LOCATION": location_code(person.location),
            "NATIONALITY": country_code(person.nationality, repr(s.player)),
            "SCORE": number(s.total)}
        row |= {f"R{r}": number(score) for r, score in rounds.get(s.player, {}).items()}
        row |= best.get(s.player, {})
        if top is not None:
            row |= top.get(s.player, {})
        team = event.teams.get(s.player)
        if team is not None:
            if team not in teams:
                raise WddError(said("{player} is in team {team}, which the teams' table does "
                                    "not have", player=repr(s.player), team=repr(team)))
            row |= {"TEAM": team, "TEAM_SCORE": number(teams[team].total),
                    "TEAM_RANK": str(teams[team].rank)}
        rows.append(row)
    return _csv(header, rows)


def boards_csv(event: Event) -> str:
    """``boards.csv``: one row per seated power per board, by round, board and power."""
    people = _people(event.people)
    numbers = board_numbers(event.boards)
    header = ["FIRST NAME", "NAME", "HOMONYME", "ROUND", "BOARD", "COUNTRY", "RANK", "EXAEQUO",
              "SCORE", "NB_CENTRE", "YEAR_ELIMINATION", "DRAW",
              *(f"CT_{n:02d}" for n in range(1, MAX_YEAR + 1))]
    rows = []
    for board in sorted(event.boards, key=lambda b: (b.round, numbers[b.round, b.board])):
        seated = _seated(board)
        ranks = _board_ranks(board, seated)
        shared = Counter(ranks.values())
        result = board.result
        for letter, player in seated.items():
            row = _names(_person(people, player)) | {
                "ROUND": str(board.round), "BOARD": str(numbers[board.round, board.board]),
                "COUNTRY": power_code(letter), "RANK": str(ranks[letter]),
                "EXAEQUO": str(shared[ranks[letter]]),
                "SCORE": number(_score(board, letter)),
                "NB_CENTRE": str(result.centres[letter]),
                "YEAR_ELIMINATION": (str(_game_year(result.eliminated[letter]))
                                     if letter in result.eliminated else ""),
                "DRAW": _draw(result, letter)}
            row |= {f"CT_{_game_year(year):02d}": str(count)
                    for year, count in _counts(board, letter).items()}
            rows.append(row)
    return _csv(header, rows)


def wdd_files(event: Event) -> dict[str, bytes]:
    """Both files by name, encoded as the WDD takes them: write each as it is (binary), so
    that no platform changes its line ends."""
    return {CLASSIFICATION: classification_csv(event).encode(ENCODING),
            BOARDS: boards_csv(event).encode(ENCODING)}


def board_numbers(boards: Iterable[Board]) -> dict[tuple[int, str], int]:
    """Each board's number within its round, as the WDD's BOARD columns take it: the
    boards' own names where a round's are all whole numbers ("3": 3), else 1, 2, ... in
    the order given (Dipvis: "What we really want is number within the round")."""
    by_round: dict[int, list[str]] = {}
    for b in boards:
        names = by_round.setdefault(b.round, [])
        if b.board in names:
            raise WddError(said("{where} is given twice", where=b.where))
        names.append(b.board)
    out: dict[tuple[int, str], int] = {}
    for round_, names in by_round.items():
        whole = all(n.strip().isdigit() and n.strip().isascii() for n in names)
        numbered = [int(n) for n in names] if whole else list(range(1, len(names) + 1))
        if whole and len(set(numbered)) != len(numbered):
            numbered = list(range(1, len(names) + 1))  # "3" and "03": number them afresh
        out |= {(round_, n): k for n, k in zip(names, numbered, strict=True)}
    return out


def number(value: float) -> str:
    """A score as the files write it: a point for decimals, at most nine of them, no
    trailing zeros, no exponent ("57", "12.5", "0.00001")."""
    if not math.isfinite(value):
        raise WddError(said("the score {value} is not a number", value=str(value)))
    return f"{settle(value):.9f}".rstrip("0").rstrip(".")


def _csv(header: Sequence[str], rows: Iterable[Mapping[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _people(people: Mapping[str, Person]) -> dict[str, Person]:
    """The roster by ``name_key``: the standings' "José" finds the roster's "JOSÉ"."""
    return {name_key(name): p for name, p in people.items()}


def _person(people: Mapping[str, Person], player: str) -> Person:
    person = people.get(name_key(player))
    if person is None:
        raise WddError(said("{player} has results but is not on the roster: add them to it",
                            player=repr(player)))
    if isinstance(person.homonym, bool) or not isinstance(person.homonym, int) \
            or person.homonym < 1:
        raise WddError(said("{player}: homonym {homonym} is not a whole number from 1",
                            player=repr(player), homonym=repr(person.homonym)))
    return person


def _names(person: Person) -> dict[str, str]:
    return {"FIRST NAME": spelling(person.given), "NAME": spelling(person.family),
            "HOMONYME": str(person.homonym)}


def _round_scores(scores: Sequence[GameScore], rule: TwoBoards) -> dict[str, dict[int, float]]:
    """Each player's one score in each round played (two boards by the event's rule)."""
    out: dict[str, dict[int, float]] = {}
    for s in one_per_round(scores, rule):
        if s.round > MAX_ROUNDS:
            raise WddError(said("{player} has a score in round {round}: the WDD's "
                                "classification file has {most} rounds (R1 to R{most})",
                                player=repr(s.player), round=s.round, most=MAX_ROUNDS))
        out.setdefault(s.player, {})[s.round] = s.score
    return out


def _board_of(boards: Sequence[Board], round_: int, board: str | None, what: Said) -> Board:
    if board is None:
        raise WddError(said("{what}: the result in round {round} names no board", what=what,
                            round=round_))
    found = next((b for b in boards if b.round == round_ and b.board == board), None)
    if found is None:
        raise WddError(said("{what}: round {round}, board {board} is not among the boards",
                            what=what, round=round_, board=board))
    return found


def _best(event: Event, numbers: Mapping[tuple[int, str], int]) -> dict[str, dict[str, str]]:
    """The best-country columns of each winner: rank 1, the game's score, centres, round
    and board; a player who won one power's award twice is shown with the first game."""
    out: dict[str, dict[str, str]] = {}
    for power, winners in event.best.items():
        code = power_code(power)
        for s in sorted(winners, key=lambda s: s.round):
            cells = out.setdefault(s.player, {})
            if f"RK_{code}" in cells:
                continue
            board = _board_of(event.boards, s.round, s.board,
                              said("best {power}", power=said_power(power_letter(power))))
            centres = s.centres if s.centres is not None else \
                board.result.centres[power_letter(power)]
            cells |= {f"RK_{code}": "1", f"PT_{code}": number(s.score),
                      f"CT_{code}": str(centres), f"HEAT_{code}": str(s.round),
                      f"BOARD_{code}": str(numbers[board.round, board.board])}
    return out


def _top_board(event: Event, numbers: Mapping[tuple[int, str], int]) -> dict[str, dict[str, str]]:
    """The top-board columns of each of its players."""
    assert event.top_board is not None
    round_, name = event.top_board
    board = _board_of(event.boards, round_, name, said("the top board"))
    seated = _seated(board)
    ranks = _board_ranks(board, seated)
    return {player: {"NAME_TOPBOARD": TOP_BOARD_NAME, "HEAT_TOPBOARD": str(round_),
                     "BOARD_TOPBOARD": str(numbers[round_, name]),
                     "RK_TOPBOARD": str(ranks[letter]),
                     "CT_TOPBOARD": str(board.result.centres[letter]),
                     "COUNTRY_TOPBOARD": power_code(letter)}
            for letter, player in seated.items()}


def _seated(board: Board) -> dict[str, str]:
    """Power letter -> player, in the powers' order; a power or a player twice, or a
    seated power without a score, is an error."""
    out: dict[str, str] = {}
    for power, player in board.players.items():
        letter = _letter(power, board)
        if letter in out:
            raise WddError(said("{where}: {power} is given twice", where=board.where,
                                power=said_power(letter)))
        if any(name_key(p) == name_key(player) for p in out.values()):
            raise WddError(said("{where}: {player} plays two powers", where=board.where,
                                player=repr(player)))
        out[letter] = player
    for letter in out:
        _score(board, letter)
    return {p: out[p] for p in LETTERS if p in out}


def _letter(power: str, board: Board) -> str:
    try:
        return power_letter(power)
    except ValueError as exc:
        raise WddError(said("{where}: {error}", where=board.where, error=exc)) from None


def _score(board: Board, letter: str) -> float:
    for power, score in board.scores.items():
        if _letter(power, board) == letter:
            return score
    raise WddError(said("{where}: {power} has a player but no score", where=board.where,
                        power=said_power(letter)))


def _board_ranks(board: Board, seated: Mapping[str, str]) -> dict[str, int]:
    """Each seated power's place on the board: the event's where given, else by score
    (1 + the powers scoring more: 1, 2, 2, 4)."""
    if board.ranks is not None:
        given = {_letter(p, board): r for p, r in board.ranks.items()}
        for letter in seated:
            rank = given.get(letter)
            if rank is None or isinstance(rank, bool) or not 1 <= rank <= len(seated):
                raise WddError(said("{where}: {power}'s place on the board ({rank}) is not a "
                                    "whole number from 1 to {most}", where=board.where,
                                    power=said_power(letter), rank=repr(rank),
                                    most=len(seated)))
        return {p: given[p] for p in seated}
    scores = {p: settle(_score(board, p)) for p in seated}
    return {p: 1 + sum(1 for q in seated if scores[q] > scores[p]) for p in seated}


def _draw(result: GameResult, letter: str) -> str:
    """DRAW: 1 for the winner (a solo, or the power the game was conceded to), 0 for the
    rest of its board; the draw's size for a power in it, 0 for one out of it."""
    if result.winner is not None:
        return "1" if letter == result.winner else "0"
    drawing = result.drawing
    return str(len(drawing)) if letter in drawing else "0"


def _game_year(year: int) -> int:
    """1905 -> 5: the WDD's years count from the game's first (Dipvis: year % 1900)."""
    return year - (FIRST_YEAR - 1)


def _counts(board: Board, letter: str) -> dict[int, int]:
    """A power's known centre counts by year, checked: years the CT_ columns hold and the
    game reached, 0 to 34, the last year's agreeing with the sheet."""
    counts: Mapping[int, int] | None = None
    for power, by_year in board.counts.items():
        if _letter(power, board) == letter:
            counts = by_year
    if not counts:
        return {}
    name = said_power(letter)
    last = FIRST_YEAR - 1 + MAX_YEAR
    for year, count in sorted(counts.items()):
        if not FIRST_YEAR <= year <= board.result.year:
            raise WddError(said("{where}: {power}'s centres for {year}: a year from {first} "
                                "to the game's last, {last}", where=board.where, power=name,
                                year=year, first=FIRST_YEAR, last=board.result.year))
        if year > last:
            raise WddError(said("{where}: {power}'s centres for {year}: the WDD's file has "
                                "the years {first} to {last} (CT_01 to CT_{most})",
                                where=board.where, power=name, year=year, first=FIRST_YEAR,
                                last=last, most=MAX_YEAR))
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 34:
            raise WddError(said("{where}: {power}'s centres for {year} ({count}): a whole "
                                "number from 0 to 34", where=board.where, power=name,
                                year=year, count=repr(count)))
    final = counts.get(board.result.year)
    if final is not None and final != board.result.centres[letter]:
        raise WddError(said("{where}: {power} has {final} centres in {year} by year but "
                            "{sheet} on the result sheet", where=board.where, power=name,
                            final=final, year=board.result.year,
                            sheet=board.result.centres[letter]))
    return dict(sorted(counts.items()))


__all__ = [
    "BOARDS",
    "CLASSIFICATION",
    "ENCODING",
    "MAX_ROUNDS",
    "MAX_YEAR",
    "UNKNOWN_COUNTRY",
    "WDD_COUNTRY",
    "Board",
    "Event",
    "Person",
    "WddError",
    "board_numbers",
    "boards_csv",
    "classification_csv",
    "country_code",
    "location_code",
    "number",
    "power_code",
    "wdd_files",
]

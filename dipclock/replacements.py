"""A player leaves mid-game: their power goes to a replacement player, or into civil
disorder, from a phase the TD names; and how that game's score is shared.

What the texts say (the event rule texts the project works from):

- wdc2006 21 and graduated20 ("Loss of a player"): "If a player withdraws from the game,
  then the Tournament Director may decide to allow the power go into civil disorder, or to
  assign a new player to play the position". Neither says who scores the game: the default
  is ``original`` (all to the player who started), the TD may give shares instead.
- wdc2019 II: "a player who played that game will be allowed to make the remplacement ...
  The tournament director will decide how many points will get each player": ``td``.
- wdc2003: "A player who vacates a position without perpetual orders will be replaced by a
  player drafted by the tournament director. Unless the absence is of a nature involving
  extenuating circumstances ... the replacement player will receive the full score for the
  game": ``replacement`` (the TD's shares stand for extenuating circumstances).
- wdc2018: "the position may be filled or left in civil disorder, at the discretion of the
  TD. Scoring of this position will be at the discretion of the TD": ``td``; and "A player
  eliminated from the game may not play another position in the same game as a
  replacement" (``StandingsRules.replacement_from_game``).

Pure: the seating, the records and the event's rule in; checks, the holder of a power at a
phase and each player's share out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from dipclock import sentences
from dipclock.errors import DipclockError
from dipclock.events import FIRST_YEAR, EventProfile
from dipclock.i18n import ENGLISH, N_, Said, Words, said
from dipclock.schedule import PhaseRef, Schedule
from dipclock.standings.model import GameScore
from dipclock.standings.rules import ReplacedScore
from dipclock.timeline import table_clock

#: what the table's screen and the sheet say of a power no one plays any more (a value
#: compared too: it is said in the reader's language where it is shown)
CIVIL_DISORDER = N_("civil disorder")

#: the words of each rule in the standings' note
RULE_WORDS: dict[str, str] = {
    "original": N_("the event gives the game to the player who started"),
    "replacement": N_("the event gives the game to the replacement player"),
    "split_by_years": N_("shared by the years each played, as the event says"),
    "td": N_("as the TD decided"),
}


class ReplacementError(DipclockError, ValueError):
    """A replacement that cannot be, with one line saying why."""


@dataclass(frozen=True)
class Replacement:
    """From ``phase`` on, ``player`` plays ``power`` (a letter) at ``table`` of ``round``;
    ``player`` None: the power is in civil disorder. ``share``: the part of the game's score
    (0 to 100 %) the TD gives this record's player, where the TD decides (None: the event's
    rule); the player who started keeps what the records do not give away."""

    round: int
    table: int
    power: str
    phase: PhaseRef
    player: str | None
    share: float | None = None

    @property
    def who(self) -> str:
        return self.player if self.player is not None else CIVIL_DISORDER

    @property
    def title(self) -> str:
        """"Germany at round 2 table 4" """
        return str(self.said_title)

    @property
    def said_title(self) -> Said:
        """``title`` in its reader's language."""
        return said("{power} at round {round} table {table}",
                    power=sentences.power(self.power), round=self.round, table=self.table)

    @property
    def said_who(self) -> Said | str:
        """``who``: the player's name as written, or civil disorder in the reader's
        language."""
        return self.player if self.player is not None else Said(CIVIL_DISORDER)

    @property
    def said_phase(self) -> Said:
        return sentences.phase(self.phase.year, self.phase.season)


def check(new: Replacement, records: Iterable[Replacement],
          seated: Mapping[int, Mapping[str, str]], *, rule: ReplacedScore = "original",
          last_year: int | None = None, two_boards: bool = False,
          from_game: bool = True) -> None:
    """Refuse ``new`` (``ReplacementError``, one line) unless: its power was seated at its
    table (``seated``: the round's table -> power letter -> player); its phase is inside the
    game (after Spring 1901, by ``last_year`` where the event has one); no other record of
    that power starts at that phase (one player per power per phase); its player is not
    seated at another table of the round unless the event allows two boards, nor at this
    table's game unless the event allows a player of the game to replace (``from_game``:
    wdc2018 does not); and a share
    for a player where the event leaves the score to the TD (``td``; civil disorder scores
    for no one), shares adding to at most 100 %."""
    where = new.said_title
    if new.power not in seated.get(new.table, {}):
        raise ReplacementError(said("{where}: no one was seated as {power} there",
                                    where=where, power=sentences.power(new.power)))
    if new.phase.index == 0:
        raise ReplacementError(said("{where}: {phase} is the game's start; seat the new "
                                    "player in the seating instead", where=where,
                                    phase=sentences.phase(FIRST_YEAR, "spring")))
    if last_year is not None and new.phase.year > last_year:
        raise ReplacementError(said("{where}: the game ends in {year}, before {phase}",
                                    where=where, year=last_year, phase=new.said_phase))
    if new.share is not None and not (math.isfinite(new.share) and 0 <= new.share <= 100):
        raise ReplacementError(said("{where}: a share is 0 to 100 %, not {share}",
                                    where=where, share=format(new.share, "g")))
    if new.player is not None and not new.player.strip():
        raise ReplacementError(said("{where}: no player named (or civil disorder)",
                                    where=where))
    records = list(records)
    mine = [r for r in records
            if (r.round, r.table, r.power) == (new.round, new.table, new.power)]
    same = next((r for r in mine if r.phase == new.phase), None)
    if same is not None:
        raise ReplacementError(said("{where}: {who} already plays it from {phase}; undo that "
                                    "first", where=where, who=same.said_who,
                                    phase=new.said_phase))
    if new.player is not None:
        starter = seated[new.table][new.power]
        before = holder(starter, mine, new.phase)
        if before == new.player:
            raise ReplacementError(said("{where}: {player} already plays it then",
                                        where=where, player=new.player))
        played = [p for p, who in seated[new.table].items() if who == new.player] + [
            r.power for r in records if (r.round, r.table) == (new.round, new.table)
            and r.player == new.player and r.power != new.power]
        if played and not from_game:
            raise ReplacementError(said("{where}: {player} played {power} in this game, and "
                                        "the event does not let a player of the game take "
                                        "another position", where=where, player=new.player,
                                        power=sentences.power(played[0])))
        for table, powers in seated.items():
            if table != new.table and new.player in powers.values() and not two_boards:
                raise ReplacementError(said("{where}: {player} plays at table {table} this "
                                            "round, and the event does not allow two boards",
                                            where=where, player=new.player, table=table))
        elsewhere = next((r for r in records if r.round == new.round and r.table != new.table
                          and r.player == new.player), None)
        if elsewhere is not None and not two_boards:
            raise ReplacementError(said("{where}: {player} already replaces a player at "
                                        "table {table} this round, and the event does not "
                                        "allow two boards", where=where, player=new.player,
                                        table=elsewhere.table))
    if rule == "td" and new.share is None and new.player is not None:
        raise ReplacementError(said("{where}: the event leaves the score to the TD: give "
                                    "{player}'s share (0 to 100 %)", where=where,
                                    player=new.who))
    given = sum(r.share or 0 for r in [*mine, new])
    if given > 100:
        raise ReplacementError(said("{where}: the shares given add up to {share} %, more "
                                    "than the game", where=where, share=format(given, "g")))


def holder(starter: str, records: Iterable[Replacement], phase: PhaseRef | None) -> str:
    """Who plays the power at ``phase`` (None: the game has not started): the player who
    started, or the record's player (or ``CIVIL_DISORDER``) from its phase on."""
    if phase is None:
        return starter
    started = [r for r in records if r.phase.index <= phase.index]
    return max(started, key=lambda r: r.phase.index).who if started else starter


def sheet_words(starter: str, records: Iterable[Replacement], words: Words = ENGLISH
                ) -> str:
    """A sheet's line for a power: who started and who played it from which phase ("Ann
    Start, then Zoe Late from Fall 1903"): the line is signed for the whole game. In
    ``words``' language (the phone's)."""
    line = starter
    for r in sorted(records, key=lambda r: r.phase.index):
        line = words("{before}, then {player} from {phase}", before=line,
                     player=words(CIVIL_DISORDER) if r.player is None else r.player,
                     phase=words.phase(r.phase.year, r.phase.season))
    return line


def begun(profile: EventProfile, schedule: Schedule, table: int | None,
          now: datetime) -> PhaseRef | None:
    """The last phase that has opened at ``table`` by ``now`` on its own clock (None: the
    game has not started): a replacement "from Fall 1903" plays from its opening."""
    opened = [p.ref for p in table_clock(profile, schedule, table).timetable().phases
              if p.opens <= now]
    return opened[-1] if opened else None


def players_now(players: Mapping[str, str], upcoming: Iterable[tuple[PhaseRef, str, str]],
                phase: PhaseRef | None) -> dict[str, str]:
    """``players`` (as the hub last named them) with each replacement whose phase has
    begun (``upcoming``: (phase, power letter, player)), the latest of a power's winning:
    a table's clock names who plays now without waiting for the hub."""
    out = dict(players)
    if phase is None:
        return out
    for ref, power, player in sorted(upcoming, key=lambda u: u[0].index):
        if ref.index <= phase.index:
            out[power] = player
    return out


def players_at(seated: Mapping[str, str], records: Iterable[Replacement],
               phase: PhaseRef | None) -> dict[str, str]:
    """A table's players by power at ``phase``: the seated ones, each replaced power named
    by who plays it from then (``records``: this table's of this round)."""
    records = list(records)
    return {p: holder(name, [r for r in records if r.power == p], phase)
            for p, name in seated.items()}


def shares(starter: str, records: Sequence[Replacement], rule: ReplacedScore,
           end_year: int) -> tuple[list[tuple[str, float]], str]:
    """Each player's part (0 to 1) of one replaced power's score, the starter first, and
    how it was decided (``RULE_WORDS``). A record's own share overrides the event's rule
    for the whole power: the TD decided. ``end_year``: the game's last Fall, for
    ``split_by_years``. Civil disorder scores for no one."""
    chain = sorted(records, key=lambda r: r.phase.index)
    if any(r.share is not None for r in chain):
        rule = "td"
    parts: dict[str, float] = {starter: 0.0}
    if rule == "original":
        parts[starter] = 1.0
    elif rule == "replacement":
        last = next((r.player for r in reversed(chain) if r.player is not None), starter)
        parts[last] = 1.0
    elif rule == "td":
        for r in chain:
            if r.player is not None:
                parts[r.player] = parts.get(r.player, 0.0) + (r.share or 0) / 100
        parts[starter] += 1 - sum(r.share or 0 for r in chain) / 100
    else:
        end = PhaseRef(year=max(end_year, FIRST_YEAR), season="fall").index + 1
        marks = [(0, starter), *((r.phase.index, r.player) for r in chain)]
        for (since, who), (until, _) in zip(marks, [*marks[1:], (end, None)], strict=True):
            if who is not None:
                parts[who] = parts.get(who, 0.0) + max(0, min(until, end) - since) / end
    return [(p, max(0.0, share)) for p, share in parts.items()], RULE_WORDS[rule]


def split(score: GameScore, records: Sequence[Replacement], rule: ReplacedScore,
          end_year: int) -> tuple[list[GameScore], Said]:
    """``score`` (the starter's game) as each player's share, and the standings' note
    ("Germany at round 2 table 4: 60 % to Ann, 40 % to Zoe, as the TD decided", said in
    its reader's language where it is shown). The player
    with the largest share keeps the board, power and centres (for tie-breaks and best
    country; the starter on a tie); the others' shares are scores of no board, since a
    board seats one player a power. A share of 0 is no game at all."""
    parts, how = shares(score.player, records, rule, end_year)
    keeper = max(parts, key=lambda p: p[1])[0]
    out = [replace(score, player=who, score=score.score * part) if who == keeper
           else replace(score, player=who, score=score.score * part, board=None, power=None,
                        centres=None, shared=True)
           for who, part in parts if part > 0]
    given: list[Said | str] = [said("{share} % to {player}", share=format(round(part * 100), "g"),
                                    player=who) for who, part in parts]
    lost = 1 - sum(part for _, part in parts)
    if lost > 1e-9:
        given.append(said("{share} % to civil disorder (no one)",
                          share=format(round(lost * 100), "g")))
    # ``how`` is a RULE_WORDS entry: the catalogue has it (N_)
    return out, said("{title}: {shares}, {how}",
                     title=records[0].said_title if records else score.player,
                     shares=sentences.listed(*given), how=Said(how))


__all__ = ["CIVIL_DISORDER", "RULE_WORDS", "ReplacedScore", "Replacement",
           "ReplacementError", "begun", "check", "holder", "players_at", "players_now",
           "shares", "sheet_words", "split"]

"""Event profiles: a tournament's clock and penalty rules, as data.

A profile is everything the clock needs to know about an event and nothing it can
work out for itself. The five events dipclock ships are built here; a TD's own event
is the same model read from TOML (see ``examples/events/my-open.toml``), so a built-in
id and a file path are accepted wherever an event is asked for.

Pure: no file is read here. ``parse_event_toml`` takes the text; the shell reads it.
"""

from __future__ import annotations

import re
import tomllib
from datetime import time
from typing import Annotated, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, LANGUAGES, N_, Words, check_terms, said
from dipclock.scoring.result import SOLO_CENTRES
from dipclock.scoring.rules import ScoringRules
from dipclock.standings.rules import StandingsRules
from dipclock.validation import describe
from dipclock.votes.rules import VoteRules

FIRST_YEAR = 1901
LAST_YEAR = 2100  # far past any game; keeps every date arithmetic in range
Year = Annotated[int, Field(ge=FIRST_YEAR, le=LAST_YEAR)]

PenaltyModel = Literal["yellow_red", "graduated", "leniency", "warning", "referee", "nmr"]
#: How the TD's call ends a game (``call_ends``):
#: ``last_fall``: at the last Fall deadline before the call, the start of an adjustment
#: phase (wdc2003: the TD calls "only at the beginning of an adjustments phase");
#: ``at_call``: at the call itself, whatever the phase, the last completed Fall's centres
#: scoring (wdc2018: "games will end immediately, regardless of which phase");
#: ``last_deadline``: at the last deadline before the call, Spring or Fall (the default).
CallEnds = Literal["last_fall", "at_call", "last_deadline"]
#: Each call rule in words, the only ones (``dipclock events``, ``dipclock plan``; where a
#: given game ends is ``dipclock.callwords``)
CALL_RULES: dict[CallEnds, str] = {
    "last_fall": N_("a call ends games after the last Fall before it"),
    "at_call": N_("a call ends games at once"),
    "last_deadline": N_("a call ends games after the last deadline before it"),
}


class _Strict(BaseModel):
    """Frozen, and a misspelt key is an error rather than silently ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class PhaseLengths(_Strict):
    """Spring and Fall lengths in minutes, from ``from_year`` until the next rule."""

    from_year: Year = FIRST_YEAR
    spring: Annotated[float, Field(gt=0, le=240)]
    fall: Annotated[float, Field(gt=0, le=240)]
    #: The silent writing minutes of these years, where they differ from the event's.
    writing_minutes: Annotated[float, Field(ge=0, le=10)] | None = None


class VictoryThreshold(_Strict):
    """Centres needed to win, from ``from_year`` until the next threshold."""

    from_year: Year
    centres: Annotated[int, Field(ge=1, le=34)]


class RoundInfo(_Strict):
    """One round of the event as published: its day, start and, where it differs, last year."""

    number: Annotated[int, Field(ge=1)]
    name: str = ""
    day: str = ""
    start: time | None = None
    last_year: Year | None = None
    #: The published call time: the round ends by the event's call rule at this time.
    call: time | None = None

    @property
    def title(self) -> str:
        return self.name or f"Round {self.number}"


class GraduatedBand(_Strict):
    """Up to ``up_to_seconds`` late (started seconds), ``units`` orders are deleted."""

    up_to_seconds: Annotated[int, Field(ge=1)]
    units: Annotated[int, Field(ge=1)]


class PenaltyRules(_Strict):
    """Which penalty model the event uses, with its numbers."""

    model: PenaltyModel
    grace_seconds: Annotated[int, Field(ge=0)] = 30
    bands: tuple[GraduatedBand, ...] = ()

    @model_validator(mode="after")
    def _bands_fit_model(self) -> PenaltyRules:
        if self.model == "graduated":
            if not self.bands:
                raise EventError(said("the graduated model needs [[penalty.bands]]"))
            limits = [b.up_to_seconds for b in self.bands]
            if limits != sorted(set(limits)):
                raise EventError(said("penalty.bands must rise in up_to_seconds"))
        return self


def _zone_name(name: str | None) -> str | None:
    """An IANA time zone name that this machine's zone data (or the tzdata package) knows."""
    if name is None:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise EventError(said("{name} is not a time zone name like Europe/Berlin or "
                              "America/New_York", name=repr(name))) from None
    return name


def _language(code: str) -> str:
    """One of the languages dipclock has a catalogue for (``dipclock.i18n.LANGUAGES``)."""
    if code not in LANGUAGES:
        raise EventError(said("{code} is not a language dipclock speaks: one of {languages}",
                              code=repr(code), languages=", ".join(LANGUAGES)))
    return code


def _terms(value: object) -> object:
    """``[terms]`` as a table (an event file) or pairs (a stored profile) -> pairs."""
    return check_terms(value) if isinstance(value, dict) else value


class EventProfile(_Strict):
    """One tournament's rules as the clock needs them. Each built-in profile (``BUILTIN``)
    names in ``source`` the organisers' rule text it was read from; those texts are theirs,
    kept beside this repository, not in it."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")]
    name: str
    source: str = ""
    #: The venue's IANA time zone: every time a TD types or reads is in it. None: the
    #: machine's own zone, which the shell that loads the event fills in.
    timezone: Annotated[str | None, AfterValidator(_zone_name)] = None
    central_clock: bool = True
    phase_lengths: Annotated[tuple[PhaseLengths, ...], Field(min_length=1)]
    writing_minutes: Annotated[float, Field(ge=0, le=10)] = 0
    last_year: Year | None = None
    call_ends: CallEnds = "last_deadline"
    rounds: tuple[RoundInfo, ...] = ()
    # Only where the event changes the target by year (wdc2003); the usual 18 goes unsaid,
    # as on every board, rather than clutter every screen.
    victory: tuple[VictoryThreshold, ...] = ()
    #: wdc2003: a victory also needs the largest power to have "increased its supply center
    #: count in the just-completed game-year"; a sheet says when it did not.
    victory_needs_growth: bool = False
    penalty: PenaltyRules
    #: How a finished game scores (``dipclock score``, the results desk); None: not said.
    scoring: ScoringRules | None = None
    #: How game scores make the tournament's order (``dipclock standings``, the hub).
    standings: StandingsRules | None = None
    #: How a game may be ended early by a vote at the table (``dipclock vote``, the hub).
    votes: VoteRules = VoteRules()
    #: The language of the hall: the table screens speak it (``dipclock.i18n.words_of``).
    language: Annotated[str, AfterValidator(_language)] = "en"
    #: The event's own words for the powers and seasons (``England = "Großbritannien"``),
    #: over the language's: (English term, the event's word), kept as pairs so a profile
    #: stays hashable.
    terms: Annotated[tuple[tuple[str, str], ...], BeforeValidator(_terms)] = ()

    @model_validator(mode="after")
    def _consistent(self) -> EventProfile:
        years = [p.from_year for p in self.phase_lengths]
        if years[0] != FIRST_YEAR:
            raise EventError(said("phase_lengths must start at from_year = {year}",
                                  year=FIRST_YEAR))
        if years != sorted(set(years)):
            raise EventError(said("phase_lengths must rise in from_year"))
        for rule in self.phase_lengths:
            writing = self.writing_for(rule.from_year)
            if writing >= min(rule.spring, rule.fall):
                raise EventError(said(
                    "writing_minutes must be shorter than every phase ({writing} min; "
                    "from {year}: Spring {spring}, Fall {fall})", writing=format(writing, "g"),
                    year=rule.from_year, spring=format(rule.spring, "g"),
                    fall=format(rule.fall, "g")))
        v_years = [v.from_year for v in self.victory]
        if v_years != sorted(set(v_years)):
            raise EventError(said("victory must rise in from_year"))
        numbers = [r.number for r in self.rounds]
        if len(numbers) != len(set(numbers)):
            raise EventError(said("rounds must have distinct numbers"))
        return self

    def lengths_for(self, year: int) -> PhaseLengths:
        """The phase-length rule in force in ``year``."""
        current = self.phase_lengths[0]
        for rule in self.phase_lengths:
            if rule.from_year <= year:
                current = rule
        return current

    def writing_for(self, year: int) -> float:
        """The silent writing minutes at the end of each phase of ``year``."""
        tier = self.lengths_for(year).writing_minutes
        return self.writing_minutes if tier is None else tier

    def phase_minutes(self, year: int, season: str) -> float:
        rule = self.lengths_for(year)
        return rule.spring if season == "spring" else rule.fall

    def victory_centres(self, year: int) -> int | None:
        """Centres needed to win at the end of ``year``, where the event has a threshold."""
        found = None
        for v in self.victory:
            if v.from_year <= year:
                found = v.centres
        return found

    def solo_centres(self, year: int) -> int:
        """Centres a solo needs at the end of ``year``: the event's threshold, else 18."""
        return self.victory_centres(year) or SOLO_CENTRES

    def round(self, number: int) -> RoundInfo:
        for r in self.rounds:
            if r.number == number:
                return r
        if not self.rounds:
            raise EventError(said("{event} has no round {number} (rounds: none)",
                                  event=self.id, number=number))
        raise EventError(said("{event} has no round {number} (rounds: {known})", event=self.id,
                              number=number, known=", ".join(str(r.number) for r in self.rounds)))

    def summary(self, words: Words = ENGLISH) -> str:
        """One line for ``dipclock events``, in ``words``' language (the ids stay)."""
        lengths = "; ".join(_describe_lengths(self.phase_lengths, self.writing_minutes, words))
        writing = (" " + words("incl. {minutes} min writing",
                                 minutes=format(self.writing_minutes, "g"))
                   if self.writing_minutes else "")
        end = (words("to Fall {year}", year=self.last_year) if self.last_year
               else words("no fixed last year"))
        varies = {r.last_year for r in self.rounds if r.last_year}
        if varies:
            end = words("to Fall {years} by round",
                        years="/".join(str(y) for y in sorted(varies)))
        call = f"; {words(CALL_RULES[self.call_ends])}" if self.call_ends != "last_deadline" \
            else ""
        board = f"; {words('board clocks')}" if not self.central_clock else ""
        said = words("penalties: {model}", model=self.penalty.model)
        return f"{self.id:<12} {self.name}: {lengths}{writing}; {end}{call}{board}; {said}"


def _describe_lengths(rules: tuple[PhaseLengths, ...], writing: float,
                      words: Words = ENGLISH) -> list[str]:
    out = []
    for i, r in enumerate(rules):
        until = rules[i + 1].from_year - 1 if i + 1 < len(rules) else None
        span = f"{r.from_year}-{until}" if until else (f"{r.from_year}+" if i else "")
        label = f"{span} " if span else ""
        tier = ""
        if r.writing_minutes is not None and r.writing_minutes != writing:
            tier = " " + words("incl. {minutes} min writing",
                               minutes=format(r.writing_minutes, "g"))
        out.append(label + words("S{spring}/F{fall} min", spring=format(r.spring, "g"),
                                 fall=format(r.fall, "g")) + tier)
    return out


#: An event file's keys go two levels deep (``penalty.bands``); a dotted key far deeper is
#: no event file, and tomllib spends seconds on one (a 66 KB key: 16 s).
MAX_KEY_DOTS = 32


class EventError(DipclockError, ValueError):
    """An event that cannot be used, with one line saying why."""


def parse_event_toml(text: str, origin: str) -> EventProfile:
    """Read a TD's event file. Errors name ``origin``, the key and what was expected."""
    deep = next((n for n, line in enumerate(text.splitlines(), 1)
                 if line.partition("=")[0].count(".") > MAX_KEY_DOTS), None)
    if deep is not None:  # tomllib takes seconds per such key (quadratic): refuse first
        raise EventError(said("{file}: not an event file: line {line} has a key nested more "
                              "than {levels} levels", file=origin, line=deep,
                              levels=MAX_KEY_DOTS))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # tomllib's own words (what it found, the line and column) stay as it says them
        raise EventError(said("{file}: not valid TOML: {reason}", file=origin,
                              reason=str(exc))) from None
    except RecursionError:  # tomllib recurses once per level of [[[...]]] or {a = {...}}
        raise EventError(said("{file}: not an event file: arrays or tables nested too "
                              "deeply", file=origin)) from None
    data.setdefault("id", _stem(origin))
    try:
        return EventProfile.model_validate(data)
    except ValidationError as exc:
        # the problem is said by ``describe`` (a sentence in the reader's language)
        raise EventError(said("{file}: {reason}", file=origin,
                              reason=describe(exc.errors()))) from None


def _stem(origin: str) -> str:
    """The id a file gets when it names none: its name, in the characters an id allows."""
    name = origin.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".toml")
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "custom"


def _rounds(*specs: tuple[str, str, str | None, int | None]) -> tuple[RoundInfo, ...]:
    """(name, day, start, last year) for rounds 1, 2, ..."""
    return tuple(
        RoundInfo(
            number=n,
            name=name,
            day=day,
            start=time.fromisoformat(start) if start else None,
            last_year=last,
        )
        for n, (name, day, start, last) in enumerate(specs, start=1)
    )


#: wdc2006 and graduated20 share rule 19.5's words and dipclock's reading of them.
MANORCON_ALL_SEVEN = (
    "A draw's p-values are summed over all seven players, as rule 19.5 says (\"100 * p / "
    "(sum of p for all seven players on the board)\"): an eliminated player's p is 16, and "
    "it scores 0.1 * (y - 1900) by rule 19.6 instead of its share."
)

#: wdc2006 and graduated20's rule 16: "Any player may propose a game-end immediately after
#: an adjudication, any time after the 1905 centre chart has been entered."
VOTES_AFTER_1905 = (
    "Game-end proposals come \"any time after the 1905 centre chart has been entered\" "
    "(rule 16): a game ended by vote scores 1905's centres at the earliest."
)

#: wdc2006's adjacent powers (rule 4 names none): two powers whose home countries border by
#: land (Austria-Germany, Austria-Italy, Austria-Russia, France-Germany, France-Italy,
#: Germany-Russia, Russia-Turkey) or share a sea (England-France, the English Channel)
WDC2006_ADJACENT = (("A", "G"), ("A", "I"), ("A", "R"), ("F", "G"), ("F", "I"), ("G", "R"),
                    ("R", "T"), ("E", "F"))

BUILTIN: dict[str, EventProfile] = {
    p.id: p
    for p in (
        EventProfile(
            id="wdc2003",
            name="World DipCon XIII, ARMADA Regatta, Denver 2003",
            source=(
                "003_247548c183451310.txt: Negotiation, Adjudication, and Deadlines; "
                "the TD's call"
            ),
            phase_lengths=(
                PhaseLengths(from_year=1901, spring=20, fall=17),
                PhaseLengths(from_year=1906, spring=18, fall=15),
            ),
            rounds=_rounds(
                ("Round 1", "Friday", "19:00", None),
                ("Round 2", "Saturday", "09:00", None),
                ("Round 3", "Saturday", "19:00", None),
                ("Round 4", "Sunday", "09:00", None),
            ),
            call_ends="last_fall",
            victory=tuple(
                VictoryThreshold(from_year=y, centres=c)
                for y, c in (
                    (1901, 18), (1906, 17), (1907, 16), (1908, 15), (1909, 14),
                    (1910, 12), (1911, 10), (1912, 8), (1913, 6),
                )
            ),
            penalty=PenaltyRules(model="leniency", grace_seconds=30),
            # Tournament System: "all players who control at least one supply center vote
            # unanimously", "conducted in secret", "supervised by the tournament director";
            # no veto is named. Unit Control: "an absent player will vote against any draw
            # proposal and against any concession to another player".
            votes=VoteRules(veto="none", abstention="no", absent="no", limit="none",
                            rule="Tournament System"),
            victory_needs_growth=True,
            scoring=ScoringRules(system="armada", concessions=True, draws="two_leaders", notes=(
                "A survivor left out of a two-way draw has lost in the final year: \"For "
                "each elimination, loss, or concession to another player, the Game-Year "
                "points ... are added\".",
                "A game conceded to a power is its victory (\"A game will end in a victory "
                "if all players who control at least one supply center vote unanimously to "
                "concede the game to a specific single power\"): 104 less the final year's "
                "points to it, whatever its centres; the others concede in that year.",
                "A victory needs \"a single power owning more supply centers than any other "
                "power\" that \"has increased its supply center count in the just-completed "
                "game-year\": a single largest power at the year's threshold has won unless "
                "the sheet says it did not grow that year.",
                "The only draws are that of all survivors and the two-way draw of two leaders "
                "level at the year's threshold (\"the only balloted players will be the two "
                "players that would be involved in the draw\"); that they held it for \"two "
                "consecutive game-years\" is the TD's to see, one year's sheet cannot show it.",
            )),
            standings=StandingsRules(
                # "the player's single lowest score from among the four rounds of play not
                # being considered": the best three of four
                weights=(1, 1, 1), max_rounds=4,
                tie_breaks=("head_to_head", "all_rounds", "best_game", "second_best_game",
                            "opponents_average"),
                # Player Seeding: "a power from a different geographical area in each round,
                # with the areas being Austria/Italy, England/France, Russia/Turkey, and
                # Germany"
                power_areas=(("A", "I"), ("E", "F"), ("R", "T"), ("G",)),
                # "Games will be filled with preference to those players who have traveled
                # furthest to attend. That is, [...] ARMADA members will be asked to sit
                # out" (a volunteer first: the text asks them)
                sit_out_order=("volunteers", "host_club"), host_club="ARMADA",
                # Prizes, Team Championship: "Seeding will ensure that all team members will
                # be able to play at least two rounds without facing a member of the same
                # team"
                teams_apart_games=2,
                # "the replacement player will receive the full score for the game" (unless
                # extenuating circumstances: the TD then gives shares)
                replaced_score="replacement",
            ),
        ),
        EventProfile(
            id="wdc2006",
            name="WDC XVI at BerliCon III, Berlin 2006",
            source="000_4d0ddc6225a877fd.txt: rules 6 and 17",
            phase_lengths=(PhaseLengths(spring=17, fall=15),),
            last_year=1909,
            rounds=_rounds(
                ("First Individual Round", "Friday", "10:00", None),
                ("Second Individual Round", "Friday", "19:00", None),
                ("Team Round and Third Individual Round", "Saturday", "10:00", None),
                ("Fourth Individual Round", "Saturday", "19:00", None),
                ("Top Board and Fifth Individual Round", "Sunday", "09:30", None),
            ),
            penalty=PenaltyRules(model="yellow_red", grace_seconds=30),
            # Rule 16: "Any player may publicly veto the proposal", "Abstentions count as
            # YES", "Any player revealing their vote will be considered to have vetoed",
            # "only one Draw vote per proposed result each season -- revotes are not
            # allowed", "Voting figures will not be revealed", "Game-ends which have not
            # been agreed using the above procedure ... score zero".
            votes=VoteRules(veto="any", abstention="yes", limit="result_per_season",
                            revealed_is_veto=True, unagreed_end="zero", rule="rule 16"),
            scoring=ScoringRules(system="manorcon", votes_from=1905, notes=(
                MANORCON_ALL_SEVEN,
                VOTES_AFTER_1905,
            )),
            standings=StandingsRules(
                # 19.2: "the sum of all their results ... a maximum of 4 rounds"; 19.8: the
                # top board's first two are the tournament's, +10 % to all seven; 19.1: the
                # Saturday round's three team members; 19.10: best country by score
                weights=(1, 1, 1, 1), max_rounds=4, top_board_bonus=0.10, top_board_places=2,
                top_board_round=5, top_board_skips_full_players=True,
                # 19.8: "the special country assignment" (its own rules, not in this text);
                # the top board's tie-break is "the order in which the players chose"
                top_board_powers="chosen",
                tie_breaks=("best_game", "second_best_game", "third_best_game",
                            "fourth_best_game"),
                team_round=3, team_size=3,
                team_tie_breaks=("third_member", "second_member", "best_member"),
                # 4: "If two players do have to play together twice, then they will not play
                # adjacent powers both times"; 1: "Players may be in 4 or less rounds"
                # (max_rounds) is the seating's too. The text does not say which powers are
                # adjacent: those whose home countries border by land or share a sea
                adjacent_powers=WDC2006_ADJACENT,
                # 4: "Players will not play against other members of their team in the
                # Saturday round" (round 3)
                teams_apart_rounds=(3,),
                # 2: "people will be dropped in the following order: Volunteers. Players
                # who signed up after the signup deadline [...] Players from Berlin [...]
                # Players from Germany"
                sit_out_order=("volunteers", "late", "local", "home_country"),
                locality="Berlin", country="DE", signup_deadline_minutes=30,
            ),
        ),
        EventProfile(
            id="wdc2018",
            name="WDC 2018 at Tempest",
            source="004_4145b2ade7c22ff3.txt: Turn Deadlines; Rounds Structure (the call)",
            phase_lengths=(
                PhaseLengths(from_year=1901, spring=18, fall=16),
                PhaseLengths(from_year=1907, spring=17, fall=15),
            ),
            rounds=_rounds(
                ("Preliminary Round 1", "Friday", "09:00", None),
                ("Preliminary Round 2", "Friday", "17:30", None),
                ("Preliminary Round 3", "Saturday", "09:00", None),
                ("Preliminary Round 4", "Saturday", "17:30", None),
                ("Final Round and Top Board", "Sunday", "09:00", None),
            ),
            call_ends="at_call",
            penalty=PenaltyRules(model="warning"),
            # Votes: "any player who has supply centers may announce that he vetoes",
            # "Only ONE vote may be held per spring or fall phase", "The clock DOES NOT
            # STOP for draw votes", "All players with at least one supply center must
            # vote. If a player has abandoned the game, he is considered to vote for all
            # proposals."
            votes=VoteRules(veto="with_centres", abstention="refused", absent="yes",
                            limit="phase", clock_stops=False, rule="Votes"),
            scoring=ScoringRules(system="sum-of-squares", votes_from=1903, notes=(
                "Every game without a solo is scored as a draw of all survivors (\"all "
                "non-solo resolutions may be considered a draw including all survivors\").",
                "\"Starting in 1904, players may propose to end the game\": a game ended by "
                "vote scores 1903's centres at the earliest (a Spring 1904 vote), as the "
                "call scores \"the prior Fall center count\" of an unfinished year.",
                "\"Players may participate in no more than three of the four preliminary "
                "rounds\": a fourth is refused, not summed; \"where a player plays on more "
                "than one board in a single round, only the higher score will count\", and "
                "the other game counts toward no best country either.",
            )),
            standings=StandingsRules(
                # "no more than three of the four preliminary rounds" and the fifth: all
                # rounds "added together"; the top board's winner is the champion
                max_rounds=4, max_preliminary_rounds=3, two_boards="higher",
                top_board_places=1, top_board_round=5,
                tie_breaks=("best_game", "head_to_head", "head_to_head_total"),
                # "A player should not be assigned the same power twice in the tournament"
                powers_before_pairs=True,
                # "the TD may ask players to stand aside [...] he will exclude local board
                # members before local club members, local club members before local
                # non-members, and local non-members before travelers"; the board is the
                # text's "PTKS Executive Board Members"; the text names no town: an event
                # file gives ``locality``
                sit_out_order=("volunteers", "host_board", "host_club", "local"),
                host_club="PTKS",
                host_board=("Chris Martin", "Jeff Ladd", "Joe Wheeler", "David Maletsky",
                            "Adam Sigal", "Tim Richardson"),
                # "Scoring of this position will be at the discretion of the TD"
                replaced_score="td",
                # "A player eliminated from the game may not play another position in the
                # same game as a replacement"
                replacement_from_game=False,
            ),
        ),
        EventProfile(
            id="wdc2019",
            name="WDC 2019",
            source="001_c5f0a460e36b6edc.txt: Summary, II.4b-4d",
            phase_lengths=(PhaseLengths(spring=18, fall=16),),
            writing_minutes=1,
            last_year=1907,
            rounds=_rounds(
                ("Qualifying Round 1", "Friday", None, None),
                ("Qualifying Round 2 (team round)", "Saturday", None, None),
                ("Qualifying Round 3", "Saturday", None, None),
                ("Final Round", "Sunday", None, None),
            ),
            penalty=PenaltyRules(model="referee"),
            # II.4g: "The same player can only request one vote per year of play", "A
            # player may choose to veto", "only a player with at least one center may
            # vote. The player who has proposed the end of the game does not vote", "The
            # vote will be secret", "In case of unanimity". A power whose player has left
            # has no player to vote: it stands in no unanimity's way.
            votes=VoteRules(veto="any", proposer_votes=False, abstention="no", absent="yes",
                            limit="player_per_year", rule="II.4g"),
            scoring=ScoringRules(system="super-pastis", votes_from=1903, notes=(
                "\"Within 3 / 2 / 1 centers ... a bonus of 3 / 6 / 12 points\": the tier a "
                "player is in, not their sum, and not for the top players themselves.",
                "\"A bonus of 51 points minus the second highest point score\": 51 minus "
                "the second-highest centre count; read as the second player's points, a "
                "17-16 board would give the top a negative bonus.",
                "In a solo, \"The other players score 1 point per year played\": to the end "
                "for a survivor; for a power eliminated earlier, the years it played, its "
                "elimination year included (the text says \"year played\" here, not the "
                "\"year before elimination\" of a game without a solo).",
                "\"From the spring of 1904\" a vote ends the game \"by taking into account "
                "the centers charts from the end of the previous year\": 1903 at the "
                "earliest.",
                "On two boards in one round, \"The two games will count as a lonely game\": "
                "\"best game at 80% and his second game at 40%\" or \"best game at 100% and "
                "second game at 0%\", whichever scores more (the text names no chooser; a "
                "player who filled a board loses nothing by it). Each game still counts for "
                "its country's award at its own score.",
                "Best country ties (6c): more centres, then the smaller gap to the player "
                "above and the larger gap to the player below on the board (when its seven "
                "counts are known); the rest (elimination, foreigners, age) are the TD's.",
            )),
            standings=StandingsRules(
                # II.1b3: "they will choose first the non-preregistered players" to sit out
                sit_out_not_preregistered_first=True,
                sit_out_order=("volunteers", "not_preregistered"),
                # II.4b: "The second round is the team round. Two players of the same team
                # cannot play together during that round."
                teams_apart_rounds=(2,),
                # II: "The tournament director will decide how many points will get each
                # player" (a player who left, and the one who replaced them)
                replaced_score="td",
                # IV.2-3: QS 100/80/40 % (the sum when fewer than three were played); FS
                # 100/100/80/40 %; III.3-4: the top board's most centres wins, +15 %
                weights=(1, 1, 0.8, 0.4), qualification_weights=(1, 0.8, 0.4),
                qualification_only_when_all_played=True, top_board_bonus=0.15,
                top_board_places=1, top_board_by="centres", top_board_round=4,
                top_board_powers="placed_then_chosen",  # III.2: the order, then the choice
                tie_breaks=("head_to_head", "fewer_games", "best_game", "fewer_home_centres"),
                team_round=2, team_tie_breaks=("best_member", "second_member"),
                two_boards="as_one_game", best_country_by="score_then_centres",
            ),
        ),
        EventProfile(
            id="graduated20",
            name="Three-round weekend, graduated penalties",
            source="002_c4452e372c7ca53b.txt: rules 6 and 17",
            phase_lengths=(PhaseLengths(spring=20, fall=20),),
            rounds=_rounds(
                ("Friday round", "Friday", None, 1909),
                ("Saturday team round", "Saturday", None, 1911),
                ("Sunday round", "Sunday", None, 1911),
            ),
            # Rule 16, as wdc2006's, and: "the concession proposals will be voted on first
            # (starting with the power with the most centres if there is more than one,
            # tie-broken by alphabetical order of power name), then The Draw. As soon as
            # one is passed, the remaining proposals fall."
            votes=VoteRules(veto="any", abstention="yes", limit="result_per_season",
                            revealed_is_veto=True, concessions_first=True,
                            unagreed_end="zero", rule="rule 16"),
            penalty=PenaltyRules(
                model="graduated",
                bands=tuple(
                    GraduatedBand(up_to_seconds=s, units=u)
                    for s, u in ((15, 1), (30, 2), (45, 3), (60, 4), (75, 6), (90, 10))
                ),
            ),
            scoring=ScoringRules(system="manorcon", concessions=True, votes_from=1905, notes=(
                MANORCON_ALL_SEVEN,
                VOTES_AFTER_1905,
                "A game conceded to a power (rule 16: \"a concession to a named Great "
                "Power\") is scored as its solo: 75 to it, the others \"Losers to a solo\" "
                "(19.6); rule 19 scores nothing else, and \"any solo beats any draw\" "
                "(19.3). For rule 19.9 its board is a soloed board.",
                "Rule 19.7 names no tie-break (\"the tie will be broken by the following "
                "criteria\", and none follow): players level on total share the place, as "
                "teams level do (19.8 lists none either).",
                "Rule 19.9's \"unless no player achieves a draw with that country\": a "
                "player achieved a draw with it who survived a board no one soloed; one "
                "eliminated there did not.",
            )),
            standings=StandingsRules(
                # 19.2: best two plus half the third; 19.7 and 19.8 list no tie-breaks: a
                # tie is shared; 19.9: best country by centres then score, and the solo rule
                weights=(1, 1, 0.5),
                team_round=2, team_size=7,
                # 2: "teams of seven players, with one player playing each of the seven
                # Great Powers": the team round is seated from the teams, not drawn
                team_round_from_teams=True,
                # 2's drop order ("dropped in the following order:") lists no one in the
                # text as kept: volunteers only, as everywhere
                best_country_by="centres_then_score", best_country_solo_rule=True,
            ),
        ),
    )
}

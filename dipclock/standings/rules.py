"""How results add up to a tournament's order: the ``[standings]`` table of an event file.

Frozen, and a misspelt key is an error: a TD's typo must not silently rank the hall by the
defaults. Every check names its key, so an error reads as one line ("weights: ..."). A
check raises a ``StandingsError`` (a ``ValueError``, as pydantic wants) with its sentence,
so the line is said in the reader's language (``dipclock.validation.describe``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from dipclock.i18n import said
from dipclock.powers import LETTERS, power_letter
from dipclock.sentences import power as said_power
from dipclock.standings.model import StandingsError
from dipclock.validation import describe

TieBreak = Literal[
    "best_game",
    "second_best_game",
    "third_best_game",
    "fourth_best_game",
    "head_to_head",
    "head_to_head_total",
    "all_rounds",
    "fewer_games",
    "opponents_average",
    "fewer_home_centres",
]
TeamTieBreak = Literal["best_member", "second_member", "third_member"]
TopBoardBy = Literal["score", "centres"]
BestCountryBy = Literal["score", "centres_then_score", "score_then_centres"]
#: A player scored on two boards of one round: ``refuse`` (a typo far more often);
#: ``higher``, only the higher score counts, the other game for nothing (wdc2018);
#: ``as_one_game``, one result, the better of 80 % + 40 % and 100 % + 0 % (wdc2019 2b4).
TwoBoards = Literal["refuse", "higher", "as_one_game"]
#: How the top board's powers are given: ``assigned`` as at any table (the powers each
#: played least; wdc2018 says nothing else); ``chosen`` by its players in an order the
#: event's country-assignment rules set (wdc2006 19.8); ``placed_then_chosen``: the order of
#: choice first, the lowest ranked placing their name first and each next before or after,
#: then each chooses in that order (wdc2019 III.2).
TopBoardPowers = Literal["assigned", "chosen", "placed_then_chosen"]
#: How a replaced power's game score is shared (``dipclock.replacements``), the event's
#: default: ``original``, all to the player who started; ``replacement``, all to the last
#: player who played it; ``split_by_years``, by the movement phases each played to the
#: game's end (civil disorder's score for no one); ``td``, the TD gives each share.
ReplacedScore = Literal["original", "replacement", "split_by_years", "td"]
#: The groups the register sits out first when the players are not a multiple of seven
#: (``sit_out_order``): ``volunteers`` asked to; ``late`` signed up after the deadline;
#: ``local`` live in the event's ``locality``; ``home_country`` have the event's
#: ``country``; ``host_board`` are named in ``host_board``; ``host_club`` are of the
#: ``host_club``; ``not_preregistered`` did not pre-register.
SitOutGroup = Literal["volunteers", "late", "local", "home_country", "host_board",
                      "host_club", "not_preregistered"]


#: a table's seats, as the seating counts them (``dipclock.seating.SEATS``: not imported, the
#: seating imports these rules)
SEATS = len(LETTERS)


class StandingsRules(BaseModel):
    """One event's standings rules; the defaults add every result at weight 1."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: A player's results, best first, are multiplied by these; results past the list do not
    #: count. Empty: every result counts at 1.
    weights: tuple[float, ...] = ()
    #: wdc2019: a player with fewer results than weights has every result count at 1.
    weights_only_when_all_played: bool = False
    #: The weights of the qualification score that seeds the top board; None: ``weights``.
    qualification_weights: tuple[float, ...] | None = None
    #: wdc2019's qualification score alone: "If the player didn't play the three
    #: qualification rounds, his QS is the sum of the score of each round played" (its final
    #: score says no such thing).
    qualification_only_when_all_played: bool = False
    max_rounds: Annotated[int, Field(ge=1)] | None = None
    two_boards: TwoBoards = "refuse"
    #: A top-board player's total is multiplied by 1 + this (0.10: +10 %).
    top_board_bonus: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] = 0.0
    #: How many first places the top board's own result decides (wdc2006: 2).
    top_board_places: Annotated[int, Field(ge=0, le=7)] = 0
    top_board_by: TopBoardBy = "score"
    top_board_powers: TopBoardPowers = "assigned"
    #: The round the top board plays; the rounds before it seed it (None: no top board).
    top_board_round: Annotated[int, Field(ge=2)] | None = None
    #: The most rounds before ``top_board_round`` a player may play (wdc2018: "no more than
    #: three of the four preliminary rounds").
    max_preliminary_rounds: Annotated[int, Field(ge=1)] | None = None
    #: wdc2006 19.8: "Players who played all first 4 rounds do not count, as they cannot
    #: play another game".
    top_board_skips_full_players: bool = False
    tie_breaks: tuple[TieBreak, ...] = ()
    #: The round whose scores make a team's score; None: no team competition.
    team_round: Annotated[int, Field(ge=1)] | None = None
    team_size: Annotated[int, Field(ge=1)] | None = None
    team_tie_breaks: tuple[TeamTieBreak, ...] = ()
    #: ``score``; ``centres_then_score`` (graduated20); ``score_then_centres``, then the
    #: gaps to the players above and below on the board (wdc2019 6c).
    best_country_by: BestCountryBy = "score"
    #: graduated20: a player on a board another player soloed wins no best country, unless
    #: no player achieved a draw with that country (survived a board without a solo).
    best_country_solo_rule: bool = False
    #: The seating's areas of powers: a player's power in a new round avoids the areas of
    #: their earlier powers as far as can be, after "no power repeated" (wdc2003: "a power
    #: from a different geographical area in each round, with the areas being
    #: Austria/Italy, England/France, Russia/Turkey, and Germany"). Powers by letter or
    #: name; a power in no area is an area of its own. Empty: no areas.
    power_areas: tuple[tuple[str, ...], ...] = ()
    #: Pairs of powers the seating calls adjacent: two players who meet again do not play
    #: adjacent powers again if they did when they met (wdc2006 4: "If two players do have
    #: to play together twice, then they will not play adjacent powers both times").
    adjacent_powers: tuple[tuple[str, str], ...] = ()
    #: The seating avoids a repeated power before a pair meeting again (wdc2018: "A player
    #: should not be assigned the same power twice in the tournament"); False: pairs first.
    powers_before_pairs: bool = False
    #: The team round is not drawn: its teams of seven say who plays which power
    #: (graduated20 2: "teams of seven players, with one player playing each of the seven
    #: Great Powers"), so the seating refuses to draw it.
    team_round_from_teams: bool = False
    #: The register's sit-out order: after the volunteers, the players who did not
    #: pre-register sit out first (wdc2019 II.1b3: "If the organisation need some players to
    #: sit out, they will choose first the non-preregistered players").
    sit_out_not_preregistered_first: bool = False
    #: Who sits out first, group by group, when the players are not a multiple of seven
    #: (``dipclock.roster.register.for_seating``); a player in two groups is in the first.
    #: wdc2006 2: "Volunteers. Players who signed up after the signup deadline [...]
    #: Players from Berlin [...] Players from Germany"; wdc2018: "he will exclude local
    #: board members before local club members, local club members before local
    #: non-members, and local non-members before travelers"; wdc2003: "ARMADA members will
    #: be asked to sit out".
    sit_out_order: tuple[SitOutGroup, ...] = ("volunteers",)
    #: Minutes before a round's start after which a sign-up is late (``late``: wdc2006 2,
    #: "a nominal signup deadline 30min before the start of the round"); None: none.
    signup_deadline_minutes: Annotated[int, Field(ge=0, le=24 * 60)] | None = None
    #: The event's country, ISO 3166-1 alpha-2 (``home_country``: wdc2006 "DE").
    country: Annotated[str, Field(max_length=2)] = ""
    #: Where the event is, as the roster's ``location`` reads (``local``: wdc2006 "Berlin").
    locality: Annotated[str, Field(max_length=80)] = ""
    #: The host club, as the roster's ``club`` reads (``host_club``: wdc2003 "ARMADA",
    #: wdc2018 "PTKS").
    host_club: Annotated[str, Field(max_length=80)] = ""
    #: The host club's board, by display name (``host_board``: wdc2018's "PTKS Executive
    #: Board Members").
    host_board: tuple[str, ...] = ()
    #: Rounds in which team-mates (the hub's teams) are never seated at one table, as
    #: kept-apart pairs (wdc2006 4: "Players will not play against other members of their
    #: team in the Saturday round"; wdc2019 II.4b: "Two players of the same team cannot
    #: play together during that round", the second).
    teams_apart_rounds: tuple[Annotated[int, Field(ge=1)], ...] = ()
    #: Team-mates are kept apart until each has played this many rounds without facing a
    #: team-mate (wdc2003: "Seeding will ensure that all team members will be able to play
    #: at least two rounds without facing a member of the same team"). None: no such rule.
    teams_apart_games: Annotated[int, Field(ge=1)] | None = None
    #: Points a volunteer who sat out is given (wdc2019 II.1b3: "A bonus may be given to the
    #: player who ask to sit out"; the text gives no figure: the event's file sets it).
    sit_out_bonus: Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)] = 0.0
    #: Who scores a game whose power went to a replacement player or into civil disorder
    #: (``ReplacedScore``); the TD's share on a record overrides it (``dipclock.replacements``
    #: quotes each text).
    replaced_score: ReplacedScore = "original"
    #: Whether a player who played the game (seated at its table) may take over another of
    #: its powers: wdc2019 prefers it ("a player who played that game will be allowed to
    #: make the remplacement"); wdc2018 refuses it ("A player eliminated from the game may
    #: not play another position in the same game as a replacement").
    replacement_from_game: bool = True

    @field_validator("weights", "qualification_weights")
    @classmethod
    def _best_weighs_most(cls, weights: tuple[float, ...] | None) -> tuple[float, ...] | None:
        if not weights:
            return weights
        for w in weights:
            if not math.isfinite(w) or w < 0:
                raise StandingsError(said("a weight must be a number from 0 up ({weight} "
                                          "given)", weight=format(w, "g")))
        for better, worse in pairwise(weights):
            if worse > better:
                raise StandingsError(said("must not increase, the best result weighs most "
                                          "({worse} after {better})", worse=format(worse, "g"),
                                          better=format(better, "g")))
        if weights[0] == 0:
            raise StandingsError(said("the best result must weigh more than 0"))
        return weights

    @field_validator("tie_breaks", "team_tie_breaks")
    @classmethod
    def _each_once(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            raise StandingsError(said("{name!r} is listed twice", name=twice))
        return names

    @field_validator("sit_out_order")
    @classmethod
    def _groups_once(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            raise StandingsError(said("{name!r} is listed twice", name=twice))
        return names

    @field_validator("country")
    @classmethod
    def _country_code(cls, code: str) -> str:
        if code and not (len(code) == 2 and code.isascii() and code.isalpha()):
            raise StandingsError(said("{code!r}: a country is a two-letter code (DE, FR, US)",
                                      code=code))
        return code.upper()

    @property
    def sit_out_groups(self) -> tuple[SitOutGroup, ...]:
        """``sit_out_order``, with ``not_preregistered`` after it where the older
        ``sit_out_not_preregistered_first`` asks for it (an event file may still say so)."""
        if self.sit_out_not_preregistered_first and \
                "not_preregistered" not in self.sit_out_order:
            return (*self.sit_out_order, "not_preregistered")
        return self.sit_out_order

    @field_validator("power_areas", "adjacent_powers", mode="before")
    @classmethod
    def _powers_by_letter(cls, groups: object) -> object:
        if not isinstance(groups, list | tuple):
            return groups
        out = []
        for group in groups:
            if not isinstance(group, list | tuple):
                return groups  # the type's own message
            out.append(tuple(power_letter(p) if isinstance(p, str) else p for p in group))
        return tuple(out)

    @field_validator("power_areas")
    @classmethod
    def _each_power_one_area(cls, areas: tuple[tuple[str, ...], ...]
                             ) -> tuple[tuple[str, ...], ...]:
        seen: set[str] = set()
        for area in areas:
            if not area:
                raise StandingsError(said("an area is empty"))
            twice = next((p for p in area if p in seen or area.count(p) > 1), None)
            if twice is not None:
                raise StandingsError(said("{power} is in an area twice",
                                          power=said_power(twice)))
            seen.update(area)
        return areas

    @field_validator("adjacent_powers")
    @classmethod
    def _two_powers(cls, pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        same = next((a for a, b in pairs if a == b), None)
        if same is not None:
            raise StandingsError(said("{power} is not adjacent to itself", power=said_power(same)))
        return pairs

    @field_validator("team_round_from_teams")
    @classmethod
    def _needs_teams_of_seven(cls, value: bool, info: ValidationInfo) -> bool:
        if value and info.data.get("team_size") != SEATS:
            raise StandingsError(said("needs team_round and team_size = {seats}: a team of "
                                      "seven plays each power once", seats=SEATS))
        return value

    @field_validator("max_preliminary_rounds")
    @classmethod
    def _needs_top_board_round(cls, value: int | None, info: ValidationInfo) -> int | None:
        if value is not None and info.data.get("top_board_round") is None:
            raise StandingsError(said("needs top_board_round: the rounds before it are the "
                                      "preliminary ones"))
        return value

    @field_validator("team_size", "team_tie_breaks")
    @classmethod
    def _needs_team_round(cls, value: object, info: ValidationInfo) -> object:
        if value and info.data.get("team_round") is None:
            raise StandingsError(said("needs team_round, the round whose scores make a "
                                      "team's score"))
        return value

    def for_qualification(self) -> StandingsRules:
        """These rules with the qualification weights in place of the weights."""
        update: dict[str, object] = {}
        if self.qualification_weights is not None:
            update["weights"] = self.qualification_weights
        if self.qualification_only_when_all_played:
            update["weights_only_when_all_played"] = True
        return self.model_copy(update=update) if update else self


def rules_from(data: Mapping[str, Any], where: str = "standings") -> StandingsRules:
    """Read a ``[standings]`` table; a problem is one ``StandingsError`` line naming the key
    (``where``: the table's name, put before the key)."""
    try:
        return StandingsRules.model_validate(data)
    except ValidationError as exc:
        raise StandingsError(describe(exc.errors(), whole=where, within=(where,))) from None

"""A player leaves mid-game, on the hub, for the TD only: from a phase, a power is played by
a replacement player or is in civil disorder (``dipclock.replacements`` has the rules).

``GET /api/td/replacements/{round}``: the round's records, its seating (the card's tables
and powers) and the event's score rule; ``POST /api/td/replacements`` records one (refused,
409 with why, by the core's checks in the store's write); ``DELETE
/api/td/replacements/{id}`` undoes one. Every route needs the TD's session, every change
its CSRF header; bodies are a few bytes (``server.bodylimit``'s default).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import Field, field_validator

from dipclock.events import FIRST_YEAR
from dipclock.i18n import said
from dipclock.names import name_key, spelling
from dipclock.powers import LETTERS, POWERS, power_letter
from dipclock.replacements import RULE_WORDS, Replacement, check
from dipclock.schedule import PhaseRef
from dipclock.timeline import PLAN_HORIZON_YEAR, effective_last_year
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep
from server.language import PhoneWords
from server.responses import PhaseChoice, ReplacementRow, ReplacementsOut, Said
from server.resultsdesk import board_of, players_of, rules_of
from server.schemas import Body
from server.store import StoreConflict

router = APIRouter(prefix="/api/td", tags=["replacements"])

RoundNo = Annotated[int, Path(ge=1, le=99, description="the round")]
RecordId = Annotated[int, Path(ge=1, le=2**62, description="the replacement's id")]

class ReplacementIn(Body):
    """From ``phase`` ("F1903"), ``player`` plays ``power`` at ``table`` of ``round``;
    ``player`` empty or null: civil disorder. ``share``: percent of the game's score to that
    player, where the TD decides (null: the event's rule)."""

    round: Annotated[int, Field(ge=1, le=99)]
    table: Annotated[int, Field(ge=1, le=999)]
    power: Annotated[str, Field(min_length=1, max_length=10)]
    phase: Annotated[str, Field(min_length=1, max_length=10)]
    player: Annotated[str, Field(max_length=80, pattern=r"^[^\x00-\x1f\x7f]*$")] | None = None
    share: Annotated[float, Field(ge=0, le=100)] | None = None

    @field_validator("power")
    @classmethod
    def _power(cls, text: str) -> str:
        return power_letter(text)

    @field_validator("phase")
    @classmethod
    def _phase(cls, text: str) -> str:
        return PhaseRef.parse(text).code


@router.get("/replacements/{round_no}", response_model=ReplacementsOut)
def replacements(round_no: RoundNo, _: TD, hub: HubDep, words: PhoneWords) -> ReplacementsOut:
    """Round ``round_no``'s replacements, its seating and the event's score rule; the
    powers, phases and rule named in the phone's language."""
    base = hub.store.audit_head()
    board = board_of(hub.store, round_no)
    rule = rules_of(board.profile).replaced_score if board else "original"
    seated = players_of(hub.store, round_no)
    rows = [ReplacementRow(
        id=i, round=r.round, table=r.table, power=r.power, power_name=words.power(r.power),
        phase=r.phase.code, phase_title=words.phase(r.phase.year, r.phase.season),
        player=r.player, who=r.who,
        share=r.share, started=seated.get(r.table, {}).get(r.power, ""))
        for i, r in hub.store.replacements(round_no)]
    last_year = effective_last_year(board.profile, board.schedule) if board else None
    phases = [PhaseRef(year=y, season=s) for y in range(FIRST_YEAR, (last_year or
                                                                     PLAN_HORIZON_YEAR) + 1)
              for s in ("spring", "fall")][1:]  # Spring 1901 is the seating's
    return ReplacementsOut(
        round=round_no, powers={p: words.power(p) for p in POWERS},
        phases=[PhaseChoice(code=p.code, title=words.phase(p.year, p.season)) for p in phases],
        rule=rule, rule_words=words(RULE_WORDS[rule]),
        td_shares=rule == "td",
        last_year=last_year,
        seated={t: {p: seats[p] for p in LETTERS if p in seats}
                for t, seats in sorted(seated.items())},
        records=rows, base=base)


@router.post("/replacements", response_model=Said)
def record(body: Parsed[ReplacementIn], _: TDWrite, hub: HubDep, base: Base,
           words: PhoneWords) -> Said:
    """Record that from a phase a power is played by another player, or is in civil
    disorder; refused (409, with why) by the core's checks."""
    board = board_of(hub.store, body.round)
    if board is None:
        raise StoreConflict(said("no round {number} is set up", number=body.round))
    rules = rules_of(board.profile)
    player = known_as(hub, body.player) if body.player else None
    new = Replacement(round=body.round, table=body.table, power=body.power,
                      phase=PhaseRef.parse(body.phase), player=player, share=body.share)
    last_year = effective_last_year(board.profile, board.schedule)
    hub.store.add_replacement(new, hub.clock.moment(), lambda n, others, seated: check(
        n, others, seated, rule=rules.replaced_score, last_year=last_year,
        two_boards=rules.two_boards != "refuse",
        from_game=rules.replacement_from_game), base=base)
    return Said(summary=said("{title}: {who} from {phase}", title=new.said_title,
                             who=new.said_who, phase=new.said_phase).in_(words))


def known_as(hub: Hub, name: str) -> str:
    """``name`` as the roster or the seating spells that person (one key for two spellings,
    ``dipclock.names``), else in its kept form: the standings count one person once."""
    key = name_key(name)
    known = [p.name for _, p in hub.store.people()] + [
        s.player for s in hub.store.seating()]
    return next((n for n in known if name_key(n) == key), spelling(name))


@router.delete("/replacements/{rid}", response_model=Said)
def undo(rid: RecordId, _: TDWrite, hub: HubDep, base: Base, words: PhoneWords) -> Said:
    """Undo one replacement: the player before it plays the power again."""
    gone = hub.store.undo_replacement(rid, hub.clock.moment(), base=base)
    return Said(summary=said("undone: {title}: {who} from {phase}", title=gone.said_title,
                             who=gone.said_who, phase=gone.said_phase).in_(words))

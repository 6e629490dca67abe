"""Game-end votes over HTTP (``server.votedesk`` runs them; ``dipclock.votes`` has the rules).

The players' phones hold the table's sheet key (its QR code, ``X-Sheet-Key``, as the result
sheet does): ``GET /api/votes/{round}/{table}`` (the table's vote, its history and what may
be proposed), ``POST`` there a proposal, ``POST .../{id}/claims`` a power's vote or veto,
``GET .../{id}/claims/{token}`` what became of it. A phone's word counts only once its
power's button on the clock is pressed (``POST /api/tables/{n}/votes/presses``, in
``server.routers.kiosk``). The TD (session, and CSRF for a change): ``GET
/api/td/votes?round=N``, ``GET /api/td/votes/record?round=N`` (the record: time, table,
form, proposer, outcome, why; never a vote), ``POST /api/td/votes`` (opens at once), and
``.../{id}/count``, ``veto``, ``cancel``, ``undo``; ``POST /api/td/votes/show-code`` (the
table's clock shows its vote page's QR code for 2 minutes). Every change is one transaction of the
store and pushes the table's snapshot; every refusal is one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Path, Query, Request
from pydantic import Field, field_validator, model_validator

from dipclock.i18n import said
from dipclock.powers import LETTERS, POWERS, PowerLetter
from dipclock.replacements import CIVIL_DISORDER, begun, players_at
from dipclock.snapshot import TableVote
from dipclock.votes.ballot import Choice, forms_of, rules_for
from dipclock.votes.proposal import Board as Chart
from dipclock.votes.proposal import parse_form
from server import votedesk
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep
from server.gate import NO_VOTE_KEY_SAID, WRONG_SHEET_KEY_SAID
from server.language import PhoneWords
from server.refusal import Refused
from server.responses import (
    Claimed,
    ClaimOut,
    ProposedOut,
    TableCode,
    TableVotes,
    TDTable,
    VoteRecord,
)
from server.resultsdesk import Board, board_of, players_of, sheet_key_fits
from server.routers.results import DEVICE, Device
from server.schemas import Body
from server.sheets import KEY_HEADER
from server.snapshot import publish
from server.store import ClaimRow, VoteRow
from server.store.votes import VoteTx

router = APIRouter(tags=["votes"])

RoundPath = Annotated[int, Path(ge=1, le=99)]
TablePath = Annotated[int, Path(ge=1, le=999)]
VotePath = Annotated[int, Path(ge=1, le=2**62, description="the vote's id")]
TokenPath = Annotated[str, Path(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
RoundQuery = Annotated[int | None, Query(ge=1, le=99)]
SheetKey = Annotated[str | None, Header(alias=KEY_HEADER)]
Centres = dict[PowerLetter, Annotated[int, Field(ge=0, le=34)]]


class _Proposed(Body):
    """A proposed result (``dias``, ``draw:A,E``, ``concede:F``) and the centre chart as it
    stands (every power), with the year before's where the event's rule needs it."""

    form: Annotated[str, Field(min_length=1, max_length=40)]
    centres: Centres
    previous: Centres | None = None

    @field_validator("form")
    @classmethod
    def _form(cls, text: str) -> str:
        return parse_form(text).key

    @model_validator(mode="after")
    def _chart(self) -> _Proposed:
        Chart(self.centres, previous=self.previous)  # every power, at most 34: one line
        return self


class ProposalIn(_Proposed):
    """A phone's proposal: the power proposing, whose button on the clock proves it."""

    proposer: PowerLetter


class TDProposalIn(_Proposed):
    """The TD's proposal (a table without phones): opened at once. ``absent``: powers whose
    player has left the game (a civil disorder recorded as a replacement counts anyway)."""

    round: Annotated[int, Field(ge=1, le=99)]
    table: Annotated[int, Field(ge=1, le=999)]
    proposer: PowerLetter | None = None
    absent: Annotated[list[PowerLetter], Field(max_length=7)] = []


class ClaimIn(Body):
    power: PowerLetter
    choice: Literal["yes", "no", "abstain", "veto"]


class CountIn(Body):
    """Every voter's word, as the TD counted them by hand (or one veto)."""

    votes: Annotated[dict[PowerLetter, Literal["yes", "no", "abstain", "veto"]],
                     Field(max_length=7)]


class VetoIn(Body):
    power: PowerLetter


class ShowCodeIn(Body):
    """The table whose clock shows its vote page's QR code (``votedesk.show_code``)."""

    round: Annotated[int, Field(ge=1, le=99)]
    table: Annotated[int, Field(ge=1, le=999)]


# --- the phones ---------------------------------------------------------------------------


def _key(hub: Hub, round_no: int, table: int, key: str | None) -> Board:
    """The table's key, good while its round is (as the sheet's link is)."""
    if key is None:
        raise Refused(401, NO_VOTE_KEY_SAID)
    if not sheet_key_fits(hub.store, round_no, table, key):
        raise Refused(403, WRONG_SHEET_KEY_SAID)
    if round_no <= hub.store.sheet_links_closed(hub.clock.moment()):
        raise Refused(403, said("round {round} is over: this link no longer votes; ask the "
                                "TD", round=round_no))
    return _board(hub, round_no)


def _board(hub: Hub, round_no: int) -> Board:
    board = board_of(hub.store, round_no)
    if board is None:
        raise Refused(404, said("no round {number} is set up", number=round_no))
    return board


def _device(request: Request, device: str | None) -> str:
    """The phone, as claims tell two phones apart: its own id, else its address."""
    if device is not None and DEVICE.fullmatch(device):
        return f"phone {device[:6]}"
    return f"a phone at {request.client.host if request.client else '?'}"


@router.get("/api/votes/{round_no}/{table}", response_model=TableVotes)
def table_votes(round_no: RoundPath, table: TablePath, hub: HubDep, words: PhoneWords,
                key: SheetKey = None) -> TableVotes:
    """The table's vote, its history this round, and what a player may do now, in the
    phone's language (its words; the states and forms a page compares stay English)."""
    board = _key(hub, round_no, table, key)
    now = hub.clock.moment()
    profile = board.profile
    rules, _ = rules_for(profile)

    def work(tx: VoteTx) -> tuple[list[VoteRow], list[ClaimRow]]:
        return tx.votes(round_no, table), tx.claims(round_no, table)

    rows, claims = hub.store.read_votes(now, work)
    why_not, period = "", None
    try:
        moment = votedesk.moment_at(board, table, now)
        period = words.phase(*moment.period)
        why_not = votedesk.game_over(rows, words)
        period = None if why_not else period
    except Refused as exc:
        why_not = exc.in_(words)
    current = votedesk.shown(profile, rows, claims, now)
    return TableVotes(
        vote=votedesk.phone_vote(current, words) if current else None,
        history=[votedesk.phone_vote(v, words) for v in votedesk.history(rows, claims, now)],
        can_propose=not why_not, why_not=why_not, forms=list(forms_of(profile)),
        choices=list(rules.choices),
        veto=rules.veto != "none",
        seated={p: n for p, n in sorted(players_of(hub.store, round_no).get(table, {}).items(),
                                         key=lambda i: LETTERS.index(i[0]))},
        centres=dict(rows[-1].centres) if rows else None, period=period)


def _absent(hub: Hub, board: Board, table: int, given: list[str]) -> list[str]:
    """The powers whose player has left: the TD's, and those in civil disorder at the
    table now (``dipclock.replacements``: who plays each power from a phase begun)."""
    records = [r for _, r in hub.store.replacements(board.rnd.number) if r.table == table]
    now = begun(board.profile, board.schedule, table, hub.clock.moment())
    playing = players_at(dict.fromkeys(LETTERS, ""), records, now)
    return [p for p in LETTERS if playing[p] == CIVIL_DISORDER or p in given]


@router.post("/api/votes/{round_no}/{table}", response_model=ProposedOut)
def phone_propose(round_no: RoundPath, table: TablePath, body: Parsed[ProposalIn],
                  request: Request, hub: HubDep, words: PhoneWords, key: SheetKey = None,
                  device: Device = None) -> ProposedOut:
    """A player proposes from the phone: it opens when the proposer's button is pressed."""
    board = _key(hub, round_no, table, key)
    absent = _absent(hub, board, table, [])
    phone = _device(request, device)
    done = hub.store.vote_change(hub.clock.moment(), lambda tx: votedesk.open_proposal(
        tx, board, table, body.form, body.centres, body.previous, body.proposer, absent,
        phone, phone), subject=votedesk.subject(round_no, table), action=False)
    publish(hub, {table})
    if done.conflict:
        raise Refused(409, done.conflict)
    return ProposedOut(vote=votedesk.phone_vote(done.vote, words), claim=done.token or "",
                       press=votedesk.press_line(body.proposer, "propose it", words))


@router.post("/api/votes/{round_no}/{table}/{vid}/claims", response_model=Claimed)
def phone_claim(round_no: RoundPath, table: TablePath, vid: VotePath, body: Parsed[ClaimIn],
                request: Request, hub: HubDep, words: PhoneWords, key: SheetKey = None,
                device: Device = None) -> Claimed:
    """A player's vote or veto for a power: it counts once that power's button is pressed."""
    board = _key(hub, round_no, table, key)
    phone = _device(request, device)
    choice: Choice = body.choice
    done = hub.store.vote_change(hub.clock.moment(), lambda tx: votedesk.add_claim(
        tx, board, table, vid, body.power, choice, phone),
        subject=votedesk.subject(round_no, table), action=False)
    publish(hub, {table})
    if done.conflict:
        raise Refused(409, done.conflict)
    what = "veto it" if body.choice == "veto" else "cast this vote"
    return Claimed(claim=done.token or "", press=votedesk.press_line(body.power, what, words))


@router.get("/api/votes/{round_no}/{table}/{vid}/claims/{token}", response_model=ClaimOut)
def phone_claim_state(round_no: RoundPath, table: TablePath, vid: VotePath,
                      token: TokenPath, hub: HubDep, words: PhoneWords,
                      key: SheetKey = None) -> ClaimOut:
    """What became of a phone's claim: waiting for the button, cast, dropped for a conflict,
    lapsed, or refused by the rules (why)."""
    _key(hub, round_no, table, key)
    claim = hub.store.vote_claim(token)
    if claim is None or (claim.round, claim.table, claim.vote) != (round_no, table, vid):
        raise Refused(404, said("no such choice at this table: choose again"))
    state, why = votedesk.claim_state(claim, hub.clock.moment(), words)
    return ClaimOut(state=state, why=why)


# --- the TD -------------------------------------------------------------------------------


def _round(hub: Hub, round_no: int | None) -> Board:
    if round_no is None:
        rnd = hub.store.current_round()
        if rnd is None:
            raise Refused(409, said("set up the event and the round first"))
        round_no = rnd.number
    return _board(hub, round_no)


@router.get("/api/td/votes", response_model=list[TDTable])
def td_votes(_: TD, hub: HubDep, words: PhoneWords, round: RoundQuery = None
             ) -> list[TDTable]:
    """Every table's vote (the one under way, else the last closed) and its history, for
    the dashboard: who has voted, never how (in the TD's phone's language)."""
    board = _round(hub, round)
    now = hub.clock.moment()
    number = board.rnd.number

    def work(tx: VoteTx) -> list[TDTable]:
        rows = tx.votes(number)
        tables = sorted(set(hub.store.tables()) | {r.table for r in rows})
        out = []
        for n in tables:
            mine = [r for r in rows if r.table == n]
            claims = tx.claims(number, n) if mine else []
            current = votedesk.shown(board.profile, mine, claims, now)
            out.append(TDTable(
                table=n, vote=votedesk.phone_vote(current, words) if current else None,
                history=[votedesk.phone_vote(v, words)
                         for v in votedesk.history(mine, claims, now)],
                choices=list(board.profile.votes.choices)))
        return out
    return hub.store.read_votes(now, work)


@router.get("/api/td/votes/record", response_model=list[VoteRecord])
def td_record(_: TD, hub: HubDep, round: RoundQuery = None) -> list[VoteRecord]:
    """The round's record of votes: time, table, form, proposer, outcome and why."""
    board = _round(hub, round)
    now = hub.clock.moment()

    def work(tx: VoteTx) -> list[VoteRecord]:
        out = []
        for r in tx.votes(board.rnd.number):
            shown = votedesk.table_vote(r, tx.claims(r.round, r.table), now)
            out.append(VoteRecord(
                id=r.id, table=r.table, at=r.proposed_at, form=r.form, words=shown.words,
                period=shown.period, proposer=POWERS[r.proposer] if r.proposer else None,
                proposed_by=r.proposed_by, state=shown.state, why=r.why,
                headline=shown.headline, chart_year=r.chart_year,
                voted=[POWERS[p] for p in r.voted], closed_at=r.closed_at,
                closed_by=r.closed_by, undone_at=r.undone_at, undone_by=r.undone_by))
        return out
    return hub.store.read_votes(now, work)


@router.post("/api/td/votes", response_model=TableVote)
def td_propose(body: Parsed[TDProposalIn], _: TDWrite, hub: HubDep, base: Base) -> TableVote:
    """The TD opens a vote at a table (one without phones): no button needed."""
    board = _board(hub, body.round)
    if body.table not in hub.store.tables():
        raise Refused(404, said("table {table} is not in this round", table=body.table))
    absent = _absent(hub, board, body.table, list(body.absent))
    done = hub.store.vote_change(hub.clock.moment(), lambda tx: votedesk.open_proposal(
        tx, board, body.table, body.form, body.centres, body.previous, body.proposer, absent,
        votedesk.BY_TD, None), subject=votedesk.subject(body.round, body.table), base=base)
    publish(hub, {body.table})
    return done.vote


@router.post("/api/td/votes/show-code", response_model=TableCode)
def td_show_code(body: Parsed[ShowCodeIn], _: TDWrite, hub: HubDep) -> TableCode:
    """The table's clock shows its vote page's QR code for 2 minutes, for its players to
    propose a game end from their phones (issue 37: "a TD-chosen way that does not disturb
    the clock"). Not checked against the screen it was asked from (``base``): it changes no
    vote, and asking twice only shows the code longer."""
    board = _board(hub, body.round)
    if body.table not in hub.store.tables():
        raise Refused(404, said("table {table} is not in this round", table=body.table))
    if body.round <= hub.store.sheet_links_closed(hub.clock.moment()):
        raise Refused(409, said("round {round} is over: its vote page is closed",
                                round=body.round))
    until = hub.store.vote_change(
        hub.clock.moment(), lambda tx: votedesk.show_code(tx, board, body.table),
        subject=votedesk.subject(body.round, body.table))
    publish(hub, {body.table})
    return TableCode(table=body.table, until=until)


def _td_change(hub: Hub, vid: int, base: int | None,
               change: Callable[[VoteTx, Board], TableVote]) -> TableVote:
    """One of the TD's changes to vote ``vid``, in its round's one transaction."""
    row = hub.store.vote_row(vid)
    if row is None:
        raise Refused(404, said("no vote {vote}: reload the dashboard", vote=vid))
    board = _board(hub, row.round)
    vote: TableVote = hub.store.vote_change(
        hub.clock.moment(), lambda tx: change(tx, board),
        subject=votedesk.subject(row.round, row.table), base=base)
    publish(hub, {row.table})
    return vote


@router.post("/api/td/votes/{vid}/count", response_model=TableVote)
def td_count(vid: VotePath, body: Parsed[CountIn], _: TDWrite, hub: HubDep,
             base: Base) -> TableVote:
    """The TD's count by hand: every voter's yes, no or abstain, or one veto."""
    votes: dict[str, Choice] = dict(body.votes)
    return _td_change(hub, vid, base, lambda tx, board: votedesk.td_count(tx, board, vid,
                                                                         votes))


@router.post("/api/td/votes/{vid}/veto", response_model=TableVote)
def td_veto(vid: VotePath, body: Parsed[VetoIn], _: TDWrite, hub: HubDep,
            base: Base) -> TableVote:
    """A veto the TD saw made at the table."""
    return _td_change(hub, vid, base, lambda tx, board: votedesk.td_veto(tx, board, vid,
                                                                        body.power))


@router.post("/api/td/votes/{vid}/cancel", response_model=TableVote)
def td_cancel(vid: VotePath, _: TDWrite, hub: HubDep, base: Base) -> TableVote:
    """Cancel a vote under way: the game goes on."""
    return _td_change(hub, vid, base, lambda tx, board: votedesk.td_cancel(tx, board, vid))


@router.post("/api/td/votes/{vid}/undo", response_model=TableVote)
def td_undo(vid: VotePath, _: TDWrite, hub: HubDep, base: Base) -> TableVote:
    """Undo a closed vote: a passed one's game resumes; the record keeps that it was."""
    return _td_change(hub, vid, base, lambda tx, board: votedesk.td_undo(tx, board, vid))

"""The hub's game-end votes: the glue between the store's rows and the core's rules
(``dipclock.votes``), for the phones, the table's clock and the TD.

Every rule is the core's: ``propose`` checks a proposal, ``cast`` and ``veto`` take a
player's word, ``outcome`` says the result, ``running_order`` the order proposals made at
once are voted in. Here a ``Ballot`` is rebuilt from its row and its secret votes inside the
one transaction of each change (``Store.vote_change``), the moment is read off the table's
clock (``dipclock.phaseview``), and a phone's word is held as a *claim* until its power's own
button on the clock proves the phone's player holds that power (as a line of the result
sheet is confirmed). Two phones choosing for one power drop both claims; a claim lapses
after ``LAPSE`` (hub time, read when asked: nothing sleeps). A passed vote ends the table's
game through the round's schedule (``server.rounds.with_votes``). A refusal of the rules is
one line, the core's, as a 409 (``server.refusal.Refused``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Literal, TypeGuard

from dipclock.events import EventProfile
from dipclock.eventscoring import endings
from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.phaseview import view
from dipclock.powers import LETTERS, POWERS
from dipclock.sentences import power as said_power
from dipclock.snapshot import TableVote, VotePress
from dipclock.votes.ballot import (
    CHOICES,
    Ballot,
    Choice,
    Outcome,
    cast,
    cast_all,
    counted,
    outcome,
    propose,
    rules_for,
    running_order,
    veto,
)
from dipclock.votes.proposal import Board as Chart
from dipclock.votes.proposal import Moment, PastVote, Proposal, VoteRefused, parse_form
from dipclock.votescreen import VOTE_CODE_SECONDS, proposal_words
from dipclock.votewords import headline_said, headline_words, period_words
from server.refusal import Refused
from server.resultsdesk import Board
from server.store import ClaimRow, Store, VoteRow
from server.store.votes import VoteTx

#: how long a phone's choice waits for its power's button (issue 37: "A claim lapses after
#: 3 minutes"): long enough to walk to the clock, short enough that a phone left on the
#: table cannot be used later by whoever picks it up
LAPSE = timedelta(minutes=3)
#: how long the TD's request shows the vote page's code on the clock (the clock's own key
#: shows it as long)
CODE_SHOWN = timedelta(seconds=VOTE_CODE_SECONDS)
#: who did it, as the record names the TD
BY_TD = "the TD"
ClaimState = Literal["waiting", "cast", "conflict", "lapsed", "refused"]


def conflict_said(power: str) -> Said:
    """Why two phones' claims for ``power`` were both dropped, in the reader's language."""
    return said("two phones chose for {power}: choose again, on one phone",
                power=said_power(power))


def conflict_line(power: str) -> str:
    """``conflict_said`` in English, as claims stored before sentences were kept say it."""
    return str(conflict_said(power))


def press_line(power: str, what: str, words: Words = ENGLISH) -> str:
    """What a phone's player is asked to do: ``what`` is ``propose it``, ``veto it`` or
    ``cast this vote`` (a whole sentence each, for the catalogue)."""
    name = words.power(power)
    if what == "propose it":
        return words("Press {power}'s button on the clock to propose it", power=name)
    if what == "veto it":
        return words("Press {power}'s button on the clock to veto it", power=name)
    return words("Press {power}'s button on the clock to cast this vote", power=name)


def subject(round_no: int, table: int) -> str:
    """The log's subject of a table's votes (``server.stale``: a TD's action on a vote drawn
    before the vote changed is refused with what changed)."""
    return f"vote {round_no}/{table}"


# --- reading a table's votes ----------------------------------------------------------


def lapsed(claim: ClaimRow, now: datetime) -> bool:
    return claim.state == "waiting" and now > claim.at + LAPSE


def claim_state(claim: ClaimRow, now: datetime, words: Words = ENGLISH
                ) -> tuple[ClaimState, str]:
    """What a phone is told of its claim: its state and why, in ``words``' language."""
    if lapsed(claim, now):
        return "lapsed", words.plural(
            "{power}'s button was not pressed within {n} minute: choose again",
            "{power}'s button was not pressed within {n} minutes: choose again",
            LAPSE.seconds // 60, power=words.power(claim.power))
    state: ClaimState = claim.state  # type: ignore[assignment]
    return state, why_words(claim.why, words)


def kept_why(why: VoteRefused | Refused | Said) -> str:
    """A refusal (or a sentence) as a claim keeps it: its sentence as JSON (as the log
    keeps its lines, ``server.logline``), so the phone that asks later reads it in its own
    language; its English where it was raised without one."""
    sentence = why if isinstance(why, Said) else why.said
    return json.dumps(sentence.to_json(), ensure_ascii=False) \
        if isinstance(sentence, Said) else str(why)


def _kept_sentence(why: str) -> Said | None:
    """The sentence ``kept_why`` stored, or None (a hub's own line, a claim kept before
    sentences were, a damaged one)."""
    if not why.startswith("{"):
        return None
    try:
        return Said.from_json(json.loads(why))
    except ValueError:
        return None


def why_words(why: str, words: Words = ENGLISH) -> str:
    """A claim's stored why in ``words``' language: a rule's refusal from its kept
    sentence; the hub's own lines (English, as it keeps them) read back."""
    sentence = _kept_sentence(why)
    if sentence is not None:
        return sentence.in_(words)
    if words.lang == "en" and not words.terms:
        return why
    if why == "this phone chose again":
        return words("this phone chose again")
    if why == "the vote is over":
        return words("the vote is over")
    if why.startswith("the vote is over: "):
        return words("the vote is over: {headline}",
                     headline=headline_words(why.removeprefix("the vote is over: "), words))
    letter = next((p for p in LETTERS if why == conflict_line(p)), None)
    if letter is not None:
        return words("two phones chose for {power}: choose again, on one phone",
                     power=words.power(letter))
    return headline_words(why, words)


def phone_vote(vote: TableVote, words: Words = ENGLISH) -> TableVote:
    """A vote as a phone in ``words``' language shows it: its proposal, period and
    headline said again (the English ones are the hub's own; the kiosk says them from the
    snapshot in the hall's language, ``dipclock.votescreen``)."""
    if words.lang == "en" and not words.terms:
        return vote
    return vote.model_copy(update={
        "words": proposal_words(vote.form, vote.words, words),
        "period": period_words(vote.period, words),
        "headline": headline_words(vote.headline, words)})


def _dead(row: VoteRow, claims: Sequence[ClaimRow], now: datetime) -> str:
    """Why a phone's proposal never opened ("" while it waits for its proposer's button, or
    once open)."""
    if row.state != "proposed":
        return ""
    mine = [c for c in claims if c.vote == row.id]
    if any(c.state == "waiting" and not lapsed(c, now) for c in mine):
        return ""
    who = POWERS[row.proposer] if row.proposer else "the proposer"
    if any(c.state == "conflict" for c in mine):
        return f"Not proposed: two phones chose for {who}"
    return f"Not proposed: {who}'s button was not pressed within {LAPSE.seconds // 60} minutes"


def moment_of(row: VoteRow) -> Moment:
    return Moment(row.year, "spring" if row.season == "spring" else "fall")


def proposal_of(row: VoteRow) -> Proposal:
    """The row's proposal, a draw of all survivors with its survivors."""
    proposal = parse_form(row.form, row.proposer)
    if proposal.form == "dias":
        survivors = frozenset(p for p in LETTERS if row.centres.get(p, 0) > 0)
        return Proposal("dias", survivors, row.proposer)
    return proposal


def ballot_of(profile: EventProfile, row: VoteRow, votes: Mapping[str, str]) -> Ballot:
    """The row's ballot as ``propose`` made it, with the votes cast so far (as stored)."""
    rules, _ = rules_for(profile)
    chart = Chart(row.centres, frozenset(row.absent), row.previous)
    return Ballot(profile.id, rules, proposal_of(row), moment_of(row),
                  chart, row.voters, {p: c for p, c in votes.items() if _is_choice(c)},
                  row.vetoed_by)


def _is_choice(text: str) -> TypeGuard[Choice]:
    return text in CHOICES


@dataclass(frozen=True)
class Line:
    """A table's votes as they stand: the one under way (``current``: the first in running
    order of those open, else a phone's proposal waiting for its button), how many wait
    behind it, and the claims waiting for a button."""

    current: VoteRow | None
    queued: int
    waiting: tuple[str, ...]


def line_up(profile: EventProfile, rows: Sequence[VoteRow], claims: Sequence[ClaimRow],
            now: datetime) -> Line:
    live = [r for r in rows if r.live and not _dead(r, claims, now)]
    opened = [r for r in live if r.state == "open"]
    current: VoteRow | None = None
    if opened:
        pairs = [(proposal_of(r), r) for r in opened]
        order = running_order(rules_for(profile)[0], [p for p, _ in pairs], opened[-1].centres)
        current = next(r for p, r in pairs if p is order[0])
    elif live:
        current = live[0]
    ids = {r.id for r in live}
    waiting = {c.power for c in claims if c.vote in ids and c.state == "waiting"
               and not lapsed(c, now)}
    return Line(current, max(len(live) - 1, 0), tuple(p for p in LETTERS if p in waiting))


def table_vote(row: VoteRow, claims: Sequence[ClaimRow], now: datetime,
               line: Line | None = None) -> TableVote:
    """A row as the table's screen, the phones and the dashboard show it: who votes and
    who has voted, never how."""
    dead = _dead(row, claims, now)
    state = "cancelled" if dead else "open" if row.live else row.state
    headline = dead or row.headline
    if row.undone_at is not None:
        headline = f"Undone by {row.undone_by or BY_TD}: {headline}"
    current = line is not None and line.current is not None and line.current.id == row.id
    return TableVote(
        id=row.id, state=state, words=proposal_of(row).words, form=row.form,
        period=moment_of(row).period_words,
        proposer=row.proposer, voters=() if row.state == "proposed" else row.voters,
        voted=row.voted, absent=row.absent,
        waiting_button=line.waiting if current and line is not None and not dead else (),
        headline=headline[:200], at=row.proposed_at,
        closed_at=row.closed_at, queued=line.queued if current and line is not None else 0,
        undone=row.undone_at is not None)


def shown(profile: EventProfile, rows: Sequence[VoteRow], claims: Sequence[ClaimRow],
          now: datetime) -> TableVote | None:
    """The table's vote on its screen: the one under way, else the last closed this round
    (not one undone)."""
    line = line_up(profile, rows, claims, now)
    if line.current is not None:
        return table_vote(line.current, claims, now, line)
    closed = [r for r in rows if r.undone_at is None]
    if not closed:
        return None
    last = max(closed, key=lambda r: (r.closed_at or r.proposed_at, r.id))
    return table_vote(last, claims, now)


def history(rows: Sequence[VoteRow], claims: Sequence[ClaimRow], now: datetime
            ) -> list[TableVote]:
    """A table's closed proposals this round, oldest first (one undone says so)."""
    out = [table_vote(r, claims, now) for r in rows]
    return [v for v in out if v.state != "open"]


def table_votes(store: Store, profile: EventProfile, round_no: int, tables: set[int],
                now: datetime) -> dict[int, TableVote]:
    """Each of ``tables``' vote on its screen (none where it has had none)."""
    def work(tx: VoteTx) -> dict[int, TableVote]:
        by_table: dict[int, list[VoteRow]] = {}
        for r in tx.votes(round_no):
            if r.table in tables:
                by_table.setdefault(r.table, []).append(r)
        out = {}
        for n, rows in by_table.items():
            got = shown(profile, rows, tx.claims(round_no, n), now)
            if got is not None:
                out[n] = got
        return out
    return store.read_votes(now, work)


def vote_codes(store: Store, round_no: int, tables: set[int], now: datetime
               ) -> dict[int, datetime]:
    """Each of ``tables``' clock that shows its vote page's code now, as the TD asked
    (``show_code``): until when."""
    return {n: until for n, until in store.vote_codes(round_no).items()
            if n in tables and until > now}


def passed(store: Store, round_no: int, table: int) -> VoteRow | None:
    """The vote that ended the table's game this round, where one stands."""
    return next((v for v in store.passed_votes(round_no) if v.table == table), None)


# --- the moment and the history -------------------------------------------------------


def moment_at(board: Board, table: int, now: datetime) -> Moment:
    """The moment of a vote held now at ``table``: the movement phase its clock is in the
    negotiation of (issue 37: "the hub takes the moment from the table's clock"). Why not
    is said in its reader's language (the phone's page says it by the proposal's form)."""
    seen = view(board.profile, board.schedule, now, table)
    if seen.stage == "before_start":
        raise Refused(409, said("round {number} has not started: no vote before it",
                                number=board.rnd.number))
    if seen.stage == "game_over" or seen.phase is None:
        raise Refused(409, said("table {table}'s game is over: no vote after it",
                                table=table))
    try:
        return Moment.in_period(seen.phase.year, seen.phase.season)
    except VoteRefused as exc:
        raise refused(exc) from None


def history_of(rows: Sequence[VoteRow], claims: Sequence[ClaimRow], now: datetime,
               leave_out: int | None = None) -> list[PastVote]:
    """This game's earlier proposals, for the limits on how often: not one undone, nor a
    phone's that never opened (its button not pressed); a vetoed or cancelled one held no
    vote."""
    out = []
    for r in rows:
        if r.id == leave_out or r.undone_at is not None or _dead(r, claims, now):
            continue
        if r.opened_at is None and not r.live:
            continue
        out.append(PastVote(moment_of(r), r.form, r.proposer,
                            held=r.state not in ("vetoed", "cancelled")))
    return out


def last_year_of(board: Board) -> int | None:
    return endings(board.profile, board.rnd.number, board.rnd.last_year).last_year


def refused(exc: VoteRefused) -> Refused:
    """The core's refusal as the hub's, in its reader's language where it has one."""
    return Refused(409, exc.said if isinstance(exc.said, Said) else str(exc))


# --- changes, each inside one transaction ---------------------------------------------


@dataclass(frozen=True)
class Done:
    """What a change did: the vote (as the table shows it), a claim's token, and the line
    a phone is told when its claim met another phone's (both dropped)."""

    vote: TableVote
    token: str | None = None
    conflict: Said | None = None  # why its claim and another phone's were both dropped


def _vote_now(tx: VoteTx, board: Board, row: VoteRow) -> TableVote:
    rows = tx.votes(row.round, row.table)
    claims = tx.claims(row.round, row.table)
    line = line_up(board.profile, rows, claims, tx.now)
    fresh = next(r for r in rows if r.id == row.id)
    return table_vote(fresh, claims, tx.now, line)


def game_over(rows: Sequence[VoteRow], words: Words = ENGLISH) -> str:
    """Why a table whose game a vote ended takes no more proposals ("" when none did), in
    ``words``' language."""
    ended = _ended_by(rows)
    if ended is None:
        return ""
    return words("the game is over: {headline}", headline=headline_words(ended.headline, words))


def _ended_by(rows: Sequence[VoteRow]) -> VoteRow | None:
    """The vote that ended the table's game (the last passed and not undone), if any."""
    return next((r for r in reversed(rows) if r.state == "passed" and r.undone_at is None),
                None)


def _ended(tx: VoteTx, round_no: int, table: int) -> None:
    """In the change's own transaction: no vote at a table whose game a vote ended."""
    ended = _ended_by(tx.votes(round_no, table))
    if ended is not None:
        raise Refused(409, said("table {table}'s game is over: {headline}", table=table,
                                headline=headline_said(ended.headline)))


def _tidy(tx: VoteTx, profile: EventProfile, round_no: int, table: int) -> None:
    """A phone's proposal whose button never came is closed for the record."""
    claims = tx.claims(round_no, table)
    for r in tx.votes(round_no, table):
        dead = _dead(r, claims, tx.now)
        if dead:
            tx.update(r.id, state="cancelled", headline=dead, why=dead.lower(),
                      closed_at=tx.now, closed_by=r.proposed_by)
            tx.forget(r.id)


def open_proposal(tx: VoteTx, board: Board, table: int, form: str, centres: Mapping[str, int],
                  previous: Mapping[str, int] | None, proposer: str | None,
                  absent: Sequence[str], by: str, device: str | None) -> Done:
    """A proposal: the TD's opens at once (``device`` None); a phone's waits for its
    proposer's button (its claim)."""
    profile, round_no = board.profile, board.rnd.number
    _ended(tx, round_no, table)
    _tidy(tx, profile, round_no, table)
    moment = moment_at(board, table, tx.now)
    rows = tx.votes(round_no, table)
    claims = tx.claims(round_no, table)
    wanted = parse_form(form, proposer)
    chart = Chart(dict(centres), frozenset(absent), dict(previous) if previous else None)
    try:
        ballot = propose(profile, Proposal(wanted.form, wanted.powers, proposer), moment,
                         chart, history_of(rows, claims, tx.now), last_year=last_year_of(board))
    except VoteRefused as exc:
        raise refused(exc) from None
    phone = device is not None
    row = VoteRow(
        id=0, round=round_no, table=table, form=ballot.proposal.key, proposer=proposer,
        year=moment.year, season=moment.season, centres={p: chart.centres[p] for p in LETTERS},
        previous=dict(chart.previous) if chart.previous else None,
        absent=tuple(p for p in LETTERS if p in chart.absent), voters=ballot.voters, voted=(),
        state="proposed" if phone else "open", why="", headline="", chart_year=None,
        vetoed_by=None, proposed_at=tx.now, proposed_by=by,
        opened_at=None if phone else tx.now, closed_at=None, closed_by=None, undone_at=None,
        undone_by=None)
    vid = tx.add(row)
    row = replace(row, id=vid)
    who: Said | str = said("{power} ({by})", power=said_power(proposer), by=by) \
        if proposer and phone else said_power(proposer) if proposer else \
        said("the TD") if by == BY_TD else by
    where = {"round": round_no, "table": table, "who": who,
             "proposal": ballot.proposal.said, "period": moment.period_said}
    tx.log(said("round {round} table {table}: {who} proposed {proposal}, {period}", **where)
           if phone else
           said("round {round} table {table}: {who} proposed {proposal}, {period}: the "
                "vote is open", **where), subject(round_no, table))
    token: str | None = None
    conflict: Said | None = None
    if phone and proposer is not None and device is not None:
        token, conflict = _add_claim(tx, row, proposer, "propose", device)
    else:
        _settle(tx, board, row, by)
    return Done(_vote_now(tx, board, row), token, conflict)


def _add_claim(tx: VoteTx, row: VoteRow, power: str, choice: str,
               device: str) -> tuple[str, Said | None]:
    """A phone's claim for ``power``; another phone's waiting claim for it drops both (the
    same phone choosing again replaces its own)."""
    token = secrets.token_urlsafe(16)
    conflict: Said | None = None
    for c in tx.claims(row.round, row.table):
        if c.power != power or c.state != "waiting" or lapsed(c, tx.now):
            continue
        if c.device == device:
            tx.settle_claim(c.token, "refused", "this phone chose again")
        else:
            conflict = conflict_said(power)
            tx.settle_claim(c.token, "conflict", kept_why(conflict))
    tx.add_claim(ClaimRow(token, row.id, row.round, row.table, power, choice, device, tx.now,
                          "conflict" if conflict else "waiting",
                          kept_why(conflict) if conflict else "", None))
    if conflict:
        tx.log(said("round {round} table {table}: two phones chose for {power}: choose "
                    "again, on one phone", round=row.round, table=row.table,
                    power=said_power(power)), subject(row.round, row.table))
    return token, conflict


def add_claim(tx: VoteTx, board: Board, table: int, vid: int, power: str, choice: Choice,
              device: str) -> Done:
    """A phone chooses for ``power`` on vote ``vid``: refused at once where the rules
    would refuse it at the button, else held for the button."""
    row = _live(tx, board, table, vid)
    if row.state == "proposed":
        raise Refused(409, said("the proposal waits for {power}'s button on the clock: vote "
                                "once it is open", power=said_power(row.proposer or "A")))
    _current(tx, board, row)
    try:
        cast(ballot_of(board.profile, row, tx.secrets(row.id)), power, choice)
    except VoteRefused as exc:
        raise refused(exc) from None
    token, conflict = _add_claim(tx, row, power, choice, device)
    return Done(_vote_now(tx, board, row), token, conflict)


def _live(tx: VoteTx, board: Board, table: int, vid: int) -> VoteRow:
    _tidy(tx, board.profile, board.rnd.number, table)
    row = tx.vote(vid)
    if row is None or row.round != board.rnd.number or row.table != table:
        raise Refused(404, said("no vote {vote} at table {table} in round {round}", vote=vid,
                                table=table, round=board.rnd.number))
    if not row.live:
        # a closed vote has its headline; its state (English, the API's) stands in without
        raise Refused(409, said("the vote on {proposal} is over: {headline}",
                                proposal=proposal_of(row).said,
                                headline=headline_said(row.headline or row.state)))
    return row


def _current(tx: VoteTx, board: Board, row: VoteRow) -> None:
    """Only the vote under way takes votes: graduated20's concessions go first."""
    line = line_up(board.profile, tx.votes(row.round, row.table),
                   tx.claims(row.round, row.table), tx.now)
    if line.current is not None and line.current.id != row.id:
        rules = rules_for(board.profile)[0]
        tag = f"{board.profile.id} ({rules.rule})" if rules.rule else board.profile.id
        raise Refused(409, said("{tag}: the vote on {proposal} comes first", tag=tag,
                                proposal=proposal_of(line.current).said))


def take_press(tx: VoteTx, board: Board, table: int, press: VotePress) -> str:
    """A power's button pressed while a phone's choice waited for it: the choice counts
    (a proposal opens, a vote is cast, a veto ends it). Returns "" when taken, else why
    not (one line for the clock's log)."""
    round_no = board.rnd.number
    claims = tx.claims(round_no, table)
    done = next((c for c in claims if c.press == press.id), None)
    if done is not None:  # sent again from the clock's outbox: the same answer
        return why_words(done.why) if done.state == "refused" else ""
    _tidy(tx, board.profile, round_no, table)
    at = press.at if press.at.tzinfo is None else \
        press.at.astimezone(UTC).replace(tzinfo=None)
    when = min(at, tx.now)
    name = POWERS[press.power]
    mine = [c for c in claims if c.power == press.power and c.state == "waiting"]
    good = [c for c in mine if when <= c.at + LAPSE]
    if not good:
        if mine:
            return f"{name}'s choice waited more than {LAPSE.seconds // 60} minutes: choose " \
                   "again on the phone"
        return f"no phone's choice waits for {name}'s button"
    claim = next((c for c in good if c.vote == press.vote), good[-1])
    row = tx.vote(claim.vote)
    if row is None or not row.live:
        tx.settle_claim(claim.token, "refused", "the vote is over", press.id)
        return "the vote is over"
    if claim.choice == "propose":
        tx.update(row.id, state="open", opened_at=tx.now)
        tx.settle_claim(claim.token, "cast", "", press.id)
        tx.log(said("round {round} table {table}: {power}'s button opened the vote on "
                    "{proposal}", round=round_no, table=table, power=said_power(press.power),
                    proposal=proposal_of(row).said), subject(round_no, table))
        _settle(tx, board, replace(row, state="open", opened_at=tx.now), row.proposed_by)
        return ""
    try:
        _current(tx, board, row)
        ballot = cast(ballot_of(board.profile, row, tx.secrets(row.id)), press.power,
                      claim.choice)  # type: ignore[arg-type]
    except (VoteRefused, Refused) as exc:
        tx.settle_claim(claim.token, "refused", kept_why(exc), press.id)
        return str(exc)  # the clock's log: English
    tx.settle_claim(claim.token, "cast", "", press.id)
    if ballot.vetoed_by is None:
        tx.keep_secret(row.id, press.power, claim.choice or "")
        tx.update(row.id, voted=ballot.voted)
    else:
        tx.log(said("round {round} table {table}: {power} vetoed {proposal}", round=round_no,
                    table=table, power=said_power(press.power), proposal=proposal_of(row).said),
               subject(round_no, table))
    _close_if_done(tx, board, row, ballot, by=f"the players of table {table}")
    return ""


def _settle(tx: VoteTx, board: Board, row: VoteRow, by: str) -> None:
    """A vote just opened may be decided at once (every voter's vote given by the rule)."""
    ballot = ballot_of(board.profile, row, tx.secrets(row.id))
    _close_if_done(tx, board, row, ballot, by=by)


def _close_if_done(tx: VoteTx, board: Board, row: VoteRow, ballot: Ballot, by: str) -> None:
    result = outcome(ballot)
    if result is not None:
        close(tx, row, result, ballot.voted, by)


def close(tx: VoteTx, row: VoteRow, result: Outcome, voted: Sequence[str], by: str) -> None:
    """The vote's result kept, its secret votes gone; a passed vote ends the table's game,
    and the other proposals at the table fall."""
    state = "passed" if result.passes else "vetoed" if result.vetoed_by else "failed"
    tx.update(row.id, state=state, why=result.why, headline=result.headline,
              chart_year=result.chart_year, vetoed_by=result.vetoed_by, voted=tuple(voted),
              closed_at=tx.now, closed_by=by, opened_at=row.opened_at or tx.now)
    tx.forget(row.id)
    for c in tx.claims(row.round, row.table):
        if c.vote == row.id and c.state == "waiting":
            tx.settle_claim(c.token, "refused", f"the vote is over: {result.headline}")
    where = {"round": row.round, "table": row.table, "proposal": proposal_of(row).said,
             "period": moment_of(row).period_said,
             "why": result.said if result.said is not None else result.why}
    tx.log(said("round {round} table {table}: {proposal} (proposed by {power}, {period}): "
                "{why}", power=said_power(row.proposer), **where) if row.proposer else
           said("round {round} table {table}: {proposal} ({period}): {why}", **where),
           subject(row.round, row.table))
    if result.passes:
        for other in tx.votes(row.round, row.table):
            if other.live and other.id != row.id:
                _drop(tx, other, f"Not voted: {result.headline}", by)


def _drop(tx: VoteTx, row: VoteRow, headline: str, by: str) -> None:
    tx.update(row.id, state="cancelled", headline=headline, why=headline.lower(),
              closed_at=tx.now, closed_by=by)
    tx.forget(row.id)
    for c in tx.claims(row.round, row.table):
        if c.vote == row.id and c.state == "waiting":
            tx.settle_claim(c.token, "refused", headline)


# --- the TD's hand ----------------------------------------------------------------------


def td_count(tx: VoteTx, board: Board, vid: int, votes: Mapping[str, Choice]) -> TableVote:
    """The TD counts a whole vote by hand (a table without phones): a veto, or every
    voter's word; the votes cast by phone so far are set aside."""
    row = _td_live(tx, board, vid)
    _current(tx, board, row)
    ballot = ballot_of(board.profile, row, {})
    try:
        ballot = cast_all(ballot, votes)
        result = counted(ballot)
    except VoteRefused as exc:
        raise refused(exc) from None
    opened = replace(row, opened_at=row.opened_at or tx.now)
    tx.log(said("round {round} table {table}: the TD counted the vote by hand",
                round=row.round, table=row.table), subject(row.round, row.table))
    close(tx, opened, result, ballot.voted, BY_TD)
    return _vote_now(tx, board, row)


def td_veto(tx: VoteTx, board: Board, vid: int, power: str) -> TableVote:
    row = _td_live(tx, board, vid)
    try:
        ballot = veto(ballot_of(board.profile, row, tx.secrets(row.id)), power)
    except VoteRefused as exc:
        raise refused(exc) from None
    tx.log(said("round {round} table {table}: the TD recorded {power}'s veto",
                round=row.round, table=row.table, power=said_power(power)),
           subject(row.round, row.table))
    _close_if_done(tx, board, row, ballot, BY_TD)
    return _vote_now(tx, board, row)


def td_cancel(tx: VoteTx, board: Board, vid: int) -> TableVote:
    row = _td_live(tx, board, vid)
    _drop(tx, row, "Cancelled by the TD: the game goes on", BY_TD)
    tx.log(said("round {round} table {table}: the TD cancelled the vote on {proposal}",
                round=row.round, table=row.table, proposal=proposal_of(row).said),
           subject(row.round, row.table))
    return _vote_now(tx, board, row)


def td_undo(tx: VoteTx, board: Board, vid: int) -> TableVote:
    """Undo a closed vote: a passed one's end of the game goes (the game resumes), a failed
    one no longer counts against the limits; the record keeps that it was undone."""
    row = tx.vote(vid)
    if row is None or row.round != board.rnd.number:
        raise Refused(404, said("no vote {vote} in round {round}", vote=vid,
                                round=board.rnd.number))
    if row.live:
        raise Refused(409, said("the vote is under way: cancel it instead"))
    if row.undone_at is not None:
        raise Refused(409, said("the vote on {proposal} is undone already",
                                proposal=proposal_of(row).said))
    tx.update(row.id, undone_at=tx.now, undone_by=BY_TD)
    # the result's headline as the record keeps it (English)
    where = {"round": row.round, "table": row.table, "proposal": proposal_of(row).said,
             "headline": row.headline}
    tx.log(said("round {round} table {table}: the TD undid the vote on {proposal} "
                "({headline}): the game resumes", **where) if row.state == "passed" else
           said("round {round} table {table}: the TD undid the vote on {proposal} "
                "({headline})", **where), subject(row.round, row.table))
    return _vote_now(tx, board, row)


def _td_live(tx: VoteTx, board: Board, vid: int) -> VoteRow:
    row = tx.vote(vid)
    if row is None or row.round != board.rnd.number:
        raise Refused(404, said("no vote {vote} in round {round}", vote=vid,
                                round=board.rnd.number))
    return _live(tx, board, row.table, vid)


__all__ = [
    "BY_TD", "LAPSE", "Done", "Line", "add_claim", "claim_state", "close", "conflict_line",
    "conflict_said",
    "game_over", "history", "history_of", "line_up", "moment_at", "open_proposal", "passed",
    "phone_vote", "press_line", "shown", "subject", "table_vote", "table_votes", "take_press",
    "kept_why", "td_cancel", "td_count", "td_undo", "td_veto", "why_words",
]


def show_code(tx: VoteTx, board: Board, table: int) -> datetime:
    """The TD asks the table's clock to show its vote page's QR code for ``CODE_SHOWN``
    (players who want to propose a game end and have not found the page); logged.
    Returns until when (hub time)."""
    until = tx.now + CODE_SHOWN
    tx.show_code(board.rnd.number, table, until)
    tx.log(said("Table {table}: the vote code shown on the clock for {minutes} minutes",
                table=table, minutes=int(CODE_SHOWN.total_seconds()) // 60),
           subject(board.rnd.number, table))
    return until

"""Game-end votes in the store (``dipclock.votes`` has the rules; ``server.votedesk`` runs
them; here they are kept).

Three tables (version 17): ``votes``, one row per proposal, kept for the record (its moment,
its board, its result, who voted and never how); ``vote_secrets``, the votes cast in an open
ballot, deleted in the transaction that closes it; ``vote_claims``, a phone's choice for a
power waiting for that power's button on the clock, its choice forgotten when the ballot
closes. Each change (a proposal, a claim, a press, the TD's count) reads what it needs and
writes in one transaction (``VoteTx``), so a power cut leaves all of it or none, and two
phones cannot both act on one state.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, TypeVar

from server.logline import Summary, kept
from server.store.base import Base

T = TypeVar("T")

_VOTE_COLUMNS = ("id, round, table_no, form, proposer, year, season, centres, previous, "
                 "absent, voters, voted, state, why, headline, chart_year, vetoed_by, "
                 "proposed_at, proposed_by, opened_at, closed_at, closed_by, undone_at, "
                 "undone_by")
_CLAIM_COLUMNS = "token, vote, round, table_no, power, choice, device, at, state, why, press"


@dataclass(frozen=True)
class VoteRow:
    """One proposal as stored. ``state``: ``proposed`` (a phone's, waiting for its
    proposer's button), ``open``, then ``passed``, ``failed``, ``vetoed`` or ``cancelled``.
    ``voted``: who has voted, never how. Times are naive UTC."""

    id: int
    round: int
    table: int
    form: str
    proposer: str | None
    year: int
    season: str
    centres: dict[str, int]
    previous: dict[str, int] | None
    absent: tuple[str, ...]
    voters: tuple[str, ...]
    voted: tuple[str, ...]
    state: str
    why: str
    headline: str
    chart_year: int | None
    vetoed_by: str | None
    proposed_at: datetime
    proposed_by: str
    opened_at: datetime | None
    closed_at: datetime | None
    closed_by: str | None
    undone_at: datetime | None
    undone_by: str | None

    @property
    def live(self) -> bool:
        """Proposed or open: not yet closed."""
        return self.state in ("proposed", "open")


@dataclass(frozen=True)
class ClaimRow:
    """A phone's choice for a power on a vote. ``state``: ``waiting`` for the power's button,
    ``cast`` (the button was pressed and the choice counted), ``conflict`` (another phone
    chose for the power too: both dropped), ``refused`` (the rules refused it at the
    press). A waiting claim older than ``server.votedesk.LAPSE`` has lapsed. ``choice``:
    None once the ballot has closed (the secret goes with it)."""

    token: str
    vote: int
    round: int
    table: int
    power: str
    choice: str | None
    device: str
    at: datetime
    state: str
    why: str
    press: str | None


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _vote(row: tuple[Any, ...]) -> VoteRow:
    (i, rnd, table, form, proposer, year, season, centres, previous, absent, voters, voted,
     state, why, headline, chart_year, vetoed_by, proposed_at, proposed_by, opened_at,
     closed_at, closed_by, undone_at, undone_by) = row
    return VoteRow(
        int(i), int(rnd), int(table), form, proposer, int(year), season, json.loads(centres),
        json.loads(previous) if previous else None, tuple(json.loads(absent)),
        tuple(json.loads(voters)), tuple(json.loads(voted)), state, why, headline,
        chart_year, vetoed_by, datetime.fromisoformat(proposed_at), proposed_by,
        _time(opened_at), _time(closed_at), closed_by, _time(undone_at), undone_by)


def _claim(row: tuple[Any, ...]) -> ClaimRow:
    token, vote, rnd, table, power, choice, device, at, state, why, press = row
    return ClaimRow(token, int(vote), int(rnd), int(table), power, choice, device,
                    datetime.fromisoformat(at), state, why, press)


def _cell(name: str, value: object) -> object:
    """A field as its column holds it: charts and lists as JSON, times as ISO text."""
    if name in ("centres", "previous") and value is not None:
        return json.dumps(value, sort_keys=True)
    if name in ("absent", "voters", "voted"):
        return json.dumps(list(value))  # type: ignore[call-overload]
    if isinstance(value, datetime):
        return value.isoformat()
    return value


_COLUMN = {f.name: ("table_no" if f.name == "table" else f.name) for f in fields(VoteRow)}


class VoteTx:
    """The votes' rows inside one transaction: what a change reads, it reads here, so its
    check and its write see the same state."""

    def __init__(self, db: sqlite3.Connection, now: datetime) -> None:
        self.db, self.now = db, now

    def votes(self, round_no: int, table: int | None = None) -> list[VoteRow]:
        """Round ``round_no``'s proposals (at ``table``), oldest first."""
        return _votes(self.db, round_no, table)

    def vote(self, vid: int) -> VoteRow | None:
        row = self.db.execute(f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = ?",
                              (vid,)).fetchone()
        return _vote(row) if row else None

    def add(self, row: VoteRow) -> int:
        """Keep a new proposal (``row.id`` is ignored); returns its id."""
        names = [f.name for f in fields(VoteRow) if f.name != "id"]
        cur = self.db.execute(
            f"INSERT INTO votes({', '.join(_COLUMN[n] for n in names)}) "
            f"VALUES({', '.join('?' * len(names))})",
            [_cell(n, getattr(row, n)) for n in names])
        return int(cur.lastrowid or 0)

    def update(self, vid: int, **changes: object) -> None:
        """Set some of a proposal's fields (by ``VoteRow``'s names)."""
        sets = ", ".join(f"{_COLUMN[n]} = ?" for n in changes)
        self.db.execute(f"UPDATE votes SET {sets} WHERE id = ?",
                        [*(_cell(n, v) for n, v in changes.items()), vid])

    def secrets(self, vid: int) -> dict[str, str]:
        """The votes cast so far in an open ballot: for counting, never for showing."""
        return dict(self.db.execute("SELECT power, choice FROM vote_secrets WHERE vote = ?",
                                    (vid,)).fetchall())

    def keep_secret(self, vid: int, power: str, choice: str) -> None:
        self.db.execute("INSERT INTO vote_secrets(vote, power, choice) VALUES(?, ?, ?)",
                        (vid, power, choice))

    def forget(self, vid: int) -> None:
        """The ballot closed: its votes go, and so do its claims' choices (a claim's
        state stays, for the phone that asks; it never said how but to its phone)."""
        self.db.execute("DELETE FROM vote_secrets WHERE vote = ?", (vid,))
        self.db.execute("UPDATE vote_claims SET choice = NULL WHERE vote = ?", (vid,))

    def claims(self, round_no: int, table: int) -> list[ClaimRow]:
        """The table's claims this round, oldest first."""
        rows = self.db.execute(f"SELECT {_CLAIM_COLUMNS} FROM vote_claims WHERE round = ? "
                               "AND table_no = ? ORDER BY at, token", (round_no, table))
        return [_claim(r) for r in rows]

    def claim(self, token: str) -> ClaimRow | None:
        row = self.db.execute(f"SELECT {_CLAIM_COLUMNS} FROM vote_claims WHERE token = ?",
                              (token,)).fetchone()
        return _claim(row) if row else None

    def add_claim(self, c: ClaimRow) -> None:
        self.db.execute(
            f"INSERT INTO vote_claims({_CLAIM_COLUMNS}) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (c.token, c.vote, c.round, c.table, c.power, c.choice, c.device,
             c.at.isoformat(), c.state, c.why, c.press))

    def settle_claim(self, token: str, state: str, why: str = "",
                     press: str | None = None) -> None:
        self.db.execute("UPDATE vote_claims SET state = ?, why = ?, press = ? WHERE token = ?",
                        (state, why, press, token))

    def show_code(self, round_no: int, table: int, until: datetime) -> None:
        """The table's clock shows its vote page's QR code until ``until`` (the TD asked):
        one meta row per table (``code_key``), so no schema step; replaced when asked
        again."""
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                        (code_key(round_no, table), until.isoformat()))

    def log(self, summary: Summary, subject: str) -> None:
        """A line of the hub's log (never a player's vote: a result, a proposal, the TD's
        action)."""
        self.db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                        "VALUES(?, ?, ?, ?, ?)",
                        (self.now.isoformat(), "vote", str(summary), subject, kept(summary)))


def code_key(round_no: int, table: int) -> str:
    """The meta key of a table's vote code (``VoteTx.show_code``): "vote_code 2/14"."""
    return f"vote_code {round_no}/{table}"


def _votes(db: sqlite3.Connection, round_no: int | None, table: int | None = None
           ) -> list[VoteRow]:
    where, args = [], []
    if round_no is not None:
        where.append("round = ?")
        args.append(round_no)
    if table is not None:
        where.append("table_no = ?")
        args.append(table)
    rows = db.execute(f"SELECT {_VOTE_COLUMNS} FROM votes"
                      + (" WHERE " + " AND ".join(where) if where else "")
                      + " ORDER BY id", args).fetchall()
    return [_vote(r) for r in rows]


class Votes(Base):
    """The game-end votes: read for the snapshots and the record, changed by ``vote_change``."""

    def votes(self, round_no: int | None = None, table: int | None = None) -> list[VoteRow]:
        """The proposals (of round ``round_no``, at ``table``), oldest first."""
        with self._lock:
            return _votes(self._db, round_no, table)

    def passed_votes(self, round_no: int) -> list[VoteRow]:
        """Round ``round_no``'s votes that ended a game and stand (not undone)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_VOTE_COLUMNS} FROM votes WHERE round = ? AND state = 'passed' "
                "AND undone_at IS NULL ORDER BY id", (round_no,)).fetchall()
        return [_vote(r) for r in rows]

    def read_votes(self, now: datetime, work: Callable[[VoteTx], T]) -> T:
        """``work`` on one consistent read of the votes (no transaction is written)."""
        with self._lock:
            return work(VoteTx(self._db, now))

    def vote_change(self, now: datetime, work: Callable[[VoteTx], T], *, subject: str,
                    base: int | None = None, action: bool = True) -> T:
        """``work`` in one transaction that bumps ``seq`` (the table's screen shows the
        vote); ``action``: a TD's (its log lines written by ``work``), checked against the
        screen it was made from (``base``, ``server.stale``)."""
        with self.change(now, "vote" if action else None, base=base, log=False,
                         subject=subject) as db:
            return work(VoteTx(db, now))

    def vote_codes(self, round_no: int) -> dict[int, datetime]:
        """Until when each table of round ``round_no`` shows its vote code, where the TD
        asked for it (run out or not: the reader compares with its own time)."""
        prefix = code_key(round_no, 0)[:-1]
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?",
                                    (len(prefix), prefix)).fetchall()
        return {int(key[len(prefix):]): datetime.fromisoformat(value) for key, value in rows}

    def vote_row(self, vid: int) -> VoteRow | None:
        with self._lock:
            return VoteTx(self._db, datetime.min).vote(vid)

    def vote_claim(self, token: str) -> ClaimRow | None:
        with self._lock:
            return VoteTx(self._db, datetime.min).claim(token)


__all__ = ["ClaimRow", "VoteRow", "VoteTx", "Votes"]

"""Replacements in the store: a power gone to another player, or into civil disorder, from
a phase (``dipclock.replacements`` has the rules; here they are kept).

A record is checked against the round's seating and the other records in the same
transaction that writes it, so two phones cannot both give one power at one phase. Each
change bumps ``seq``: the tables' snapshots name the player who plays a power now.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime

from dipclock.i18n import said
from dipclock.powers import POWERS
from dipclock.replacements import Replacement, ReplacementError
from dipclock.schedule import PhaseRef
from dipclock.sentences import phase, power
from server.logline import kept
from server.store.base import Base
from server.store.errors import StoreConflict

#: checks a new record against the others and the seating (raises ``ReplacementError``)
Check = Callable[[Replacement, list[Replacement], dict[int, dict[str, str]]], None]


class Replacements(Base):
    """The TD's replacements, by id."""

    def replacements(self, round_no: int | None = None) -> list[tuple[int, Replacement]]:
        """Every record (of round ``round_no``), by round, table, power and phase."""
        with self._lock:
            return _read(self._db, round_no)

    def add_replacement(self, new: Replacement, now: datetime, check: Check, *,
                        base: int | None = None) -> int:
        """Keep ``new`` if ``check`` passes it against this round's seating and records as
        they are in this transaction (else ``StoreConflict`` with why); returns its id."""
        subject = f"replacement {new.round}"
        with self.change(now, "replacement", "", base=base, log=False,
                         subject=subject) as db:
            seated: dict[int, dict[str, str]] = {}
            for table, power, player in db.execute(
                    "SELECT table_no, power, player FROM seating WHERE round = ?",
                    (new.round,)):
                seated.setdefault(int(table), {})[power] = player
            try:
                check(new, [r for _, r in _read(db, new.round)], seated)
            except ReplacementError as exc:
                raise StoreConflict(exc) from None
            cur = db.execute(
                "INSERT INTO replacements(round, table_no, power, phase, player, share) "
                "VALUES(?, ?, ?, ?, ?, ?)", (new.round, new.table, new.power,
                                             new.phase.code, new.player, new.share))
            line = said("replacement: {power} at round {round} table {table}: {who} from "
                        "{phase}", **_where(new))
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "replacement", str(line), subject, kept(line)))
            return int(cur.lastrowid or 0)

    def undo_replacement(self, rid: int, now: datetime, *,
                         base: int | None = None) -> Replacement:
        """Remove record ``rid``; returns it. ``StoreConflict`` if there is none."""
        with self.change(now, "replacement", "", base=base, log=False,
                         subject="replacement") as db:
            found = dict(_read(db, None, rid))
            if rid not in found:
                raise StoreConflict(said("no replacement {number}: reload the list",
                                             number=rid))
            gone = found[rid]
            db.execute("DELETE FROM replacements WHERE id = ?", (rid,))
            line = said("replacement undone: {power} at round {round} table {table}: {who} "
                        "from {phase}", **_where(gone))
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "replacement", str(line), f"replacement {gone.round}",
                        kept(line)))
        return gone


def _where(r: Replacement) -> dict[str, object]:
    """A replacement's log line's fields ("Germany at round 2 table 4: Ann from Fall
    1903"), its power and phase in the reader's words."""
    return {"power": power(r.power), "round": r.round, "table": r.table,
            "who": r.player if r.player is not None else said("civil disorder"),
            "phase": phase(r.phase.year, r.phase.season)}


def _read(db: sqlite3.Connection, round_no: int | None,
          rid: int | None = None) -> list[tuple[int, Replacement]]:
    where, args = [], []
    if round_no is not None:
        where.append("round = ?")
        args.append(round_no)
    if rid is not None:
        where.append("id = ?")
        args.append(rid)
    rows = db.execute(
        "SELECT id, round, table_no, power, phase, player, share FROM replacements"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY round, table_no, power, id", args).fetchall()
    out = [(int(i), Replacement(round=int(r), table=int(t), power=p,
                                phase=PhaseRef.parse(ph), player=who, share=share))
           for i, r, t, p, ph, who, share in rows if p in POWERS]
    return sorted(out, key=lambda x: (x[1].round, x[1].table, x[1].power, x[1].phase.index))


__all__ = ["Replacements"]

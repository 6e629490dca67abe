"""The register in the store: the TD's mark of each person for each round.

What a mark may be and what a round's register gives the seating are the core's
(``dipclock.roster.register``); here the marks are kept, each change one transaction with
its log line (action ``register``), checked against the round as it is in that
transaction: a round whose seating was called meanwhile refuses a person marked present.

A mark's subject (``server.stale``) is the one person in the one round, so two phones
marking different people never refuse each other; the same person marked from a screen
that did not show the other phone's mark is refused with what it was.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from dipclock.i18n import Said, said
from dipclock.roster import Person
from dipclock.roster.register import (
    WORDS,
    Marks,
    RegisterError,
    Status,
    check_mark,
    later_marks,
    preregistered_to_mark,
    status_of,
)
from server.logline import kept
from server.store.base import Base
from server.store.errors import StoreConflict
from server.store.roster import _read


class Register(Base):
    """Each person's mark for each round, read as the core reads it (``status_of``)."""

    def marks(self, up_to: int | None = None) -> dict[tuple[int, int], Status]:
        """The TD's marks, (round, person id) -> status, of the rounds to ``up_to``."""
        with self._lock:
            return _marks(self._db, up_to)

    def called(self, round_no: int) -> bool:
        """Has round ``round_no``'s board call been made (a seating called for it)?"""
        return self._one("SELECT 1 FROM seating WHERE round = ? LIMIT 1", (round_no,)) \
            is not None

    def mark(self, round_no: int, person_id: int, status: Status, now: datetime, *,
             base: int | None = None) -> tuple[Person, Status]:
        """Mark person ``person_id`` ``status`` in round ``round_no``; returns who and what
        they were. A withdrawal clears their marks of later rounds (withdrawn "from this
        round on"). Refused (``StoreConflict``) for a person not on the roster, or present
        after the board call (``check_mark``)."""
        with self.change(now, "register", "", bump=False, base=base, log=False,
                         subject=f"register {round_no}/{person_id}") as db:
            who = dict(_read(db)).get(person_id)
            if who is None:
                raise StoreConflict(said("no person {number} on the roster: reload the "
                                        "roster", number=person_id))
            marks = _marks(db, None)
            was = status_of(marks, round_no, person_id)
            _check(db, who, round_no, status)
            db.execute("INSERT OR REPLACE INTO register(round, person, status) "
                       "VALUES(?, ?, ?)", (round_no, person_id, status))
            cleared = later_marks(marks, round_no, person_id) if status == "withdrawn" else []
            db.executemany("DELETE FROM register WHERE round = ? AND person = ?",
                           [(r, person_id) for r in cleared])
            # the status in the catalogue's words (``server.routers.register.SAID``)
            line = said("register: round {round}: {name} {status}", round=round_no,
                        name=who.name, status=Said(WORDS[status]))
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "register", str(line),
                        f"register {round_no}/{person_id}", kept(line)))
        return who, was

    def mark_preregistered(self, round_no: int, now: datetime, *,
                           base: int | None = None) -> list[str]:
        """Every pre-registered person not yet marked (and not withdrawn) present in round
        ``round_no``, in one write; returns their names. Refused after the board call."""
        with self.change(now, "register", "", bump=False, base=base, log=False,
                         subject=f"register {round_no}") as db:
            people = _read(db)
            ids = preregistered_to_mark(people, _marks(db, None), round_no)
            names = dict(people)
            if ids:
                _check(db, names[ids[0]], round_no, "present")
            db.executemany("INSERT OR REPLACE INTO register(round, person, status) "
                           "VALUES(?, ?, 'present')", [(round_no, i) for i in ids])
            if ids:
                line = said("register: round {round}: {n} pre-registered marked present",
                            round=round_no, n=len(ids))
                db.execute(
                    "INSERT INTO audit(at, action, summary, subject, said) "
                    "VALUES(?, ?, ?, ?, ?)",
                    (now.isoformat(), "register", str(line), f"register {round_no}",
                     kept(line)))
        return [names[i].name for i in ids]


    def mark_lines(self, round_no: int) -> list[tuple[int, datetime, Status]]:
        """Each one-person mark of round ``round_no``, oldest first: (person id, when,
        status), read from the log (the register keeps the latest mark only); what
        ``signed_up_late`` reads."""
        words = {w: s for s, w in WORDS.items()}
        out: list[tuple[int, datetime, Status]] = []
        for at, summary, subject in self._all(
                "SELECT at, summary, subject FROM audit WHERE action = 'register' "
                "AND subject LIKE ? ORDER BY id", (f"register {round_no}/%",)):
            status = next((s for w, s in words.items() if summary.endswith(f" {w}")), None)
            person = subject.rpartition("/")[2]
            if status is not None and person.isdigit():
                out.append((int(person), datetime.fromisoformat(at), status))
        return out


def _check(db: sqlite3.Connection, who: Person, round_no: int, status: Status) -> None:
    called = db.execute("SELECT 1 FROM seating WHERE round = ? LIMIT 1",
                        (round_no,)).fetchone() is not None
    try:
        check_mark(who, round_no, status, called)
    except RegisterError as exc:
        raise StoreConflict(exc) from None


def _marks(db: sqlite3.Connection, up_to: int | None) -> dict[tuple[int, int], Status]:
    rows = db.execute("SELECT round, person, status FROM register"
                      + (" WHERE round <= ?" if up_to is not None else ""),
                      (up_to,) if up_to is not None else ()).fetchall()
    return {(int(r), int(p)): s for r, p, s in rows}


def statuses(people: list[tuple[int, Person]], marks: Marks,
             round_no: int) -> dict[int, Status]:
    """Every person's status in round ``round_no``, by id."""
    return {i: status_of(marks, round_no, i) for i, _ in people}


__all__ = ["Register", "statuses"]

"""Each table's clock its own credential: a clock asks, the TD approves it for a table.

A clock makes a random token, keeps it, and sends only the token's SHA-256 with its request
(``ask``); the hub answers with a short code the clock shows on its screen. The TD types
that code and a table on the dashboard, or taps the waiting request whose code the clock
shows (``approve``). From then on the token is good for that table only (``Clocks.check``),
until the TD revokes it (``revoke``). The hub keeps only the hash, so a copy of its data
dir pairs no clock; the token crosses the network only as the clock's own Authorization
header, inside HTTPS.

The hub's state is the store's ``waiting`` and ``clocks`` tables; ``Clocks`` keeps the
paired ones in memory too, because every kiosk request is checked against them.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from dipclock.i18n import said
from dipclock.sentences import plural
from server.actions import Refused
from server.store import PairedClock, Store, Waiting

#: Letters and digits nobody misreads on a screen at arm's length (no 0/O, 1/I/L, 2/Z,
#: 5/S, 8/B, G/6): the TD types what the clock shows.
CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"
CODE_LENGTH = 6  # 23**6: 148 million codes, shown as "K7P-2QX"
#: How long a request waits for the TD; the clock asks again with a new code after it.
WAITING_SECONDS = 15 * 60
#: Requests waiting at once: in the hall, and from one address (a player's laptop asking
#: in a loop only replaces its own). A clock asks once per token, and again with a new one
#: only after a restart; when the hall is full, a new request puts out the oldest of the
#: address with the most (``Store.add_waiting``), so a real clock always gets its code.
WAITING_MOST = 500
WAITING_PER_ADDRESS = 3
TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


def token_hash(token: str) -> str:
    """What the hub keeps of a clock's token (the clock sends this when it asks)."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """A code as the clock and the dashboard show it: ``K7PA2Q`` -> ``K7P-A2Q``."""
    return f"{code[:3]}-{code[3:]}"


def typed(text: str) -> str:
    """A code as the TD typed it: any case, with or without the dash or spaces."""
    return re.sub(r"[\s\-]", "", text).upper()


@dataclass
class Clocks:
    """The paired clocks by token hash, read on every kiosk request; the store holds them.

    Also the push channels each clock has open, so a revoked clock is cut off at once
    rather than at its next request."""

    by_hash: dict[str, PairedClock] = field(default_factory=dict)
    channels: dict[int, set[Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def load(cls, store: Store) -> Clocks:
        return cls({c.token_hash: c for c in store.clocks()})

    def check(self, token: str | None, table: int) -> PairedClock:
        """The clock holding ``token``, if it is paired for ``table``; else ``Refused`` with
        what the clock (and whoever reads its log) must do."""
        if not token:
            raise Refused(401, said("this clock is not paired: it shows a code for the TD to "
                                    "approve on the dashboard"))
        found = self.by_hash.get(token_hash(token))
        if found is None:
            raise Refused(401, said("this hub does not know this clock (revoked, or paired "
                                    "with another hub): pair it again"))
        if found.table != table:
            raise Refused(403, said("this clock is paired for table {paired}, not table "
                                    "{table}", paired=found.table, table=table))
        return found

    def known(self, token: str) -> PairedClock | None:
        return self.by_hash.get(token_hash(token))

    def add(self, clock: PairedClock) -> None:
        """``clock`` paired: one paired before with its id and address loses its token."""
        with self._lock:
            self.by_hash = {h: c for h, c in self.by_hash.items()
                            if (c.kiosk, c.address) != (clock.kiosk, clock.address)}
            self.by_hash[clock.token_hash] = clock

    def same_id(self, kiosk: str, address: str) -> list[PairedClock]:
        """The paired clocks with the id ``kiosk`` at another address than ``address``: a
        request saying it is one of them does not replace it (anyone may say an id)."""
        return sorted((c for c in self.by_hash.values()
                       if c.kiosk == kiosk and c.address != address), key=lambda c: c.table)

    def drop(self, clock_id: int) -> PairedClock | None:
        with self._lock:
            gone = next((c for c in self.by_hash.values() if c.id == clock_id), None)
            if gone is not None:
                self.by_hash = {h: c for h, c in self.by_hash.items() if c.id != clock_id}
            return gone

    def open_channel(self, clock_id: int, ws: Any) -> None:
        with self._lock:
            self.channels.setdefault(clock_id, set()).add(ws)

    def close_channel(self, clock_id: int, ws: Any) -> None:
        with self._lock:
            self.channels.get(clock_id, set()).discard(ws)
            if not self.channels.get(clock_id):
                self.channels.pop(clock_id, None)

    def cut(self, clock_id: int) -> list[Any]:
        """The push channels of a revoked clock, for the caller to close."""
        with self._lock:
            return list(self.channels.pop(clock_id, set()))


@dataclass(frozen=True)
class Asked:
    """What a clock is told when it asks: the code to show and how long it holds."""

    code: str
    expires_in: float


def ask(store: Store, clocks: Clocks, kiosk: str, hashed: str, wished: int | None,
        fingerprint: str | None, address: str, now: float, moment: Any) -> Asked:
    """File a clock's request (``moment``: now as a datetime, for the dashboard's list).

    Asking again with the same token (a retry after a lost reply) gives the same code; a
    token already paired is refused: the clock must not pair twice with one token."""
    if hashed in clocks.by_hash:
        raise Refused(409, said("this token is already paired: use it, or make a new one"))
    again = store.waiting_for(token_hash=hashed, now=now)
    if again is not None:
        return Asked(again.code, again.expires - now)
    for _ in range(20):  # a code clash among 500 waiting is one in 300,000
        w = Waiting(new_code(), hashed, kiosk, wished, fingerprint, address, moment,
                    now + WAITING_SECONDS)
        try:
            store.add_waiting(w, WAITING_MOST, WAITING_PER_ADDRESS, now)
        except sqlite3.IntegrityError:
            again = store.waiting_for(token_hash=hashed, now=now)
            if again is not None:  # the same request twice at once
                return Asked(again.code, again.expires - now)
            continue  # the code was taken: draw another
        return Asked(w.code, WAITING_SECONDS)
    raise Refused(503, said("no free pairing code: try again"))


Standing = Literal["waiting", "paired"]


def standing(store: Store, clocks: Clocks, token: str, now: float
             ) -> tuple[Standing, Waiting | PairedClock]:
    """Where the clock holding ``token`` stands: still waiting (its request), or paired."""
    paired = clocks.known(token)
    if paired is not None:
        return "paired", paired
    w = store.waiting_for(token_hash=token_hash(token), now=now)
    if w is None:
        raise Refused(404, said("no request of this clock is waiting (it expired, or the TD "
                                "refused it): ask again"))
    return "waiting", w


def approve(store: Store, clocks: Clocks, code: str, table: int, now: float,
            moment: Any) -> PairedClock:
    """The TD pairs the clock showing ``code`` for ``table``."""
    w = store.waiting_for(code=typed(code), now=now)
    if w is None:
        raise Refused(404, said("no clock is waiting with the code {code}: check the code on "
                                "the clock's screen (a code lasts {minutes} minutes, then the "
                                "clock shows a new one)", code=repr(code.strip()),
                                minutes=WAITING_SECONDS // 60))
    others = clocks.same_id(w.kiosk, w.address)
    summary = said("paired clock {clock} ({address}) for table {table}", clock=w.kiosk,
                   address=w.address, table=table)
    if others:  # the tables listed as the log has always listed them
        summary = said("{change}; it says the id of the clock of {tables}, which stays "
                       "paired: revoke one if they are not the same card", change=summary,
                       tables=", ".join(f"table {c.table} ({c.address})" for c in others))
    paired = store.pair(w, table, moment, summary)
    clocks.add(paired)
    return paired


def revoke(store: Store, clocks: Clocks, clock_id: int, moment: Any) -> tuple[PairedClock,
                                                                              list[Any]]:
    """The TD takes a clock's credential back; returns it and its open push channels."""
    gone = clocks.drop(clock_id)
    if gone is None:
        raise Refused(404, said("no paired clock {clock}", clock=clock_id))
    store.unpair(clock_id, moment,
                 said("revoked clock {clock} ({address}) of table {table}", clock=gone.kiosk,
                      address=gone.address, table=gone.table))
    return gone, clocks.cut(clock_id)


def refuse(store: Store, code: str) -> None:
    """The TD turns a waiting request down (a clock nobody in the hall knows)."""
    if not store.refuse_waiting(typed(code)):
        raise Refused(404, said("no clock is waiting with the code {code}",
                                code=repr(code.strip())))


def refuse_all(store: Store, moment: Any) -> int:
    """The TD turns every waiting request down at once (a flood of them); how many. A
    real clock among them asks again and shows a new code."""
    waiting = store.waiting()
    addresses = len({w.address for w in waiting})
    return store.refuse_all_waiting(
        moment, plural("refused all {count} clocks waiting to be paired, from {n} address",
                       "refused all {count} clocks waiting to be paired, from {n} addresses",
                       addresses, count=len(waiting)))


__all__ = ["CODE_ALPHABET", "Asked", "Clocks", "approve", "ask", "refuse", "refuse_all",
           "revoke", "shown", "standing", "token_hash", "typed"]

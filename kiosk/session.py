"""The kiosk's conversation with the hub, with no socket, thread or clock (sans-I/O, as h11).

``HubSession`` is fed what happened (a time reply with its four timestamps, a snapshot, an
upload reply, a connection that worked or failed) with the monotonic readings it happened
at, and answers with what to send (a ``Request``) and what to do (``Effects``: redraw, sync
or upload at once, write to the outbox). The screen reads what to show from it (``current``,
``connected``, ``verified``, ``local``, ``stamp``, ``others``). Its parts: ``clocksync``
(the time samples), ``feed`` (the snapshots), ``upload`` (the batches of presses, of
confirmations of the result sheet's lines and of vote presses); this module ties them
together where one event touches several, and keeps the connection's state.
``kiosk.hubclient`` owns the threads, httpx and websockets and does as it is told, so every
rule of docs/protocol.md is a plain unit test (tests/kiosk/test_session.py).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from dipclock.snapshot import TimeReply
from dipclock.sync import sample
from kiosk.backoff import Backoff
from kiosk.clocksync import FAST_SAMPLES, FAST_SYNC, SLOW_SYNC, ClockSync
from kiosk.feed import Feed, Received, parse_snapshot
from kiosk.outbox import StoredConfirmation, StoredPress, StoredVotePress
from kiosk.round import Round
from kiosk.upload import Uploader

#: The longest a kiosk waits before trying an unreachable hub again (its time sync and
#: its push channel): the hub is on the hall's LAN, so a hundred kiosks trying every 2 to
#: 4 s cost it at most 50 refused connections a second while it is down, and a restarted
#: hub has every table back within its own start-up plus 4 s; a longer wait keeps a table
#: off the hub for that long after the hub is back.
HUB_RETRY = 4.0

__all__ = ["CONFIRMATIONS_BATCH", "FAST_SAMPLES", "FAST_SYNC", "HUB_RETRY", "SLOW_SYNC",
           "VOTE_PRESSES_BATCH", "Backoff", "Effects", "HubSession", "Json", "Received",
           "Request", "parse_snapshot"]

log = logging.getLogger(__name__)

#: A JSON body as ``json.loads`` gives it (None: the reply had none).
Json = Any
#: Confirmations in one request: the most the hub's ``ConfirmationBatch`` takes.
CONFIRMATIONS_BATCH = 50
#: Vote presses in one request: the most the hub's ``VotePressBatch`` takes.
VOTE_PRESSES_BATCH = 50


@dataclass(frozen=True)
class Request:
    """One HTTP request for the driver to send."""

    method: Literal["GET", "POST"]
    path: str
    json: dict[str, Any] | None = None


@dataclass(frozen=True)
class Effects:
    """What the driver must do after feeding the session an event, in this order."""

    ok: bool = True  # the exchange worked (the hub answered and it was taken)
    sent: tuple[str, ...] = ()  # presses to mark sent in the outbox
    rejected: tuple[tuple[str, str], ...] = ()  # (press id, the hub's reason): flag them
    lines_taken: tuple[str, ...] = ()  # confirmations the hub took: mark them
    lines_refused: tuple[tuple[str, str], ...] = ()  # (id, the hub's reason): flag them
    votes_taken: tuple[str, ...] = ()  # vote presses the hub took: mark them
    votes_refused: tuple[tuple[str, str], ...] = ()  # (id, the hub's reason): flag them
    save_snapshot: Mapping[str, Any] | None = None  # kept for a restart without the hub
    resend: str | None = None  # send this round's presses again (a hub started afresh)
    save_wall_offset: float | None = None  # the hub-to-wall offset, for a restart
    #: (offset, rtt, kept) to post to the TD's grid (``kept``: see ``clocksync.Taken``)
    report: tuple[float, float, bool] | None = None
    sync_now: bool = False
    upload_now: bool = False
    wake: bool = False  # the screen must redraw now

    def __or__(self, other: Effects) -> Effects:
        return Effects(
            ok=self.ok and other.ok, sent=self.sent + other.sent,
            rejected=self.rejected + other.rejected,
            lines_taken=self.lines_taken + other.lines_taken,
            lines_refused=self.lines_refused + other.lines_refused,
            votes_taken=self.votes_taken + other.votes_taken,
            votes_refused=self.votes_refused + other.votes_refused,
            save_snapshot=other.save_snapshot or self.save_snapshot,
            resend=other.resend or self.resend,
            save_wall_offset=(other.save_wall_offset if other.save_wall_offset is not None
                              else self.save_wall_offset),
            report=other.report or self.report, sync_now=self.sync_now or other.sync_now,
            upload_now=self.upload_now or other.upload_now, wake=self.wake or other.wake)


class HubSession:
    """One kiosk's state of the hub protocol; every method is quick and does no I/O.

    ``wall_offset`` is the hub-to-wall offset an earlier run saved, ``stored`` the snapshot
    it saved (both from the outbox); ``rng`` jitters the retry delays.
    """

    def __init__(self, table: int, wall_offset: float | None = None, stored: Json = None,
                 rng: random.Random | None = None):
        rng = rng or random.Random()
        self.table = table
        self.clock = ClockSync(wall_offset, Backoff(1.0, HUB_RETRY, rng))
        try:
            self.feed = Feed(table, stored)
        except ValueError as exc:
            log.warning("ignoring the stored snapshot: %s", exc)
            self.feed = Feed(table)
        self.uploader = Uploader(Backoff(1.0, 60.0, rng))
        self.kiosk_id: str | None = None  # from the kiosk's status block: tells claims apart
        self.about_refused = False  # the hub refused the status report's kiosk block once
        self.reported_box: str | None = None  # the box's state in the last report the hub took
        self.ws_open = False
        self.http_ok = False
        self._push_backoff = Backoff(1.0, HUB_RETRY, rng)

    # --- what the screen reads ---------------------------------------------------------

    @property
    def received(self) -> Received | None:
        return self.feed.received

    def current(self) -> Round | None:
        return self.feed.received.round if self.feed.received else None

    @property
    def connected(self) -> bool:
        return self.ws_open or self.http_ok

    @property
    def synced(self) -> bool:
        """A sample has given an offset: ``local`` and ``stamp`` need no wall clock."""
        return self.clock.synced

    @property
    def verified(self) -> bool:
        """A sample of the hub's current clock came in (``trusted`` for the kiosk)."""
        return self.clock.verified

    @property
    def status(self) -> tuple[float, float] | None:
        """The last ``(offset, rtt)`` reported to the hub."""
        return self.clock.status

    def local(self, mono: float, wall_minus_mono: float = 0.0) -> float:
        """Hub time at ``mono``, slewed; before any sample the wall clock's guess
        (``wall_minus_mono``: a wall reading minus the monotonic one taken with it)."""
        return self.clock.local(mono, wall_minus_mono)

    def stamp(self, mono: float, wall_minus_mono: float = 0.0) -> float:
        """Hub time at ``mono`` by the best sample, unslewed: for re-stamping presses."""
        return self.clock.stamp(mono, wall_minus_mono)

    def others(self, me: str | None) -> tuple[str, ...]:
        """The other kiosks' addresses on this table (see ``kiosk.feed.Feed.others``)."""
        return self.feed.others(me)

    # --- time sync ---------------------------------------------------------------------

    def time_request(self) -> tuple[Request, int]:
        """The exchange to send, and its ticket for ``time_reply``."""
        return Request("GET", "/api/time"), self.clock.ticket()

    def time_reply(self, ticket: int, t0: float, t3: float, status: int, body: Json,
                   wall_minus_mono: float) -> Effects:
        """The hub's answer to the exchange sent at ``t0`` (monotonic), received at ``t3``.

        A sample taken across a drop of the samples (the hub's clock changed while the
        request was out) is thrown away, and the exchange run again at once.
        """
        try:
            if not 200 <= status < 300:
                raise ValueError(f"HTTP {status}")
            reply = TimeReply.model_validate(body)
        except ValueError as exc:  # pydantic's ValidationError is one
            log.debug("time sync failed: %s", exc)
            return replace(self.link("http", False), ok=False)
        taken = self.clock.take(ticket, sample(t0, reply.t1, reply.t2, t3), wall_minus_mono,
                                reply.provisional)
        if taken is None:
            return self.link("http", True) | Effects(sync_now=True)
        return Effects(report=(*taken.status, taken.kept),
                       save_wall_offset=taken.save_wall_offset) | self.link("http", True)

    def next_sync(self, ok: bool) -> float:
        return self.clock.next_wait(ok)

    def status_request(self, offset: float, rtt: float, about: Mapping[str, Any],
                       kept: bool = False) -> Request:
        """The report for the TD's grid; ``about`` is what the kiosk says of itself;
        ``kept``: to a hub whose time is provisional, the offset is from the kept time."""
        if isinstance(about.get("id"), str):
            self.kiosk_id = about["id"]
        body: dict[str, Any] = {"offset": round(offset, 6), "rtt": round(rtt, 6)}
        if kept:  # only a hub that knows the field asks for it (``TimeReply.provisional``)
            body["kept"] = True
        if about and not self.about_refused:
            body["kiosk"] = dict(about)
        return Request("POST", f"/api/tables/{self.table}/status", body)

    def status_reply(self, sent: Request, status: int, text: str) -> Request | None:
        """The report again without the kiosk block if the hub refused it (422: an older
        hub, or a value over its limits), and no block from then on: the offset matters
        more than the details. None: done."""
        if 200 <= status < 300 and sent.json is not None and "kiosk" in sent.json:
            self.reported_box = sent.json["kiosk"].get("box")
        if status == 422 and sent.json is not None and "kiosk" in sent.json:
            log.warning("hub refused this kiosk's details, reporting the offset only: %s",
                        text[:200])
            self.about_refused = True
            return replace(sent, json={k: v for k, v in sent.json.items() if k != "kiosk"})
        if not 200 <= status < 300:
            log.warning("hub refused the status report: HTTP %d %s", status, text[:200])
        return None

    def box_changed(self, connected: bool) -> Effects:
        """The button box was unplugged or plugged back: the TD's grid hears of it at once,
        not at the next periodic report (30 s). The report follows a time exchange, as
        every report does, so its offset is fresh; none if the hub has it already."""
        if self.reported_box == ("connected" if connected else "disconnected"):
            return Effects()
        return Effects(sync_now=True)

    # --- snapshots ---------------------------------------------------------------------

    def snapshot_request(self) -> Request:
        return Request("GET", f"/api/tables/{self.table}/snapshot")

    def snapshot(self, data: Json) -> Effects:
        """Take a snapshot if it is newer (``ok``: taken, the screen must be redrawn).

        A hub started afresh (a new ``hub`` id), one restored from a backup (a new
        ``restored`` id: the old hub's id, an older database) or a new ``clock`` epoch (the
        TD set the hub's time) drops the samples and the trust until a sample of the new
        clock; a new or restored hub may lack presses, so it gets this round's again (it
        keeps one of each id). The pairing stays: a restored hub took the old one's tokens.
        """
        try:
            change = self.feed.take(data)
        except ValueError as exc:
            log.warning("%s", exc)
            return Effects(ok=False)
        if change is None:
            return Effects(ok=False)
        snap = change.taken
        key = snap.key
        effects = Effects(save_snapshot=data, wake=True)
        if change.new_hub or change.new_clock:
            self.clock.drop(clock_changed=True)
            effects |= Effects(sync_now=True)
        if change.new_clock:
            log.info("the hub's time was set (clock %d): syncing afresh", snap.clock)
        if change.new_hub:
            log.info("a different hub (id %s%s): taking its snapshot, syncing afresh", snap.hub,
                     ", restored from a backup" if snap.restored else "")
            effects |= Effects(resend=key, upload_now=True)
        if change.new_round and key is not None:
            effects |= Effects(upload_now=True)  # presses refused (409) before the round
        return effects

    def next_push(self, opened: bool) -> float:
        """Seconds before the push channel is tried again (``opened``: it was open)."""
        if opened:
            self._push_backoff.reset()
        return self._push_backoff.next()

    # --- the press upload --------------------------------------------------------------

    def upload_request(self, batch: Sequence[StoredPress]) -> Request:
        return Request("POST", f"/api/tables/{self.table}/presses",
                       {"presses": [p.as_json() for p in batch]})

    def upload_reply(self, batch: Sequence[StoredPress], status: int, body: Json,
                     text: str = "") -> Effects:
        """The hub's answer to ``batch`` (``kiosk.upload``); a 5xx counts as the hub lost."""
        outcome = self.uploader.reply(batch, status, body, text)
        if outcome is None:
            return replace(self.link("http", status < 500), ok=False)
        return Effects(sent=outcome.sent, rejected=outcome.rejected) | self.link("http", True)

    # --- the confirmations of the sheet's lines ------------------------------------------

    @property
    def hub_id(self) -> str:
        """The id of the hub the round came from ("": none yet, or an older hub): only
        confirmations made on its sheets go to it."""
        received = self.feed.received
        return (received.hub or "") if received is not None else ""

    def confirmations_request(self, batch: Sequence[StoredConfirmation]) -> Request:
        return Request("POST", f"/api/tables/{self.table}/confirmations",
                       {"confirmations": [c.as_json() for c in batch]})

    def confirmations_reply(self, batch: Sequence[StoredConfirmation], status: int, body: Json,
                            text: str = "") -> Effects:
        """The hub's answer to ``batch`` (``kiosk.upload``): ``ok`` only when it answered
        every one, so one it did not name is sent again later, not at once."""
        outcome = self.uploader.confirmations(batch, status, body, text)
        if outcome is None:
            return replace(self.link("http", status < 500), ok=False)
        done = len(outcome.sent) + len(outcome.rejected) == len(batch)
        return Effects(ok=done, lines_taken=outcome.sent, lines_refused=outcome.rejected,
                       wake=True) | self.link("http", True)

    # --- the vote presses: a power's button while the table's vote waits for it -------

    def vote_presses_request(self, batch: Sequence[StoredVotePress]) -> Request:
        return Request("POST", f"/api/tables/{self.table}/votes/presses",
                       {"presses": [v.as_json() for v in batch]})

    def vote_presses_reply(self, batch: Sequence[StoredVotePress], status: int, body: Json,
                           text: str = "") -> Effects:
        """The hub's answer to ``batch`` (``kiosk.upload``), as for confirmations: ``ok``
        only when it answered every one. The screen is redrawn: "vote sent" becomes
        counted, or says why the hub refused it."""
        outcome = self.uploader.vote_presses(batch, status, body, text)
        if outcome is None:
            return replace(self.link("http", status < 500), ok=False)
        done = len(outcome.sent) + len(outcome.rejected) == len(batch)
        return Effects(ok=done, votes_taken=outcome.sent, votes_refused=outcome.rejected,
                       wake=True) | self.link("http", True)

    def next_upload(self, ok: bool) -> float:
        return self.uploader.next_wait(ok)

    # --- the connection ----------------------------------------------------------------

    def link(self, channel: Literal["ws", "http"], ok: bool) -> Effects:
        """The push channel or an HTTP exchange worked (or failed).

        The push channel dying means the hub is lost until an exchange succeeds after it
        (a frozen hub answered the last sync well). The hub going away drops the samples
        (it may come back with a new clock) but not the trust (its clock runs on); the hub
        coming back means sync and send what piled up, without waiting.

        Losing the hub starts the time sync's own search for it at once, on its backoff
        (at least every ``HUB_RETRY`` s), not at the end of a settled kiosk's 30 s wait:
        then either channel finding the hub back brings the table back. Left to the push
        channel alone, one table of a hundred once took 17 s to resync after a hub restart
        (its WebSocket's reconnection hung 14 s).
        """
        before = self.connected
        if channel == "ws":
            self.ws_open = ok
            if not ok:  # the push channel died: the hub may be gone, whatever an earlier
                self.http_ok = False  # exchange said, until a new one says otherwise
        else:
            self.http_ok = ok
        after = self.connected
        if before and not after:
            self.clock.drop(clock_changed=False)
        if before == after:
            return Effects()
        return Effects(sync_now=True, upload_now=after, wake=True)

"""The kiosk's driver of docs/protocol.md: threads, httpx and websockets around a HubSession.

Every rule (which snapshot to take, which sample to trust, what a refused upload means)
lives in the sans-I/O ``kiosk.session.HubSession``; this module only sends the requests it
describes, feeds it the replies with the monotonic readings they came at, and does what the
returned ``Effects`` say (outbox writes, wake a loop, redraw), holding one lock around each
call into the session. Three daemon threads, and the screen loop never waits on them:

* time sync (``GET /api/time``): every ``FAST_SYNC`` s for the first samples, then every
  ``SLOW_SYNC`` s, with backoff while the hub is away; after each sample the status report
  (``POST .../status``) for the TD's grid. The button box going away or coming back
  (``box_changed``) wakes it at once.
* snapshots (``WS /api/tables/{n}/ws``, else polling ``GET .../snapshot``), saved in the
  outbox so a restart without the hub shows the last schedule.
* upload (``POST .../presses``, then ``POST .../confirmations``, then ``POST
  .../votes/presses``) of every unsent outbox row; a press, a confirmation, a vote press,
  or the hub coming back, ends the wait for the next attempt.

Every request carries the clock's token (``kiosk.pairing``) and, over HTTPS, is verified
against the certificate pinned at pairing. A 401 (the TD revoked the clock) ends the
session: ``unpaired`` says why, and the kiosk pairs again. Another certificate at the hub's
address is "not this clock's hub, yet": a freshly flashed hub card at the old one's address
serves its own until the TD restores the old hub's backup on it (``server.backup``), so the
clock counts on, keeps its credential, says so (``alerts``) and keeps trying; only after
``FORGET_AFTER`` s of it, its own hub nowhere, does it forget the pairing and ask again.

A hub found by mDNS (``find``) that stays unreachable, or shows another certificate, for
``REDISCOVER_AFTER`` s is looked for again, by its id, while the clock runs (a fourth
thread): a restored hub on another card answers at another address, and the session moves
there (``move``) with the same token and pinned certificate.

Every retry waits a jittered exponential backoff, so a hall of kiosks doesn't stampede a
restarted hub. ``connected`` drives the small "hub lost" mark; the clock keeps running.
"""

from __future__ import annotations

import json
import logging
import random
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import httpx

from dipclock.hallmessage import HallMessage
from dipclock.i18n import N_, Said
from kiosk.outbox import Outbox
from kiosk.pairing import certificate_refused
from kiosk.round import Round
from kiosk.session import (
    CONFIRMATIONS_BATCH,
    FAST_SAMPLES,
    FAST_SYNC,
    SLOW_SYNC,
    VOTE_PRESSES_BATCH,
    Backoff,
    Effects,
    HubSession,
    Json,
    Request,
    parse_snapshot,
)

__all__ = ["FAST_SAMPLES", "FAST_SYNC", "SLOW_SYNC", "Backoff", "HubClient", "parse_snapshot"]

log = logging.getLogger(__name__)

Row = TypeVar("Row")  # an outbox row to upload: a press, a confirmation, a vote press

POLL_SECONDS = 5.0  # snapshot polling while the WebSocket is unavailable
TIMEOUT = 5.0
#: The push channel's keepalive: a ping every PING_SECONDS, the channel given up when its
#: pong has not come PING_TIMEOUT s later. A hub that froze (stopped, hung, its Pi's power
#: cut while the Wi-Fi holds the link) sends no close, and its kernel may keep the TCP
#: connection open, so this is how a table learns of it: within 4.5 s, not websockets'
#: default 40. A ping is a few bytes, the hub's pong costs it no Python work.
PING_SECONDS = 2.0
PING_TIMEOUT = 2.5
#: Seconds of another certificate at the hub's address, the clock's own hub answering
#: nowhere, before the clock forgets its pairing and shows a code: time for the TD to
#: restore the old hub's backup on the new card (which gives it the old certificate back).
FORGET_AFTER = 600.0
#: Seconds without the hub (or with another certificate at its address) before a clock
#: that found it by mDNS looks for it again by its id: a restored hub may be elsewhere.
REDISCOVER_AFTER = 15.0
#: Seconds between two looks of the follow thread at the hub's state and the search.
FOLLOW_EVERY = 1.0
#: The screen's alert while another certificate answers at the hub's address.
NOT_OUR_HUB = N_("The hub at this address is not the one this clock was paired with: "
                 "the TD can restore the hub backup on it")


class Finder(Protocol):
    """A search for the paired hub (``kiosk.discovery.HubFinder``): its URL once found."""

    def found(self) -> str | None: ...

    def close(self) -> None: ...


class HubClient:
    """A ``Source`` and ``TimeBase`` for the kiosk, fed by the hub."""

    def __init__(
        self,
        base_url: str,
        table: int,
        token: str,
        outbox: Outbox,
        wake: Callable[[], None] = lambda: None,
        mono: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        transport: httpx.BaseTransport | None = None,
        rng: random.Random | None = None,
        about: Callable[[], dict[str, Any]] = dict,
        verify: ssl.SSLContext | bool = True,
        find: Callable[[], Finder] | None = None,
        on_move: Callable[[str], None] = lambda url: None,
    ):
        self.base_url = base_url.rstrip("/")
        self.table = table
        self.token = token
        self.verify = verify  # the pinned certificate (``kiosk.pairing.pinned``)
        self.outbox = outbox
        #: why this clock may no longer talk to the hub ("revoked", "certificate"), or None
        self.unpaired: str | None = None
        #: since when (``mono``) the hub's address has shown another certificate, the
        #: clock's own hub answering nowhere since (None: it has not, or it answered)
        self.mismatch_since: float | None = None
        #: since when (``mono``) the hub has not answered (None: it answers)
        self.lost_since: float | None = mono()
        #: a new search for the paired hub, by mDNS (None: its address was typed)
        self._find, self._on_move = find, on_move
        self._finder: Finder | None = None
        self._transport = transport
        self._retired: list[httpx.Client] = []  # clients of addresses left: closed at close
        self._wake, self._mono, self._wall = wake, mono, wall
        self._about = about
        self._lock = threading.Lock()  # around every call into the session
        self._stop = threading.Event()
        self._kick = threading.Event()  # wakes the upload loop
        self._sync_kick = threading.Event()  # wakes the sync loop
        self.session = HubSession(table, outbox.get("hub_wall_offset"),
                                  outbox.get("hub_snapshot"), rng)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=self.base_url, headers=headers, timeout=TIMEOUT,
                                 transport=transport, verify=verify)
        self._threads: list[threading.Thread] = []
        self._ws: Any = None

    # --- what the screen loop reads -------------------------------------------------------

    def current(self) -> Round | None:
        with self._lock:
            return self.session.current()

    def hub_lost(self) -> bool:
        return not self.connected

    def message(self) -> HallMessage | None:
        """The TD's hall message of the last snapshot taken (shown or not: the screen
        decides that at its own moment, ``dipclock.hallmessage.shown``)."""
        with self._lock:
            received = self.session.received
            return received.message if received is not None else None

    @property
    def connected(self) -> bool:
        with self._lock:
            return self.session.connected

    def alerts(self) -> tuple[Said, ...]:
        """The client's alert lines for the screen: another certificate at the hub's address
        (said in the screen's language, ``Kiosk``)."""
        return (Said(NOT_OUR_HUB),) if self.mismatch_since is not None else ()

    def sent(self) -> None:
        self._kick.set()

    def sync_status(self) -> tuple[float, float] | None:
        """The last ``(offset, rtt)`` sent to the hub (docs/protocol.md), or None."""
        with self._lock:
            return self.session.status

    def local(self, mono: float) -> float:
        """Hub time at ``mono``: synced and slewed if we can, else wall clock + the last
        known offset (the wall clock is read only then)."""
        with self._lock:
            if self.session.synced:
                return self.session.local(mono)
        wall_minus_mono = self._wall() - self._mono()
        with self._lock:
            return self.session.local(mono, wall_minus_mono)

    def trusted(self) -> bool:
        """True once a sample of the hub's current clock came in during this process.

        Before it, ``local`` is the wall clock plus an offset measured in an earlier run,
        or no offset at all: a guess. A hub that goes away does not undo it (its clock runs
        on); the TD setting the hub's time (a new ``clock`` epoch) or a hub started afresh
        does, until the next sample.
        """
        with self._lock:
            return self.session.verified

    def stamp(self, mono: float) -> float:
        """Hub time at ``mono`` by the best sample, unslewed: for re-stamping presses."""
        with self._lock:
            if self.session.synced:
                return self.session.stamp(mono)
        wall_minus_mono = self._wall() - self._mono()
        with self._lock:
            return self.session.stamp(mono, wall_minus_mono)

    def others(self) -> tuple[str, ...]:
        """The addresses of the other kiosks that say they are this table, in hub order.

        Claims of the snapshot stored by an earlier run are not used; a kiosk whose
        ``about`` gives no id cannot tell itself apart and reports nothing.
        """
        with self._lock:
            received = self.session.received
            if received is None or not received.claims:
                return ()
            me = self.session.kiosk_id
        if me is None:
            block_id = self._about_block().get("id")
            me = block_id if isinstance(block_id, str) else None
        with self._lock:
            if me is not None:
                self.session.kiosk_id = me
            return self.session.others(me)

    # --- one step of each job (tests call these directly) ---------------------------------

    def sync_once(self) -> bool:
        """One time exchange; True if the hub answered."""
        with self._lock:
            request, ticket = self.session.time_request()
        t0 = self._mono()
        try:
            r = self._send(request)
            t3 = self._mono()
        except httpx.HTTPError as exc:
            log.debug("time sync failed: %s", exc)
            self._link("http", False)
            return False
        wall_minus_mono = self._wall() - self._mono()
        with self._lock:
            effects = self.session.time_reply(ticket, t0, t3, r.status_code, _json(r),
                                              wall_minus_mono)
        self._apply(effects)
        if effects.report is not None:
            self.post_status(*effects.report)
        return effects.ok

    def post_status(self, offset: float, rtt: float, kept: bool = False) -> bool:
        """Tell the TD's grid how far off this kiosk's clock was, and what it is; True on 2xx."""
        with self._lock:
            refused = self.session.about_refused
        about = {} if refused else self._about_block()
        with self._lock:
            request: Request | None = self.session.status_request(offset, rtt, about, kept)
        ok = False
        try:
            while request is not None:
                r = self._send(request)
                ok = r.is_success
                with self._lock:
                    request = self.session.status_reply(request, r.status_code, r.text)
        except httpx.HTTPError as exc:
            log.debug("status report failed: %s", exc)
            return False
        return ok

    def box_changed(self, connected: bool) -> None:
        """The button box went away or came back (``SerialButtonBox.on_change``, its reader
        thread): wake the sync loop, whose report tells the TD's grid at once."""
        with self._lock:
            effects = self.session.box_changed(connected)
        self._apply(effects)

    def accept(self, data: Json) -> bool:
        """Take a snapshot if its seq is newer; True if the screen must be redrawn."""
        with self._lock:
            effects = self.session.snapshot(data)
        if effects.ok:
            self._apply(effects)
        return effects.ok

    def fetch_snapshot(self) -> bool:
        """The polling fallback: GET the snapshot once."""
        with self._lock:
            request = self.session.snapshot_request()
        try:
            r = self._send(request)
            r.raise_for_status()
            data = r.json()
        except (httpx.HTTPError, ValueError) as exc:
            log.debug("snapshot poll failed: %s", exc)
            self._link("http", False)
            return False
        self._link("http", True)
        self.accept(data)
        return True

    def upload_once(self) -> bool:
        """POST every unsent press, then every unsent confirmation of a line of this hub's
        sheet, then every unsent press of this hub's votes; True when the outbox has none
        left afterwards."""
        s = self.session
        return (self._drain(lambda: self.outbox.unsent(limit=100), s.upload_request,
                            s.upload_reply)
                and self._drain(lambda: self.outbox.unsent_confirmations(
                    self._hub_id(), limit=CONFIRMATIONS_BATCH), s.confirmations_request,
                                s.confirmations_reply)
                and self._drain(lambda: self.outbox.unsent_vote_presses(
                    self._hub_id(), limit=VOTE_PRESSES_BATCH), s.vote_presses_request,
                                s.vote_presses_reply))

    def _hub_id(self) -> str:
        with self._lock:
            return self.session.hub_id

    def _drain(self, unsent: Callable[[], Sequence[Row]],
               request_for: Callable[[Sequence[Row]], Request],
               reply: Callable[[Sequence[Row], int, Json, str], Effects]) -> bool:
        """POST batch after batch of ``unsent`` rows until none is left (True) or the hub
        did not take one (False)."""
        while True:
            batch = unsent()
            if not batch:
                return True
            with self._lock:
                request = request_for(batch)
            try:
                r = self._send(request)
            except httpx.HTTPError as exc:
                log.debug("upload failed: %s", exc)
                self._link("http", False)
                return False
            with self._lock:
                effects = reply(batch, r.status_code, _json(r), r.text)
            self._apply(effects)
            if not effects.ok:
                return False

    # --- doing what the session says ------------------------------------------------------

    def _send(self, request: Request) -> httpx.Response:
        try:
            r = self.http.request(request.method, request.path, json=request.json)
        except httpx.HTTPError as exc:
            if certificate_refused(exc):
                self._mismatched()
            raise
        self._matched()
        if r.status_code == 401 and request.path != "/api/time":
            self._unpair("revoked", f"the hub no longer takes this clock's token: {r.text[:200]}")
        return r

    def _mismatched(self) -> None:
        """Another certificate at the hub's address: said on the screen, and the pairing
        forgotten once it has lasted ``FORGET_AFTER`` s with the clock's own hub nowhere."""
        now = self._mono()
        since = self.mismatch_since
        if since is None:
            log.warning("the hub at %s is not the one this clock was paired with (another "
                        "certificate): counting on, trying again", self.base_url)
            self.mismatch_since = now
            self._wake()
        elif now - since >= FORGET_AFTER:
            self._unpair("certificate", f"the hub's certificate has not been the one this "
                                        f"clock was paired with for {now - since:.0f} s")

    def _matched(self) -> None:
        """The pinned certificate answered: the clock's own hub is there."""
        if self.mismatch_since is not None:
            log.info("the hub this clock was paired with answers at %s again", self.base_url)
            self.mismatch_since = None
            self._wake()

    def _unpair(self, why: str, said: str) -> None:
        """Stop talking to the hub: the kiosk sees ``unpaired`` and pairs again."""
        if self.unpaired is None:
            log.warning("%s: pairing again", said)
            self.unpaired = why
            self._stop.set()
            self._kick.set()
            self._sync_kick.set()
            self._wake()

    def _link(self, channel: str, ok: bool) -> None:
        with self._lock:
            effects = self.session.link("ws" if channel == "ws" else "http", ok)
            connected = self.session.connected
        if connected:
            self.lost_since = None
        elif self.lost_since is None:
            self.lost_since = self._mono()
        self._apply(effects)

    def _apply(self, effects: Effects) -> None:
        """Do what the session said. A new snapshot wakes the screen before it is saved:
        the save is an fsync of the card (tens of milliseconds on an SD card), and the
        players see a pause the moment it arrives; a power cut between the two loses only
        the copy, which the hub sends again."""
        if effects.sent or effects.rejected:
            self.outbox.mark_sent(list(effects.sent), [i for i, _ in effects.rejected])
        if effects.lines_taken or effects.lines_refused:
            self.outbox.mark_confirmations(effects.lines_taken, effects.lines_refused)
        if effects.votes_taken or effects.votes_refused:
            self.outbox.mark_vote_presses(effects.votes_taken, effects.votes_refused)
        if effects.resend is not None:
            again = self.outbox.resend(effects.resend)
            if again:
                log.info("sending this round's %d presses to the new hub", again)
        if effects.save_wall_offset is not None:
            self.outbox.put("hub_wall_offset", effects.save_wall_offset)
        if effects.sync_now:
            self._sync_kick.set()
        if effects.upload_now:
            self._kick.set()
        if effects.wake:
            self._wake()
        if effects.save_snapshot is not None:
            self.outbox.put("hub_snapshot", dict(effects.save_snapshot))

    def _about_block(self) -> dict[str, Any]:
        """``about()``, or nothing if it failed: the status report goes out regardless."""
        try:
            return dict(self._about())
        except Exception as exc:  # the shell's probe: never let it stop the sync thread
            log.warning("cannot describe this kiosk for the hub: %s", exc)
            return {}

    # --- the threads ----------------------------------------------------------------------

    def start(self) -> None:
        jobs = [("sync", self._sync_loop), ("push", self._push_loop),
                ("upload", self._upload_loop)]
        if self._find is not None:
            jobs.append(("follow", self._follow_loop))
        for name, target in jobs:
            t = threading.Thread(target=target, name=f"hub {name}", daemon=True)
            t.start()
            self._threads.append(t)

    def close(self) -> None:
        self._stop.set()
        self._kick.set()
        self._sync_kick.set()
        ws = self._ws
        if ws is not None:
            try:
                ws.close()
            except Exception:
                pass
        for t in self._threads:
            t.join(timeout=2)
        self._stop_finding()
        self.http.close()
        for old in self._retired:
            old.close()

    def follow_once(self) -> None:
        """One look at the hub's state: search for the paired hub by its id once it has been
        away ``REDISCOVER_AFTER`` s, move the session where it is found, stop searching once
        it answers. One search at a time; a hub found at the address already used is given
        another ``REDISCOVER_AFTER`` s to answer there."""
        if self._find is None or self.unpaired is not None or self._stop.is_set():
            return
        if self.connected:
            self._stop_finding()
            return
        now = self._mono()
        if self._finder is None:
            lost = self.lost_since
            if lost is not None and now - lost >= REDISCOVER_AFTER:
                log.info("no answer from the hub at %s for %.0f s: looking for it on the "
                         "network", self.base_url, now - lost)
                try:
                    self._finder = self._find()
                except Exception as exc:  # no network to browse yet: after another wait
                    log.warning("cannot look for the hub on the network: %s", exc)
                    self.lost_since = now
                if self._stop.is_set():  # closed meanwhile: this search is ours to close
                    self._stop_finding()
            return
        url = self._finder.found()
        if url is None:
            return
        self._stop_finding()
        if url.rstrip("/") == self.base_url:
            self.lost_since = now
            return
        self.move(url)

    def _stop_finding(self) -> None:
        finder, self._finder = self._finder, None
        if finder is not None:
            finder.close()

    def move(self, url: str) -> None:
        """Talk to the hub at ``url`` from now on, with the same token and pinned certificate
        (the paired hub found again elsewhere): the running clock goes on as it was."""
        log.warning("the hub this clock was paired with is now at %s: moving there", url)
        old = self.http
        self.http = httpx.Client(base_url=url.rstrip("/"), headers=dict(old.headers),
                                 timeout=TIMEOUT, transport=self._transport, verify=self.verify)
        self.base_url = url.rstrip("/")
        self._retired.append(old)  # a request may be under way on it: closed at close
        self.mismatch_since = None  # that was another address
        self.lost_since = self._mono()
        ws = self._ws
        if ws is not None:  # still open to the old address: reopened to the new one
            try:
                ws.close()
            except Exception:
                pass
        self._on_move(self.base_url)
        self._sync_kick.set()
        self._kick.set()
        self._wake()

    def _follow_loop(self) -> None:
        while not self._stop.wait(FOLLOW_EVERY):
            try:
                self.follow_once()
            except Exception:  # never let it end the thread: the next look tries again
                log.warning("following the hub failed", exc_info=True)

    def _sync_loop(self) -> None:
        while not self._stop.is_set():
            self._sync_kick.clear()  # before the attempt: a kick during it is not lost
            ok = self.sync_once()
            with self._lock:
                wait = self.session.next_sync(ok)
            self._sync_kick.wait(wait)  # woken early when the hub comes back

    def _upload_loop(self) -> None:
        while not self._stop.is_set():
            self._kick.clear()  # before the attempt: a press during it is not lost
            ok = self.upload_once()
            with self._lock:
                wait = self.session.next_upload(ok)
            self._kick.wait(wait)  # or woken by a press, or the hub coming back

    def ws_url(self) -> str:
        """The push channel's URL: the token goes in its header, never here (logs keep URLs)."""
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        rest = self.base_url.split("://", 1)[-1]
        return f"{scheme}://{rest}/api/tables/{self.table}/ws"

    def _push_loop(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        while not self._stop.is_set():
            opened = False
            try:
                headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
                tls = self.verify if isinstance(self.verify, ssl.SSLContext) else None
                with connect(self.ws_url(), open_timeout=TIMEOUT,
                             ping_interval=PING_SECONDS, ping_timeout=PING_TIMEOUT,
                             additional_headers=headers, ssl=tls) as ws:
                    self._ws = ws
                    opened = True
                    self._matched()
                    self._link("ws", True)
                    for message in ws:
                        try:
                            self.accept(json.loads(message))
                        except ValueError:
                            log.warning("hub sent a frame that is not JSON")
                        if self._stop.is_set():
                            break
            except (OSError, WebSocketException, TimeoutError) as exc:
                log.debug("hub WebSocket: %s", exc)
                if certificate_refused(exc):
                    self._mismatched()
            finally:
                self._ws = None
                self._link("ws", False)
            if self._stop.is_set():
                return
            # Fall back to polling until the push channel can be opened again.
            with self._lock:
                deadline = self._mono() + self.session.next_push(opened)
            while not self._stop.is_set():
                ok = self.fetch_snapshot()
                if not ok or self._mono() >= deadline:
                    break
                self._stop.wait(POLL_SECONDS)
            self._stop.wait(max(0.0, deadline - self._mono()))


def _json(r: httpx.Response) -> Json:
    """The reply's JSON body, or None if it has none."""
    try:
        return r.json()
    except ValueError:
        return None

"""The kiosk's side of docs/protocol.md: time sync, the schedule push, the press upload.

Three daemon threads hand their results to the screen loop through this object, under
one lock; the loop never waits on the network. What each does when the hub goes away:

* time sync (``GET /api/time``): every ``FAST_SYNC`` s for the first samples, then every
  ``SLOW_SYNC`` s; ``OffsetFilter`` keeps the fastest recent sample and ``Slew`` moves the
  displayed clock towards it. With no sample yet (a kiosk restarted while the hub is
  down) the wall clock plus the last known hub-to-wall offset from the outbox is used: a
  guess, so ``trusted()`` is False until a sample arrives (the kiosk then re-stamps the
  presses it made on the guess, see ``kiosk.app.Kiosk``).
  After each sample the kiosk reports ``POST .../status {"offset", "rtt", "kiosk"}`` for
  the TD's grid: ``offset`` is hub time minus the clock the screen was showing when the
  sample came in (about 0 for a kiosk in sync), ``rtt`` the sample's round trip, ``kiosk``
  what ``about()`` says of this kiosk (left out when it says nothing). When the hub comes
  back after an outage the samples are dropped and the fast syncs start again: a
  restarted hub anchors its clock afresh.
* snapshots (``WS /api/tables/{n}/ws``, else ``GET .../snapshot``): kept when ``seq``
  rises (or the hub's id changed: a hub started afresh), saved in the outbox so a restart
  without the hub shows the last schedule. A snapshot's ``clock`` is the hub clock's epoch:
  when it changes (the TD set the hub's time) the samples are dropped, the sync loop runs
  at once and ``trusted()`` is False until a sample of the new clock arrives. Its
  ``claims`` list the kiosks saying they are this table (``others()``).
* upload (``POST .../presses``): every unsent outbox row, marked sent on 2xx; the hub
  dedups by id, so resending after a lost reply is harmless. A press the reply names in
  ``rejected`` is logged once and flagged in the outbox, never resent. A press, or the hub
  coming back, ends the wait for the next attempt.

Every retry waits a jittered exponential backoff, so a hall of kiosks doesn't stampede a
restarted hub. ``connected`` drives the small "hub lost" mark; the clock keeps running.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import httpx
from pydantic import ValidationError

from dipclock.events import EventProfile
from dipclock.sync import OffsetFilter, Sample, Slew, from_local, sample
from dipclock.timeline import Schedule
from kiosk.app import Round, round_key
from kiosk.outbox import Outbox, StoredPress

log = logging.getLogger(__name__)

FAST_SYNC = 2.0
FAST_SAMPLES = 8
SLOW_SYNC = 30.0
POLL_SECONDS = 5.0  # snapshot polling while the WebSocket is unavailable
TIMEOUT = 5.0


class Backoff:
    """Jittered exponential delays: base, 2x base, ... up to cap, each times 0.5-1."""

    def __init__(self, base: float = 1.0, cap: float = 30.0, rng: random.Random | None = None):
        self.base, self.cap = base, cap
        self._n = 0
        self._rng = rng or random.Random()

    def next(self) -> float:
        delay = min(self.cap, self.base * 2**self._n)
        self._n = min(self._n + 1, 30)
        return delay * self._rng.uniform(0.5, 1.0)

    def reset(self) -> None:
        self._n = 0


@dataclass(frozen=True)
class Snapshot:
    seq: int
    round: Round | None  # None: the TD has not set up the event and round yet
    hub: str | None = None  # the hub's id: seq counts afresh on a hub with a new one
    claims: tuple[tuple[str, str], ...] = ()  # (kiosk id, address): 2+ kiosks on this table
    clock: int = 0  # the hub clock's epoch: +1 each time the TD sets the hub's time

    @property
    def key(self) -> str | None:
        return self.round.key if self.round is not None else None


def parse_snapshot(data: dict[str, Any], table: int) -> Snapshot:
    """A snapshot as the protocol sends it -> the Round the screen needs (ValueError if bad)."""
    try:
        hub = data.get("hub")
        hub = str(hub) if hub is not None else None
        claims = tuple(_claim(c) for c in data.get("claims") or ())
        clock = data.get("clock", 0)
        if not isinstance(clock, int) or isinstance(clock, bool):
            raise ValueError(f"clock must be a whole number, not {clock!r}")
        if data["event"] is None or data["schedule"] is None:  # no round yet: a valid answer
            return Snapshot(int(data["seq"]), None, hub, claims, clock)
        profile = EventProfile.model_validate(data["event"])
        schedule = Schedule.model_validate(data["schedule"])
        key = round_key(profile, schedule, table)
        presses = tuple(
            StoredPress(p["id"], key, p["power"], p["kind"], datetime.fromisoformat(p["at"]),
                        "hub", True)
            for p in data.get("presses", ())
        )
        rnd = Round(profile, schedule, table, key, presses, frozenset(data.get("out", ())))
        return Snapshot(int(data["seq"]), rnd, hub, claims, clock)
    except (KeyError, TypeError, ValueError, ValidationError) as exc:
        raise ValueError(f"bad snapshot: {exc}") from None


def _claim(item: Any) -> tuple[str, str]:
    """One entry of a snapshot's ``claims``: ``{"id": str, "address": str}``."""
    if not isinstance(item, dict) or not all(isinstance(item.get(k), str)
                                             for k in ("id", "address")):
        raise ValueError(f"a claim must have a text id and address, not {item!r}")
    return item["id"], item["address"]


class HubClient:
    """A ``Source`` and ``TimeBase`` for the kiosk, fed by the hub."""

    def __init__(
        self,
        base_url: str,
        table: int,
        key: str,
        outbox: Outbox,
        wake: Callable[[], None] = lambda: None,
        mono: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = lambda: from_local(datetime.now()),
        transport: httpx.BaseTransport | None = None,
        rng: random.Random | None = None,
        about: Callable[[], dict[str, Any]] = dict,
    ):
        self.base_url = base_url.rstrip("/")
        self.table = table
        self.key = key
        self.outbox = outbox
        self._wake, self._mono, self._wall = wake, mono, wall
        self._about = about
        self._id: str | None = None  # this kiosk's id, from about(): tells claims apart
        self._about_refused = False  # the hub refused the kiosk block once (an older hub)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._kick = threading.Event()  # wakes the upload loop
        self._sync_kick = threading.Event()  # wakes the sync loop
        self._fresh_filter = False  # drop the old samples at the next sync (hub came back)
        self._resets = 0  # counts those drops: a sample taken across one is stale
        self._verified = False  # a sample of the hub's current clock arrived in this process
        self._status: tuple[float, float] | None = None  # the last (offset, rtt) reported
        self._filter = OffsetFilter()
        self._slew = Slew()
        self._target: float | None = None
        self._samples = 0
        self._snapshot: Snapshot | None = None
        self._ws_open = False
        self._http_ok = False
        self._wall_offset: float | None = outbox.get("hub_wall_offset")
        self._wall_saved_at: float | None = None
        self._rng = rng or random.Random()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(base_url=self.base_url, headers=headers, timeout=TIMEOUT,
                                 transport=transport)
        self._threads: list[threading.Thread] = []
        self._ws: Any = None
        stored = outbox.get("hub_snapshot")
        if stored is not None:
            try:
                # its claims are old news: only a live snapshot says who is on the table now
                self._snapshot = replace(parse_snapshot(stored, table), claims=())
            except ValueError:
                log.warning("ignoring the stored snapshot: it no longer parses")

    # --- what the screen loop reads -------------------------------------------------------

    def current(self) -> Round | None:
        with self._lock:
            return self._snapshot.round if self._snapshot else None

    def hub_lost(self) -> bool:
        return not self.connected

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._ws_open or self._http_ok

    def sent(self) -> None:
        self._kick.set()

    def sync_status(self) -> tuple[float, float] | None:
        """The last ``(offset, rtt)`` sent to the hub (see the module docstring), or None."""
        with self._lock:
            return self._status

    def local(self, mono: float) -> float:
        """Hub time at ``mono``: synced if we can, else wall clock + the last known offset."""
        with self._lock:
            if self._target is not None:
                return mono + self._slew.update(self._target, mono)
            shift = self._wall_offset or 0.0
        return self._wall() + (mono - self._mono()) + shift

    def trusted(self) -> bool:
        """True once a sample of the hub's current clock came in during this process.

        Before it, ``local`` is the wall clock plus an offset measured in an earlier run,
        or no offset at all: a guess. A hub that goes away does not undo it (its clock runs
        on); the TD setting the hub's time (a new ``clock`` epoch) or a hub started afresh
        does, until the next sample.
        """
        with self._lock:
            return self._verified

    def stamp(self, mono: float) -> float:
        """Hub time at ``mono`` by the best sample, unslewed: for re-stamping presses."""
        with self._lock:
            target = self._target
        return mono + target if target is not None else self.local(mono)

    def others(self) -> tuple[str, ...]:
        """The addresses of the other kiosks that say they are this table, in hub order.

        The hub lists claims only when two or more kiosks claim the table, so any id there
        but ours is another kiosk on our table, whether or not our own report has reached
        the hub yet. Without an id of our own (``about`` gives none) we cannot tell
        ourselves apart: nothing is reported. Claims of the snapshot stored by an earlier
        run are not used.
        """
        with self._lock:
            claims = self._snapshot.claims if self._snapshot is not None else ()
        if not claims:
            return ()
        me = self._id if self._id is not None else self._about_block().get("id")
        if me is None:
            return ()
        return tuple(dict.fromkeys(addr for kid, addr in claims if kid != me))

    # --- one step of each job (tests call these directly) ---------------------------------

    def sync_once(self) -> bool:
        """One time exchange; True if the hub answered.

        A sample taken across a drop of the samples (the hub's clock changed while the
        request was out) is thrown away and the exchange run again at once.
        """
        with self._lock:
            resets = self._resets
        t0 = self._mono()
        try:
            r = self.http.get("/api/time")
            t3 = self._mono()
            r.raise_for_status()
            body = r.json()
            s = sample(t0, float(body["t1"]), float(body["t2"]), t3)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            log.debug("time sync failed: %s", exc)
            self._set_http(False)
            return False
        shown = self.local(t3) - t3  # the offset the screen was using when the reply came
        with self._lock:  # checked under the lock that adds the sample: no drop slips between
            taken = self._add(s, t3, shown) if self._resets == resets else None
        self._set_http(True)
        if taken is None:
            self._sync_kick.set()  # the hub's clock changed while the request was out: again
            return True
        status, wall_offset = taken
        if wall_offset is not None:
            self.outbox.put("hub_wall_offset", wall_offset)
        self.post_status(*status)
        return True

    def _add(self, s: Sample, t3: float, shown: float
             ) -> tuple[tuple[float, float], float | None]:
        """Take a sample (the caller holds the lock): the status to report, and the
        hub-to-wall offset to save in the outbox (None: saved under 10 minutes ago)."""
        if self._fresh_filter:
            self._fresh_filter = False
            self._filter = OffsetFilter()
            self._samples = 0
        self._status = (s.offset - shown, s.delay)
        self._filter.add(s)
        best = self._filter.best(t3)
        self._target = best.offset if best else s.offset
        self._verified = True
        self._samples += 1
        if self._wall_saved_at is not None and t3 - self._wall_saved_at <= 600:
            return self._status, None
        self._wall_saved_at = t3
        self._wall_offset = (t3 + self._target) - (self._wall() + t3 - self._mono())
        return self._status, self._wall_offset

    def post_status(self, offset: float, rtt: float) -> bool:
        """Tell the TD's grid how far off this kiosk's clock was, and what it is; True on 2xx.

        A hub that refuses the ``kiosk`` block (422: an older hub, or a value over its
        limits) gets the report again without it, and no block from then on: the offset
        matters more than the details.
        """
        body: dict[str, Any] = {"offset": round(offset, 6), "rtt": round(rtt, 6)}
        about = {} if self._about_refused else self._about_block()
        if about:
            body["kiosk"] = about
        try:
            r = self.http.post(f"/api/tables/{self.table}/status", json=body)
            if r.status_code == 422 and "kiosk" in body:
                log.warning("hub refused this kiosk's details, reporting the offset only: %s",
                            r.text[:200])
                self._about_refused = True
                del body["kiosk"]
                r = self.http.post(f"/api/tables/{self.table}/status", json=body)
        except httpx.HTTPError as exc:
            log.debug("status report failed: %s", exc)
            return False
        if not r.is_success:
            log.warning("hub refused the status report: HTTP %d %s", r.status_code,
                        r.text[:200])
        return r.is_success

    def accept(self, data: dict[str, Any]) -> bool:
        """Take a snapshot if its seq is newer; True if the screen must be redrawn.

        ``seq`` is compared only between snapshots of the same hub (its ``hub`` id): a hub
        started on an empty data dir has a new id and counts from 1 again, so its first
        snapshot is taken whatever its seq, the time samples are dropped (its clock is
        anchored afresh), as after a reconnect, and the round's presses are sent again.
        """
        try:
            snap = parse_snapshot(data, self.table)
        except ValueError as exc:
            log.warning("%s", exc)
            return False
        with self._lock:
            old = self._snapshot
            if old is not None and snap.hub == old.hub and snap.seq <= old.seq:
                # Without hub ids (an older hub) a restart from scratch is told apart
                # only by a different round.
                if snap.hub is not None or snap.key == old.key:
                    return False
            new_hub = old is not None and snap.hub != old.hub
            new_clock = old is not None and not new_hub and snap.clock != old.clock
            new_round = old is None or snap.key != old.key
            self._snapshot = snap
            if new_hub or new_clock:
                self._drop_samples(clock_changed=True)
        self.outbox.put("hub_snapshot", data)
        if new_clock:
            log.info("the hub's time was set (clock %d): syncing afresh", snap.clock)
            self._sync_kick.set()
        if new_hub:
            log.info("a different hub (id %s): taking its snapshot, syncing afresh", snap.hub)
            if snap.key is not None:
                # it may have lost its data: give it this round's presses again
                again = self.outbox.resend(snap.key)
                if again:
                    log.info("sending this round's %d presses to the new hub", again)
            self._sync_kick.set()
            self._kick.set()
        if new_round and snap.round is not None:
            self._kick.set()  # presses refused (409) before the round was set up can go now
        self._wake()
        return True

    def fetch_snapshot(self) -> bool:
        """The polling fallback: GET the snapshot once."""
        try:
            r = self.http.get(f"/api/tables/{self.table}/snapshot")
            r.raise_for_status()
            data = r.json()
        except (httpx.HTTPError, ValueError) as exc:
            log.debug("snapshot poll failed: %s", exc)
            self._set_http(False)
            return False
        self._set_http(True)
        self.accept(data)
        return True

    def upload_once(self) -> bool:
        """POST every unsent press; True when the outbox is empty afterwards."""
        while True:
            batch = self.outbox.unsent(limit=100)
            if not batch:
                return True
            try:
                r = self.http.post(f"/api/tables/{self.table}/presses",
                                   json={"presses": [p.as_json() for p in batch]})
            except httpx.HTTPError as exc:
                log.debug("upload failed: %s", exc)
                self._set_http(False)
                return False
            if not r.is_success:
                log.warning("hub refused %d presses: HTTP %d %s", len(batch), r.status_code,
                            r.text[:200])
                self._set_http(r.status_code < 500)
                return False
            refused = self._refused(batch, r)
            self.outbox.mark_sent([p.id for p in batch if p.id not in refused], list(refused))
            self._set_http(True)

    def _about_block(self) -> dict[str, Any]:
        """``about()``, or nothing if it failed: the status report goes out regardless."""
        try:
            block = dict(self._about())
        except Exception as exc:  # the shell's probe: never let it stop the sync thread
            log.warning("cannot describe this kiosk for the hub: %s", exc)
            return {}
        if isinstance(block.get("id"), str):
            self._id = block["id"]
        return block

    @staticmethod
    def _refused(batch: list[StoredPress], reply: httpx.Response) -> dict[str, str]:
        """The presses of ``batch`` the hub named in ``rejected``, each logged once.

        They are kept in the outbox, flagged, and never resent: resending would be refused
        again and hold up every later press of the table.
        """
        try:
            rejected = reply.json().get("rejected") or []
            reasons = {str(x["id"]): str(x.get("reason", "")) for x in rejected
                       if isinstance(x, dict) and x.get("id") is not None}
        except (ValueError, AttributeError, TypeError, KeyError):
            return {}
        out: dict[str, str] = {}
        for p in batch:
            if p.id in reasons:
                out[p.id] = reasons[p.id]
                log.warning("hub refused press %s %s %s %s: %s", p.id, p.power, p.kind,
                            p.at.isoformat(), reasons[p.id])
        return out

    def _set_http(self, ok: bool) -> None:
        with self._lock:
            before = self._ws_open or self._http_ok
            self._http_ok = ok
        self._changed(before)

    def _set_ws(self, ok: bool) -> None:
        with self._lock:
            before = self._ws_open or self._http_ok
            self._ws_open = ok
        self._changed(before)

    def _drop_samples(self, clock_changed: bool) -> None:
        """Start the time samples afresh at the next sync (the caller holds the lock).

        ``clock_changed``: the hub's clock is another one now, so until a sample of it
        arrives this kiosk's time is a guess again.
        """
        self._fresh_filter = True
        self._resets += 1
        self._wall_saved_at = None  # save the hub-to-wall offset again at the next sample
        if clock_changed:
            self._verified = False

    def _changed(self, before: bool) -> None:
        with self._lock:
            after = self._ws_open or self._http_ok
            if before and not after:
                self._drop_samples(clock_changed=False)  # it may come back with a new clock
        if before == after:
            return
        if after:  # the hub is back: resync and send what piled up, without waiting
            self._sync_kick.set()
            self._kick.set()
        self._wake()

    # --- the threads ----------------------------------------------------------------------

    def start(self) -> None:
        for name, target in (("sync", self._sync_loop), ("push", self._push_loop),
                             ("upload", self._upload_loop)):
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
        self.http.close()

    def _sync_loop(self) -> None:
        backoff = Backoff(1.0, SLOW_SYNC, self._rng)
        while not self._stop.is_set():
            self._sync_kick.clear()  # before the attempt: a kick during it is not lost
            if self.sync_once():
                backoff.reset()
                wait = FAST_SYNC if self._samples < FAST_SAMPLES else SLOW_SYNC
            else:
                wait = backoff.next()
            self._sync_kick.wait(wait)  # woken early when the hub comes back

    def _upload_loop(self) -> None:
        backoff = Backoff(1.0, 60.0, self._rng)
        while not self._stop.is_set():
            self._kick.clear()  # before the attempt: a press during it is not lost
            if self.upload_once():
                backoff.reset()
                self._kick.wait(SLOW_SYNC)  # woken by a new press, or a periodic check
            else:
                self._kick.wait(backoff.next())  # or by a press, or the hub coming back

    def ws_url(self) -> str:
        scheme = "wss" if self.base_url.startswith("https") else "ws"
        rest = self.base_url.split("://", 1)[-1]
        return f"{scheme}://{rest}/api/tables/{self.table}/ws?key={self.key}"

    def _push_loop(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        backoff = Backoff(1.0, 30.0, self._rng)
        while not self._stop.is_set():
            try:
                headers = {"Authorization": f"Bearer {self.key}"} if self.key else None
                with connect(self.ws_url(), open_timeout=TIMEOUT,
                             additional_headers=headers) as ws:
                    self._ws = ws
                    self._set_ws(True)
                    backoff.reset()
                    for message in ws:
                        try:
                            self.accept(json.loads(message))
                        except ValueError:
                            log.warning("hub sent a frame that is not JSON")
                        if self._stop.is_set():
                            break
            except (OSError, WebSocketException, TimeoutError) as exc:
                log.debug("hub WebSocket: %s", exc)
            finally:
                self._ws = None
                self._set_ws(False)
            if self._stop.is_set():
                return
            # Fall back to polling until the push channel can be opened again.
            deadline = self._mono() + backoff.next()
            while not self._stop.is_set():
                ok = self.fetch_snapshot()
                if not ok or self._mono() >= deadline:
                    break
                self._stop.wait(POLL_SECONDS)
            self._stop.wait(max(0.0, deadline - self._mono()))

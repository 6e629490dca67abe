"""Slow and greedy clients cannot lock the hall out of its hub.

uvicorn waits for a request head as long as bytes trickle in, so sockets that each send a
byte now and then would hold the process's files until none is left for a kiosk's time
sync. Three limits, each on the event loop's own callbacks, so none costs a kiosk's request
anything:

* a request head (request line and headers) must arrive within ``head_seconds`` of its
  first byte (or of the connection opening); the connection is closed otherwise. An idle
  keep-alive connection is uvicorn's own ``timeout_keep_alive``; a body is timed by
  ``server.bodylimit``. A head may not grow past ``HEAD_MOST`` bytes either: httptools sets
  no bound (h11's ``h11_max_incomplete_event_size`` does not apply to it), and 10 s of
  headers on a LAN is hundreds of megabytes of a Pi's memory;
* one client address holds at most ``per_address`` connections at once (a Pi holds two or
  three, a phone's browser six); one more is held unread for ``TARPIT_SECONDS``, then
  closed: closed at once, an attacker would open it again at once, thousands of times a
  second, and the hub would spend its time accepting them (p99 sync 140 ms instead of 40);
  past ``TARPIT_MOST`` held at once, it is closed at once;
* the file limit is raised to the hard limit (``raise_file_limit``; systemd's unit sets it);
  where it cannot be (a hard limit of 1,024), the files are kept from running out: with all
  but ``reserve_for`` of them open, each new connection closes the oldest one that is
  *waiting* on its client: for a request head (its first, or the next on a kept-alive
  connection), for the rest of a request's body, or idle between two requests. A slow
  socket from any address is such a one, in whichever of those phases it dawdles, so the
  new one (a kiosk's, say) is served and the attack's oldest goes, however many addresses
  it comes from. A connection is never closed so while the hub works on its request.

Every phase has its deadline: the head (and the TLS handshake) ``head_seconds``, a body
``server.bodylimit.BODY_SECONDS``, the wait between two requests uvicorn's
``timeout_keep_alive``, and a reply the client does not take (its window closed)
``REPLY_SECONDS``.

Over HTTPS the limits hold from the first TCP byte, not from the end of the TLS handshake:
the protocol takes the plain connection, counts it against its address, and starts TLS on
it itself (``loop.start_tls``), the head timer running through the handshake. Left to
asyncio, a socket that never finishes its handshake would hold a file for 60 s uncounted.

A handshake costs the hub's one event loop a few milliseconds, so a burst of a thousand
(an attack, a hall of phones at once) would hold every table's time sync behind it for
seconds. The hall's own addresses (``server.regulars``: its clocks', the TD's) start theirs
at once; strangers' go ``HANDSHAKES_AT_ONCE`` at a time, each holding its turn for at most
``HANDSHAKE_TURN`` (a stalled one does not block the queue), the oldest whose TLS hello has
arrived next (``admit``). A stranger is never refused: it waits its turn.

Each refusal is logged once a minute per address, not once per socket. The protocol is a
subclass of the one uvicorn would pick (``httptools``, else ``h11``), so it serves as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import itertools
import logging
import random
import resource
import ssl
import struct
import termios
import time
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from server.regulars import Regulars

log = logging.getLogger("uvicorn.error")

#: seconds between two log lines about one address
LOG_EVERY = 60.0
#: the most files the hub asks for: far over a hall's needs, far under a kernel's limit
MOST_FILES = 65536
#: how long a connection over an address's cap is held unread before it is closed
TARPIT_SECONDS = 5.0
#: the most bytes a request head may take: a kiosk's takes under 1 KB, a browser's a few
HEAD_MOST = 64 * 1024
#: the most connections held so at once (each is a file): this, or a quarter of the
#: process's file limit if less
TARPIT_MOST = 2048
#: an address whose connections were closed to make room this many times, each within
#: ``SHED_MEMORY`` seconds of the last, has its new ones closed at once while files are short
SHED_REPEAT = 3
SHED_MEMORY = 30.0
#: how long a whole request's reply may take to be sent: the hub answers in milliseconds,
#: so a reply still unsent is a client that does not read it, holding a task and a file
REPLY_SECONDS = 60.0
#: how long a TLS connection being closed waits for the client's close_notify: asyncio's
#: default, 30 s, kept a stopping hub waiting on every idle keep-alive connection (a
#: phone's browser, a kiosk's pool), and a closed connection's file held as long
TLS_CLOSE_SECONDS = 2.0
#: strangers' TLS handshakes under way at once: each turn of the event loop then holds at
#: most this many handshakes' work (a few ms each) before a table's request is read
HANDSHAKES_AT_ONCE = 8
#: the most a stranger's handshake holds its place among them: a client on the hall's
#: Wi-Fi answers in milliseconds; one that does not goes on without a place
HANDSHAKE_TURN = 0.25
#: the most queued connections looked at, at each end, for one whose hello has come
LOOK_AHEAD = 32


@dataclass(frozen=True)
class Guard:
    """The limits, from ``server.settings.Settings``. ``exempt``: addresses never capped
    (a reverse proxy the TD names with ``--trust-proxy`` carries every client);
    ``regulars``: the hall's own addresses, whose handshakes never queue."""

    head_seconds: float = 10.0
    per_address: int = 64
    exempt: frozenset[str] = frozenset()
    regulars: Regulars | None = None


def reserve_for(files: int) -> int:
    """Files kept back from connections: the database, its journal, logs, the listening
    sockets, and the connections accepted while others close."""
    return max(64, files // 8)


@dataclass
class _Tally:
    """What one server's connections hold, on its event loop."""

    open: dict[str, int] = field(default_factory=dict)
    logged: dict[tuple[str, str], float] = field(default_factory=dict)
    held: int = 0  # connections over a cap, held unread (``TARPIT_SECONDS``)
    alive: int = 0  # connections accepted and not closed (held ones apart)
    #: per address, when its connections were last closed to make room, and how often
    #: lately: an address whose sockets keep being the oldest waiting is an attacker's
    shed: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: the connections waiting on their client (a head, a body, the next request), in
    #: the order they began to wait: the first is the one to close to make room
    waiting: dict[Any, None] = field(default_factory=dict)
    #: strangers' connections waiting for their TLS handshake to begin, oldest first
    queued: dict[Any, None] = field(default_factory=dict)
    securing: int = 0  # strangers' handshakes under way, each holding its turn

    def say(self, address: str, what: str, line: str) -> None:
        now = time.monotonic()
        if now - self.logged.get((address, what), -LOG_EVERY) >= LOG_EVERY:
            self.logged[(address, what)] = now
            log.warning("%s", line)


def protocol(guard: Guard, tls: ssl.SSLContext | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol with ``guard``'s limits, for ``uvicorn.Config(http=...)``;
    ``tls``: serve HTTPS with it (uvicorn itself then given no certificate)."""
    tally = _Tally()
    base: Any = AutoHTTPProtocol
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    unlimited = files == resource.RLIM_INFINITY
    hold_most = TARPIT_MOST if unlimited else min(TARPIT_MOST, files // 4)
    budget = None if unlimited else files - reserve_for(files)

    def admit() -> None:
        """Begin queued strangers' handshakes while fewer than ``HANDSHAKES_AT_ONCE`` are
        under way: the oldest whose hello has come (its handshake is work done at once),
        looked for among the oldest and then the newest (a silent crowd does not hide a
        newcomer); if none has, the oldest (nothing is under way that it could delay)."""
        while tally.queued and tally.securing < HANDSHAKES_AT_ONCE:
            look = itertools.chain(itertools.islice(tally.queued, LOOK_AHEAD),
                                   itertools.islice(reversed(tally.queued), LOOK_AHEAD))
            turn = next((c for c in look if c._hello_came()), None)
            if turn is None:
                turn = next(iter(tally.queued))
            del tally.queued[turn]
            turn._begin_tls(queued=True)

    class Guarded(base):
        _address = ""
        _counted = False
        _tracked = False
        _refused = False
        _awaiting_head = True
        _tail = b""
        _head_bytes = 0
        _head_timer: asyncio.TimerHandle | None = None
        _reply_timer: asyncio.TimerHandle | None = None
        #: TLS: the plain connection, and what came before the HTTP protocol was told of
        #: the secure one (the first request may come in the handshake's last segment)
        _raw: asyncio.Transport | None = None
        _securing = False
        _early: list[bytes] | None = None
        _turn: asyncio.TimerHandle | None = None  # a stranger's place among the handshakes

        def connection_made(self, transport: asyncio.Transport) -> None:
            peer = transport.get_extra_info("peername")
            self._address = str(peer[0]) if peer else ""
            if self._address not in guard.exempt:
                held = tally.open.get(self._address, 0)
                if held >= guard.per_address:
                    self._refuse(transport, held)
                    return
                tally.open[self._address] = held + 1
                self._counted = True
            self._tracked = True
            tally.alive += 1
            tally.waiting[self] = None
            if budget is not None and tally.alive + tally.held > budget:
                if self._shed_lately():
                    # its sockets keep being the oldest waiting: this one would only push
                    # out another, after a TLS handshake; closed before it, it costs nothing
                    self._refused = True
                    self._release()
                    tally.say(self._address, "shed",
                              f"closing new connections from {self._address} at once: "
                              "files are short and its sockets keep waiting unused")
                    transport.abort()
                    return
                self._make_room()
            if tls is not None:
                transport.pause_reading()  # the handshake's bytes are start_tls's to read
                self._raw, self._securing, self._early = transport, True, []
                self._arm(transport)  # the handshake counts against the head's time
                if self._regular():
                    self._begin_tls()
                else:
                    tally.queued[self] = None
                    admit()
                return
            super().connection_made(transport)
            self._arm()

        def _regular(self) -> bool:
            return self._address in guard.exempt or (
                guard.regulars is not None and guard.regulars.knows(self._address))

        def _hello_came(self) -> bool:
            """Whether the client's first bytes (its TLS hello) wait unread on the socket."""
            assert self._raw is not None
            sock = self._raw.get_extra_info("socket")
            try:
                waiting = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
            except (OSError, AttributeError):  # closed meanwhile: its turn ends it at once
                return True
            return struct.unpack("i", waiting)[0] > 0

        def _begin_tls(self, queued: bool = False) -> None:
            assert self._raw is not None
            if queued:
                tally.securing += 1
                self._turn = asyncio.get_running_loop().call_later(HANDSHAKE_TURN,
                                                                   self._end_turn)
            self._handshake = asyncio.ensure_future(self._secure(self._raw))

        def _end_turn(self) -> None:
            """Its handshake is over, or has had its turn: the next stranger's may begin."""
            if self._turn is not None:
                self._turn.cancel()
                self._turn = None
                tally.securing -= 1
                admit()

        async def _secure(self, raw: asyncio.Transport) -> None:
            assert tls is not None
            try:
                secure = await asyncio.get_running_loop().start_tls(
                    raw, self, tls, server_side=True,
                    ssl_handshake_timeout=guard.head_seconds * 1.5,
                    ssl_shutdown_timeout=TLS_CLOSE_SECONDS)
            except (OSError, TimeoutError, RuntimeError):  # a failed handshake, or none
                # (ssl.SSLError and ConnectionError are OSErrors): the socket goes
                self._end_turn()
                self._lost()
                raw.abort()
                return
            self._end_turn()
            if secure is None or not self._securing:  # closed during the handshake (asyncio
                self._lost()  # then gives no transport) or while it ended
                return
            self._securing = False
            super().connection_made(secure)
            early, self._early = self._early or [], None
            for data in early:
                self.data_received(data)

        def _lost(self) -> None:
            self._securing = False
            self._disarm()
            self._release()

        def data_received(self, data: bytes) -> None:
            if self._securing:
                assert self._early is not None
                self._early.append(data)
                return
            if self._awaiting_head:
                if self._head_timer is None:
                    self._arm()
                seen = self._tail + data
                if b"\r\n\r\n" in seen:
                    self._awaiting_head, self._head_bytes = False, 0
                    self._disarm()  # its body, if it has one, has its own deadline
                else:
                    self._tail = seen[-3:]
                    self._head_bytes += len(data)
                    if self._head_bytes > HEAD_MOST:
                        self._too_big()
                        return
            super().data_received(data)
            if not self._awaiting_head and self in tally.waiting and self._whole():
                tally.waiting.pop(self, None)  # it asked: the hub's turn, not to be closed
                self._reply_due()

        def _whole(self) -> bool:
            """Whether the request being read has come whole, body and all (uvicorn's
            protocols, httptools' and h11's, both say so in the cycle's ``more_body``)."""
            cycle = getattr(self, "cycle", None)
            return cycle is not None and not cycle.more_body

        def _reply_due(self) -> None:
            """A whole request: its reply must be taken within ``REPLY_SECONDS``."""
            self._reply_timer = self.loop.call_later(REPLY_SECONDS, self._not_taken)

        def _not_taken(self) -> None:
            self._reply_timer = None
            self._cut("reply", f"its reply not taken within {REPLY_SECONDS:g} s")

        def _no_reply_due(self) -> None:
            if self._reply_timer is not None:
                self._reply_timer.cancel()
                self._reply_timer = None

        def shutdown(self) -> None:
            """The hub is stopping: an idle TLS connection goes at once. Closed politely it
            would wait for the client's close_notify, which an idle browser or connection
            pool does not send until it next reads (``TLS_CLOSE_SECONDS``)."""
            if tls is not None and not self._securing and (
                    self.cycle is None or self.cycle.response_complete):
                self.transport.abort()
                return
            super().shutdown()

        def on_response_complete(self) -> None:
            self._disarm()  # a response: its head came, however its bytes were split
            self._no_reply_due()
            pipelined = bool(getattr(self, "pipeline", ()))  # a next request, whole: the
            super().on_response_complete()  # hub's turn again
            # the next head is timed from its first byte; till then the keep-alive timeout.
            # Waiting on its client again: the newest to make room, if files run short
            self._awaiting_head, self._tail, self._head_bytes = True, b"", 0
            if pipelined:
                self._reply_due()
            elif self._tracked:
                tally.waiting[self] = None

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()
            self._no_reply_due()  # a push channel lasts: its frames have their own pings
            tally.waiting.pop(self, None)
            super().handle_websocket_upgrade(*args)
            ws = self.transport.get_protocol()
            if ws is not self:  # the WebSocket holds the connection now: its end frees it
                lost = ws.connection_lost

                def connection_lost(exc: Exception | None) -> None:
                    self._release()
                    lost(exc)

                ws.connection_lost = connection_lost

        def _make_room(self) -> None:
            """Files are running short: close the oldest connection still waiting for its
            first request (not this new one)."""
            oldest = next((c for c in tally.waiting if c is not self), None)
            if oldest is None:
                return
            del tally.waiting[oldest]
            when, count = tally.shed.get(oldest._address, (0.0, 0))
            now = time.monotonic()
            tally.shed[oldest._address] = (now, count + 1 if now - when < SHED_MEMORY else 1)
            tally.say("", "files",
                      f"files running short ({tally.alive + tally.held} connections of "
                      f"{files} files): closing the oldest waiting for a request, from "
                      f"{oldest._address}")
            oldest._abort()

        def _shed_lately(self) -> bool:
            if self._address in guard.exempt:  # a proxy carries everyone: never shut out
                return False
            when, count = tally.shed.get(self._address, (0.0, 0))
            return count >= SHED_REPEAT and time.monotonic() - when < SHED_MEMORY

        def _refuse(self, transport: asyncio.Transport, held: int) -> None:
            self._refused = True
            tally.say(self._address, "cap",
                      f"refusing connections from {self._address}: it holds {held} "
                      "already (a client gone wrong, or an attack)")
            if tally.held >= hold_most:
                transport.abort()
                return
            tally.held += 1
            transport.pause_reading()
            self._head_timer = asyncio.get_running_loop().call_later(
                TARPIT_SECONDS * random.uniform(0.5, 1.5), transport.abort)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                if self._head_timer is not None:  # it was held: it is a file no more
                    self._head_timer.cancel()
                    self._head_timer = None
                    tally.held -= 1
                return
            if self._securing:  # gone before the HTTP protocol was told of it
                self._lost()
                return
            self._disarm()
            self._no_reply_due()
            self._release()
            super().connection_lost(exc)

        def _arm(self, raw: asyncio.Transport | None = None) -> None:
            # up to half as long again, at random: an attack's sockets, opened together,
            # are closed apart, so they do not all come back in one burst of accepts
            wait = guard.head_seconds * random.uniform(1.0, 1.5)
            loop = asyncio.get_running_loop() if raw is not None else self.loop
            self._head_timer = loop.call_later(wait, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            self._cut("slow", f"no request within {guard.head_seconds:g} s of its first byte")

        def _cut(self, kind: str, why: str) -> None:
            """Close the connection for ``why``, said once a minute per address and kind."""
            tally.say(self._address, kind, f"closed a connection from {self._address}: {why}")
            self._abort()

        def _abort(self) -> None:
            """Close the connection: the plain one while its TLS handshake runs."""
            if self._securing and self._raw is not None:
                with contextlib.suppress(Exception):
                    self._raw.abort()
                return
            self.transport.abort()

        def _too_big(self) -> None:
            self._disarm()
            self._cut("big", f"a request head over {HEAD_MOST} bytes")

        def _release(self) -> None:
            if self._tracked:
                self._tracked = False
                tally.alive -= 1
                tally.waiting.pop(self, None)
                tally.queued.pop(self, None)
            if self._counted:
                self._counted = False
                left = tally.open.get(self._address, 1) - 1
                if left > 0:
                    tally.open[self._address] = left
                else:
                    tally.open.pop(self._address, None)

    return Guarded


#: how long asyncio stops accepting after an accept found no file: its default, 1 s, is a
#: second of every kiosk's connection waiting; room is made at once (``_make_room``)
ACCEPT_RETRY_SECONDS = 0.05


def quiet_when_out_of_files(loop: asyncio.AbstractEventLoop) -> None:
    """One line a minute when connections cannot be accepted for want of files, instead of
    asyncio's traceback for each (thousands a second under an attack on a hub whose file
    limit is fixed low): how many, and the fix. Every other error is logged as before."""
    default = loop.get_exception_handler()
    seen = {"count": 0, "said": -LOG_EVERY}

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            seen["count"] += 1
            now = time.monotonic()
            if now - seen["said"] >= LOG_EVERY:
                log.warning("out of files: %d connections could not be accepted since the "
                            "last such line (raise the hub's file limit: LimitNOFILE in its "
                            "unit, ulimit -n by hand)", seen["count"])
                seen["count"], seen["said"] = 0, now
            return
        if isinstance(exc, ValueError) and "_start_serving" in repr(context.get("handle")):
            return  # each refused accept left a timer to listen again, firing after the
            # server closed: the same exhaustion, already said, not a new error
        if default is not None:
            default(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
    # read by asyncio's accept loop each time it runs out of files
    asyncio.constants.ACCEPT_RETRY_DELAY = ACCEPT_RETRY_SECONDS  # type: ignore[attr-defined]


def raise_file_limit(most: int = MOST_FILES) -> int:
    """Raise this process's open-file limit to its hard limit (at most ``most``); the new
    soft limit. Where it may not (a unit's system-call filter), the limit stays as it is."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = most if hard == resource.RLIM_INFINITY else min(hard, most)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (OSError, ValueError):
            pass
    return soft

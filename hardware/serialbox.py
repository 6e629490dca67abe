"""The USB-serial button box: protocol parser and a reconnecting reader thread.

Protocol (box -> host only; ASCII; one message per line; ``\\n`` ends a line, a ``\\r`` before
it is tolerated; fields separated by exactly one space; at most 64 bytes per line)::

    HELLO dipclock-box 1    sent once at start-up; 1 is the protocol version
    K                       heartbeat, once a second
    P A 240                 press: Austria's button went down 240 ms before this line was sent
                            and came up before the hold time
    H A                     hold: Austria's button has now been down for the hold time (3 s)

Powers are the upper-case letters A E F G I R T. Anything else is garbled: it is logged (one
warning per line, with the reason) and ignored; the reader never stops for it.

The box times the hold, not the host: every line is then a whole event, so a line lost or
mangled on the wire loses that one event (the player pushes again) instead of leaving the host
believing a button is still down -- a lost "up" line would turn an order press into a false
"out of game" hold. The box sees the debounced pin directly, and the host needs no per-button
timers that a reconnect would have to unwind. The cost: the hold time is a firmware constant.

The host stamps the arrival of every line with its monotonic clock. A press is stamped
``arrival - ms / 1000``: the moment the button went down, as the ButtonEvent contract requires
(the box's crystal and the link latency err by milliseconds). A hold is stamped at arrival.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from .events import POWERS, ButtonEvent, ButtonSource, Inbox, post

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
MAX_LINE = 64  # bytes, newline excluded; the longest real line is 20
MAX_PRESS_MS = 60_000  # a "press" longer than a minute is nonsense, whatever the hold time
READ_TIMEOUT = 0.1  # seconds; also the silence after which a line without newline is dropped
GARBLED_LOG_LIMIT = 20  # per connection; then one notice and the rest go to DEBUG

_POWER_SET = frozenset(POWERS.encode())


@dataclass(frozen=True)
class Hello:
    version: int


@dataclass(frozen=True)
class Heartbeat:
    pass


@dataclass(frozen=True)
class BoxPress:
    power: str
    ms: int  # between the button going down and the line being sent


@dataclass(frozen=True)
class BoxHold:
    power: str


@dataclass(frozen=True)
class Garbled:
    line: bytes
    reason: str


BoxLine = Hello | Heartbeat | BoxPress | BoxHold | Garbled


def _power(field: bytes) -> str | None:
    return field.decode() if len(field) == 1 and field[0] in _POWER_SET else None


def parse_line(line: bytes) -> BoxLine:
    """One line from the box (terminator optional) -> message, or Garbled with why. Never raises.

    Strict on purpose: a box speaking anything other than this grammar is broken or at the
    wrong baud rate, and guessing would invent orders.
    """
    body = line[:-1] if line.endswith(b"\n") else line
    body = body[:-1] if body.endswith(b"\r") else body
    if not body:
        return Garbled(line, "empty line")
    if len(body) > MAX_LINE:
        return Garbled(line, f"longer than {MAX_LINE} bytes")
    if any(b < 0x20 or b > 0x7E for b in body):
        return Garbled(line, "not printable ASCII (wrong baud rate?)")
    fields = body.split(b" ")
    if any(not f for f in fields):
        return Garbled(line, "fields must be separated by exactly one space")
    head, args = fields[0], fields[1:]
    if head == b"P":
        if len(args) != 2:
            return Garbled(line, "press needs 'P <power> <ms>'")
        power = _power(args[0])
        if power is None:
            return Garbled(line, f"unknown power {args[0].decode()!r} (one of {POWERS})")
        if not args[1].isdigit() or len(args[1]) > 5 or int(args[1]) > MAX_PRESS_MS:
            return Garbled(line, f"press duration must be 0..{MAX_PRESS_MS} ms")
        return BoxPress(power, int(args[1]))
    if head == b"H":
        if len(args) != 1:
            return Garbled(line, "hold needs 'H <power>'")
        power = _power(args[0])
        if power is None:
            return Garbled(line, f"unknown power {args[0].decode()!r} (one of {POWERS})")
        return BoxHold(power)
    if head == b"K":
        return Heartbeat() if not args else Garbled(line, "heartbeat takes no fields")
    if head == b"HELLO":
        if len(args) != 2 or args[0] != b"dipclock-box" or not args[1].isdigit():
            return Garbled(line, "hello needs 'HELLO dipclock-box <version>'")
        if len(args[1]) > 4:
            return Garbled(line, "hello version out of range")
        return Hello(int(args[1]))
    return Garbled(line, f"unknown message {head[:12].decode()!r}")


def event_for(message: BoxLine, arrival: float) -> ButtonEvent | None:
    """The ButtonEvent a parsed line means, given the host's monotonic arrival time."""
    if isinstance(message, BoxPress):
        return ButtonEvent(message.power, "press", arrival - message.ms / 1000, "serial")
    if isinstance(message, BoxHold):
        return ButtonEvent(message.power, "hold", arrival, "serial")
    return None


class LineAssembler:
    """Bytes as they arrive -> complete lines (terminator stripped), pure and chunking-proof.

    An over-long line is reported once and skipped up to its newline, so junk can never swallow
    the good line after it; :meth:`flush` drops a line whose end never came.
    """

    def __init__(self, max_len: int = MAX_LINE) -> None:
        self.max_len = max_len
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | Garbled]:
        out: list[bytes | Garbled] = []
        *ended, tail = data.split(b"\n")
        for chunk in ended:
            out.extend(self._line_end(chunk))
        if not self._skipping:
            self._buf += tail
            if len(self._buf) > self.max_len + 1:  # +1: room for the '\r' before '\n'
                out.append(Garbled(bytes(self._buf[:80]), f"longer than {self.max_len} bytes"))
                self._buf.clear()
                self._skipping = True
        return out

    def _line_end(self, chunk: bytes) -> list[bytes | Garbled]:
        if self._skipping:  # the rest of an over-long line: already reported
            self._skipping = False
            return []
        self._buf += chunk
        line = bytes(self._buf)
        self._buf.clear()
        if len(line) > self.max_len + 1:
            return [Garbled(line[:80], f"longer than {self.max_len} bytes")]
        return [line]

    def flush(self) -> Garbled | None:
        """The line went quiet: drop an unfinished line (box reset or bytes lost mid-line)."""
        partial, was_skipping = bytes(self._buf), self._skipping
        self._buf.clear()
        self._skipping = False
        if partial and not was_skipping:
            return Garbled(partial, "incomplete line (no newline before the line went quiet)")
        return None


class SerialButtonBox(ButtonSource):
    """Reads the button box in a daemon thread and puts its events on the queue.

    The port is opened by URL (``/dev/serial/by-id/...``, ``loop://`` in tests). If it cannot be
    opened or disappears (USB unplugged), that is logged once and reopening is retried with
    backoff (``retry_seconds`` doubling up to ``max_retry_seconds``) until :meth:`close`.
    With ``locate`` (``buttons.serial = "auto"``: ``hardware.boxfinder.find_box``) the port is
    searched for afresh at every (re)connection, so a box plugged back into another USB socket
    is found again; ``url`` is then the port last found. :meth:`close` (or the end of a
    ``with`` block) stops the reader and closes the port. ``on_change(connected)`` is told,
    from the reader thread, each time the box goes away or comes back: the kiosk tells the
    TD's grid at once (it must return quickly: presses wait behind it).
    """

    source = "serial"

    def __init__(
        self,
        url: str,
        queue: Inbox,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        *,
        retry_seconds: float = 0.5,
        max_retry_seconds: float = 5.0,
        silence_seconds: float = 5.0,
        locate: Callable[[], str | None] | None = None,
        on_change: Callable[[bool], None] | None = None,
    ) -> None:
        """Tries the port once now (a malformed URL raises ValueError here, not in a thread);
        a missing device is only logged, and the reader keeps trying. With ``locate`` the
        search runs in the reader thread, never here (it listens for seconds)."""
        self.url = url
        self._locate = locate
        self.on_change = on_change
        self._queue = queue
        self._baudrate = baudrate
        self._clock = clock
        self._retry = retry_seconds
        self._max_retry = max_retry_seconds
        self._silence = silence_seconds
        self._stop = threading.Event()
        self._port: serial.Serial | None = None
        self._assembler = LineAssembler()
        self._garbled = 0
        self._silent_since = clock()  # start of the current silence on this connection
        self._silent_logged = False
        self._failing = False
        self.last_heard: float | None = None  # clock time of the last good line
        self.version: int | None = None  # from the box's HELLO
        if locate is None:
            try:
                self._open()
            except (serial.SerialException, OSError) as exc:
                log.warning("button box %s not available (%s); will keep trying", url, exc)
                self._failing = True
        self._thread = threading.Thread(target=self._run, name=f"serialbox {url}", daemon=True)
        self._thread.start()

    @property
    def port(self) -> serial.Serial | None:
        """The open port, None while disconnected (tests write into a ``loop://`` port here);
        ButtonsClosed once closed."""
        self._check_open()
        return self._port

    @property
    def connected(self) -> bool:
        """A port is open now (False once closed: a status, not a use of the box)."""
        return self._port is not None

    def _open(self) -> None:
        if self._locate is not None:
            found = self._locate()
            if found is None:
                raise serial.SerialException("no button box answers on any USB serial port")
            self.url = found
        self._port = serial.serial_for_url(self.url, baudrate=self._baudrate,
                                           timeout=READ_TIMEOUT)
        self._assembler = LineAssembler()
        self._garbled = 0
        self._silent_logged = False
        self._silent_since = self._clock()

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # a vanished device may fail to close; it is gone anyway
                log.debug("closing %s failed", self.url, exc_info=True)

    def _run(self) -> None:
        delay = self._retry
        while not self._stop.is_set():
            if self._port is None:
                try:
                    self._open()
                except (serial.SerialException, OSError, ValueError) as exc:
                    # One warning per outage; the retries go to DEBUG.
                    (log.debug if self._failing else log.warning)(
                        "cannot open button box %s (%s); retrying", self.url, exc
                    )
                    self._failing = True
                    self._stop.wait(delay)
                    delay = min(delay * 2, self._max_retry)
                    continue
                log.info("button box %s connected", self.url)
                self._changed(True)
            self._failing, delay = False, self._retry
            port = self._port
            assert port is not None
            try:
                data = port.read(port.in_waiting or 1)
            except (serial.SerialException, OSError) as exc:
                if not self._stop.is_set():
                    log.warning("lost button box %s (%s); reconnecting", self.url, exc)
                self._drop_port()
                if not self._stop.is_set():
                    self._changed(False)
                continue
            try:
                self._handle(data, self._clock())
            except Exception:  # a bug here must not kill the only reader
                log.exception("button box %s: error handling %r", self.url, data[:80])
        self._drop_port()

    def _changed(self, connected: bool) -> None:
        if self.on_change is not None:
            try:
                self.on_change(connected)
            except Exception:  # the listener's bug must not kill the only reader
                log.exception("button box %s: error telling that it is %s", self.url,
                              "back" if connected else "gone")

    def _handle(self, data: bytes, now: float) -> None:
        if not data:  # a whole read timeout of silence
            partial = self._assembler.flush()
            if partial is not None:
                self._report(partial)
            if now - self._silent_since > self._silence and not self._silent_logged:
                self._silent_logged = True
                log.warning(
                    "button box %s silent for %.0f s: no heartbeat (firmware hung, "
                    "wrong port or wrong baud rate?)",
                    self.url,
                    now - self._silent_since,
                )
            return
        for item in self._assembler.feed(data):
            message = item if isinstance(item, Garbled) else parse_line(item)
            if isinstance(message, Garbled):
                self._report(message)
                continue
            self.last_heard = self._silent_since = now
            if self._silent_logged:
                self._silent_logged = False
                log.info("button box %s talking again", self.url)
            if isinstance(message, Hello):
                self.version = message.version
                if message.version != PROTOCOL_VERSION:
                    log.warning(
                        "button box %s speaks protocol %d, this host %d",
                        self.url,
                        message.version,
                        PROTOCOL_VERSION,
                    )
                else:
                    log.info("button box %s says hello (protocol %d)", self.url, message.version)
            event = event_for(message, now)
            if event is not None:
                post(self._queue, event)

    def _report(self, garbled: Garbled) -> None:
        self._garbled += 1
        if self._garbled <= GARBLED_LOG_LIMIT:
            log.warning(
                "button box %s: ignored garbled line %r: %s",
                self.url,
                garbled.line[:80],
                garbled.reason,
            )
            if self._garbled == GARBLED_LOG_LIMIT:
                log.warning(
                    "button box %s: %d garbled lines; further ones logged at DEBUG "
                    "until it reconnects",
                    self.url,
                    GARBLED_LOG_LIMIT,
                )
        else:
            log.debug(
                "button box %s: ignored garbled line %r: %s",
                self.url,
                garbled.line[:80],
                garbled.reason,
            )

    def close(self) -> None:
        """Stop the reader (within one read timeout) and close the port; again: nothing."""
        self._closed = True
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        if not self._thread.is_alive():
            self._drop_port()

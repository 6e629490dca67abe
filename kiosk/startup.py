"""The kiosk's start on a table: display, settings, hub, buttons; every failure on the screen.

On a Pi nobody reads a terminal, and a kiosk that exits is restarted by systemd into the
same mistake, forever, behind a black screen. So once a display is open every start-up
problem (a settings file, the boot file, the hub's address, the buttons, the outbox, the
display mode) is drawn on the table's screen: what is wrong and the fix in one sentence,
for the TD the players call over. The kiosk then stays up showing it, and starts over by
itself when one of the settings files it read changes (their mtimes are compared every
``RECHECK`` seconds), so the TD fixes the file and walks on.

Only when no display can be opened at all does the kiosk exit: the problem and its fix as
one line on stderr (the unit sends it to the console) and status 78 (EX_CONFIG), which the
unit's start limit turns into "stop trying" instead of a restart loop. A screen that is
only off (a TV switched on after the Pi) is no such failure: the kiosk runs without drawing
until one is connected (``kiosk.display.Screens``), so it never spends its start limit on it.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any, Literal

from dipclock import i18n
from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, N_, Said, Words
from dipclock.sync import to_moment
from dipclock.venuetime import venue_naive, zone
from kiosk import state
from kiosk.app import Kiosk
from kiosk.config import HEARD, ConfigError, Loaded, default_outbox, spoken
from kiosk.display import Display, Screens, console_screens
from kiosk.options import boot_files, watched_files
from kiosk.outbox import Outbox
from kiosk.problems import DisplayUnavailable, Problem
from machine.identity import IdentityError, board_serial, read_boot
from machine.network import NetworkState, NetworkWatch
from machine.storage import is_disk_full

log = logging.getLogger(__name__)

#: sysexits.h: "configuration error"; the unit's RestartPreventExitStatus / start limit.
EX_CONFIG = 78
#: Seconds between two looks at the settings files' mtimes while a problem is shown.
RECHECK = 2.0
#: Seconds between two pumps of the display's events while nothing else happens.
PUMP = 0.25
#: How long the box search listens on each port (the box's heartbeat is once a second).
BOX_WAIT = 2.5

UNPAIRED_REVOKED = N_("The hub no longer takes this clock (the TD revoked it): pair it again")
UNPAIRED_CERTIFICATE = N_("For 10 minutes the hub has not been the one this clock was paired "
                          "with (another certificate): pair again only if the TD set the hub "
                          "up afresh")
#: The card under the outbox is full (a write failed before the outbox could keep it in
#: memory: a card full as the kiosk starts): said so, and tried again every ``FULL_RETRY``
#: seconds, so the clock comes back by itself once there is room.
CARD_FULL = N_("this clock's card is full")
CARD_FULL_FIX = N_("free space on it (sudo journalctl --vacuum-size=20M, or delete files you "
                   "put there); the clock starts again by itself once there is room")
FULL_RETRY = 30.0
UNEXPECTED = N_("unexpected {kind}: {error}")
UNEXPECTED_FIX = N_("restart it (sudo systemctl restart dipclock-kiosk); if this comes back, "
                    "send the output of dipclock doctor and journalctl -u dipclock-kiosk to "
                    "whoever looks after the kiosks")

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


# --- watching the settings files ----------------------------------------------------------

Stamp = tuple[int, int, int] | None


def _stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:  # missing (or unreadable) counts as a state too: creating it is a change
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


@dataclass
class Watch:
    """The settings files read (or looked for), and how they were: ``changed()`` says when
    any was edited, created or removed since."""

    paths: Sequence[Path]
    stamp: Callable[[Path], Stamp] = _stamp
    _seen: list[Stamp] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._seen = [self.stamp(p) for p in self.paths]

    def changed(self) -> bool:
        return [self.stamp(p) for p in self.paths] != self._seen


def own_outbox(path: Path, board: str | None) -> Outbox:
    """The outbox at ``path``, made on this board.

    A hall's cards are cloned from one image. If that image's kiosk had already run, its
    outbox (its id, its presses, its last round) came along: on another Pi it is moved aside
    to ``<path>.from-<serial>`` (kept, never deleted) and this card starts its own, so it
    reports its own id and never sends another table's presses as its own.
    """
    outbox = Outbox(path)
    made_on = outbox.get("board")
    if board is None or made_on == board:
        return outbox
    if made_on is not None and str(path) != ":memory:":
        outbox.close()
        aside = path.with_name(f"{path.name}.from-{made_on}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{path}{suffix}")
            if part.exists():
                part.rename(Path(f"{aside}{suffix}"))
        log.warning("this card's outbox was made on another Pi (serial %s): moved to %s",
                    made_on, aside)
        outbox = Outbox(path)
    outbox.put("board", board)
    return outbox


# --- holding a screen until something happens ------------------------------------------

Outcome = Literal["quit", "changed", "ready", "time up", "unpaired"]


@dataclass
class Clock:
    """The loop's clock and its way of waiting: injectable, so tests need not sleep."""

    mono: Callable[[], float] = time.monotonic
    wait: Callable[[float], None] = time.sleep
    end: float | None = None  # --run-for
    started: float = field(init=False)  # when the kiosk started, by ``mono``: its uptime

    def __post_init__(self) -> None:
        self.started = self.mono()

    def time_up(self) -> bool:
        return self.end is not None and self.mono() >= self.end


def hold(
    display: Display,
    frame: Callable[[], state.Frame],
    watch: Watch,
    clock: Clock,
    ready: Callable[[], bool] = lambda: False,
    painter: Any = None,
    on_screen: Callable[[state.Frame, float], None] | None = None,
    recheck: float = RECHECK,
) -> Outcome:
    """Show ``frame()`` (redrawn when it changes) until ``ready()``, a settings file changes,
    the window is closed or ``--run-for`` is up; says which."""
    from kiosk.draw import Painter

    painter = painter or Painter()
    shown: state.Screen | None = None
    next_look = clock.mono()
    while True:
        fr = frame()
        if fr.screen != shown:
            display.show(fr, painter)
            shown = fr.screen
            if on_screen is not None:
                on_screen(fr, clock.mono())
        display.look()  # a screen switched on meanwhile: draws this frame on it
        if ready():
            return "ready"
        if display.quit_asked():
            return "quit"
        if clock.time_up():
            return "time up"
        now = clock.mono()
        if now >= next_look:
            next_look = now + recheck
            if watch.changed():
                return "changed"
        clock.wait(PUMP)


# --- the start itself -------------------------------------------------------------------

def problem_for(exc: Exception, config: Path | None) -> Problem:
    """A settings exception as the TD reads it: what, and where to fix it."""
    if isinstance(exc, Problem):
        return exc
    text = str(exc)  # English: where the file is named
    # the error itself is the value: said in the screen's language where it was raised
    # with a sentence (a file's name, a key and a library's words stay as written)
    if isinstance(exc, IdentityError):  # the card's root is read-only: no editor on the Pi
        return Problem("{error}", N_("take the card out, open its DIPCLOCK drive on a laptop, "
                                "correct that line of dipclock.txt and put the card back: it "
                                "reads dipclock.txt at every start"), {"error": exc})
    if isinstance(exc, ConfigError) and not text.startswith("options:"):
        where = text.split(": ", 1)[0] if ": " in text else str(config or "kiosk.toml")
        return Problem("{error}", N_("correct {where} (sudo nano {where}); the clock starts "
                                     "over by itself when it is saved"),
                       {"error": exc, "where": where})
    return Problem("{error}", N_("correct the kiosk's command line (sudo systemctl edit "
                                 "dipclock-kiosk) or its settings file"), {"error": exc})


Reader = Callable[[argparse.Namespace], Loaded]
#: The network's last reading (``machine.network.NetworkWatch.state``), None before one.
NetworkReading = Callable[[], NetworkState | None]


def run(args: argparse.Namespace, read: Reader, clock: Clock | None = None,
        screens: Screens | None = None, network: NetworkReading | None = None) -> int:
    """The kiosk from a blank screen to its clock. Returns the exit status.

    ``screens``: the connectors to wait on while no screen is on (default: the kernel's,
    when SDL draws on the console; none headless or in a desktop session). ``network``:
    the network's state, told while no hub answers (default: read on a thread of its own,
    ``machine.network.NetworkWatch``)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request is noise
    clock = clock or Clock()
    if args.run_for is not None:
        clock.end = clock.mono() + args.run_for
    if screens is None and not args.headless:
        screens = console_screens()
    try:
        display = Display(args.headless, screens, mono=clock.mono)
    except DisplayUnavailable as exc:
        _unavailable(args, exc)
        return EX_CONFIG
    watch = NetworkWatch().start() if network is None else None
    try:
        return _run(args, read, clock, display, watch.state if watch else network)
    except DisplayUnavailable as exc:  # a screen connected late that SDL cannot open
        _unavailable(args, exc)
        return EX_CONFIG
    finally:
        display.close()
        if watch is not None:
            watch.close()


def _run(args: argparse.Namespace, read: Reader, clock: Clock, display: Display,
         network: NetworkReading | None = None) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    from kiosk.draw import Painter

    painter = Painter()
    note: str | None = None  # why this clock pairs again, for the pairing screen
    #: the event's language, once a hub's snapshot said it in this run: it wins over the
    #: card's setting from then on (``kiosk.config.spoken``)
    told: Words | None = None
    while True:
        loaded: Loaded | None = None
        problem: Problem | None = None
        table: Table | None = None
        # every file read or looked for, taken before reading: an edit during it counts
        watch = Watch(watched_files(args))
        try:
            loaded = read(args)
            s = loaded.settings
            display.use(s.window_size, s.fullscreen, s.rotate)
            table = Table(args, loaded, display, clock, painter, watch, note=note,
                          network=network or (lambda: None), told=told)
            try:
                outcome = table.run()
            finally:
                note, told = table.note, table.told
        except DisplayUnavailable:  # first: it is a DipclockError too
            raise
        except DipclockError as exc:  # settings, boot file, event, pins: on the screen
            problem = problem_for(exc, loaded.config if loaded else None)
        except Exception as exc:  # a failure nobody foresaw: on the screen, not a traceback
            log.debug("the kiosk stopped", exc_info=True)
            problem = (Problem(CARD_FULL, CARD_FULL_FIX) if is_disk_full(exc) else
                       Problem(UNEXPECTED, UNEXPECTED_FIX,
                               {"kind": type(exc).__name__, "error": exc}))
        showing_problem = problem is not None
        retry_at = clock.mono() + FULL_RETRY
        while problem is not None:
            try:
                outcome = show_problem(
                    args, problem, loaded, display, clock, painter, watch,
                    ready=partial(_after, clock, retry_at) if problem.what == CARD_FULL
                    else (lambda: False),
                    # the card's language: its remembered one too, once the outbox was read
                    words=told or (table.words if table is not None
                                   else _card_words(args, loaded)))
                problem = None
            except Problem as exc:  # the screen that came on meanwhile refuses the size
                problem = exc
        if outcome == "quit":
            return 0
        if outcome == "time up":  # --run-for: a run that ended on a problem failed
            return 2 if showing_problem else 0
        if outcome == "unpaired":
            log.info("this clock is no longer paired: showing a code to pair it again")
        elif outcome == "ready":
            log.info("trying again: the card may have room now")
        else:
            log.info("a settings file changed: starting over")


def _unavailable(args: argparse.Namespace, exc: DisplayUnavailable) -> None:
    """No display: the problem and its fix as one line on the console, in the card's
    language (``--lang`` or dipclock.txt's; the settings are not read yet)."""
    try:
        words = _card_words(args, None)
    except Exception:  # the line must come out whatever the card says
        words = ENGLISH
    print(words("dipclock kiosk: {message}", message=exc.in_(words)), file=sys.stderr,
          flush=True)


def _after(clock: Clock, moment: float) -> bool:
    return clock.mono() >= moment


def _card_words(args: argparse.Namespace, loaded: Loaded | None) -> Words:
    """The card's language for a problem at start-up: its setting where the settings were
    read, else ``--lang`` or dipclock.txt's ``language`` line alone (a broken kiosk.toml
    must not make a French card speak English), else English. The outbox's remembered
    language is not opened for it: a problem may be the outbox itself."""
    if loaded is not None:
        return spoken(loaded.settings.language)
    option = getattr(args, "language", None)
    try:
        if option is not None and i18n.language(option) in i18n.LANGUAGES:
            return spoken(option)  # the options win over the card's file, as they do
    except i18n.LanguageError:  # a --lang no catalogue has: its own refusal says so
        pass
    boot = read_boot(boot_files(args))
    return spoken(boot.language if boot is not None else None)


def show_problem(args: argparse.Namespace, problem: Problem, loaded: Loaded | None,
                 display: Display, clock: Clock, painter: Any, watch: Watch,
                 ready: Callable[[], bool] = lambda: False, words: Words = ENGLISH
                 ) -> Outcome:
    """Draw the problem until a settings file changes (``"changed"``: start over) or
    ``ready()`` (``"ready"``: try again); the console's line in English, the screen in the
    card's language."""
    print(f"dipclock kiosk: {problem.what}. Fix: {problem.fix}", file=sys.stderr, flush=True)
    table = loaded.settings.table if loaded is not None else None
    frame = state.problem(*problem.shown(words), table, words)
    if display.asked is None:  # the settings were not read: the display's own mode
        display.use(None, not args.headless)
    return hold(display, lambda: frame, watch, clock, ready=ready, painter=painter,
                on_screen=_status_file(args, lambda m: m))


def _status_file(args: argparse.Namespace, hub_time: Callable[[float], float],
                 sync: Callable[[], Any] = lambda: None) -> Any:
    if not args.status_file:
        return None
    from kiosk.statusfile import StatusFile

    return StatusFile(args.status_file, hub_time, sync)


class Table:
    """One attempt at running this table's clock with one set of settings."""

    def __init__(self, args: argparse.Namespace, loaded: Loaded, display: Display,
                 clock: Clock, painter: Any, watch: Watch,
                 board: Callable[[], str | None] = board_serial,
                 note: str | None = None, network: NetworkReading = lambda: None,
                 told: Words | None = None) -> None:
        self.args, self.loaded, self.settings = args, loaded, loaded.settings
        #: the card's notes on its settings (dipclock.txt's lines not used, Imager's
        #: settings ignored): among the alerts of every screen while the clock works
        self.notes = loaded.notes
        for line in self.notes:
            log.warning("%s", line)
        #: said on the pairing screen: why this clock pairs again (set when it must)
        self.note = note
        self.board = board  # the Pi's serial: tells a cloned card's outbox
        self.network = network  # told on the screen while no hub answers
        #: the event's language a hub's snapshot said in this run (None: not yet)
        self.told = told
        #: the screens' language before the event's is known (``kiosk.config.spoken``):
        #: set once the outbox is open
        self.words = told or spoken(self.settings.language)
        self.watch = watch
        self.display, self.clock, self.painter = display, clock, painter
        self.inputs: queue.Queue[object] = queue.Queue()
        self.closers: list[Callable[[], None]] = []
        self.kiosk: Kiosk | None = None  # the running clock's loop, once it runs

    def run(self) -> Outcome:
        try:
            return self._run()
        finally:
            for close in reversed(self.closers):
                try:
                    close()
                except Exception:  # closing must not hide why we stopped
                    log.debug("closing failed", exc_info=True)

    def _outbox(self) -> Outbox:
        path = Path(self.settings.outbox) if self.settings.outbox else default_outbox()
        try:
            outbox = own_outbox(path, self.board())
        except Exception as exc:  # sqlite3.Error, OSError: a path the TD must fix
            raise Problem(N_("cannot keep the presses in {path}: {error}"),
                          N_("free space on the card or set outbox in kiosk.toml to a "
                             "writable file (dipclock doctor checks the data folder)"),
                          {"path": path, "error": exc}) from None
        self.closers.append(outbox.close)
        return outbox

    def _find_hub(self, watch: Watch, hub_id: str | None) -> tuple[str | None, Outcome | None]:
        """Browse for the hub (the one this clock is paired with, or any for ``hub_id``
        None), the screen saying so; its URL, or why we stopped looking."""
        from kiosk.discovery import HubFinder

        s = self.settings
        finder = HubFinder(hub_id)
        try:
            outcome = hold(self.display, lambda: state.with_card_notes(
                               state.looking_for_hub(s.table, network=self.network(),
                                                     words=self.words),
                               self.notes), watch,
                           self.clock, ready=lambda: finder.found() is not None,
                           painter=self.painter, on_screen=_status_file(self.args, lambda m: m))
            return finder.found(), (None if outcome == "ready" else outcome)
        finally:
            finder.close()  # found, or given up: stop browsing the network

    def _pair(self, url: str, kiosk: str, outbox: Outbox, note: str | None
              ) -> tuple[Any, Outcome | None]:
        """Show a code until the TD approves this clock on the dashboard (``kiosk.pairing``);
        the credential, or why we stopped waiting."""
        from kiosk.pairing import Pairing

        s = self.settings
        words = self.words
        pairing = Pairing(url, kiosk, s.table, outbox, wake=lambda: None, note=note,
                          words=words)
        hub = state.hub_line(url, discovered=not s.hub, words=words)

        def frame() -> state.Frame:
            shown = pairing.shown()
            # a typed address that does not answer may be a network down; a hub just found
            # on the network shows the network works
            problem = shown.problem.in_(words) if shown.problem else None
            return state.with_card_notes(state.with_network(
                state.pairing(s.table, shown.code, hub, shown.fingerprint, problem, words),
                self.network() if shown.code is None and s.hub else None), self.notes)

        pairing.start()
        try:
            outcome = hold(self.display, frame, self.watch, self.clock,
                           ready=lambda: pairing.done is not None, painter=self.painter,
                           on_screen=_status_file(self.args, lambda m: m))
            return pairing.done, (None if outcome == "ready" else outcome)
        finally:
            pairing.close()

    def _run(self) -> Outcome:
        from kiosk.about import About, kiosk_id
        from kiosk.app import FixedRound, Source, TimeBase, WallTime
        from kiosk.app import run as run_loop
        from kiosk.options import standalone_round
        from kiosk.round import Round, round_key
        from kiosk.sound import Sounds

        s = self.settings
        watch = self.watch
        if s.key:
            log.warning("key = ... is no longer used: each clock is paired with the hub on "
                        "the TD's dashboard (remove it from dipclock.txt or kiosk.toml)")
        outbox = self._outbox()
        self.words = self.told or spoken(s.language, outbox.get(HEARD))
        self.notes = self.loaded.notes_in(self.words)
        sources, keyboard, box, factory = self._buttons()
        inputs: list[Any] = [src.source for src in sources]
        hub = None
        source: Source
        timebase: TimeBase
        hub_url = ""
        # a card that says nothing finds the hall's hub, unless it ran one board alone
        # before (``--event`` once): that round is resumed, as a club's Pi expects
        finds = s.finds_hub and (s.hub is not None or outbox.get("standalone") is None)
        if finds or s.hub:
            from kiosk import pairing
            from kiosk.hubclient import HubClient

            me = kiosk_id(outbox)
            credential = pairing.stored(outbox, s.table)
            url = s.hub if s.hub and not finds else None
            if url is None:
                url, outcome = self._find_hub(watch, credential.hub if credential else None)
                if url is None:
                    return outcome or "changed"
            if credential is None:
                credential, outcome = self._pair(url, me, outbox, self.note)
                if credential is None:
                    return outcome or "changed"
            hub_url = url
            where, shown_table = f"hub {url}", credential.table
            about = About(me, credential.table, inputs, factory, box,
                          mono=self.clock.mono, started=self.clock.started,
                          data=outbox.path.parent)
            paired_id = credential.hub
            hub = HubClient(url, credential.table, credential.token, outbox,
                            wake=lambda: self.inputs.put(object()), about=about,
                            verify=pairing.pinned(credential.certificate),
                            find=_finder(paired_id) if finds and paired_id else None,
                            on_move=self._moved)
            about.hub = hub
            if box is not None:  # an unplugged box reaches the TD's grid at once
                box.on_change = hub.box_changed
            self.closers.append(hub.close)
            source = timebase = hub
            alerts = _joined(hub.alerts, about.alerts)
        else:
            stored = outbox.get("standalone")
            try:
                now = to_moment(time.time())  # UTC, as the core counts
                profile, schedule, record = standalone_round(s, date.today(), stored, now)
            except DipclockError as exc:
                raise Problem(N_("no round to show: {error}"),
                              N_("set event and start in kiosk.toml (one board), or remove "
                                 "event to find the hall's hub on the network"),
                              {"error": exc}) from None
            outbox.put("standalone", record)
            table = record.get("table")
            source = FixedRound(Round(profile, schedule, table,
                                      round_key(profile, schedule, table)))
            timebase = WallTime()
            begins = venue_naive(schedule.start, zone(profile.timezone))
            where = f"no hub ({profile.id}, round from {begins:%Y-%m-%d %H:%M})"
            shown_table = table
            alerts = About("", s.table, inputs, factory, box, data=outbox.path.parent).alerts

        # the card's notes in the screen's language: the event's, once a round said it
        alerts = _noted(alerts, lambda: self.loaded.notes_in(
            self.kiosk.words if self.kiosk is not None else self.words))
        kiosk = Kiosk(source, outbox, timebase, s.warning_minutes * 60,
                      log=lambda line: print(line, flush=True),
                      sounds=Sounds(s.sound) if s.sound else None, alerts=alerts,
                      table=shown_table, hub_url=hub_url, hub_found=bool(finds and hub),
                      words=self.words,
                      message=hub.message if hub is not None else lambda: None,
                      network=self.network)
        on_screen = _status_file(self.args, timebase.local,
                                 hub.sync_status if hub is not None else lambda: None)
        self.kiosk = kiosk
        print(ready_line(shown_table, where, time.monotonic()), flush=True)
        if hub is not None:
            hub.start()
        remaining = None if self.clock.end is None else max(0.0, self.clock.end - self.clock.mono())
        try:
            run_loop(kiosk, self.display, self.inputs, run_for=remaining, keyboard=keyboard,
                     on_screen=on_screen,
                     stop=lambda: hub is not None and hub.unpaired is not None)
        finally:
            self.told = kiosk.told or self.told
        if hub is not None and hub.unpaired is not None:
            from kiosk import pairing

            pairing.forget(outbox)
            self.note = (UNPAIRED_CERTIFICATE if hub.unpaired == "certificate"
                         else UNPAIRED_REVOKED)
            return "unpaired"
        return "time up" if self.clock.time_up() else "quit"

    def _moved(self, url: str) -> None:
        """The hub found again at ``url`` (``HubClient.move``): the screen names the new
        address, and the result sheet's QR code points there."""
        kiosk = self.kiosk
        if kiosk is not None:
            kiosk.hub_url, kiosk.hub_found = url, True

    def _buttons(self) -> tuple[list[Any], Any, Any, str | None]:
        """Start every configured button source on the one queue; a wrong pin, a missing pin
        factory or a malformed box URL is a Problem naming the setting."""
        from hardware import boxfinder

        b = self.settings.buttons
        sources: list[Any] = []
        keyboard = box = None
        factory_label: str | None = None
        if b.gpio or b.pin_factory:
            from hardware.gpio import GpioButtons, PinFactoryError, factory_name, load_pin_factory

            try:
                factory = load_pin_factory(b.pin_factory)
            except PinFactoryError as exc:
                raise Problem("buttons.pin_factory: {error}", _factory_fix(b.pin_factory),
                              {"error": exc}) from None
            if factory is not None:
                self.closers.append(factory.close)
            if b.gpio:
                try:
                    gpio = GpioButtons(b.gpio, self.inputs,
                                       hold_seconds=b.hold_seconds, pin_factory=factory)
                except Exception as exc:  # gpiozero: BadPinFactory, PinInvalidPin, GPIOPinInUse
                    what, values = _gpio_said(exc)
                    raise Problem(what, _gpio_fix(exc), values) from None
                self.closers.append(gpio.close)
                sources.append(gpio)
                used = next(iter(gpio.buttons.values())).pin_factory
                factory_label = factory_name(used)
        if b.serial:
            from hardware.serialbox import SerialButtonBox

            try:
                if b.serial == "auto":
                    box = SerialButtonBox("auto", self.inputs,
                                          locate=lambda: boxfinder.find_box(BOX_WAIT))
                else:
                    box = SerialButtonBox(b.serial, self.inputs)
            except ValueError as exc:
                raise Problem("buttons.serial {port!r}: {error}",
                              N_("set buttons.serial in kiosk.toml to the box's port "
                                 "(ls /dev/serial/by-id) or to \"auto\""),
                              {"port": b.serial, "error": exc}) from None
            self.closers.append(box.close)
            sources.append(box)
        if b.keyboard and not self.display.headless:
            from hardware.keyboard import KeyboardButtons

            keyboard = KeyboardButtons(self.inputs,
                                       hold_seconds=b.hold_seconds)
            self.closers.append(keyboard.close)
            sources.append(keyboard)
        return sources, keyboard, box, factory_label


def _finder(hub_id: str) -> Callable[[], Any]:
    """A new mDNS search for the hub with the id ``hub_id`` (``HubClient``'s ``find``)."""
    def find() -> Any:
        from kiosk.discovery import HubFinder

        return HubFinder(hub_id)
    return find


Alerts = Callable[[], tuple[Said | str, ...]]


def _joined(*parts: Alerts) -> Alerts:
    """The alert lines of each of ``parts``, in order."""
    return lambda: tuple(line for part in parts for line in part())


def _noted(alerts: Alerts, notes: Callable[[], tuple[str, ...]]) -> Alerts:
    """The shell's alerts, then the card's notes on its settings."""
    return lambda: (*alerts(), *notes())


def ready_line(table: int | None, where: str, mono: float) -> str:
    """The line scripts and tests wait for: ``READY`` first, then what is ready, so a person
    reading the journal knows which table, which hub, and the monotonic reading to time
    start-up against."""
    which = f"table {table}" if table is not None else "no table number"
    return f"READY {which}, {where}, monotonic {mono:.3f} s"


def _factory_fix(name: str | None) -> str:
    if name == "lgpio":
        return N_("install lgpio: sudo apt install python3-lgpio, in a venv made with "
                  "--system-site-packages (sudo sh systemd/install.sh kiosk does both)")
    return N_("set buttons.pin_factory in kiosk.toml to lgpio (Pi 4 and Pi 5), or remove it")


#: gpiozero's (English) words for the two mistakes a TD makes in [buttons.gpio], said in
#: ours so the screen says them in its language: a pin given twice (or taken by another
#: program), a pin that is no pin
_PIN_IN_USE = re.compile(r"pin (\S+) is already in use")
_NOT_A_PIN = re.compile(r"(\S+) is not a valid pin name")


def _gpio_said(exc: Exception) -> tuple[str, dict[str, object]]:
    """What a gpiozero failure to make the buttons says, and its values (``Problem``)."""
    text = str(exc)
    if (busy := _PIN_IN_USE.match(text)) is not None:
        return N_("buttons.gpio: pin {pin} is already in use"), {"pin": busy[1]}
    if (wrong := _NOT_A_PIN.match(text)) is not None:
        return N_("buttons.gpio: {pin} is not a valid pin name"), {"pin": wrong[1]}
    return "buttons.gpio: {kind}: {error}", {"kind": type(exc).__name__, "error": exc}


def _gpio_fix(exc: Exception) -> str:
    name = type(exc).__name__
    if "InUse" in name or "busy" in str(exc).lower():
        return N_("give each power its own pin, and stop whatever else uses it")
    if "Factory" in name:
        return N_("set buttons.pin_factory = \"lgpio\" in kiosk.toml and install "
                  "python3-lgpio (sudo sh systemd/install.sh kiosk)")
    return N_("use BCM pin numbers (like A = 5) or names like \"GPIO5\" in [buttons.gpio]")


__all__ = ["EX_CONFIG", "Watch", "hold", "own_outbox", "problem_for", "run"]

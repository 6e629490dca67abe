"""``dipclock kiosk``: run a table's clock, standalone or with a hub, or draw one frame.

    dipclock kiosk --event wdc2006 --start 10:00 --table 3          # a club's one board
    dipclock kiosk --hub http://10.0.0.1:8000 --table 3 --key KEY   # a tournament hall
    dipclock kiosk --event wdc2019 --start 2019-09-06T10:00 \\
        --at 2019-09-06T10:17:30 --screenshot out.png               # one frame to a PNG

Settings come from ``/etc/dipclock/kiosk.toml`` (if it exists) or ``--config FILE``, and
options override them. Every mistake ends with exit status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import signal
import sys
import time
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn

from dipclock.cli import UsageError, parse_moment, round_schedule
from dipclock.eventfiles import load_event
from dipclock.events import EventError, EventProfile
from dipclock.powers import power_letter
from dipclock.timeline import Schedule
from kiosk.config import SYSTEM_CONFIG, ConfigError, Settings, default_outbox, load_file, merge
from kiosk.outbox import Outbox, StoredPress

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: No round lasts longer: a bare --start older than this is a new day's round.
RESUME_WITHIN = timedelta(hours=12)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _bool_flag(p: argparse.ArgumentParser, name: str, help_text: str) -> None:
    p.add_argument(f"--{name}", dest=name.replace("-", "_"), action=argparse.BooleanOptionalAction,
                   default=None, help=help_text)


def build_parser() -> _Parser:
    p = _Parser(prog="dipclock kiosk", description="Run a table's deadline clock.")
    p.add_argument("--config", help=f"settings file (default {SYSTEM_CONFIG} if it exists)")
    p.add_argument("--event", help="built-in event id or a .toml event file (standalone)")
    p.add_argument("--start", help="round start: 10:00 (today) or 2006-08-04T10:00")
    p.add_argument("--round", type=int, help="take the round's name and last year from the event")
    p.add_argument("--end-year", type=int, help="last game year (overrides the event)")
    p.add_argument("--call", help="the round's call time")
    p.add_argument("--pause", action="append", dest="pauses", metavar="PHASE=MIN",
                   help="a break, S1903=60 or 12:30=45 (repeatable)")
    p.add_argument("--table", type=int, help="this table's number")
    p.add_argument("--hub", help="the hub's URL, http://HOST:PORT")
    p.add_argument("--key", help="the hall's kiosk key (printed by `dipclock hub`)")
    p.add_argument("--size", help="window size, 1280x720 (default: the whole display)")
    _bool_flag(p, "fullscreen", "fullscreen (default) or a window")
    p.add_argument("--warning-minutes", type=float, help="amber from this many minutes left (2)")
    _bool_flag(p, "sound", "sound cues (off by default)")
    p.add_argument("--outbox", help="the presses' SQLite file")
    p.add_argument("--gpio", action="append", metavar="POWER=PIN",
                   help="a power's GPIO pin, A=5 (repeatable)")
    p.add_argument("--serial", help="button box URL, /dev/ttyACM0 or socket://host:port")
    _bool_flag(p, "keyboard", "keys A E F G I R T as buttons (default on)")
    p.add_argument("--headless", action="store_true", help="no window (tests, benchmarks)")
    p.add_argument("--run-for", type=float, help="stop after this many seconds")
    p.add_argument("--status-file", metavar="PATH",
                   help="write what the screen shows to PATH as JSON on every change "
                        "(debugging, tests; see kiosk/statusfile.py)")
    p.add_argument("--at", help="with --screenshot: the moment to draw")
    p.add_argument("--screenshot", help="draw the frame at --at to this PNG and exit")
    p.add_argument("--press", action="append", default=[], metavar="POWER@TIME",
                   help="with --screenshot: orders in, I@2019-09-06T10:18:12 (repeatable)")
    p.add_argument("--hold", action="append", default=[], metavar="POWER@TIME",
                   help="with --screenshot: a 3-second hold (out of the game)")
    return p


def settings_from(args: argparse.Namespace) -> Settings:
    """The config file (if any) overlaid by the options."""
    path = Path(args.config) if args.config else (SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None)
    file_data = load_file(path) if path else {}
    gpio = None
    if args.gpio:
        gpio = {}
        for item in args.gpio:
            power, sep, pin = item.partition("=")
            if not sep:
                raise UsageError(f"--gpio {item!r}: expected POWER=PIN, like A=5")
            gpio[power] = int(pin) if pin.isdigit() else pin
    options: dict[str, Any] = {
        "event": args.event, "start": args.start, "round": args.round,
        "end_year": args.end_year, "call": args.call, "pauses": args.pauses,
        "table": args.table, "hub": args.hub, "key": args.key, "size": args.size,
        "fullscreen": args.fullscreen, "warning_minutes": args.warning_minutes,
        "sound": args.sound, "outbox": args.outbox, "buttons.gpio": gpio,
        "buttons.serial": args.serial, "buttons.keyboard": args.keyboard,
    }
    return merge(file_data, options, str(path) if path else "options")


def standalone_round(
    settings: Settings,
    today: date,
    stored: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> tuple[EventProfile, Schedule, dict[str, Any]]:
    """The round from the settings, or the one in the outbox when the kiosk restarts.

    A bare ``--start 19:00`` means today, but a kiosk restarted after midnight in an
    evening round must resume yesterday's round: the stored round wins when it has the
    same event, table and time of day and began less than ``RESUME_WITHIN`` ago.
    """
    if settings.event is None and settings.start is None:
        if stored is None:
            raise UsageError("give --event and --start (standalone) or --hub")
        profile = EventProfile.model_validate(stored["profile"])
        return profile, Schedule.model_validate(stored["schedule"]), stored
    if settings.event is None or settings.start is None:
        raise UsageError("a standalone kiosk needs both --event and --start")
    profile = load_event(settings.event)
    start = parse_moment(settings.start, today)
    if stored is not None and "T" not in settings.start and now is not None:
        old = Schedule.model_validate(stored["schedule"]).start
        if (stored.get("profile", {}).get("id") == profile.id
                and stored.get("table") == settings.table
                and old.time() == start.time() and timedelta(0) <= now - old < RESUME_WITHIN):
            start = old
    schedule = round_schedule(profile, start, settings.round, settings.end_year, settings.call,
                              settings.pauses)
    record = {
        "profile": profile.model_dump(mode="json"),
        "schedule": schedule.model_dump(mode="json"),
        "table": settings.table,
    }
    return profile, schedule, record


def _presses(items: list[str], kind: str, on: date) -> list[StoredPress]:
    out = []
    for i, item in enumerate(items):
        power, sep, when = item.partition("@")
        if not sep:
            raise UsageError(f"--{kind} {item!r}: expected POWER@TIME, like I@10:18:12")
        try:
            letter = power_letter(power)
        except ValueError as exc:
            raise UsageError(f"--{kind} {item!r}: {exc}") from None
        out.append(StoredPress(f"{kind}-{i}", "", letter, kind, parse_moment(when, on)))  # type: ignore[arg-type]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        settings = settings_from(args)
        if args.screenshot:
            return _screenshot(args, settings)
        if args.at or args.press or args.hold:
            raise UsageError("--at, --press and --hold go with --screenshot")
        return _live(args, settings)
    except (UsageError, EventError, ConfigError) as exc:
        print(f"dipclock kiosk: error: {exc}", file=sys.stderr)
        return 2


def _screenshot(args: argparse.Namespace, settings: Settings) -> int:
    """One frame, drawn by the same code as the live screen, to a PNG."""
    import pygame

    from kiosk import state
    from kiosk.draw import Painter, render

    if not args.at:
        raise UsageError("--screenshot needs --at, the moment to draw")
    profile, schedule, _ = standalone_round(settings, date.today())
    at = parse_moment(args.at, schedule.start.date())
    presses = _presses(args.press, "press", at.date()) + _presses(args.hold, "hold", at.date())
    out = state.out_powers((), presses, at, schedule.start)
    frame = state.build(profile, schedule, at, presses, out, settings.table,
                        settings.warning_minutes * 60)
    pygame.font.init()
    surface = pygame.Surface(settings.window_size or (1280, 720))
    render(surface, frame.screen, Painter())
    pygame.image.save(surface, args.screenshot)
    return 0


def _live(args: argparse.Namespace, settings: Settings) -> int:
    """The running kiosk: inputs, outbox, hub or standalone round, the pygame loop."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request is noise
    outbox_path = Path(settings.outbox) if settings.outbox else default_outbox()
    try:
        outbox = Outbox(outbox_path)
    except Exception as exc:  # sqlite3.Error, OSError: a path the TD must fix
        raise UsageError(f"outbox {outbox_path}: {exc}") from None

    from kiosk.app import FixedRound, Kiosk, Round, WallTime, round_key, run
    from kiosk.sound import Sounds

    inputs: queue.Queue[object] = queue.Queue()
    hub = None
    if settings.hub:
        from kiosk.hubclient import HubClient

        if settings.table is None:
            raise UsageError("--hub needs --table")
        hub = HubClient(settings.hub, settings.table, settings.key or "", outbox,
                        wake=lambda: inputs.put(object()))
        source: Any = hub
        timebase: Any = hub
    else:
        stored = outbox.get("standalone")
        profile, schedule, record = standalone_round(
            settings, date.today(), stored, datetime.now())
        outbox.put("standalone", record)
        table = record.get("table")
        source = FixedRound(Round(profile, schedule, table, round_key(profile, schedule, table)))
        timebase = WallTime()

    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    import pygame

    pygame.display.init()
    pygame.font.init()
    size = settings.window_size
    if args.headless:
        surface = pygame.display.set_mode(size or (800, 480))
    elif settings.fullscreen and size is None:
        surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    else:
        surface = pygame.display.set_mode(size or (1280, 720),
                                          pygame.FULLSCREEN if settings.fullscreen else 0)
    pygame.display.set_caption("dipclock")
    pygame.mouse.set_visible(False)

    kiosk = Kiosk(source, outbox, timebase, settings.warning_minutes * 60,
                  log=lambda line: print(line, flush=True),
                  sounds=Sounds(settings.sound) if settings.sound else None)
    sources, keyboard = _inputs(settings, inputs, args.headless)
    on_screen = None
    if args.status_file:
        from kiosk.statusfile import StatusFile

        on_screen = StatusFile(args.status_file, timebase.local,
                               hub.sync_status if hub is not None else lambda: None)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"READY {time.monotonic():.3f}", flush=True)
    try:
        if hub is not None:
            hub.start()
        return run(kiosk, surface, inputs, run_for=args.run_for, keyboard=keyboard,
                   on_screen=on_screen)
    finally:
        for s in sources:
            s.close()
        if hub is not None:
            hub.close()
        outbox.close()
        pygame.quit()


def _inputs(settings: Settings, inputs: queue.Queue[Any], headless: bool) -> tuple[list[Any], Any]:
    """Start every configured button source on the one queue."""
    sources: list[Any] = []
    keyboard = None
    hold = settings.buttons.hold_seconds
    try:
        if settings.buttons.gpio:
            from hardware.gpio import GpioButtons

            sources.append(GpioButtons(settings.buttons.gpio, inputs, hold_seconds=hold))
        if settings.buttons.serial:
            from hardware.serialbox import SerialButtonBox

            sources.append(SerialButtonBox(settings.buttons.serial, inputs))
    except Exception as exc:  # gpiozero's BadPinFactory, a malformed URL: fix the settings
        for s in sources:
            s.close()
        raise UsageError(f"buttons: {exc}") from None
    if settings.buttons.keyboard and not headless:
        from hardware.keyboard import KeyboardButtons

        keyboard = KeyboardButtons(inputs, hold_seconds=hold)
        sources.append(keyboard)
    return sources, keyboard


__all__ = ["main", "standalone_round"]

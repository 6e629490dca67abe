"""The kiosk's options and settings: its command line, the files it reads, the round they give.

What ``dipclock kiosk`` starts with, apart from running it (``kiosk.cli``, ``kiosk.startup``):
``kiosk.startup`` reads the settings again and watches the files when it starts over, and
``dipclock doctor`` reads them exactly as the kiosk does. Kept apart from ``kiosk.cli`` so
that none of them imports the command that runs them (no import cycle).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from dipclock.arguments import Parser, UsageError, parse_moment, round_schedule
from dipclock.eventfiles import load_event
from dipclock.events import EventProfile
from dipclock.i18n import said
from dipclock.roundcheck import check_round
from dipclock.schedule import Schedule
from dipclock.timeline import table_clock
from dipclock.venuetime import venue_naive, zone
from kiosk.config import SYSTEM_CONFIG, Loaded, Settings, load_file, merge
from machine.identity import (
    BOOT_FILES,
    ROTATIONS,
    hostname_table,
    imager_notes,
    read_boot,
    refusal_notes,
)

#: No round lasts longer: a bare --start older than this is a new day's round.
RESUME_WITHIN = timedelta(hours=12)


def _bool_flag(p: argparse.ArgumentParser, name: str, help_text: str) -> None:
    p.add_argument(f"--{name}", dest=name.replace("-", "_"), action=argparse.BooleanOptionalAction,
                   default=None, help=help_text)


def build_parser() -> Parser:
    p = Parser(prog="dipclock kiosk", description="Run a table's deadline clock.")
    p.add_argument("--config", help=f"settings file (default {SYSTEM_CONFIG} if it exists)")
    p.add_argument("--event", help="built-in event id or a .toml event file (standalone)")
    p.add_argument("--start", help="round start: 10:00 (today) or 2006-08-04T10:00; "
                   "a board-clock event (a club night) starts when the kiosk does")
    p.add_argument("--round", type=int, help="take the round's name and last year from the event")
    p.add_argument("--end-year", type=int, help="last game year (overrides the event)")
    p.add_argument("--call", help="the round's call time")
    p.add_argument("--pause", action="append", dest="pauses", metavar="PHASE=MIN",
                   help="a break, S1903=60 or 12:30=45 (repeatable)")
    p.add_argument("--table", type=int, help="this table's number (the one the TD is asked to "
                   "approve the clock for; without it the TD picks the table)")
    p.add_argument("--hub", help="the hub's URL, https://HOST:PORT, or auto (find it by mDNS)")
    # the hall's shared key of old: each clock is paired now; a script still passing it runs
    p.add_argument("--key", help=argparse.SUPPRESS)
    p.add_argument("--boot-file", metavar="PATH",
                   help="the card's identity file (default /boot/firmware/dipclock.txt or "
                        "/boot/dipclock.txt)")
    p.add_argument("--lang", dest="language", metavar="LANG",
                   help="what the screens say before the hub has said the event's language: "
                        "en, fr, de, it or nl (default: the last event's, else English)")
    p.add_argument("--size", help="window size, 1280x720 (default: the whole display)")
    _bool_flag(p, "fullscreen", "fullscreen (default) or a window")
    p.add_argument("--rotate", type=int, choices=ROTATIONS,
                   help="turn the picture clockwise for a screen mounted on its side (90, "
                        "270) or upside down (180); --size stays the screen's own")
    p.add_argument("--warning-minutes", type=float, help="amber from this many minutes left (2)")
    _bool_flag(p, "sound", "sound cues (off by default)")
    p.add_argument("--outbox", help="the presses' SQLite file")
    p.add_argument("--gpio", action="append", metavar="POWER=PIN",
                   help="a power's GPIO pin, A=5 (repeatable)")
    p.add_argument("--pin-factory", help="gpiozero's pin library: lgpio, rpigpio, pigpio, "
                                         "native or mock (default: gpiozero's own order)")
    p.add_argument("--serial", help="button box URL, /dev/ttyACM0 or socket://host:port, or "
                                    "auto (find the box by its hello line)")
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


def config_path(args: argparse.Namespace) -> Path | None:
    """The kiosk.toml to read: ``--config``, else the system's if it exists."""
    return Path(args.config) if args.config else (SYSTEM_CONFIG if SYSTEM_CONFIG.exists() else None)


def boot_files(args: argparse.Namespace) -> tuple[Path, ...]:
    return (Path(args.boot_file),) if args.boot_file else BOOT_FILES


def watched_files(args: argparse.Namespace) -> list[Path]:
    """Every settings file the kiosk reads or looks for: editing, adding or removing one
    makes a kiosk showing a problem start over."""
    return [Path(args.config) if args.config else SYSTEM_CONFIG, *boot_files(args)]


def read_settings(
    args: argparse.Namespace,
    hostname: Callable[[], int | None] = hostname_table,
    imager: Callable[[], tuple[str, ...]] = imager_notes,
) -> Loaded:
    """Options > boot file > kiosk.toml > hostname; each file's mistakes name the file.

    A bad line of the boot file is not used and the others are (the card applied them at
    boot): the clock starts, and ``Loaded.notes`` says which line and the fix, with
    ``imager``'s lines (the card's setup found Imager's settings, which it ignores)."""
    path = config_path(args)
    data = load_file(path) if path else {}
    boot = read_boot(boot_files(args))
    if boot is not None:
        data |= boot.settings()
    refused = boot.refused if boot is not None else ()
    imager_said = imager()
    notes = refusal_notes(refused) + imager_said
    if data.get("table") is None and args.table is None:
        table = hostname()
        if table is not None:
            data["table"] = table
    gpio = None
    if args.gpio:
        gpio = {}
        for item in args.gpio:
            power, sep, pin = item.partition("=")
            if not sep:
                raise UsageError(said("--gpio {item}: expected POWER=PIN, like A=5",
                                      item=repr(item)))
            gpio[power] = int(pin) if pin.isdigit() else pin
    options: dict[str, Any] = {
        "event": args.event, "start": args.start, "round": args.round,
        "end_year": args.end_year, "call": args.call, "pauses": args.pauses,
        "table": args.table, "hub": args.hub, "key": args.key, "size": args.size,
        "fullscreen": args.fullscreen, "rotate": args.rotate,
        "warning_minutes": args.warning_minutes, "sound": args.sound, "outbox": args.outbox,
        "language": getattr(args, "language", None),
        "buttons.gpio": gpio,
        "buttons.pin_factory": args.pin_factory,
        "buttons.serial": args.serial, "buttons.keyboard": args.keyboard,
    }
    given = any(v is not None for v in options.values())
    origin = "options" if given or path is None else str(path)
    settings = merge(data, options, origin)
    return Loaded(settings, path, notes, refused, imager_said)


def settings_from(args: argparse.Namespace) -> Settings:
    """The kiosk's settings as it starts with ``args`` (also what ``dipclock doctor`` reads)."""
    return read_settings(args).settings


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
            raise UsageError(said("give --event and --start (standalone) or --hub"))
        profile = EventProfile.model_validate(stored["profile"])
        return profile, Schedule.model_validate(stored["schedule"]), stored
    if settings.event is None:
        raise UsageError(said("a standalone kiosk needs --event (and --start for a central "
                              "clock)"))
    profile = load_event(settings.event)
    tz = zone(profile.timezone)  # starts are typed and resumed in the venue's time
    same = stored is not None and (stored.get("profile", {}).get("id") == profile.id
                                   and stored.get("table") == settings.table)
    old = (venue_naive(Schedule.model_validate(stored["schedule"]).start, tz)
           if same and stored is not None else None)
    here = venue_naive(now, tz) if now is not None else None
    if settings.start is None:
        # a board clock (a club night) starts when the kiosk does, and a restart resumes it
        if profile.central_clock or here is None:
            raise UsageError(said("--start: {event} runs on a central clock: give the round's "
                                  "start, like --start 19:00", event=profile.id))
        start = here.replace(microsecond=0)
        if old is not None and timedelta(0) <= here - old < RESUME_WITHIN:
            start = old
    else:
        start = parse_moment(settings.start, today)
        if old is not None and here is not None and "T" not in settings.start:
            if old.time() == start.time() and timedelta(0) <= here - old < RESUME_WITHIN:
                start = old
    schedule = round_schedule(profile, start, settings.round, settings.end_year, settings.call,
                              settings.pauses)
    check_round(table_clock(profile, schedule, settings.table), settings.pauses, settings.call)
    record = {
        "profile": profile.model_dump(mode="json"),
        "schedule": schedule.model_dump(mode="json"),
        "table": settings.table,
    }
    return profile, schedule, record


__all__ = ["RESUME_WITHIN", "boot_files", "build_parser", "config_path", "read_settings",
           "settings_from", "standalone_round", "watched_files"]

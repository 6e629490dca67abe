"""``dipclock kiosk``: run a table's clock, standalone or with a hub, or draw one frame.

    dipclock kiosk --event wdc2006 --start 10:00 --table 3          # a club's one board
    dipclock kiosk --hub 10.0.0.1:8000 --table 3                    # a tournament hall
    dipclock kiosk --event wdc2019 --start 2019-09-06T10:00 \\
        --at 2019-09-06T10:17:30 --screenshot out.png               # one frame to a PNG

Settings come from, strongest first: the options; the card's boot partition file
``dipclock.txt`` (table and hub: what differs between cloned cards, see
``machine.identity``); ``/etc/dipclock/kiosk.toml`` (if it exists) or ``--config FILE``; the
hostname (``table-07`` is table 7). A mistake on the command line ends with exit status 2
and one line on stderr; any other start-up problem is drawn on the table's screen with its
fix, and the kiosk starts over when the file is corrected (``kiosk.startup``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import date
from typing import Literal

from dipclock.arguments import UsageError, parse_moment, words_in
from dipclock.errors import DipclockError
from dipclock.i18n import said
from dipclock.late import powers_out
from dipclock.powers import power_letter
from kiosk.config import Settings
from kiosk.options import (
    build_parser,
    read_settings,
    settings_from,
    standalone_round,
)
from kiosk.outbox import StoredPress

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _presses(items: list[str], kind: Literal["press", "hold"], on: date) -> list[StoredPress]:
    out = []
    for i, item in enumerate(items):
        power, sep, when = item.partition("@")
        if not sep:
            raise UsageError(said("--{kind} {item}: expected POWER@TIME, like I@10:18:12",
                                  kind=kind, item=repr(item)))
        try:
            letter = power_letter(power)
        except ValueError as exc:
            raise UsageError(said("--{kind} {item}: {error}", kind=kind, item=repr(item),
                                  error=exc)) from None  # a PowerError: said as raised
        out.append(StoredPress(f"{kind}-{i}", "", letter, kind, parse_moment(when, on)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Exit status 2 for a mistake on the command line (someone is at a terminal to read it),
    78 when no display opens; anything else is drawn on the screen (``kiosk.startup``)."""
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        if args.screenshot:
            return _screenshot(args, settings_from(args))
        if args.at or args.press or args.hold:
            raise UsageError(said("--at, --press and --hold go with --screenshot"))
    except DipclockError as exc:  # UsageError, EventError, ConfigError, IdentityError
        # in the command line's language: its --lang (the card's), else the environment's
        words = words_in(list(sys.argv[1:] if argv is None else argv), os.environ)
        print(words("dipclock kiosk: error: {message}", message=exc.in_(words)),
              file=sys.stderr)
        return 2
    from kiosk import startup

    return startup.run(args, read_settings)


def _screenshot(args: argparse.Namespace, settings: Settings) -> int:
    """One frame, drawn by the same code as the live screen, to a PNG: the screen's
    pixels, so with ``--rotate`` the picture is turned as the screen shows it."""
    import pygame

    from kiosk import state
    from kiosk.draw import Painter, render, turn, upright_size

    if not args.at:
        raise UsageError(said("--screenshot needs --at, the moment to draw"))
    profile, schedule, _ = standalone_round(settings, date.today())
    at = parse_moment(args.at, schedule.start.date())
    presses = _presses(args.press, "press", at.date()) + _presses(args.hold, "hold", at.date())
    out = powers_out(profile, presses, schedule.start, now=at)
    frame = state.build(profile, schedule, at, presses, out, settings.table,
                        settings.warning_minutes * 60)
    pygame.font.init()
    canvas = pygame.Surface(upright_size(settings.window_size or (1280, 720), settings.rotate))
    render(canvas, frame.screen, Painter())
    pygame.image.save(turn(canvas, settings.rotate), args.screenshot)
    return 0


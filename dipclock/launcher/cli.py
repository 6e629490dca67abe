"""``dipclock``: the one command a TD types. ``events``, ``plan``, ``penalty``, ``kiosk``, ``hub``.

The launcher: the core's own commands (``events``, ``plan``, ``penalty``) and the door to the
others (``kiosk``, ``hub``, ``demo``, ``doctor``), each imported only when it is asked for, so
plain ``dipclock plan`` needs neither the screen nor the server stack. Nothing but the launcher
imports the launcher (``tests/test_import_graph.py``).

argparse (stdlib) is enough here: the commands are few and flat, and it keeps the core's
only third-party dependency pydantic. Every mistake in the input ends the same way: exit
status 2 and one line on stderr saying what was wrong.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from datetime import date, datetime
from typing import NoReturn

from dipclock.arguments import UsageError, parse_moment, round_schedule
from dipclock.errors import DipclockError
from dipclock.eventfiles import load_event
from dipclock.events import BUILTIN, EventProfile
from dipclock.penalties import penalty
from dipclock.schedule import Schedule
from dipclock.timeline import (
    OPEN_HORIZON_YEAR,
    PLAN_HORIZON_YEAR,
    Timetable,
    break_window,
    timetable,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _build_parser() -> _Parser:
    p = _Parser(prog="dipclock", description="Deadline clock for Diplomacy tournaments.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("events", help="list the built-in events")

    plan = sub.add_parser("plan", help="print a round's timetable")
    plan.add_argument("event", help="built-in id (see `dipclock events`) or a .toml file")
    plan.add_argument("--start", required=True, help="round start, 2003-02-14T19:00 or 19:00")
    plan.add_argument("--round", type=int, help="take the round's settings from the event")
    plan.add_argument("--end-year", type=int, help="last game year (overrides the event)")
    plan.add_argument(
        "--pause", action="append", default=[], metavar="PHASE=MIN",
        help="a break at a deadline, S1903=60 (repeatable); or at a time, 12:30=45",
    )
    plan.add_argument(
        "--call", help="the round's call time: games end at the last deadline before it"
    )
    plan.add_argument("--json", action="store_true", help="print JSON")

    pen = sub.add_parser("penalty", help="what a late submission costs")
    pen.add_argument("event")
    pen.add_argument("--late", type=float, required=True, help="seconds after the deadline")
    pen.add_argument("--offence", type=int, default=1,
                     help="this player's late submissions this game, this one included")
    pen.add_argument("--units", help='the power\'s unit provinces, "Bud,Tri,Vie"')
    pen.add_argument("--json", action="store_true")

    # their options live with them: `dipclock kiosk --help`, `dipclock hub --help`
    sub.add_parser("kiosk", help="run a table's clock", add_help=False)
    sub.add_parser("hub", help="run the hub and the TD's dashboard", add_help=False)
    sub.add_parser("demo", help="a hub and a kiosk window, a round under way", add_help=False)
    sub.add_parser("doctor", help="check this machine for a table's kiosk, with the fixes",
                   add_help=False)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "kiosk":
        from kiosk.cli import main as kiosk_main

        return kiosk_main(args_list[1:])
    if args_list and args_list[0] == "hub":
        from server.cli import main as hub_main

        return hub_main(args_list[1:])
    if args_list and args_list[0] == "demo":
        from dipclock.launcher.demo import main as demo_main

        return demo_main(args_list[1:])
    if args_list and args_list[0] == "doctor":
        from machine.doctor import main as doctor_main

        return doctor_main(args_list[1:])
    try:
        args = _build_parser().parse_args(args_list)
        if args.command == "events":
            for profile in BUILTIN.values():
                print(profile.summary())
            return 0
        if args.command == "plan":
            return _plan(args)
        return _penalty(args)
    except DipclockError as exc:  # UsageError, EventError: one line, no traceback
        print(f"dipclock: error: {exc}", file=sys.stderr)
        return 2


def _plan(args: argparse.Namespace) -> int:
    profile = load_event(args.event)
    start = parse_moment(args.start, date.today())
    schedule = round_schedule(profile, start, args.round, args.end_year, args.call, args.pause)
    # with a call, the timetable runs to the call, however long that is
    horizon = OPEN_HORIZON_YEAR if schedule.call is not None else PLAN_HORIZON_YEAR
    table = timetable(profile, schedule, horizon_year=horizon)
    if not table.phases:
        raise UsageError(f"--call {args.call}: no deadline of the round falls before it")
    known = [p.ref for p in table.phases]
    for pause in schedule.pauses:
        if pause.at_deadline is None:
            continue
        if pause.at_deadline not in known:
            raise UsageError(
                f"--pause {pause.at_deadline.code}: no such deadline in this round "
                f"({known[0].code} to {known[-1].code})"
            )
        if pause.at_deadline == known[-1]:
            raise UsageError(
                f"--pause {pause.at_deadline.code}: the game ends at that deadline, "
                "no clock runs after it"
            )
    if args.json:
        print(json.dumps(plan_json(profile, schedule, table, args.round), indent=2))
    else:
        print(plan_text(profile, schedule, table, args.round))
    return 0


def plan_json(
    profile: EventProfile, schedule: Schedule, table: Timetable, round_number: int | None
) -> dict[str, object]:
    return {
        "event": profile.id,
        "round": round_number,
        "start": schedule.start.isoformat(),
        "ends": table.ends,
        "last_year": table.last_year,
        "call": schedule.call.isoformat() if schedule.call else None,
        "phases": [
            {
                "year": p.year,
                "season": p.season,
                "minutes": p.minutes,
                "opens": p.opens.isoformat(),
                "writing_from": p.writing_from.isoformat() if p.writing_from else None,
                "deadline": p.deadline.isoformat(),
            }
            for p in table.phases
        ],
    }


def _clock(moment: datetime, start: datetime) -> str:
    text = moment.strftime("%H:%M:%S" if moment.second else "%H:%M")
    if moment.date() != start.date():
        text = moment.strftime("%a ") + text
    return text


def plan_text(
    profile: EventProfile, schedule: Schedule, table: Timetable, round_number: int | None
) -> str:
    lines = [f"{profile.name} ({profile.id})"]
    head = schedule.title or "Round"
    if round_number is not None:
        rnd = profile.round(round_number)
        head += f" ({rnd.day})" if rnd.day else ""
        if rnd.start is not None and rnd.start != schedule.start.time():
            head += f", published start {rnd.start:%H:%M}"
    lines.append(f"{head}: starts {schedule.start:%a %Y-%m-%d %H:%M}")
    windows = [break_window(profile, schedule, b) for b in schedule.pauses]
    has_writing = any(p.writing_from for p in table.phases)
    lines.append("")
    lines.append(
        f"{'Phase':<12} {'Length':>7}  {'Opens':>9}  "
        + (f"{'Writing':>9}  " if has_writing else "")
        + f"{'Deadline':>9}"
    )
    for p in table.phases:
        row = f"{p.ref.title:<12} {p.minutes:>4g} min  {_clock(p.opens, schedule.start):>9}  "
        if has_writing:
            row += f"{_clock(p.writing_from, schedule.start) if p.writing_from else '':>9}  "
        row += f"{_clock(p.deadline, schedule.start):>9}"
        lines.append(row)
        for begins, ends in windows:  # each break under the phase it falls in
            if begins is not None and p.opens <= begins <= p.deadline:
                if ends is None:
                    lines.append(f"{'':<12} -- break --")
                else:
                    span = f"{_clock(begins, schedule.start)} to {_clock(ends, schedule.start)}"
                    lines.append(f"{'':<12} -- break {span} --")
    lines.append("")
    if not table.phases:
        lines.append("No deadline falls in this round.")
    elif table.ends == "last_year":
        lines.append(f"Game ends after the Fall {table.last_year} deadline.")
    elif table.ends == "call" and schedule.call is not None:
        lines.append(
            f"Round called at {_clock(schedule.call, schedule.start)}: the last deadline "
            f"before it is {table.phases[-1].ref.title}."
        )
    else:
        lines.append(
            f"{profile.id} has no fixed last year: shown to Fall {PLAN_HORIZON_YEAR}. "
            "Use --end-year or --call to set one."
        )
    return "\n".join(lines)


def _penalty(args: argparse.Namespace) -> int:
    profile = load_event(args.event)
    if args.offence < 1:
        raise UsageError("--offence counts this late submission too, so it is at least 1")
    if not math.isfinite(args.late):
        raise UsageError(f"--late {args.late}: give a number of seconds")
    units = None
    if args.units is not None:
        # each unit once, in the order given
        units = list(dict.fromkeys(u.strip() for u in args.units.split(",") if u.strip()))
    result = penalty(profile.penalty, args.late, args.offence, units)
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        print(result.text)
    return 0


def entry() -> None:
    sys.exit(main())

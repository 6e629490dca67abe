"""``dipclock``: the one command a TD types. ``events``, ``plan``, ``penalty``, ``kiosk``, ``hub``.

argparse (stdlib) is enough here: the commands are few and flat, and it keeps the core's
only third-party dependency pydantic. Every mistake in the input ends the same way: exit
status 2 and one line on stderr saying what was wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import NoReturn

from dipclock.eventfiles import load_event
from dipclock.events import BUILTIN, EventError, EventProfile
from dipclock.penalties import penalty
from dipclock.timeline import (
    PLAN_HORIZON_YEAR,
    Pause,
    PhaseRef,
    Schedule,
    Timetable,
    timetable,
)


class UsageError(Exception):
    """Bad input from the command line: one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def parse_moment(text: str, on: date | None = None) -> datetime:
    """``2003-02-14T19:00`` or, with ``on`` given, a bare ``19:00`` on that day."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    if on is not None:
        try:
            return datetime.combine(on, time.fromisoformat(text))
        except ValueError:
            pass
    raise UsageError(f"{text!r} is not a time like 2003-02-14T19:00 or 19:00")


def parse_pause(text: str, start: datetime) -> Pause:
    """``S1903=60``: 60 minutes from the Spring 1903 deadline; ``12:30=45``: from 12:30."""
    where, sep, minutes_text = text.partition("=")
    if not sep:
        raise UsageError(f"--pause {text!r}: expected PHASE=MINUTES, like S1903=60")
    try:
        minutes = float(minutes_text)
    except ValueError:
        raise UsageError(f"--pause {text!r}: {minutes_text!r} is not a number of minutes") from None
    if minutes <= 0:
        raise UsageError(f"--pause {text!r}: minutes must be more than 0")
    try:
        return Pause(at_deadline=PhaseRef.parse(where), minutes=minutes, reason="Break")
    except ValueError:
        at = _moment_after(parse_moment(where, start.date()), start)
        return Pause(at=at, minutes=minutes, reason="Break")


def _moment_after(moment: datetime, start: datetime) -> datetime:
    """A bare clock time earlier than the start means the next day (an evening round)."""
    return moment + timedelta(days=1) if moment < start else moment


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
        from dipclock.demo import main as demo_main

        return demo_main(args_list[1:])
    try:
        args = _build_parser().parse_args(args_list)
        if args.command == "events":
            for profile in BUILTIN.values():
                print(profile.summary())
            return 0
        if args.command == "plan":
            return _plan(args)
        return _penalty(args)
    except (UsageError, EventError) as exc:
        print(f"dipclock: error: {exc}", file=sys.stderr)
        return 2


def _plan(args: argparse.Namespace) -> int:
    profile = load_event(args.event)
    start = parse_moment(args.start, date.today())
    last_year = args.end_year
    title = ""
    if args.round is not None:
        rnd = profile.round(args.round)
        title = rnd.title + (f" ({rnd.day})" if rnd.day else "")
        last_year = last_year or rnd.last_year
    if last_year is not None and last_year < 1901:
        raise UsageError(f"--end-year {last_year}: the game starts in 1901")
    call = _moment_after(parse_moment(args.call, start.date()), start) if args.call else None
    pauses = tuple(parse_pause(p, start) for p in args.pause)
    schedule = Schedule(start=start, last_year=last_year, call=call, pauses=pauses, title=title)
    table = timetable(profile, schedule, horizon_year=PLAN_HORIZON_YEAR)
    known = {p.ref for p in table.phases}
    for pause in pauses:
        if pause.at_deadline is not None and pause.at_deadline not in known:
            raise UsageError(
                f"--pause {pause.at_deadline.code}: no such deadline in this round "
                f"({table.phases[0].ref.code} to {table.phases[-1].ref.code})"
                if table.phases else f"--pause {pause.at_deadline.code}: the round has no deadlines"
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
    head = schedule.title or (f"Round {round_number}" if round_number else "Round")
    lines.append(f"{head}: starts {schedule.start:%a %Y-%m-%d %H:%M}")
    breaks = {p.at_deadline: p for p in schedule.pauses if p.at_deadline is not None}
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
        if p.ref in breaks:
            b = breaks[p.ref]
            lines.append(f"{'':<12} -- break, {b.minutes:g} min; the next phase starts after it --")
    lines.append("")
    if not table.phases:
        lines.append("No deadline falls in this round.")
    elif table.ends == "last_year":
        lines.append(f"Game ends after the Fall {table.last_year} deadline.")
    elif table.ends == "call":
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
    units = None
    if args.units is not None:
        units = [u.strip() for u in args.units.split(",") if u.strip()]
    result = penalty(profile.penalty, args.late, args.offence, units)
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        line = result.label
        if result.deleted_orders:
            line += ": delete " + ", ".join(result.deleted_orders)
        print(line)
    return 0


def entry() -> None:
    sys.exit(main())

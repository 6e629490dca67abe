"""``dipclock``: the one command a TD types. ``events``, ``plan``, ``penalty``, ``score``,
``vote``, ``standings``, ``seat``, ``kiosk``, ``hub``.

The launcher: the core's own commands (``events``, ``plan``, ``penalty``, ``score``,
``standings``, ``seat``) and the door to the
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
import os
import sys
from collections.abc import Sequence
from datetime import date, datetime, tzinfo

from dipclock import callwords
from dipclock.arguments import Parser, UsageError, parse_moment, round_schedule
from dipclock.errors import DipclockError
from dipclock.eventfiles import load_event
from dipclock.events import BUILTIN, CALL_RULES, EventProfile
from dipclock.i18n import ENGLISH, Words, said
from dipclock.launcher.exports import add_export_parsers, run_export, run_import
from dipclock.launcher.language import (
    add_lang,
    os_said,
    print_notes,
    words_for,
    words_in,
)
from dipclock.launcher.results import (
    add_score_parser,
    add_standings_parser,
    run_score,
    run_standings,
)
from dipclock.launcher.roster import add_roster_parser, run_roster
from dipclock.launcher.seating import add_seat_parser, run_seat
from dipclock.launcher.votes import add_vote_parser, run_vote
from dipclock.penalties import penalty
from dipclock.provinces import UnknownUnit
from dipclock.roundcheck import check_round
from dipclock.schedule import Pause, Schedule
from dipclock.screen import clock_text
from dipclock.timeline import (
    OPEN_HORIZON_YEAR,
    PLAN_HORIZON_YEAR,
    Timetable,
    break_window,
    table_clock,
)
from dipclock.venuetime import at_venue, venue_naive, zone

#: Later than this is not a late submission but a missing one: ``--late`` stops here.
MAX_LATE_SECONDS = 24 * 60 * 60


def _build_parser() -> Parser:
    p = Parser(prog="dipclock", description="Deadline clock for Diplomacy tournaments.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    events = sub.add_parser("events", help="list the built-in events")
    add_lang(events)

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
    add_lang(plan)

    pen = sub.add_parser("penalty", help="what a late submission costs")
    pen.add_argument("event")
    pen.add_argument("--late", type=float, required=True, help="seconds after the deadline")
    pen.add_argument("--offence", type=int, default=1,
                     help="this player's late submissions this game, this one included")
    pen.add_argument("--units", help='the power\'s units, "A Bud, F Tri, Vie" (names or '
                     "abbreviations; the alphabetically earliest provinces go first)")
    pen.add_argument("--json", action="store_true")
    add_lang(pen)

    add_score_parser(sub)
    add_standings_parser(sub)
    add_vote_parser(sub)
    add_seat_parser(sub)
    add_roster_parser(sub)
    add_export_parsers(sub)

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
        from kiosk.doctor import main as doctor_main

        return doctor_main(args_list[1:])
    try:
        args = _build_parser().parse_args(args_list)
        if args.command == "events":
            said = words_for(args)
            _say("\n".join(profile.summary(said) for profile in BUILTIN.values()))
            return 0
        if args.command == "plan":
            return _plan(args)
        if args.command in ("score", "standings", "seat", "roster", "export", "import",
                            "vote"):
            run = {"score": run_score, "standings": run_standings, "seat": run_seat,
                   "roster": run_roster, "export": run_export, "import": run_import,
                   "vote": run_vote}
            text, notes = run[args.command](args)
            print_notes(words_for(args), notes)
            _say(text)
            return 0
        return _penalty(args)
    except DipclockError as exc:  # UsageError, EventError: one line, no traceback
        said = words_in(args_list)
        print(said("dipclock: error: {message}", message=exc.in_(said)), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader has gone (`| head -1`): nothing more to say, and no traceback when
        # Python flushes stdout on the way out
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _plan(args: argparse.Namespace) -> int:
    profile = load_event(args.event)
    start = parse_moment(args.start, date.today())  # the venue's wall time
    notes: list[str] = []
    schedule = round_schedule(profile, start, args.round, args.end_year, args.call, args.pause,
                              notes)
    built = table_clock(earliest(profile), schedule, horizon_year=_horizon(schedule))
    words = words_for(args)
    print_notes(words, [*notes, *check_round(built, args.pause, args.call)])
    table = built.timetable()
    if args.json:
        _say(json.dumps(plan_json(profile, schedule, table, args.round), indent=2))
    else:
        _say(plan_text(profile, schedule, table, args.round, words))
    return 0


def earliest(profile: EventProfile) -> EventProfile:
    """The event as planned: a board clock's phases start when the board is ready, so a
    plan shows the earliest times, as if every board were ready at its deadline
    (``plan_text`` and ``--json`` say so)."""
    return profile if profile.central_clock else profile.model_copy(
        update={"central_clock": True})


def _horizon(schedule: Schedule) -> int:
    """How far a plan with no last year looks: to the call, however long that is, else to
    PLAN_HORIZON_YEAR and a year past the latest break at a deadline."""
    if schedule.call is not None:
        return OPEN_HORIZON_YEAR
    years = [p.at_deadline.year + 1 for p in schedule.pauses if p.at_deadline is not None]
    return min(OPEN_HORIZON_YEAR, max([PLAN_HORIZON_YEAR, *years]))


def _say(text: str) -> None:
    """Print the answer; a full disk is an ``OutputError``, a closed pipe ends quietly."""
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(said("cannot write the output: {reason}", reason=os_said(exc))) \
            from None


class OutputError(DipclockError):
    """Standard output cannot be written (a full disk, ``>/dev/full``)."""


def plan_json(
    profile: EventProfile, schedule: Schedule, table: Timetable, round_number: int | None
) -> dict[str, object]:
    windows = [break_window(earliest(profile), schedule, b) for b in schedule.pauses]
    tz = zone(profile.timezone)
    stops = [_stop_json(p, begins, ends, tz) for p, (begins, ends) in zip(
        schedule.pauses, windows, strict=True)]
    return {
        "event": profile.id,
        "timezone": str(tz),
        "round": round_number,
        "start": _iso(schedule.start, tz),
        "ends": table.ends,
        "last_year": table.last_year,
        "call": _iso(schedule.call, tz) if schedule.call else None,
        "call_ends": profile.call_ends,
        "central_clock": profile.central_clock,
        "ends_at": _iso(table.ends_at, tz) if table.ends_at else None,
        "scoring_phase": table.scoring_phase.code if table.scoring_phase else None,
        "breaks": [s for s, p in zip(stops, schedule.pauses, strict=True) if p.table is None],
        "holds": [s for s, p in zip(stops, schedule.pauses, strict=True) if p.table is not None],
        "phases": [
            {
                "year": p.year,
                "season": p.season,
                "minutes": p.minutes,
                "opens": _iso(p.opens, tz),
                "writing_from": _iso(p.writing_from, tz) if p.writing_from else None,
                "deadline": _iso(p.deadline, tz),
            }
            for p in table.phases
        ],
    }


def _stop_json(
    pause: Pause, begins: datetime | None, ends: datetime | None, tz: tzinfo
) -> dict[str, object]:
    """A break (or a table's hold) as planned and as it falls on the clock: ``starts`` None
    for one at a deadline the round never reaches, ``ends`` None while open-ended."""
    return {
        "reason": pause.reason,
        "table": pause.table,
        "at": _iso(pause.at, tz) if pause.at else None,
        "at_deadline": pause.at_deadline.code if pause.at_deadline else None,
        "minutes": pause.minutes,
        "starts": _iso(begins, tz) if begins else None,
        "ends": _iso(ends, tz) if ends else None,
    }


def _iso(moment: datetime, tz: tzinfo) -> str:
    """A UTC moment as the venue's local ISO 8601 time with its offset."""
    return at_venue(moment, tz).isoformat()


def plan_text(
    profile: EventProfile, schedule: Schedule, table: Timetable, round_number: int | None,
    words: Words = ENGLISH,
) -> str:
    tz = zone(profile.timezone)
    lines = [f"{profile.name} ({profile.id})"]
    head = schedule.title or words("Round")
    if round_number is not None:
        rnd = profile.round(round_number)
        head += f" ({rnd.day})" if rnd.day else ""
        if rnd.start is not None and rnd.start != venue_naive(schedule.start, tz).time():
            head += words(", published start {time}", time=rnd.start.strftime("%H:%M"))
    start = venue_naive(schedule.start, tz)
    lines.append(words("{round}: starts {day} {date} ({zone})", round=head,
                       day=words.weekday(start.date()), date=f"{start:%Y-%m-%d %H:%M}",
                       zone=tz))
    if not profile.central_clock:
        lines.append(words("Board clocks: each phase starts when its board is ready."))
        lines.append(words("The times below are the earliest, with no time for "
                           "adjudication."))
    windows = [break_window(earliest(profile), schedule, b) for b in schedule.pauses]
    has_writing = any(p.writing_from for p in table.phases)
    titles = {p.ref: words.phase(p.ref.year, p.ref.season) for p in table.phases}
    width = max([12, *(len(t) + 1 for t in titles.values())])
    heads = [words("Phase"), words("Length"), words("Opens"), words("Writing"),
             words("Deadline")]
    lengths = {p.ref: words("{minutes} min", minutes=format(p.minutes, ">4g"))
               for p in table.phases}
    cols = [max(9, len(h)) for h in heads]
    cols[1] = max([len(heads[1]), *(len(x) for x in lengths.values())])
    lines.append("")
    lines.append(
        f"{heads[0]:<{width}} {heads[1]:>{cols[1]}}  {heads[2]:>{cols[2]}}  "
        + (f"{heads[3]:>{cols[3]}}  " if has_writing else "")
        + f"{heads[4]:>{cols[4]}}"
    )
    for p in table.phases:
        at = [clock_text(m, tz, schedule.start) if m else "" for m in (
            p.opens, p.writing_from, p.deadline)]
        row = f"{titles[p.ref]:<{width}} {lengths[p.ref]:>{cols[1]}}  {at[0]:>{cols[2]}}  "
        if has_writing:
            row += f"{at[1]:>{cols[3]}}  "
        row += f"{at[2]:>{cols[4]}}"
        lines.append(row)
        for begins, ends in windows:  # each break under the phase it falls in
            if begins is not None and p.opens <= begins <= p.deadline:
                if ends is None:
                    lines.append(f"{'':<{width}} -- {words('break')} --")
                else:
                    first, last = (clock_text(m, tz, schedule.start) for m in (begins, ends))
                    span = words("break {start} to {end}", start=first, end=last)
                    lines.append(f"{'':<{width}} -- {span} --")
    lines.append("")
    lines.extend(_ending(profile, schedule, table, words))
    return "\n".join(lines)


def _ending(profile: EventProfile, schedule: Schedule, table: Timetable,
            words: Words = ENGLISH) -> list[str]:
    """How the game ends, and which Fall's centres count."""
    tz = zone(profile.timezone)
    counts = callwords.counts(table.scoring_phase, words)
    scoring = f" {counts[:1].upper()}{counts[1:]}."
    if not table.phases:
        return [words("No deadline falls in this round.")]
    if table.ends == "last_year":
        return [words("Game ends after the Fall {year} deadline.", year=table.last_year)
                + scoring]
    if table.ends == "call" and schedule.call is not None:
        called = clock_text(schedule.call, tz, schedule.start)
        last = table.phases[-1].ref
        return [words("Round called at {time} ({rule}): the last deadline that counts is "
                      "{phase}.", time=called, rule=words(CALL_RULES[profile.call_ends]),
                      phase=words.phase(last.year, last.season)) + scoring]
    shown = table.phases[-1].ref.year
    by_round = sorted({r.last_year for r in profile.rounds if r.last_year})
    if by_round:
        years = "/".join(str(y) for y in by_round)
        return [words("{event}'s last year is the round's ({years}): shown to Fall {year}. "
                      "Give --round or --end-year.", event=profile.id, years=years,
                      year=shown)]
    return [words("{event} has no fixed last year: shown to Fall {year}. Use --end-year or "
                  "--call to set one.", event=profile.id, year=shown)]


def _penalty(args: argparse.Namespace) -> int:
    profile = load_event(args.event)
    if args.offence < 1:
        raise UsageError(said("--offence counts this late submission too, so it is at "
                              "least 1"))
    if not math.isfinite(args.late):
        raise UsageError(said("--late {late}: give a number of seconds", late=args.late))
    if not 0 <= args.late <= MAX_LATE_SECONDS:
        raise UsageError(said("--late {late}: seconds after the deadline, from 0 to {most} "
                              "(a day)", late=format(args.late, "g"), most=MAX_LATE_SECONDS))
    units = None
    if args.units is not None:
        units = [u for u in args.units.split(",") if u.strip()]
        if not units:
            raise UsageError(said('--units: no unit given; leave it out, or give the '
                                  'power\'s units like "A Vie, F Tri"'))
    try:
        result = penalty(profile.penalty, args.late, args.offence, units)
    except UnknownUnit as exc:
        raise UsageError(said("--units: {reason}", reason=exc)) from None
    _say(json.dumps(result.as_json()) if args.json else result.told(words_for(args)))
    return 0


def entry() -> None:
    sys.exit(main())

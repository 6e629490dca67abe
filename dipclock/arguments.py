"""What a TD types for a round, parsed: moments, breaks and the round's schedule.

Pure (no clock, no file): ``dipclock plan`` and a standalone ``dipclock kiosk`` take the
same options, so they share this parsing and its one-line ``UsageError``; every command's
option parser is ``Parser`` (``dipclock``, ``kiosk``, ``hub``, ``doctor``). The shells
import it; it imports none of them.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any, NoReturn

from dipclock.errors import DipclockError
from dipclock.events import FIRST_YEAR, LAST_YEAR, EventProfile
from dipclock.i18n import N_, LanguageError, Said, Words, from_environment, language, said
from dipclock.rounds import published_call, round_naming
from dipclock.schedule import Pause, PhaseRef, Schedule
from dipclock.venuetime import NoSuchTime, resolve, zone

MAX_BREAK_MINUTES = 24 * 60


class UsageError(DipclockError):
    """Bad input from the command line: one line, exit status 2."""


def add_lang(parser: Any) -> None:
    """Every command's ``--lang`` (its words printed, not its ``--json``)."""
    parser.add_argument("--lang", help="the language of the words printed: en, fr, de, it "
                        "or nl (default: LANG's); --json keeps its English keys")


def words_for(args: argparse.Namespace, env: Mapping[str, str]) -> Words:
    """The words of a parsed command: its ``--lang``, else the environment's (``env``:
    the shell passes ``os.environ``)."""
    lang = getattr(args, "lang", None)
    return Words(language(lang) if lang else from_environment(env))


def words_in(argv: Sequence[str], env: Mapping[str, str]) -> Words:
    """The words of a command line that may not have parsed: its ``--lang`` as written
    (``--lang fr``, ``--lang=fr``), else the environment's (``LANG``...); a ``--lang`` no
    catalogue has is English, as its own refusal then says. Every command's (``dipclock``,
    ``kiosk``, ``hub``, ``doctor``), so an option argparse refuses is said in it too."""
    for i, arg in enumerate(argv):
        lang = arg.partition("=")[2] if arg.startswith("--lang=") else (
            argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None)
        if lang is not None:
            try:
                return Words(language(lang))
            except LanguageError:
                return Words("en")
    return Words(from_environment(env))


class Parser(argparse.ArgumentParser):
    """Every command's option parser (``dipclock``, ``kiosk``, ``hub``, ``doctor``): a bad
    option is ``refusal`` (a ``UsageError`` unless the command names its own), which the
    command prints as one line with exit status 2, not argparse's usage text and exit. Only
    ``--help`` prints, when asked."""

    def __init__(self, *args: Any, refusal: type[DipclockError] = UsageError,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refusal = refusal

    def error(self, message: str) -> NoReturn:
        raise self.refusal(argparse_said(message))


#: argparse's own refusals (Python's ``argparse``, which speaks English: it has no
#: catalogue of its own), with its ``%`` fields as ``{fields}``: ``Parser.error`` reads its
#: message back into one of these, so the command line says it in its language.
ARGPARSE: tuple[str, ...] = (
    N_("argument {argument}: {message}"),
    N_("the following arguments are required: {arguments}"),
    N_("unrecognized arguments: {arguments}"),
    N_("invalid choice: {value} (choose from {choices})"),
    N_("invalid {type} value: {value}"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("not allowed with argument {argument}"),
    N_("one of the arguments {arguments} is required"),
    N_("ambiguous option: {option} could match {matches}"),
    N_("ignored explicit argument {value}"),
)


def _read_back(text: str) -> re.Pattern[str]:
    """``text`` with each ``{field}`` a named group, to find argparse's values again."""
    parts = re.split(r"\{(\w+)\}", text)  # text, field, text, ...
    return re.compile("".join(f"(?P<{part}>.*?)" if i % 2 else re.escape(part)
                              for i, part in enumerate(parts)) + r"\Z", re.DOTALL)


_ARGPARSE = tuple((_read_back(text), text) for text in ARGPARSE)


def argparse_said(message: str) -> Said | str:
    """argparse's English ``message`` as the catalogue's sentence (an argument's own
    message too), or as it is where argparse said something else."""
    for pattern, text in _ARGPARSE:
        found = pattern.match(message)
        if found is not None:
            fields = found.groupdict()
            if "message" in fields:
                fields["message"] = argparse_said(fields["message"])
            sentence = Said(text, fields)
            return sentence if str(sentence) == message else message
    return message


def parse_moment(text: str, on: date | None = None) -> datetime:
    """``2003-02-14T19:00`` or, with ``on`` given, a bare ``19:00`` on that day.

    Times are the venue's local wall clock, so a time zone is refused rather than guessed.
    """
    moment = None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        if on is not None:
            try:
                moment = datetime.combine(on, time.fromisoformat(text))
            except ValueError:
                pass
    if moment is None:
        raise UsageError(said("{text} is not a time like 2003-02-14T19:00 or 19:00",
                              text=repr(text)))
    if moment.tzinfo is not None:
        raise UsageError(said("{text}: give the venue's local time, without a time zone",
                              text=repr(text)))
    if not 1970 <= moment.year <= 2999:
        raise UsageError(said("{text}: the year must be between 1970 and 2999",
                              text=repr(text)))
    return moment


def parse_pause(text: str, start: datetime) -> Pause:
    """``S1903=60``: 60 minutes from the Spring 1903 deadline; ``12:30=45``: from 12:30."""
    where, sep, minutes_text = text.partition("=")
    if not sep:
        raise UsageError(said("--pause {text}: expected PHASE=MINUTES, like S1903=60",
                              text=repr(text)))
    try:
        minutes = float(minutes_text)
    except ValueError:
        raise UsageError(said("--pause {text}: {minutes} is not a number of minutes",
                              text=repr(text), minutes=repr(minutes_text))) from None
    if not 0 < minutes <= MAX_BREAK_MINUTES:  # also refuses nan and inf
        raise UsageError(said("--pause {text}: minutes must be more than 0 and at most "
                              "{most}", text=repr(text), most=MAX_BREAK_MINUTES))
    if re.fullmatch(r"[SFAsfa]\d{4}", where.strip()):
        try:
            return Pause(at_deadline=PhaseRef.parse(where), minutes=minutes, reason="Break")
        except ValueError:
            raise UsageError(said("--pause {text}: no such deadline (games start in 1901)",
                                  text=repr(text))) from None
    try:
        at = moment_in_round(where, start)
    except UsageError:
        raise UsageError(said("--pause {text}: {where} is neither a deadline like S1903 nor "
                              "a time like 12:30", text=repr(text),
                              where=repr(where.strip()))) from None
    return Pause(at=at, minutes=minutes, reason="Break")


def moment_in_round(text: str, start: datetime) -> datetime:
    """A time in the round: a bare clock time earlier than the start means the next day
    (an evening round past midnight); a full date and time is taken as it is."""
    moment = parse_moment(text, start.date())
    bare = "T" not in text and " " not in text.strip()
    return moment + timedelta(days=1) if bare and moment < start else moment


def round_schedule(
    profile: EventProfile,
    start: datetime,
    round_number: int | None = None,
    end_year: int | None = None,
    call: str | None = None,
    pauses: Sequence[str] = (),
    notes: list[str] | None = None,
) -> Schedule:
    """A round from the command line (``plan``, a standalone kiosk): the same options, the
    same checks. ``--round`` gives the round's name and, where it differs, its last year.

    ``start``, ``call`` and the breaks are the venue's wall time (``profile.timezone``);
    the schedule is in UTC (``dipclock.venuetime``). A time the clocks skip is refused
    naming its option; one they repeat is the first, with a line added to ``notes``.
    """
    title, last_year = round_naming(profile, round_number, last_year=end_year, listed_only=True)
    call = call if call is not None else published_call(profile, round_number)
    if last_year is not None and not FIRST_YEAR <= last_year <= LAST_YEAR:
        raise UsageError(said("--end-year {year}: a game year from {first} to {last}",
                              year=last_year, first=FIRST_YEAR, last=LAST_YEAR))
    tz = zone(profile.timezone)

    def utc(local: datetime, option: str) -> datetime:
        try:
            moment, note = resolve(local, tz)
        except NoSuchTime as exc:
            raise UsageError(said("{option}: {reason}", option=option,
                                  reason=exc.said or str(exc))) from None
        if note is not None and notes is not None:
            notes.append(f"{option}: {note}")
        return moment

    breaks = []
    for text in pauses:
        pause = parse_pause(text, start)
        if pause.at is not None:
            pause = pause.model_copy(update={"at": utc(pause.at, f"--pause {text}")})
        breaks.append(pause)
    return Schedule(
        start=utc(start, f"--start {start:%Y-%m-%dT%H:%M}"),
        last_year=last_year,
        call=utc(moment_in_round(call, start), f"--call {call}") if call else None,
        pauses=tuple(breaks),
        title=title,
    )


__all__ = ["MAX_BREAK_MINUTES", "UsageError", "moment_in_round", "parse_moment", "parse_pause",
           "round_schedule"]

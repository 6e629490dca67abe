"""Where a called game ends, in words (each rule itself: ``dipclock.events.CALL_RULES``).

``dipclock.timeline.counted_phases`` decides where a call ends a game and
``Timetable.scoring_phase`` which Fall's centres count; this says so. The kiosk's screen
(``dipclock.screen``), ``dipclock plan`` and ``dipclock events``, the hub's call preview
(``server.calling``) and with it the dashboard all show these words and no others.
"""

from __future__ import annotations

from dipclock.events import CALL_RULES, CallEnds
from dipclock.i18n import ENGLISH, Words
from dipclock.schedule import PhaseRef


def rule_sentence(rule: CallEnds, words: Words = ENGLISH) -> str:
    """The event's call rule as a sentence: "A call ends games at once." (the TD's Call
    card says it before the call is made)."""
    said = words(CALL_RULES[rule])
    return f"{said[:1].upper()}{said[1:]}."


def counts(scoring: PhaseRef | None, words: Words = ENGLISH) -> str:
    """Whose centres count: "Fall 1906 centres count", or the starting ones (no Fall
    was completed)."""
    if scoring is None:
        return words("the starting centres count")
    return words("{phase} centres count", phase=words.phase(scoring.year, scoring.season))


def game_ends(last: PhaseRef | None, scoring: PhaseRef | None, rule: CallEnds,
              deadline: str = "", words: Words = ENGLISH) -> str:
    """Where a called game ends, in a few words, by the event's call rule: "the game ends
    after Fall 1906" (``deadline``: that phase's, on the venue's clock, put after it), or
    at once "the game ends then, Fall 1909 centres count"."""
    if rule == "at_call":
        return words("the game ends then, {counts}", counts=counts(scoring, words))
    if last is None:
        return words("the game ends before its first deadline")
    phase = words.phase(last.year, last.season)
    if deadline:
        return words("the game ends after {phase} ({deadline})", phase=phase,
                     deadline=deadline)
    return words("the game ends after {phase}", phase=phase)


def preview_line(table: int | None, last: PhaseRef | None, scoring: PhaseRef | None,
                 rule: CallEnds, deadline: str = "", cut: PhaseRef | None = None,
                 short: float = 0.0, words: Words = ENGLISH) -> str:
    """One table's line of a call's preview (``table`` None: every table's clock): "Table
    2: the game ends after Spring 1901 (09:17:00); loses Fall 1901, 51 s short; the
    starting centres count", in ``words`` (the TD's phone's language)."""
    line = words("{table}: {ends}", table=who(table, words),
                 ends=game_ends(last, scoring, rule, deadline, words))
    if cut is not None:
        line = words("{line}; loses {phase}, {seconds} s short", line=line,
                     phase=words.phase(cut.year, cut.season), seconds=round(short))
    return line if rule == "at_call" else words("{line}; {counts}", line=line,
                                                counts=counts(scoring, words))


def who(table: int | None, words: Words = ENGLISH) -> str:
    """"Table 2", or "Every table" (the hall's clock, no table set up)."""
    return words("Every table") if table is None else words("Table {table}", table=table)


def cut_warning(table: int | None, cut: PhaseRef, short: float, deadline: str, at: str,
                words: Words = ENGLISH) -> str:
    """The warning for a table the call cuts off shortly before a deadline: "Table 2 is 51
    s from its Fall 1901 deadline (10:02:00): called at 10:01:09, Fall 1901 does not
    count"."""
    phase = words.phase(cut.year, cut.season)
    return words("{table} is {seconds} s from its {phase} deadline ({deadline}): called at "
                 "{at}, {phase} does not count", table=who(table, words),
                 seconds=round(short), phase=phase, deadline=deadline, at=at)


__all__ = ["counts", "cut_warning", "game_ends", "preview_line", "rule_sentence", "who"]

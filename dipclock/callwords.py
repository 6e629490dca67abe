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


def preview_line(who: str, last: PhaseRef | None, scoring: PhaseRef | None, rule: CallEnds,
                 deadline: str = "", cut: PhaseRef | None = None, short: float = 0.0) -> str:
    """One table's line of a call's preview: "Table 2: the game ends after Spring 1901
    (09:17:00); loses Fall 1901, 51 s short; the starting centres count"."""
    line = f"{who}: {game_ends(last, scoring, rule, deadline)}"
    if cut is not None:
        line += f"; loses {cut.title}, {round(short)} s short"
    return line if rule == "at_call" else f"{line}; {counts(scoring)}"


__all__ = ["counts", "game_ends", "preview_line", "rule_sentence"]

"""A change made from a stale screen is refused, with what changed meanwhile.

The dashboard draws its screen from one state of the hub and sends, with every change it
makes, the newest log line that state held (``X-Dipclock-Base``: the audit log's id). The
store checks, in the very transaction that would write the change, whether a line newer
than that touches the same thing (its *subject*): another phone's pause, a round set up
meanwhile, the same penalty decided twice. If so the change is not made and the TD is told
what happened instead, so two phones, or one tapped twice, never act twice on one screen.

A caller that sends no base (a TD's script) is taken as meaning it: no check. The refusal
is the store's own error, ``server.store.Stale`` (a ``StoreConflict``: storage raises no
HTTP errors); ``server.app`` answers it as a 409.
"""

from __future__ import annotations

#: The request header that names the state a change was made from.
BASE_HEADER = "X-Dipclock-Base"

#: What each logged action is about, where one word says it (a sheet, a penalty or a
#: power's units are about one row: their subject names it, see ``row``).
SUBJECTS: dict[str, str] = {
    "pause": "clock", "resume": "clock", "adjust": "clock", "unadjust": "clock",
    "call": "clock", "clock": "time", "round": "round", "event": "event", "tables": "tables",
    "seating": "seating", "teams": "teams", "pair": "clocks", "unpair": "clocks",
    "refuse all": "clocks",
}

#: A change about the key is refused if a line about one of these came meanwhile: a clock
#: action drawn before another phone's clock action or round change would act twice or on
#: the wrong round; a round set up from a screen that did not show a pause or another
#: round would say the wrong thing to every table.
CONFLICTS: dict[str, tuple[str, ...]] = {
    "clock": ("clock", "round"),
    "time": ("time",),
    "round": ("round", "event", "clock"),
    "event": ("event", "round"),
    "tables": ("tables",),
    "seating": ("seating",),
    "teams": ("teams",),
}


def row(kind: str, round_no: int, table: int, power: str, phase: str) -> str:
    """The subject of one late order's decision or units: ``penalty 2/14/A/S1903``."""
    return f"{kind} {round_no}/{table}/{power}/{phase}"


def conflicting(subject: str) -> tuple[str, ...]:
    """The subjects whose news makes a change about ``subject`` stale."""
    if subject.startswith(("penalty ", "units ")):
        key = subject.split(" ", 1)[1]
        return (f"penalty {key}", f"units {key}")
    return CONFLICTS.get(subject, (subject,))

"""A CSV file's cells as a spreadsheet should open them: free text, never a formula.

Every CSV file the hub writes (the penalties, the results, the standings, best countries,
the top board, the teams) carries text the TD or a player typed: a player's name, a team's,
a note. A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or
carriage return before one) as a formula, so a player seated as ``=HYPERLINK(...)`` would
put a link, or worse, in the TD's sheet (CSV injection). ``cell`` quotes such text with a
leading apostrophe, which spreadsheets read as "text" and do not show.
"""

from __future__ import annotations

#: What a spreadsheet takes as the start of a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """``value`` as a CSV cell: None is empty, text that would run as a formula is quoted;
    numbers stay numbers (a negative score is no formula)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value

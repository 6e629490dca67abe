"""No page script holds a rule of the game (issue 34 item 8): the powers, the board's centre
count, the first game year, tables of seven and seating checks are the core's, and the hub
sends each page what they say. A page that kept its own copy could disagree with the hub
(the dashboard once folded "alice  smith" into "Alice Smith" while the core did not, and
offered two boards the event refused).

The scan reads each script's code without its comments (a comment may name an example
power) and looks for the shapes such a rule takes; the snippets below show what it finds
and what it leaves alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "server" / "static"

#: what a rule looks like in a script, and what it is
RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(Austria|England|France|Germany|Italy|Russia|Turkey)\b"), "a power's name"),
    (re.compile(r"AEFGIRT|([\"'])[AEFGIRT]\1\s*[,\]]\s*([\"'])[AEFGIRT]\2"),
     "the powers' letters"),
    (re.compile(r"(?<![\w.#-])34(?![\w.])"), "the board's centre count"),
    (re.compile(r"(?<![\w.#-])(1901|2100)(?![\w.])"), "a game year's bounds"),
    (re.compile(r"[%*/+<>=-]\s*7(?![\w.])|(?<![\w.#-])7\s*[%*/+<>=-]"), "tables of seven"),
    (re.compile(r"\bto(Locale)?LowerCase\b"), "its own idea of one player"),
    (re.compile(r"seated twice|also seated at|no players seated|empty seats?\b"),
     "a seating check"),
)


def code(text: str) -> str:
    """A script without its comments: ``// ...`` after a space or at a line's start (not a
    URL's ``https://``) and ``/* ... */``."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def rules_in(text: str) -> list[str]:
    """Each rule found, as "line N: what (the text)"."""
    found = []
    for n, line in enumerate(code(text).splitlines(), 1):
        for pattern, what in RULES:
            for m in pattern.finditer(line):
                found.append(f"line {n}: {what} ({m.group(0).strip()})")
    return found


def test_the_scripts_are_there():
    """A guard against a scan of nothing: the pages whose rules moved to the hub."""
    names = {p.name for p in STATIC.glob("*.js")}
    assert {"seating.js", "seatdesk.js", "sheet.js", "common.js"} <= names


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_no_page_script_holds_a_rule(script):
    assert rules_in((STATIC / script).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("snippet", [
    'const SEAT_POWERS = [["A", "Austria"], ["E", "England"]];',
    'for (const p of "AEFGIRT") seat(p);',
    'const letters = ["A", "E", "F"];',
    'el("input", { type: "number", min: "0", max: "34" })',
    '$("total").className = sum === 34 ? "" : "bad";',
    'el("input", { min: "1901", max: "2100" })',
    "const sitting = n % 7;",
    "`${Math.floor(n / 7)} tables`",
    "if (empty.length === 7) return;",
    "`or ${7 - sitting} on two boards`",
    'const playerKey = (name) => name.trim().toLocaleLowerCase();',
    'flags.add(`${player} is seated twice at this table`);',
    'flags.add(`${player} is also seated at table ${s.table}`);',
    'flags.add(`empty seats: ${empty.join(", ")}`);',
])
def test_the_scan_finds_a_rule(snippet):
    """What the scripts held before issue 34 (seating.js, seatdesk.js, sheet.js)."""
    assert rules_in(snippet), snippet


@pytest.mark.parametrize("snippet", [
    "// a comment may name Austria, 34 centres and tables of 7",
    "x(); /* or Italy */ y();",
    'await api("GET", "https://hub/api/td/seating"); // what the hub holds',
    'el("div", { style: "color: #344054" })',
    "const ratio = 0.7 * width, t = 7.5;",
    'id.padStart(2, "0"); n < 70; const x = a7 + 1;',
    'const p = view.powers.find((p) => p.letter === l).name;',
    'el("label", {}, "Centres of the Fall of");',
])
def test_the_scan_leaves_innocent_code(snippet):
    assert rules_in(snippet) == [], snippet

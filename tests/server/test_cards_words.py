"""The hub's own words on the dashboard's cards (issue 38), said in the phone's language
where the core says them in English: each kept the core's English word for word, so an
English phone reads what it read before."""

from __future__ import annotations

import pytest

from dipclock.i18n import Words
from dipclock.replacements import RULE_WORDS
from dipclock.roster.register import WORDS
from dipclock.seating import table_plan

NAMES = [f"P{n}" for n in range(40)]


def test_the_cards_tables_of_words_are_the_core_s_in_the_catalogue():
    """The core's tables are the catalogue's strings: a German phone reads them so."""
    de = Words("de")
    assert all(de(w) != w for w in WORDS.values())
    assert all(de(w) != w for w in RULE_WORDS.values())


@pytest.mark.parametrize(("n", "two_boards", "out", "line"), [
    (21, False, 0, "21 players: 3 tables"),
    (23, True, 0, "23 players: 3 tables, 2 sitting out (or 5 on two boards)"),
    (23, False, 1, "23 players: 3 tables, 2 sitting out; P0 has played the most rounds the "
                   "event allows"),
    (30, False, 5, "30 players: 3 tables, 9 sitting out; P0, P1, P2 and 2 more have played "
                   "the most rounds the event allows"),
])
def test_the_seating_plan_in_english_is_as_it_was(n, two_boards, out, line):
    assert table_plan(NAMES[:n], two_boards, NAMES[:out]) == line


def test_the_seating_plan_in_a_pseudo_language_is_every_piece_translated():
    said = table_plan(NAMES[:23], True, NAMES[:1], Words("xx"))
    # each piece of the line is a catalogue string: none is left as the English
    assert "players" not in said and "sitting out" not in said and "played" not in said

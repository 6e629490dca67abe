"""The hub's own words on the dashboard's cards (issue 38), said in the phone's language
where the core says them in English: each kept the core's English word for word, so an
English phone reads what it read before."""

from __future__ import annotations

import pytest

from dipclock.i18n import ENGLISH, Words
from dipclock.replacements import RULE_WORDS
from dipclock.roster.register import WORDS
from dipclock.seating import table_plan
from server.routers.register import SAID
from server.routers.replacements import RULE_SAID
from server.seatingview import plan_words

NAMES = [f"P{n}" for n in range(40)]


def test_the_cards_tables_of_words_are_the_core_s():
    assert SAID == WORDS
    assert RULE_SAID == RULE_WORDS


@pytest.mark.parametrize("two_boards", [False, True])
def test_the_seating_plan_in_english_is_the_core_s_line(two_boards):
    for n in range(7, 40):
        for out in (0, 1, 2, 5):
            players, played = NAMES[:n], NAMES[:out]
            assert plan_words(players, two_boards, played, ENGLISH) == table_plan(
                players, two_boards, played)


def test_the_seating_plan_in_a_pseudo_language_is_every_piece_translated():
    said = plan_words(NAMES[:23], True, NAMES[:1], Words("xx"))
    # each piece of the line is a catalogue string: none is left as the English
    assert "players" not in said and "sitting out" not in said and "played" not in said

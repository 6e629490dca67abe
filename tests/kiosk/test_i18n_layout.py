"""The table's real frames in the event's language (issue 38): every stage drawn in French,
German and the pseudo-language ``xx`` (every string 40 % longer) at the layout tests' screen
sizes, by the same checks (``test_draw``): nothing cut off, nothing over another, nothing
shortened with "...", the countdown and the table's number as large as in English."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import PSEUDO, Words, words_of
from dipclock.powers import LETTERS
from dipclock.schedule import Schedule
from kiosk import state
from kiosk.draw import Painter, short_name
from kiosk.screenshots import LANGUAGE_SCENES, SCENES, Scene, draw
from kiosk.screenshots import main as screenshots_main

from .test_draw import (
    READ_FROM_THE_TABLE,
    SIZES,
    assert_on_screen_and_apart,
    ink_height,
    readable,
)

painter = Painter()
LANGUAGES = ("fr", "de", "it", "nl", PSEUDO)
#: the stages of a round, in the event's language
ROUND_SCENES = [s for s in SCENES if s.before_round is None]
#: the screens before the hub has said the event (connecting, looking for the hub, pairing,
#: a problem at start-up): in the card's language (``kiosk.config.spoken``), the scene's
#: ``language`` standing for it
BEFORE_EVENT = [s for s in SCENES if s.before_round is not None]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_every_stage_fits_in_the_event_s_language(scene: Scene, size: tuple[int, int],
                                                   lang: str) -> None:
    surface, drawn, screen = draw(replace(scene, language=lang), size, painter)
    assert_on_screen_and_apart(surface, drawn)
    for d in drawn:
        assert not d.text.endswith("..."), f"{d.role} {d.text!r} had to be shortened"
    words = Words(lang)
    names = [words.power(p) for p in LETTERS]
    if screen.sheet is not None:
        assert shown_as(names, [d.text for d in drawn if d.role.endswith("-power")])
        return
    if screen.look == "problem":  # no chips: what is wrong and the fix, large
        assert {d.role for d in drawn} >= {"label", "problem", "fix"}, "not said"
        return
    big = next(d for d in drawn if d.role == "big")
    if screen.board_call:
        table = next(d for d in drawn if d.role == "board_table")
        assert table.text == "3" and table.rect.h >= min(size) * 0.2, "the table is not large"
        assert [d.text for d in drawn if d.role == "board_power"] == names
        return
    # as large as in English (a pairing code, seven letters wide, is as wide as the screen)
    if any(c.isdigit() for c in screen.big) and screen.look != "connecting":
        assert big.rect.h >= min(size) * 0.25, "the remaining time is not large"
    assert shown_as(names, [d.text for d in drawn if d.role.endswith("-name")])


def shown_as(names: list[str], drawn: list[str]) -> bool:
    """Each power's name whole, or where it is too wide, its short form ("Österreich")."""
    return len(names) == len(drawn) and all(
        shown in (name, short_name(name)) for name, shown in zip(names, drawn, strict=True))


@pytest.mark.parametrize("lang", ("fr", "de", PSEUDO))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_stage_is_read_from_two_metres_in_the_event_s_language(
        size: tuple[int, int], lang: str) -> None:
    """Read across the table as in English, give or take ``LONGER``: a language's words are
    longer ("Deutschland" on a chip made for "Germany"), a long name gives way to its short
    form ("Österreich"), and nothing a player reads shrinks further."""
    for scene in SCENES:
        surface, drawn, _ = draw(replace(scene, language=lang), size, painter)
        for d in drawn:
            role = d.role.rsplit("-", 1)[-1]
            if role in READ_FROM_THE_TABLE:
                ink = ink_height(surface, d.rect)
                assert ink >= readable(size) * LONGER, (
                    f"{scene.name}: {d.role} {d.text!r} {ink} px")


#: How much smaller than English's floor (14 px capitals at 800x480) a longer word may be
#: drawn: German's power names on a chip made for English's are about a quarter wider
LONGER = 0.75


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kiosk_s_own_words_are_the_event_s(lang: str) -> None:
    """The words the drawing adds itself (the board call's captions, the sheet's code, the
    hub-lost mark, the sheet's columns) are said in the screen's language too."""
    words = Words(lang)
    said: set[str] = set()
    for name in ("board-call", "game-over", "game-over-sheet", "hub-lost"):
        scene = next(s for s in SCENES if s.name == name)
        said |= {d.text for d in draw(replace(scene, language=lang), (1280, 720), painter)[1]}
    for english in ("Table", "Starts in", "Result sheet: scan", "hub lost", "Centres",
                    "Score"):
        assert words(english) in said, english
    if lang != "fr":  # "Table", "Score" and "Centres" are French words too
        assert not said & {"Table", "Starts in", "Result sheet: scan", "hub lost"}


def test_the_kiosk_speaks_the_event_s_language() -> None:
    """The kiosk's screen takes its words from the event (``words_of``), its own too."""
    profile = BUILTIN["wdc2019"].model_copy(update={"language": "de"})
    frame = state.build(profile, Schedule(start=datetime(2019, 9, 6, 10), title="Round 2"),
                        datetime(2019, 9, 6, 10, 5), table=3)
    assert frame.screen.words == words_of(profile)
    assert (frame.screen.title, frame.screen.table_name, frame.screen.label) == (
        "Runde 2", "Tisch 3", "Verhandlung")
    assert state.with_unsaved(frame, "A").screen.chips[0].note == "NICHT GESPEICHERT"
    later = state.with_sheet_before(
        state.build(profile, Schedule(start=datetime(2019, 9, 6, 10)),
                    datetime(2019, 9, 6, 9, 50), table=3),
        "https://10.0.0.1:8000/sheet/1/3#k3hv7qz2mxw4pa6d")
    assert later.screen.qr_caption == "Bogen Runde 1"


def test_the_screenshots_of_a_french_and_a_german_table(tmp_path: Path) -> None:
    assert screenshots_main([str(tmp_path), "--only", "table-fr", "table-de"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table-de.png", "table-fr.png"]
    fr, de = LANGUAGE_SCENES
    _, drawn, _ = draw(fr, (1280, 720), painter)
    assert {"Négociation", "Automne 1901", "OK"} <= {d.text for d in drawn}
    _, drawn, _ = draw(de, (1280, 720), painter)
    assert {"Verhandlung", "Herbst 1901", "· Tisch 3", "OK"} <= {d.text for d in drawn}

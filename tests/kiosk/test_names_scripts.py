"""Issue 38, names in any script: a Thai, a Greek and a Chinese player's name on the board
call and in a late banner draw with a font that has every letter, never as boxes, nothing
cut off; a letter no font has is said on the screen and logged once. The Noto fonts come
from Debian (``scripts/ensure-test-tools.sh``, as on the card)."""

from __future__ import annotations

import logging
from dataclasses import replace

import pygame
import pytest

from card import build
from kiosk.draw import Drawn, Painter
from kiosk.fonts import MISSING_NOTE, FontSet, font_set
from kiosk.screenshots import SCENES, SCRIPTS, Scene, draw
from tests.kiosk.test_draw import assert_on_screen_and_apart

SIZES = [(800, 480), (1920, 1080)]
THAI, GREEK, CHINESE = "สมชาย ใจดี", "Γιώργος Παππάς", "王伟"
#: a private-use code point: no font has it
NOWHERE = "\ue000"
NAMES = {"I": THAI, "E": GREEK, "F": CHINESE}

BOARD = next(s for s in SCENES if s.name == "names-scripts")
#: Italy (Thai) late, Russia (Cyrillic) later: the banner and the notes name them
LATE = replace(next(s for s in SCENES if s.name == "late-orders"), name="late-scripts",
               players=SCRIPTS)
painter = Painter()


def pixels(surface: pygame.Surface) -> tuple[tuple[int, int], bytes]:
    return surface.get_size(), pygame.image.tobytes(surface, "RGBA")


def drawn_with(d: Drawn) -> pygame.font.Font:
    """The painter's font that drew ``d``: the size whose text is as large as its rectangle,
    found by halving on its width (a font per size tried holds a file open: trying all 400
    once ran the test process out of file descriptors)."""
    low, high = Painter.MIN_SIZE, 400
    while low < high:  # the smallest size whose text is at least as wide
        mid = (low + high) // 2
        if painter.font(mid).size(d.text)[0] < d.rect.w:
            low = mid + 1
        else:
            high = mid
    sizes = [s for s in range(max(Painter.MIN_SIZE, low - 3), low + 4)
             if painter.font(s).render(d.text, True, (0, 0, 0)).get_size() == d.rect.size]
    assert sizes, f"{d.role} {d.text!r}: no size draws it {d.rect.size}"
    return painter.font(sizes[0])


def assert_no_box(text: str, font: pygame.font.Font) -> None:
    """Each letter of ``text`` drawn by a font that has it (pygame.freetype's metrics), and
    not drawn by ``font`` as the box a missing letter is (the notdef glyph, as ``NOWHERE``
    draws)."""
    fonts = font_set()
    box = pixels(font.render(NOWHERE, True, (255, 255, 255)))
    for i, piece in fonts.runs(text):
        for c in piece:
            if c.isspace():
                continue
            assert fonts.has(i, c), f"{c!r} of {text!r} drawn by a font without it"
            assert pixels(font.render(c, True, (255, 255, 255))) != box, (
                f"{c!r} of {text!r} draws as a box")


def test_the_noto_fonts_are_found() -> None:
    found = " ".join(f.path for f in font_set().faces)
    for face in ("NotoSansThai", "NotoSansArabic", "NotoSansCJK"):
        assert face in found, (f"{face} not found: install fonts-noto-core and fonts-noto-cjk "
                               "(scripts/ensure-test-tools.sh)")


def test_the_card_carries_the_fonts() -> None:
    assert {"fonts-noto-core", "fonts-noto-cjk"} <= set(build.PACKAGES)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", [BOARD, LATE], ids=lambda s: s.name)
def test_names_in_other_scripts_draw_whole_without_boxes(scene: Scene, size: tuple[int, int]
                                                         ) -> None:
    surface, drawn, screen = draw(scene, size, painter)
    assert_on_screen_and_apart(surface, drawn)
    named: list[Drawn] = []
    for d in drawn:
        assert not d.text.endswith("..."), f"{d.role} {d.text!r} had to be shortened"
        if any(n in d.text for n in NAMES.values()):
            named.append(d)
            assert_no_box(d.text, drawn_with(d))
    assert MISSING_NOTE not in [d.text for d in drawn if d.role == "alert"]
    if scene is BOARD:
        shown = {d.text for d in named if d.role == "board_player"}
        assert shown == set(NAMES.values())
    else:  # "Italy (สมชาย ใจดี) +12 s, 1-unit NMR"
        assert [d.role for d in named] == ["banner"] and THAI in screen.banner


def test_thai_and_arabic_are_shaped() -> None:
    """HarfBuzz in pygame-ce's SDL_ttf: Arabic set right to left, Thai's vowel above its
    consonant, not after it."""
    font = painter.font(60)
    # an alef (tall) then a long low stroke: right to left, the alef is on the right
    img = font.render("\u0627\u0640\u0640\u0640\u0640", True, (255, 255, 255))
    ink = img.get_bounding_rect()
    top = img.subsurface((0, 0, img.get_width(), ink.top + ink.h // 2))
    alef = top.get_bounding_rect()
    assert alef.w and alef.left > img.get_width() // 2, (alef, img.get_size())
    # the vowel above its consonant: no width of its own
    assert abs(font.size("สั")[0] - font.size("ส")[0]) <= 2


def test_a_letter_no_font_has_is_said_on_the_screen(caplog: pytest.LogCaptureFixture) -> None:
    players = tuple((p, f"Ann {NOWHERE}" if p == "I" else n) for p, n in SCRIPTS)
    for size in SIZES:
        surface, drawn, _ = draw(replace(BOARD, players=players), size, painter)
        assert_on_screen_and_apart(surface, drawn)
        assert [d.text for d in drawn if d.role == "alert"] == [MISSING_NOTE]
        # the name still drawn, as well as it can be
        assert f"Ann {NOWHERE}" in [d.text for d in drawn if d.role == "board_player"]
    fonts = FontSet()
    caplog.clear()  # the screen's own font set has said it already
    with caplog.at_level(logging.WARNING, logger="kiosk.fonts"):
        assert fonts.lacking(f"x{NOWHERE}y") == NOWHERE
        assert fonts.lacking(f"z{NOWHERE}") == NOWHERE
    assert len(caplog.records) == 1 and "U+E000" in caplog.records[0].getMessage()

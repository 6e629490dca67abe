"""A table's process keeps few font files open (``kiosk.draw.FONTS_OPEN``): every open font
holds its file, a screen fitted in a long language tries many sizes, and past 1,024 open
files the button box's serial port fails (pyserial's select() takes no higher number)."""

from __future__ import annotations

import os

from kiosk.draw import FONTS_OPEN, Painter


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_painter_asked_for_every_size_keeps_only_some_open() -> None:
    painter = Painter()
    painter.font(7).size("Ω")  # the machine's fonts found (each face's map open, once)
    before = open_files()
    for size in range(8, 8 + 4 * FONTS_OPEN):
        painter.font(size).size("Frühjahr 1901")
    assert open_files() - before <= FONTS_OPEN
    # a size the screen keeps using stays open: the same font, not a new one
    kept = painter.font(200)
    for size in range(8, 8 + FONTS_OPEN - 1):
        painter.font(size)
        assert painter.font(200) is kept

"""Paint a ``Screen`` onto a pygame surface: layout and colour only, no rules.

The layout is proportional, so the same code fills 800x480, 1920x1080 and a 4K TV's
3840x2160; a screen taller than wide (a TV on its side, 1080x1920, or a 480x800 panel) has
its own arrangement: the table's name on a row of its own, the chips in two rows, the alerts
one to a row, the result sheet's code under its lines. Every text is measured and shrunk to
fit its own box, and the boxes never overlap. ``render`` returns what it drew and where, so
tests can prove nothing is cut off or overlapping.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace

import pygame
import segno

from dipclock.i18n import ENGLISH, N_, Words
from dipclock.screen import heading_text
from dipclock.sheetlines import LineState, SheetView, Tone
from dipclock.votescreen import Mark, MarkState, VoteView
from kiosk.fonts import MISSING_NOTE, ScriptFont, font_set, forget_open, strings
from kiosk.state import PROPOSE_HEADLINE, PROPOSE_STATUS, UNSAVED, Chip, Screen

RGB = tuple[int, int, int]

WHITE: RGB = (245, 246, 248)
DIM: RGB = (150, 158, 170)
DARK_TEXT: RGB = (18, 20, 24)
#: the board call's table number: the one thing a player looks for across the hall
TABLE_GOLD: RGB = (255, 196, 64)
#: modules of white around a QR code (ISO/IEC 18004): without it phones often fail
QUIET_ZONE = 4


@dataclass(frozen=True)
class Look:
    background: RGB
    band: RGB  # the stage label's band
    band_text: RGB
    digits: RGB


#: States told by luminance as well as hue (issue 38; ``tests/kiosk/test_colours.py``): "in"
#: and negotiating a light green with dark text, late a dark red with white text, 3.9:1
#: apart in luminance (the old green and red: 1.33:1, alike to a red-green colour-blind
#: player); every text at least WCAG's 4.5:1 on its colour.
GO: RGB = (90, 210, 130)
STOP: RGB = (170, 20, 30)

LOOKS: dict[str, Look] = {
    "connecting": Look((20, 22, 27), (60, 64, 72), WHITE, DIM),
    "before_start": Look((10, 24, 52), (40, 110, 200), WHITE, WHITE),
    "negotiating": Look((14, 17, 22), GO, DARK_TEXT, WHITE),
    "warning": Look((44, 30, 4), (255, 176, 0), DARK_TEXT, (255, 190, 40)),
    "writing": Look((64, 28, 120), (245, 240, 255), (64, 28, 120), WHITE),
    "late": Look((50, 8, 12), STOP, WHITE, WHITE),
    "paused": Look((6, 46, 58), (40, 170, 190), DARK_TEXT, WHITE),
    "held": Look((56, 14, 52), (214, 96, 206), DARK_TEXT, WHITE),
    # a board clock waiting for the board: calm, like a break, but its own colour
    "adjudicating": Look((12, 40, 34), (120, 200, 170), DARK_TEXT, (200, 230, 220)),
    "game_over": Look((36, 36, 38), (96, 96, 102), WHITE, (210, 210, 214)),
    "problem": Look((38, 20, 16), (196, 60, 40), WHITE, WHITE),
}

POWER_COLOURS: dict[str, tuple[RGB, RGB]] = {  # tile, text on it
    "A": ((196, 48, 48), WHITE),
    "E": ((44, 84, 196), WHITE),
    "F": ((74, 168, 228), DARK_TEXT),
    "G": ((96, 98, 104), WHITE),
    "I": ((40, 156, 72), DARK_TEXT),
    "R": ((232, 232, 236), DARK_TEXT),
    "T": ((232, 188, 32), DARK_TEXT),
}

CHIP_STATES: dict[str, tuple[RGB, RGB]] = {  # body, text
    "waiting": ((34, 38, 46), DIM),
    "in": (GO, DARK_TEXT),
    "late": (STOP, WHITE),
    "just_late": ((230, 120, 20), DARK_TEXT),
    "out": ((44, 44, 46), (170, 170, 176)),
}
OUT_TILE: tuple[RGB, RGB] = ((70, 70, 74), (200, 200, 206))
#: a press held in memory only (``kiosk.state.UNSAVED``): amber, never the green of "IN"
UNSAVED_CHIP: tuple[RGB, RGB] = ((255, 176, 0), DARK_TEXT)
HUB_LOST: RGB = (255, 90, 90)
#: The result sheet's lines: every other one on a lighter band, a line's mark, its late
#: count, and the instruction under them by what it asks (``dipclock.sheetlines.Tone``)
SHEET_STRIPE: RGB = (50, 50, 54)
CONFIRMED: RGB = GO  # a dark tick on it (``_mark``)
OPEN_RING: RGB = (150, 150, 156)  # 3:1 on either stripe (WCAG 1.4.11)
LATE_TEXT: RGB = (255, 110, 110)
SHEET_TONES: dict[Tone, tuple[RGB, RGB]] = {
    "ask": ((255, 176, 0), DARK_TEXT),
    "done": (GO, DARK_TEXT),
    "problem": (STOP, WHITE),
}
ALERT: RGB = (255, 190, 40)
FIX: RGB = (255, 214, 120)

#: The TD's hall message (``kiosk.state.with_message``): a band across the top of the
#: screen, dark words on pale yellow, read from across the room; its share of the height,
#: paid for a little by every row but the chips (whose penalties keep their size), so the
#: countdown stays the largest thing on the screen. Without a message: laid out as before.
MESSAGE_BAND: RGB = (255, 226, 110)
MESSAGE_ROW = 0.10
MESSAGE_FROM = {"top": 0.015, "label": 0.015, "big": 0.03, "notes": 0.02, "banner": 0.02}
PORTRAIT_MESSAGE_ROW = 0.07
PORTRAIT_MESSAGE_FROM = {"top": 0.01, "label": 0.01, "big": 0.02, "notes": 0.02,
                         "banner": 0.01}
#: A long message wraps onto at most this many lines, drawn as large as they fit.
MESSAGE_LINES = 3

#: The table's game-end vote (``kiosk.state.with_vote``): a panel above the chips, its
#: share of the height paid for by every row a little, the big digits least of all: "The
#: clock DOES NOT STOP for draw votes" (wdc2018), so the countdown stays the largest thing
#: on the screen. Without a vote: laid out as before.
VOTE_ROW = 0.10
VOTE_FROM = {"top": 0.015, "label": 0.015, "big": 0.01, "notes": 0.03, "strip": 0.03}
PORTRAIT_VOTE_ROW = 0.11
PORTRAIT_VOTE_FROM = {"label": 0.01, "big": 0.02, "notes": 0.02, "banner": 0.01,
                      "strip": 0.05}
#: The panel's colour by the vote's state: open, vetoed (public, and the game goes on),
#: any other close (not agreed, cancelled)
VOTE_BANDS: dict[str, tuple[RGB, RGB]] = {
    "open": ((36, 66, 140), WHITE),
    "vetoed": ((150, 40, 44), WHITE),
    "closed": ((78, 80, 88), WHITE),
}
#: Each power's part in the vote, on its chip, under its state (``MARK_WORDS`` says it in a
#: word too: never the colour alone): band, text
VOTE_MARKS: dict[MarkState, tuple[RGB, RGB]] = {
    "voted": ((226, 244, 232), (16, 104, 48)),  # pale: it reads on a green "IN" chip too
    "press": ((255, 176, 0), DARK_TEXT),
    "sent": ((120, 190, 240), DARK_TEXT),
    "waiting": ((64, 70, 84), WHITE),
    "absent": ((52, 52, 56), (170, 170, 176)),
    "proposer": ((64, 70, 84), (200, 206, 216)),
}

#: Share of the screen's height per row of alerts (two alerts side by side in a row), taken
#: from the big digits and the chips.
ALERT_ROW = 0.05
ALERT_FROM_BIG = 0.025
#: The same on a portrait screen, where each alert has a row of its own.
PORTRAIT_ALERT_ROW = 0.032
PORTRAIT_ALERT_FROM_BIG = 0.016

#: The penalty a late power faces, under its chip, is read from across the table: its
#: capitals are at least this many pixels high on an 800x480 screen (scaled with the screen),
#: wrapped onto a second line rather than shrunk below it.
PENALTY_INK_800x480 = 14
REFERENCE_SCREEN = (800, 480)
#: The heading's size is the one this title takes beside the table's name: a longer title is
#: shrunk (to ``TITLE_MIN`` of that size), then shortened, and the table's name never is.
REFERENCE_TITLE = 8  # "Round 8", in the screen's language
TITLE_MIN = 0.6
#: A width no screen reaches: a text's size by its box's height alone.
UNBOUNDED = 10 ** 6
#: The deadline's most of the row it shares with the phase, when it needs more than its
#: own box (``_phase_and_deadline``): the phase keeps the rest.
DEADLINE_MOST = 0.65


@dataclass(frozen=True)
class Drawn:
    """One text as drawn: what, and the rectangle it covers."""

    role: str
    text: str
    rect: pygame.Rect


#: Sizes of the font a Painter keeps open at once: each open font holds its file open
#: (SDL_ttf reads glyphs from it), a screen fitted in a long language tries many sizes, and
#: a process with over 1,024 files open breaks the button box's serial port (pyserial waits
#: with select(), which takes no higher file number). The sizes a screen keeps using stay.
FONTS_OPEN = 48


class Painter:
    """Keeps fonts and fitted sizes between frames: a steady countdown costs one blit each."""

    MIN_SIZE = 8

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        forget_open()  # fonts opened before a display restart (pygame.quit) are dead
        self._fonts: OrderedDict[int, pygame.font.Font] = OrderedDict()
        self._fits: dict[tuple[str, int, int], int] = {}
        self._inked: dict[int, int] = {}
        self._widest_digit: str | None = None

    def font(self, size: int) -> pygame.font.Font:
        """pygame's font at ``size``, falling back to Noto for letters it lacks (a Thai or
        Chinese name: ``kiosk.fonts``)."""
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = ScriptFont(size)
            while len(self._fonts) > FONTS_OPEN:  # the least used is closed as it is dropped
                self._fonts.popitem(last=False)
        else:
            self._fonts.move_to_end(size)
        return f

    def _template(self, text: str) -> str:
        """Digits replaced by the widest digit, so a countdown keeps one size as it runs."""
        if self._widest_digit is None:
            f = self.font(100)
            self._widest_digit = max("0123456789", key=lambda d: f.size(d)[0])
        return re.sub(r"\d", self._widest_digit, text)

    def _ink(self, text: str, size: int) -> pygame.Rect:
        """The inked part of the rendered text (no line spacing above and below)."""
        return self.font(size).render(text, True, WHITE).get_bounding_rect()

    def size_for_ink(self, height: int) -> int:
        """The smallest font size whose capitals and digits are ``height`` pixels high."""
        found = self._inked.get(height)
        if found is not None:
            return found
        size = max(self.MIN_SIZE, height)
        # each on its own: a round digit overshoots the capitals' line by a pixel or two
        while min(self._ink(glyphs, size).h for glyphs in ("NMR", "4", "0")) < height:
            size += 1
        self._inked[height] = size
        return size

    def fit_tight(self, text: str, w: int, h: int) -> int:
        """The largest size at which the *ink* of ``text`` fits: for the big digits."""
        template = self._template(text)
        key = ("\0tight" + template, w, h)
        found = self._fits.get(key)
        if found is not None:
            return found
        ink = self._ink(template, 100)
        size = max(self.MIN_SIZE, int(min(w * 100 / max(1, ink.w), h * 100 / max(1, ink.h))))
        while size > self.MIN_SIZE:
            ink = self._ink(template, size)
            if ink.w <= w and ink.h <= h:
                break
            size -= max(1, size // 50)
        self._fits[key] = size
        return size

    def fit_size(self, text: str, w: int, h: int) -> int:
        """The largest font size at which ``text`` fits a w x h box."""
        key = (self._template(text), w, h)
        found = self._fits.get(key)
        if found is not None:
            return found
        lo, hi = self.MIN_SIZE, max(self.MIN_SIZE, int(h * 1.6))
        while lo < hi:
            mid = (lo + hi + 1) // 2
            font = self.font(mid)
            tw, th = font.size(key[0])
            # pygame-ce renders a line taller than size() reports (its line skip): fit that
            if tw <= w and max(th, font.get_linesize()) <= h:
                lo = mid
            else:
                hi = mid - 1
        self._fits[key] = lo
        return lo

    def whole_size(self, text: str, w: int, h: int) -> int:
        """The largest size at which ``text`` itself fits a w x h box: measured as it is, not
        by its digits' template (``fit_size``), whose widest digit at 100 px need not be the
        widest at every size: a text that fits only by that measure gets cut."""
        size = self.fit_size(text, UNBOUNDED, h)  # as tall as the box: then as wide
        while size > self.MIN_SIZE and self.font(size).size(text)[0] > w:
            size -= 1
        return size

    def text(
        self,
        surface: pygame.Surface,
        drawn: list[Drawn],
        role: str,
        text: str,
        box: pygame.Rect,
        colour: RGB,
        align: str = "center",
        max_size: int | None = None,
        tight: bool = False,
        whole: bool = False,
    ) -> None:
        """Draw ``text`` as large as fits ``box`` (at most ``max_size``), shortened if need be;
        ``whole``: never shortened, drawn smaller instead (a deadline cut to "Deadline
        00:3..." is worse than a smaller one)."""
        if not text or box.w <= 0 or box.h <= 0:
            return
        if tight:
            self._tight(surface, drawn, role, text, box, colour)
            return
        fit = self.whole_size if whole else self.fit_size
        size = fit(text, box.w, box.h)
        if max_size:
            size = min(size, max_size)
        font = self.font(size)
        while not whole and font.size(text)[0] > box.w and len(text) > 1:
            text = text[:-4].rstrip() + "..." if len(text) > 4 else text[:1]
        img = font.render(text, True, colour)
        rect = img.get_rect()
        rect.centery = box.centery
        if align == "left":
            rect.left = box.left
        elif align == "right":
            rect.right = box.right
        else:
            rect.centerx = box.centerx
        rect = rect.clamp(box) if rect.h <= box.h else rect
        surface.blit(img, rect)
        drawn.append(Drawn(role, text, rect))


    def _tight(
        self,
        surface: pygame.Surface,
        drawn: list[Drawn],
        role: str,
        text: str,
        box: pygame.Rect,
        colour: RGB,
    ) -> None:
        """Text cropped to its ink and centred: digits as tall as the box itself."""
        size = self.fit_tight(text, box.w, box.h)
        img = self.font(size).render(text, True, colour)
        ink = img.get_bounding_rect()
        rect = pygame.Rect(0, 0, ink.w, ink.h)
        rect.center = box.center
        rect = rect.clamp(box)
        surface.blit(img, rect, area=ink)
        drawn.append(Drawn(role, text, rect))


def wrap_lines(font: pygame.font.Font, text: str, width: int, breaking: bool = False
               ) -> list[str] | None:
    """Greedy word wrap; None when one word alone is wider than ``width``, unless
    ``breaking``: then that word is broken between its characters (``word_pieces``)."""
    lines: list[str] = []
    for word in text.split():
        if font.size(word)[0] > width:
            if not breaking:
                return None
            lines.extend(word_pieces(font, word, width))
            continue
        if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _glued(before: str, c: str) -> bool:
    """Whether ``c`` belongs to the character drawn before it: a mark or variation
    selector on it, a skin tone, a flag's tags, whatever follows a zero-width joiner, or
    the second half of a country flag."""
    code = ord(c)
    if unicodedata.category(c)[0] == "M" or c in "\u200c\u200d" or before[-1] == "\u200d":
        return True
    if 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True
    flag = [0x1F1E6 <= ord(x) <= 0x1F1FF for x in before]
    return 0x1F1E6 <= code <= 0x1F1FF and len(flag) == 1 and flag[0]


def word_pieces(font: pygame.font.Font, word: str, width: int) -> list[str]:
    """A word too wide for a line (an address, a script written without spaces, a row of
    capitals) in pieces that each fit, broken between the characters drawn: never inside an
    emoji or between a letter and its accent. A piece of one such character is kept whole."""
    drawn: list[str] = []
    for c in word:
        if drawn and _glued(drawn[-1], c):
            drawn[-1] += c
        else:
            drawn.append(c)
    pieces = [""]
    for one in drawn:
        if pieces[-1] and font.size(pieces[-1] + one)[0] > width:
            pieces.append(one)
        else:
            pieces[-1] += one
    return pieces


def paragraph(
    surface: pygame.Surface,
    drawn: list[Drawn],
    painter: Painter,
    role: str,
    text: str,
    box: pygame.Rect,
    colour: RGB,
    max_size: int,
) -> int:
    """``text`` wrapped onto as many lines as it needs, as large as fits ``box``: the
    start-up problems are long (a file, a line, a key) and must be read at arm's length.
    Returns the bottom of the last line drawn."""
    size = max_size
    while True:
        font = painter.font(size)
        lines = wrap_lines(font, text, box.w)
        line_h = font.get_linesize()
        if size <= painter.MIN_SIZE or (lines is not None and len(lines) * line_h <= box.h):
            break
        size -= max(1, size // 20)
    bottom = box.top
    for i, line in enumerate(lines or [text]):
        row = pygame.Rect(box.left, box.top + i * line_h, box.w, line_h)
        if row.bottom > box.bottom:
            break
        painter.text(surface, drawn, role, line, row, colour, "left", max_size=size)
        bottom = row.bottom
    return bottom


def penalty_lines(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """``text`` on at most two lines of ``width``; the second ends in "..." when it must."""
    lines: list[str] = []
    for word in text.split():
        # a word wider than the chip breaks after its hyphens: "30-" / "second"
        parts = re.findall(r"[^-]*-|[^-]+", word) if font.size(word)[0] > width else [word]
        for k, part in enumerate(parts):
            joined = f"{lines[-1]}{'' if k else ' '}{part}" if lines else part
            if lines and font.size(joined)[0] <= width:
                lines[-1] = joined
            else:
                lines.append(part)
    if len(lines) <= 2:
        return [_shortened(font, line, width) for line in lines]
    return [_shortened(font, lines[0], width), _shortened(font, " ".join(lines[1:]), width)]


def _shortened(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut to end in "..." within ``width`` at this font, not drawn any smaller."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text.rstrip() + "...")[0] > width:
        text = text[:-1]
    return text.rstrip() + "..."


def short_label(label: str) -> str:
    """A penalty label cut to what fits a chip: 'Red card: all units hold (...)' -> 'Red card'."""
    return label.split(":")[0].split(" (")[0]


def portrait(size: tuple[int, int]) -> bool:
    """A screen taller than wide: a TV on its side, a panel mounted upright."""
    return size[1] > size[0]


def alert_columns(size: tuple[int, int]) -> int:
    """Alerts side by side in a row: two on a landscape screen, one on a portrait one."""
    return 1 if portrait(size) else 2


def alert_rows(alerts: tuple[str, ...], columns: int = 2) -> int:
    return (len(alerts) + columns - 1) // columns


def layout(size: tuple[int, int], alert_rows: int = 0, message: bool = False,
           vote: bool = False, code: bool = False) -> dict[str, pygame.Rect]:
    """The screen's boxes, proportional to its size and never overlapping.

    Alerts take rows above the chips, paid for by the big digits, so a screen without
    alerts is laid out exactly as before. A portrait screen gives the heading a row of its
    own (the phase and the deadline share the next) and the chips two rows. ``message``:
    a row across the top for the TD's hall message (``MESSAGE_ROW``); ``vote``: a row
    above the alerts and the chips for the table's vote (``VOTE_ROW``); ``code``: the vote
    page's code beside it, a portrait screen's vote row taller (``PORTRAIT_CODE_FROM``).
    """
    w, h = size
    m = max(6, round(min(w, h) * 0.03))
    gap = max(3, m // 2)
    tall = portrait(size)
    alerts = (PORTRAIT_ALERT_ROW if tall else ALERT_ROW) * alert_rows
    from_big = (PORTRAIT_ALERT_FROM_BIG if tall else ALERT_FROM_BIG) * alert_rows
    if tall:
        rows = [("top", 0.06), ("sub", 0.045), ("label", 0.085), ("big", 0.275 - from_big),
                ("notes", 0.095), ("banner", 0.05), ("alerts", alerts),
                ("strip", 0.39 - (alerts - from_big))]
    else:
        rows = [("top", 0.085), ("label", 0.10), ("big", 0.385 - from_big), ("notes", 0.095),
                ("banner", 0.075), ("alerts", alerts), ("strip", 0.26 - (alerts - from_big))]
    if not alert_rows:
        rows.remove(("alerts", alerts))
    if vote:
        paid = PORTRAIT_VOTE_FROM if tall else VOTE_FROM
        rows = [(name, frac - paid.get(name, 0.0)) for name, frac in rows]
        at = next(i for i, (name, _) in enumerate(rows) if name in ("alerts", "strip"))
        rows.insert(at, ("vote", PORTRAIT_VOTE_ROW if tall else VOTE_ROW))
        if code and tall:
            more = sum(PORTRAIT_CODE_FROM.values())
            rows = [(name, frac + more if name == "vote" else
                     frac - PORTRAIT_CODE_FROM.get(name, 0.0)) for name, frac in rows]
    if message:
        paid = PORTRAIT_MESSAGE_FROM if tall else MESSAGE_FROM
        rows = [("message", PORTRAIT_MESSAGE_ROW if tall else MESSAGE_ROW),
                *((name, frac - paid.get(name, 0.0)) for name, frac in rows)]
    usable = h - 2 * m - gap * (len(rows) - 1)
    boxes: dict[str, pygame.Rect] = {}
    y = m
    for name, frac in rows:
        rh = int(usable * frac)
        boxes[name] = pygame.Rect(m, y, w - 2 * m, rh)
        y += rh + gap
    top = boxes["top"]
    if tall:
        sub = boxes["sub"]
        half = (sub.w - gap) // 2
        boxes["heading"] = top.copy()
        boxes["phase"] = pygame.Rect(sub.left, sub.top, half, sub.h)
        boxes["deadline"] = pygame.Rect(sub.right - half, sub.top, half, sub.h)
        return boxes
    third = top.w // 3
    boxes["heading"] = pygame.Rect(top.left, top.top, third - gap, top.h)
    boxes["phase"] = pygame.Rect(top.left + third, top.top, top.w - 2 * third, top.h)
    boxes["deadline"] = pygame.Rect(top.right - third + gap, top.top, third - gap, top.h)
    return boxes


def upright_size(size: tuple[int, int], rotate: int) -> tuple[int, int]:
    """The size the clock is drawn at on a screen of ``size`` turned by ``rotate``: a
    1920x1080 TV on its side shows a 1080x1920 clock."""
    return (size[1], size[0]) if rotate in (90, 270) else size


#: Side of the squares a picture is turned in: pygame turns a whole 4K surface a column at a
#: time, out of the processor's cache (63 ms for 2160x3840 on the CI machine); squares
#: that fit in it turn about five times faster, pixel for pixel the same.
TURN_TILE = 256


def turn(canvas: pygame.Surface, rotate: int, onto: pygame.Surface | None = None
         ) -> pygame.Surface:
    """The upright picture turned ``rotate`` degrees clockwise, for the display's surface
    (``onto`` it, or a new one): its top edge goes to the display's right (90), bottom
    (180) or left (270). Quarter turns move whole pixels: nothing is resampled."""
    if not rotate:
        if onto is not None:
            onto.blit(canvas, (0, 0))
        return onto or canvas
    w, h = canvas.get_size()
    out = onto or pygame.Surface(upright_size((w, h), rotate))
    right, bottom = out.get_size()
    for x in range(0, w, TURN_TILE):
        for y in range(0, h, TURN_TILE):
            tile = pygame.Rect(x, y, min(TURN_TILE, w - x), min(TURN_TILE, h - y))
            turned = pygame.transform.rotate(canvas.subsurface(tile), -rotate)
            at = {90: (right - tile.bottom, tile.left),
                  180: (right - tile.right, bottom - tile.bottom),
                  270: (tile.top, bottom - tile.right)}[rotate]
            out.blit(turned, at)
    return out


def render(surface: pygame.Surface, screen: Screen, painter: Painter) -> list[Drawn]:
    """Draw the whole frame; returns every text drawn with its rectangle."""
    if screen.look != "problem" and any(font_set().lacking(t) for t in strings(screen)):
        # a letter no font has draws as a box: the screen says so, among the alerts
        screen = replace(screen, alerts=(*screen.alerts, screen.words(MISSING_NOTE)))
    look = LOOKS[screen.look]
    surface.fill(look.background)
    size = surface.get_size()
    columns = alert_columns(size)
    shout = bool(screen.message) and screen.look != "problem"
    voting = ((screen.vote is not None or bool(screen.vote_code)) and screen.sheet is None
              and not screen.board_call)
    boxes = layout(size, alert_rows(screen.alerts, columns), message=shout, vote=voting,
                   code=voting and bool(screen.vote_code))
    drawn: list[Drawn] = []
    t = painter.text
    if screen.look == "problem":
        _problem(surface, drawn, boxes, screen, painter)
        return drawn
    if shout:
        _message(surface, drawn, painter, boxes["message"], screen.message)

    _heading(surface, drawn, painter, screen, boxes["heading"])
    phase, deadline = _phase_and_deadline(painter, screen.deadline, boxes)
    t(surface, drawn, "phase", screen.phase, phase, WHITE,
      "left" if portrait(size) else "center")
    t(surface, drawn, "deadline", screen.deadline, deadline, WHITE, "right", whole=True)

    band = boxes["label"]
    pygame.draw.rect(surface, look.band, band, border_radius=max(2, band.h // 6))
    _label(surface, drawn, painter, band, screen.label, look.band_text)

    if screen.sheet is not None:
        _result_sheet(surface, drawn, boxes, screen, painter)
        return drawn
    if screen.board_call:
        _board_call(surface, drawn, boxes, screen, painter, look.digits)
        if screen.alerts:
            _alerts(surface, drawn, boxes["alerts"], screen.alerts, painter, columns)
        return drawn
    if screen.qr:
        boxes["big"], boxes["notes"] = _sheet_code(surface, drawn, boxes["big"],
                                                   boxes["notes"], screen.qr, painter,
                                                   _caption(screen))
    if voting and screen.vote_code:  # beside the vote's panel: the rows it meets narrowed
        boxes = _vote_code(surface, drawn, boxes, screen, painter)
    big = boxes["big"].inflate(-boxes["big"].w // 20, -boxes["big"].h // 10)
    # "--:--" (no clock yet) cropped to its ink would be scaled into blocks: set it as text
    t(surface, drawn, "big", screen.big, big, look.digits,
      tight=any(c.isalnum() for c in screen.big))

    if screen.notes:
        _notes(surface, drawn, painter, boxes["notes"], screen.notes, _notes_colour(screen))
    t(surface, drawn, "banner", screen.banner, boxes["banner"], WHITE)
    if screen.alerts:
        _alerts(surface, drawn, boxes["alerts"], screen.alerts, painter, columns)
    marks: dict[str, Mark] = {}
    if voting and screen.vote is not None:
        _vote_panel(surface, drawn, painter, boxes["vote"], screen.vote)
        marks = {m.letter: m for m in screen.vote.marks}
    elif voting:  # the code shows to propose, no vote open: what the players do with it
        _vote_panel(surface, drawn, painter, boxes["vote"],
                    VoteView("open", screen.words(PROPOSE_HEADLINE),
                             screen.words(PROPOSE_STATUS)))
    _strip(surface, drawn, boxes["strip"], screen.chips, painter, penalty_ink(size), marks,
           screen.words)
    return drawn


def _vote_panel(surface: pygame.Surface, drawn: list[Drawn], painter: Painter,
                band: pygame.Rect, vote: VoteView) -> None:
    """The vote on its panel: what is proposed and when (or the result), then what the
    table waits for, smaller; each on one line, or two where that draws it larger (a
    portrait screen, a long result)."""
    key = vote.state if vote.state in VOTE_BANDS else "closed"
    fill, ink = VOTE_BANDS[key]
    pygame.draw.rect(surface, fill, band, border_radius=max(2, band.h // 6))
    inner = band.inflate(-max(4, band.h // 3), -max(2, band.h // 10))
    texts = [("vote", vote.headline)] + ([("vote_status", vote.status)] if vote.status else [])
    best: tuple[int, list[tuple[str, str]]] = (0, [])
    for most in itertools.product((1, 2), repeat=len(texts)):  # lines for each text
        size = painter.fit_size("Ag", UNBOUNDED, inner.h // sum(most))
        while size > max(best[0], painter.MIN_SIZE - 1):
            font = painter.font(size)
            wrapped = [wrap_lines(font, text, inner.w) for _, text in texts]
            if all(w is not None and len(w) <= n for w, n in zip(wrapped, most, strict=True)):
                best = (size, [(role, line) for (role, _), w in zip(texts, wrapped, strict=True)
                               for line in w or ()])
                break
            size -= 1
    size, lines = best
    if not lines:  # nothing fits whole: one line each, shortened
        size, lines = painter.MIN_SIZE, list(texts)
    row_h = inner.h // len(lines)
    top = inner.top + (inner.h - row_h * len(lines)) // 2
    for i, (role, line) in enumerate(lines):
        row = pygame.Rect(inner.left, top + i * row_h, inner.w, row_h)
        painter.text(surface, drawn, role, line, row, ink, max_size=size)


def _board_call(surface: pygame.Surface, drawn: list[Drawn], boxes: dict[str, pygame.Rect],
                screen: Screen, painter: Painter, digits: RGB) -> None:
    """Before the round: the table's number and the time to the start, and its seven
    players by power, in the space of the digits, the notes and the chips: a player walks
    the hall reading numbers, then their name, from across the room. A round set up in
    advance: the code of the last round's sheet beside the time (``state.with_sheet_before``)."""
    below = boxes["alerts"].top if "alerts" in boxes else boxes["strip"].bottom
    area = pygame.Rect(boxes["big"].left, boxes["big"].top, boxes["big"].w,
                       below - boxes["big"].top)
    gap = max(4, area.h // 40)
    if portrait(surface.get_size()):
        top = pygame.Rect(area.left, area.top, area.w, area.h * 3 // 10)
        seats = pygame.Rect(area.left, top.bottom + gap, area.w, area.bottom - top.bottom - gap)
        number = pygame.Rect(top.left, top.top, top.w * 11 // 20, top.h)
        time = pygame.Rect(number.right + gap, top.top, top.right - number.right - gap, top.h)
    else:
        side = pygame.Rect(area.left, area.top, area.w * 2 // 5, area.h)
        seats = pygame.Rect(side.right + 2 * gap, area.top, area.right - side.right - 2 * gap,
                            area.h)
        number = pygame.Rect(side.left, side.top, side.w, side.h * 3 // 5)
        time = pygame.Rect(side.left, number.bottom + gap, side.w,
                           side.bottom - number.bottom - gap)
    if screen.qr and time.w >= time.h:  # the last round's sheet: right of the time
        edge = min(time.h, time.w // 2)
        code = _qr_code(surface, drawn, pygame.Rect(time.right - edge, time.top, edge, time.h),
                        screen.qr, painter, edge, _caption(screen))
        time = pygame.Rect(time.left, time.top, code.left - gap - time.left, time.h)
    elif screen.qr:  # a narrow box (a portrait screen): under the time
        edge = min(time.w, time.h // 2)
        code = _qr_code(surface, drawn, pygame.Rect(time.right - edge, time.bottom - edge,
                                                    edge, edge), screen.qr, painter, edge,
                        _caption(screen))
        time = pygame.Rect(time.left, time.top, time.w, code.top - gap - time.top)
    words = screen.words
    found = re.findall(r"\d+", screen.table_name)  # "Table 3", "Tisch 3": its number
    table = found[-1] if found else screen.table_name.strip()
    for caption, text, box, colour, role in (
            (words("Table"), table, number, TABLE_GOLD, "board_table"),
            (words("Starts in"), screen.big, time, digits, "big")):
        head = pygame.Rect(box.left, box.top, box.w, box.h // 5)
        painter.text(surface, drawn, f"{role}_caption", caption, head, DIM)
        painter.text(surface, drawn, role, text,
                     pygame.Rect(box.left, head.bottom, box.w, box.bottom - head.bottom)
                     .inflate(-gap, -gap), colour, tight=any(c.isalnum() for c in text))
    rows = len(screen.board_call)
    row_h = seats.h // rows
    size = min(painter.fit_size(f"{power}  {player}", seats.w, row_h * 4 // 5)
               for power, player in screen.board_call)
    power_w = max(painter.font(size).size(power)[0] for power, _ in screen.board_call)
    for i, (power, player) in enumerate(screen.board_call):
        row = pygame.Rect(seats.left, seats.top + i * row_h, seats.w, row_h)
        painter.text(surface, drawn, "board_power", power,
                     pygame.Rect(row.left, row.top, power_w, row.h), DIM, "left", size)
        name = pygame.Rect(row.left + power_w + gap * 2, row.top,
                           row.w - power_w - gap * 2, row.h)
        painter.text(surface, drawn, "board_player", player, name, WHITE, "left", size)


def _message(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, band: pygame.Rect,
             text: str) -> None:
    """The TD's hall message on its band: one line, or up to ``MESSAGE_LINES`` broken
    between words where that draws it larger (a long message on a small panel)."""
    pygame.draw.rect(surface, MESSAGE_BAND, band, border_radius=max(2, band.h // 6))
    inner = band.inflate(-band.h // 2, -band.h // 8)
    lines, size = _wrapped(painter, text, inner, MESSAGE_LINES, breaking=True)
    _draw_lines(surface, drawn, painter, "message", lines, size, inner, DARK_TEXT)


def short_name(name: str) -> str:
    """A power's name before its hyphen: "Österreich" for "Österreich-Ungarn", as players
    say it too, where the whole is too wide to read (a chip, a sheet's column)."""
    head = name.partition("-")[0].strip()
    return head or name


def fitted_name(font: pygame.font.Font, name: str, width: int) -> str:
    """``name`` whole where it fits ``width`` at ``font``, else its ``short_name``."""
    return name if font.size(name)[0] <= width else short_name(name)


#: Notes on a portrait screen: several on at most this many lines, one note to a line; a
#: single long one ("If this stays, set hub = ...") wrapped onto at most ``NOTE_WRAP``.
NOTE_LINES = 2
NOTE_WRAP = 3


def _label(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, band: pygame.Rect,
           text: str, colour: RGB) -> None:
    """The stage in words inside its band; on a portrait screen a long one ("Table held by
    the TD, clock restarts at 10:11:40") on two lines when that draws it larger."""
    inner = band.inflate(-band.h // 2, -band.h // 5)
    if portrait(surface.get_size()):
        lines, size = _wrapped(painter, text, inner)
        _draw_lines(surface, drawn, painter, "label", lines, size, inner, colour)
    else:
        painter.text(surface, drawn, "label", text, inner, colour)


def _notes(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, box: pygame.Rect,
           notes: tuple[str, ...], colour: RGB) -> None:
    """The notes on one line, " · " between them, or on more where that draws them larger
    (a portrait screen is narrow; a hint for the TD is long): a single note wrapped between
    words, several one to a line (the last taking the rest), all at one size."""
    joined = "   ·   ".join(notes)
    lines, size = _wrapped(painter, joined, box, NOTE_WRAP if len(notes) == 1 else NOTE_LINES)
    if len(notes) > 1 and len(lines) > 1:  # a break between notes, not inside one
        lines = [*notes[:NOTE_LINES - 1], "   ·   ".join(notes[NOTE_LINES - 1:])]
        size = min(painter.fit_size(t, box.w, box.h // len(lines)) for t in lines)
    _draw_lines(surface, drawn, painter, "notes", lines, size, box, colour)


def _wrapped(painter: Painter, text: str, box: pygame.Rect, most: int = 2,
             breaking: bool = False) -> tuple[list[str], int]:
    """``text`` on as few of ``most`` lines of ``box`` as draw it largest (broken between
    words; ``breaking``: inside a word too wide for a line as well), and that size."""
    best = [text], painter.fit_size(text, box.w, box.h)
    for n in range(2, most + 1):
        size = painter.fit_size("Ag", 10 ** 4, box.h // n)
        while size > best[1]:
            lines = wrap_lines(painter.font(size), text, box.w, breaking)
            if lines is not None and len(lines) <= n:
                best = lines, size
                break
            size -= 1
    return best


def _draw_lines(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, role: str,
                lines: list[str], size: int, box: pygame.Rect, colour: RGB) -> None:
    """``lines`` one under another, centred in ``box``, at ``size``."""
    row_h = box.h // len(lines)
    for i, line in enumerate(lines):
        row = pygame.Rect(box.left, box.top + i * row_h, box.w, row_h)
        painter.text(surface, drawn, role, line, row, colour, max_size=size)


def _heading(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, screen: Screen,
             box: pygame.Rect) -> None:
    """The round's title, then the table's name as large as the box holds it beside a short
    title: read from two metres whatever the TD called the round. A long title gives way
    (smaller, then shortened with "..."), and so does the hub-lost mark, under the title."""
    title, table, lost = screen.title, screen.table_name, screen.hub_lost
    if not table:  # nothing to keep large: the title fills the box
        upper = _upper(box) if lost else box
        painter.text(surface, drawn, "heading", title, upper, DIM, "left")
        if lost:
            _hub_lost(surface, drawn, painter, _lower(box, upper), screen.words)
        return
    reference = screen.words("Round {number}", number=REFERENCE_TITLE)
    size = painter.fit_size(heading_text(reference if title or lost else "", table),
                            box.w, box.h)
    font = painter.font(size)
    named = f"· {table}" if title else table
    space = font.size(" ")[0]
    column = pygame.Rect(box.left, box.top, box.w - font.size(named)[0] - space, box.h)
    upper = _upper(column) if lost else column
    right = box.left - space  # the right edge of what the column holds
    shown, small = "", font
    if title:
        cap = min(size, painter.fit_size("Rg", box.w, upper.h))  # as tall as its row allows
        fitted = max(int(cap * TITLE_MIN), min(cap, painter.fit_size(title, upper.w, upper.h)))
        small = painter.font(fitted)
        shown = _shortened(small, title, upper.w)
        right = box.left + small.size(shown)[0]
        if lost:
            painter.text(surface, drawn, "heading", shown, upper, DIM, "left", max_size=fitted)
    if lost:
        _hub_lost(surface, drawn, painter, _lower(column, upper), screen.words)
        right = max(right, drawn[-1].rect.right)
    left = right + space
    painter.text(surface, drawn, "table", named,
                 pygame.Rect(left, box.top, box.right - left, box.h), DIM, "left", max_size=size)
    if shown and not lost:  # on the table's baseline
        img = small.render(shown, True, DIM)
        rect = img.get_rect(left=box.left)
        rect.top = drawn[-1].rect.top + font.get_ascent() - small.get_ascent()
        surface.blit(img, rect)
        drawn.append(Drawn("heading", shown, rect))


def _phase_and_deadline(painter: Painter, deadline: str, boxes: dict[str, pygame.Rect]
                        ) -> tuple[pygame.Rect, pygame.Rect]:
    """The phase's box and the deadline's: the deadline first gets the width it takes at
    its row's height, from the phase beside it (to ``DEADLINE_MOST`` of the two), so a
    deadline with seconds on a 1280x800 screen is drawn whole and as large as the phase,
    never cut; the phase is shortened or drawn smaller before it is."""
    phase, box = boxes["phase"], boxes["deadline"]
    if not deadline:
        return phase, box
    need = painter.font(painter.whole_size(deadline, UNBOUNDED, box.h)).size(deadline)[0]
    if need <= box.w:
        return phase, box
    gap = box.left - phase.right
    width = min(need, int((phase.w + gap + box.w) * DEADLINE_MOST))
    wider = pygame.Rect(box.right - width, box.top, width, box.h)
    return pygame.Rect(phase.left, phase.top, max(0, wider.left - gap - phase.left),
                       phase.h), wider


def _upper(box: pygame.Rect) -> pygame.Rect:
    """The part of a heading box above the hub-lost mark."""
    return pygame.Rect(box.left, box.top, box.w, box.h * 55 // 100)


def _lower(box: pygame.Rect, upper: pygame.Rect) -> pygame.Rect:
    return pygame.Rect(box.left, upper.bottom, box.w, box.h - upper.h)


def _hub_lost(surface: pygame.Surface, drawn: list[Drawn], painter: Painter,
              box: pygame.Rect, words: Words = ENGLISH) -> None:
    """A small red mark: the hub is not answering (the clock keeps running)."""
    dot = max(2, box.h // 4)  # drawn: the bundled font has no bullet glyph
    pygame.draw.circle(surface, HUB_LOST, (box.left + dot, box.centery), dot)
    text_box = pygame.Rect(box.left + 3 * dot, box.top, box.w - 3 * dot, box.h)
    painter.text(surface, drawn, "hub_lost", words("hub lost"), text_box, HUB_LOST, "left")


def _sheet_code(surface: pygame.Surface, drawn: list[Drawn], big: pygame.Rect,
                notes: pygame.Rect, url: str, painter: Painter, caption: str = ""
                ) -> tuple[pygame.Rect, pygame.Rect]:
    """The result sheet's QR code at the right of the big words and the notes, as tall as
    both (up to half the width of a portrait screen, where the height is short), a caption
    under it; returns the two boxes narrowed to its left."""
    area = big.union(notes)
    widest = area.w // 2 if portrait(surface.get_size()) else area.w * 2 // 5
    code = _qr_code(surface, drawn, area, url, painter, widest, caption)
    right = code.left - area.w // 40
    return (pygame.Rect(big.left, big.top, right - big.left, big.h),
            pygame.Rect(notes.left, notes.top, right - notes.left, notes.h))


#: The words under the result sheet's code, for the round's own sheet
QR_CAPTION = N_("Result sheet: scan")


def _caption(screen: Screen) -> str:
    """The words under the screen's code: its own (the last round's sheet) or
    ``QR_CAPTION``, in the screen's language."""
    return screen.qr_caption or screen.words(QR_CAPTION)


def _qr_code(surface: pygame.Surface, drawn: list[Drawn], area: pygame.Rect, url: str,
             painter: Painter, widest: int, words: str = "", role: str = "qr",
             caption_lines: int = 1) -> pygame.Rect:
    """``url`` as a QR code at the top right of ``area``, at most ``widest`` pixels wide,
    its caption under it; returns the rectangle both cover. Dark modules on white inside
    the standard's quiet zone, each module whole pixels: any phone reads it. ``role``:
    the code's in ``Drawn`` ("qr": the result sheet's), its caption's ``role_caption``;
    ``caption_lines``: the caption's room, in lines of a tenth of the area (on two where
    that draws it larger: a long caption under a small code)."""
    code = segno.make(url, error="l")  # a lit screen, not a worn label: little to repair
    rows = list(code.matrix_iter(border=QUIET_ZONE))
    caption_h = area.h * caption_lines // (9 + caption_lines)
    side = min(area.h - caption_h, widest)
    module = max(1, side // len(rows))
    side = module * len(rows)
    square = pygame.Rect(area.right - side, area.top, side, side)
    surface.fill(WHITE, square)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill(DARK_TEXT, (square.left + x * module, square.top + y * module,
                                         module, module))
    drawn.append(Drawn(role, url, square))
    caption = pygame.Rect(square.left, square.bottom, side, caption_h)
    if caption_lines == 1:
        painter.text(surface, drawn, f"{role}_caption", words or QR_CAPTION, caption, WHITE)
    else:
        lines, size = _wrapped(painter, words or QR_CAPTION, caption, caption_lines)
        _draw_lines(surface, drawn, painter, f"{role}_caption", lines, size, caption, WHITE)
    return square.union(caption)


#: The vote page's code (``kiosk.state.with_vote_code``): its side this share of the
#: screen's shorter edge, so a phone reads it from across the table (3 pixels a module at
#: 800x480); at the right of the vote's panel, its caption's bottom on the panel's, rising
#: into the rows above (the banner, the notes, the right of the big digits, where a
#: landscape countdown leaves room; never above them): the countdown keeps its height.
VOTE_CODE_SIDE = 0.26
#: On a portrait screen, narrow, the panel beside the code needs more lines: its row is
#: made taller by these shares of the height, from the big digits' row (its digits are as
#: wide as the screen before they are as tall as the row: the countdown keeps its size)
#: and the chips' two rows.
PORTRAIT_CODE_FROM = {"big": 0.025, "strip": 0.025}


def _vote_code(surface: pygame.Surface, drawn: list[Drawn], boxes: dict[str, pygame.Rect],
               screen: Screen, painter: Painter) -> dict[str, pygame.Rect]:
    """The vote page's QR code and its caption at the right of the vote's panel; returns
    the boxes with every row it meets (the panel too) narrowed to its left."""
    panel = boxes["vote"]
    modules = int(segno.make(screen.vote_code, error="l").symbol_size(border=QUIET_ZONE)[0])
    side = max(1, round(min(surface.get_size()) * VOTE_CODE_SIDE) // modules) * modules
    top = max(boxes["big"].top, panel.bottom - side - (2 * side + 8) // 9)  # two lines
    area = pygame.Rect(panel.right - side, top, side, panel.bottom - top)
    code = _qr_code(surface, drawn, area, screen.vote_code, painter, side,
                    screen.vote_code_caption, role="vote_qr", caption_lines=2)
    gap = max(3, side // 12)
    out = dict(boxes)
    for name in ("big", "notes", "banner", "vote"):
        box = out[name]
        if box.bottom > code.top and box.top < code.bottom:
            out[name] = pygame.Rect(box.left, box.top, max(0, code.left - gap - box.left),
                                    box.h)
    return out


def _result_sheet(surface: pygame.Surface, drawn: list[Drawn],
                  boxes: dict[str, pygame.Rect], screen: Screen, painter: Painter) -> None:
    """The table's result sheet where the big words and the chips were: a line per power
    (its colour and name, the player, centres, score, and a mark: a ring to confirm, a
    grey tick sent, a green tick confirmed; "late +17 s" while it counts late), the
    ending, the QR code at the right (corrections are made on the phone), then the one
    thing to do across the whole width. The banner and the alerts keep rows at the bottom.
    A portrait screen is too narrow for the code beside the lines: it goes under them, at
    the right of the ending."""
    sheet = screen.sheet
    assert sheet is not None
    big, strip = boxes["big"], boxes["strip"]
    gap = boxes["notes"].top - big.bottom
    bottom = strip.bottom
    if screen.alerts:
        rows = pygame.Rect(big.left, bottom - boxes["alerts"].h, big.w, boxes["alerts"].h)
        _alerts(surface, drawn, rows, screen.alerts, painter,
                alert_columns(surface.get_size()))
        bottom = rows.top - gap
    banner = pygame.Rect(big.left, bottom - boxes["banner"].h, big.w, boxes["banner"].h)
    painter.text(surface, drawn, "banner", screen.banner, banner, WHITE)
    body = pygame.Rect(big.left, big.top, big.w, banner.top - gap - big.top)
    under = portrait(surface.get_size()) and bool(screen.qr)
    # the code under the lines, a caption under it: as wide as a phone reads from a metre
    side = min(body.w * 45 // 100, body.h * 38 // 100) if under else 0
    beside = side + side // 8 + gap if under else 0
    # in line heights: a header of 0.5, the seven lines, the ending, the instruction's 1.5
    # (a problem in the hub's words may take three lines of the lines' size)
    unit = (body.h - beside) / (0.5 + len(sheet.lines) + (0.15 if under else 1.15) + 1.5)
    line = max(painter.MIN_SIZE, painter.fit_size("Ag", 10 ** 4, round(unit)))
    font = painter.font(line)
    pad = round(unit * 0.2)
    width = body.w - 2 * round(unit * 0.75)
    wrapped = min(3, len(wrap_lines(font, sheet.instruction, width) or [""]))
    band = pygame.Rect(body.left, 0, body.w, max(round(unit * 1.5),
                                         wrapped * font.get_linesize() + 2 * pad))
    band.bottom = body.bottom
    table = pygame.Rect(body.left, body.top, body.w, band.top - gap - body.top)
    right = table.right
    if under:  # the code at the right of the ending, the lines across the whole width
        code = pygame.Rect(body.right - side, band.top - beside, side, beside - gap)
        table.h = code.top - gap - table.top
        size = _sheet_lines(surface, drawn, table, sheet, painter, ending=False,
                            words=screen.words)
        _qr_code(surface, drawn, code, screen.qr, painter, side, _caption(screen))
        ending = pygame.Rect(body.left, code.top, code.left - body.w // 40 - body.left,
                             code.h)
        paragraph(surface, drawn, painter, "ending", sheet.ending, ending, WHITE, size)
    elif screen.qr:  # corrections are made on the phone: its code stays beside the lines
        right = _qr_code(surface, drawn, table, screen.qr, painter, body.w * 3 // 10,
                         _caption(screen)).left
        right -= body.w // 40
    if not under:
        _sheet_lines(surface, drawn, pygame.Rect(table.left, table.top, right - table.left,
                                                  table.h), sheet, painter,
                     words=screen.words)
    fill, ink = SHEET_TONES[sheet.tone]
    pygame.draw.rect(surface, fill, band, border_radius=max(2, round(unit * 0.25)))
    inner = pygame.Rect(band.left + (band.w - width) // 2, band.top + pad, width,
                        band.h - 2 * pad)
    if wrapped == 1:
        painter.text(surface, drawn, "instruction", sheet.instruction, inner, ink,
                     max_size=line)
    else:  # a problem to correct, in the hub's words: wrapped, smaller only if it must
        paragraph(surface, drawn, painter, "instruction", sheet.instruction, inner, ink, line)


#: How far the sheet's lines may shrink to show every player's name whole.
NAMES_GIVE = 0.7
#: The most of the sheet's width its powers' column takes, in per cent.
POWER_COLUMN = 27


def _sheet_lines(surface: pygame.Surface, drawn: list[Drawn], area: pygame.Rect,
                 sheet: SheetView, painter: Painter, ending: bool = True,
                 words: Words = ENGLISH) -> int:
    """The lines of ``sheet`` in ``area``: one size for every line, as large as the rows
    allow while the columns leave a player's name room (a little smaller, to
    ``NAMES_GIVE`` but never below a penalty's readable size, to show every name whole); a
    longer name ends in "...". The ending
    under them, unless it is drawn elsewhere (``ending=False``). Returns the size."""
    unit = area.h / (0.5 + len(sheet.lines) + (1.15 if ending else 0))
    row_h = int(unit)
    head_h = int(unit * 0.5)
    pad = max(2, row_h // 6)
    size = painter.fit_size("Ag", 10 ** 4, row_h - 2)
    whole = max(painter.MIN_SIZE, round(size * NAMES_GIVE),
                painter.size_for_ink(penalty_ink(surface.get_size())))
    while True:
        font = painter.font(size)
        small = painter.font(max(painter.MIN_SIZE, size * 6 // 10))
        # a long name in the event's language ("Österreich-Ungarn") gives way (its short
        # form, then smaller) rather than take a player's name's room
        name_w = min(max(font.size(ln.power)[0] for ln in sheet.lines) + 4 * pad,
                     area.w * POWER_COLUMN // 100)
        centres_w = max(font.size("34")[0], small.size(words("Centres"))[0])
        score_w = max(font.size("100.00")[0], small.size(words("Score"))[0])
        mark_w = row_h
        player_w = area.w - name_w - centres_w - score_w - mark_w - 5 * pad
        names = [font.size(t)[0] for t in ("Player name", *(ln.player for ln in sheet.lines))]
        if player_w >= (max(names) if size > whole else names[0]) or size <= painter.MIN_SIZE:
            break
        size -= 1
    columns = _columns(area.left, (name_w, player_w, centres_w, score_w, mark_w), pad)
    head = pygame.Rect(area.left, area.top, area.w, head_h)
    for title, (x, w) in ((words("Centres"), columns[2]), (words("Score"), columns[3])):
        painter.text(surface, drawn, "sheet_head", title, pygame.Rect(x, head.top, w, head.h),
                     DIM, "right", max_size=max(painter.MIN_SIZE, size * 6 // 10))
    for i, ln in enumerate(sheet.lines):
        row = pygame.Rect(area.left, head.bottom + i * row_h, area.w, row_h)
        if i % 2:
            surface.fill(SHEET_STRIPE, row)
        cells = [pygame.Rect(x, row.top + 1, w, row_h - 2) for x, w in columns]
        tile_bg, tile_fg = POWER_COLOURS[ln.letter]
        pygame.draw.rect(surface, tile_bg, cells[0], border_radius=max(2, row_h // 8))
        painter.text(surface, drawn, f"line-{ln.letter}-power",
                     fitted_name(font, ln.power, cells[0].w - 2 * pad),
                     cells[0].inflate(-2 * pad, 0), tile_fg, max_size=size)
        player = _shortened(font, ln.player, cells[1].w)
        painter.text(surface, drawn, f"line-{ln.letter}-player", player, cells[1], WHITE,
                     "left", max_size=size)
        painter.text(surface, drawn, f"line-{ln.letter}-centres", ln.centres, cells[2], WHITE,
                     "right", max_size=size)
        if ln.late:  # its press now is its last orders: the count, not the score and mark
            late = pygame.Rect(cells[3].left, cells[3].top, cells[4].right - cells[3].left,
                               cells[3].h)
            painter.text(surface, drawn, f"line-{ln.letter}-late", ln.late, late, LATE_TEXT,
                         "right", max_size=size)
            continue
        painter.text(surface, drawn, f"line-{ln.letter}-score", ln.score, cells[3], WHITE,
                     "right", max_size=size)
        _mark(surface, drawn, f"line-{ln.letter}-mark", ln.state, cells[4])
    if ending:
        last = pygame.Rect(area.left, area.bottom - row_h, area.w, row_h)  # 0.15 line below
        painter.text(surface, drawn, "ending", sheet.ending, last, WHITE, "left",
                     max_size=size)
    return size


def _columns(left: int, widths: tuple[int, ...], pad: int) -> list[tuple[int, int]]:
    """(x, width) of each column from ``left``, ``pad`` apart."""
    out = []
    for w in widths:
        out.append((left, w))
        left += w + pad
    return out


def _mark(surface: pygame.Surface, drawn: list[Drawn], role: str, state: LineState,
          cell: pygame.Rect) -> None:
    """A line's state, drawn (the bundled font has no check mark): an empty ring to
    confirm, a grey tick in a ring sent, a dark tick on green confirmed."""
    r = max(4, min(cell.w, cell.h) * 2 // 5)
    box = pygame.Rect(0, 0, 2 * r, 2 * r)
    box.center = cell.center
    width = max(2, r // 5)
    tick = [(box.left + r * 0.5, box.top + r * 1.05), (box.left + r * 0.85, box.top + r * 1.4),
            (box.left + r * 1.5, box.top + r * 0.65)]
    if state == "confirmed":
        pygame.draw.circle(surface, CONFIRMED, box.center, r)
        pygame.draw.lines(surface, DARK_TEXT, False, tick, width + 1)
    elif state == "pending":
        pygame.draw.circle(surface, DIM, box.center, r, width)
        pygame.draw.lines(surface, DIM, False, tick, width)
    else:
        pygame.draw.circle(surface, OPEN_RING, box.center, r, max(1, width // 2))
    drawn.append(Drawn(role, state, box))


def screen_scale(size: tuple[int, int]) -> float:
    """How much larger than 800x480 a screen is, on its side or not: 480x800 is the same
    panel turned, and a text read from two metres on one must be as tall on the other."""
    long, short = max(size), min(size)
    return min(long / REFERENCE_SCREEN[0], short / REFERENCE_SCREEN[1])


def penalty_ink(size: tuple[int, int]) -> int:
    """The penalty line's minimum capital height on a screen of ``size``."""
    return max(1, round(PENALTY_INK_800x480 * screen_scale(size)))


def _alerts(
    surface: pygame.Surface,
    drawn: list[Drawn],
    area: pygame.Rect,
    alerts: tuple[str, ...],
    painter: Painter,
    columns: int = 2,
) -> None:
    """Each alert a dot and a short line, ``columns`` to a row, all at one size: noticed by
    the TD, never louder than the clock."""
    rows = alert_rows(alerts, columns)
    gap = max(3, area.h // (4 * rows))
    row_h = (area.h - gap * (rows - 1)) // rows
    cols = min(columns, len(alerts))
    cell_w = (area.w - gap * 2 * (cols - 1)) // cols
    dot = max(2, row_h // 6)
    text_w = cell_w - 3 * dot
    size = min(painter.fit_size(a, text_w, row_h) for a in alerts)
    for i, alert in enumerate(alerts):
        r, c = divmod(i, cols)
        cell = pygame.Rect(area.left + c * (cell_w + 2 * gap), area.top + r * (row_h + gap),
                           cell_w, row_h)
        pygame.draw.circle(surface, ALERT, (cell.left + dot, cell.centery), dot)
        box = pygame.Rect(cell.left + 3 * dot, cell.top, text_w, row_h)
        painter.text(surface, drawn, "alert", alert, box, ALERT, "left", max_size=size)


def _problem(
    surface: pygame.Surface,
    drawn: list[Drawn],
    boxes: dict[str, pygame.Rect],
    screen: Screen,
    painter: Painter,
) -> None:
    """A start-up problem: the band calls the TD; below it what is wrong, then the fix."""
    look = LOOKS["problem"]
    _heading(surface, drawn, painter, screen, boxes["heading"])
    band = boxes["label"]
    pygame.draw.rect(surface, look.band, band, border_radius=max(2, band.h // 6))
    _label(surface, drawn, painter, band, screen.label, look.band_text)
    body = pygame.Rect(band.left, band.bottom + band.h // 2, band.w,
                       boxes["strip"].bottom - band.bottom - band.h // 2)
    what, fix = (*screen.notes, "", "")[:2]
    line = max(painter.MIN_SIZE, band.h * 8 // 10)
    upper = pygame.Rect(body.left, body.top, body.w, body.h * 60 // 100)
    end = paragraph(surface, drawn, painter, "problem", what, upper, WHITE, line)
    lower = pygame.Rect(body.left, end + band.h // 2, body.w, body.bottom - end - band.h // 2)
    paragraph(surface, drawn, painter, "fix", fix, lower, FIX, line)


def _notes_colour(screen: Screen) -> RGB:
    return (255, 150, 150) if screen.look == "late" else (200, 206, 216)


def _strip(
    surface: pygame.Surface,
    drawn: list[Drawn],
    strip: pygame.Rect,
    chips: tuple[Chip, ...],
    painter: Painter,
    min_ink: int = PENALTY_INK_800x480,
    marks: Mapping[str, Mark] | None = None,
    words: Words = ENGLISH,
) -> None:
    """Seven chips in table order: power tile on top, its state below; in one row, or in
    two (four, then three, centred) on a strip too narrow for one (a portrait screen). A
    penalty under the state is never smaller than ``min_ink`` capitals: it wraps onto two
    lines first (every chip then gives two lines to it, so the row stays one size), and
    ends in "..." only when two lines cannot hold it. ``marks``: while a vote is open, each
    power's part in it ("VOTED", "PRESS") on a pill where a penalty would be: a late
    power's penalty keeps its place (the panel names whose button the vote waits for).
    ``words``: the screen's language, for the marks and the reference sizes."""
    if not chips:
        return
    marks = marks or {}
    per_row = len(chips) if strip.w >= 3 * strip.h else (len(chips) + 1) // 2
    rows = (len(chips) + per_row - 1) // per_row
    gap = max(3, strip.h // (16 * rows))
    row_h = (strip.h - gap * (rows - 1)) // rows
    cw = (strip.w - gap * (per_row - 1)) // per_row
    radius = max(2, cw // 14)
    # the power name (tall enough for a penalty's size when alerts shorten the strip); the
    # rest is its state and penalty
    floor = painter.size_for_ink(min_ink)
    name_h = max(painter.font(floor).size("Ag")[1], painter.font(floor).get_linesize())
    tile_h = max(row_h * 30 // 100, min(row_h // 2, name_h * 5 // 4 + 2))
    pad = max(2, cw // 20)
    # One size per row across the strip, from reference texts, so no chip shouts louder.
    name_box = pygame.Rect(0, 0, cw, tile_h).inflate(-2 * pad, -tile_h // 5)
    # a long name in the event's language too wide at a penalty's size: its short form
    names = {c.letter: fitted_name(painter.font(floor), c.name, name_box.w) for c in chips}
    name_size = min(painter.fit_size(names[c.letter], name_box.w, name_box.h) for c in chips)
    # no smaller than a penalty (a short name in a wide chip), where the width allows it
    name_size = max(name_size, min([floor] + [painter.fit_size(names[c.letter], name_box.w,
                                                               10 ** 4) for c in chips]))
    body_box = pygame.Rect(0, 0, cw, row_h - tile_h)
    inner_box = body_box.inflate(-2 * pad, -body_box.h // 12)
    detail_size = max(painter.size_for_ink(min_ink),
                      painter.fit_size("2-unit NMR", inner_box.w, inner_box.h * 40 // 100))
    detail_font = painter.font(detail_size)
    details = {c.letter: penalty_lines(detail_font, short_label(c.detail), inner_box.w)
               for c in chips if c.detail}
    line_h = detail_font.get_linesize()
    lower_h = max((len(lines) for lines in details.values()), default=1) * line_h
    upper_h = max(0, inner_box.h - lower_h)
    note_size = painter.fit_size(words("IN +{seconds} s", seconds=888), inner_box.w, upper_h)
    for i, chip in enumerate(chips):
        r, c = divmod(i, per_row)
        in_row = min(per_row, len(chips) - r * per_row)
        left = strip.left + (strip.w - in_row * cw - (in_row - 1) * gap) // 2
        box = pygame.Rect(left + c * (cw + gap), strip.top + r * (row_h + gap), cw, row_h)
        tile = pygame.Rect(box.left, box.top, box.w, tile_h)
        body = pygame.Rect(box.left, box.top + tile_h, box.w, box.h - tile_h)
        tile_bg, tile_fg = OUT_TILE if chip.state == "out" else POWER_COLOURS[chip.letter]
        body_bg, body_fg = (UNSAVED_CHIP if chip.note == words(UNSAVED)
                            else CHIP_STATES[chip.state])
        pygame.draw.rect(surface, body_bg, box, border_radius=radius)
        pygame.draw.rect(surface, tile_bg, tile, border_top_left_radius=radius,
                         border_top_right_radius=radius)
        inner = tile.inflate(-2 * pad, -tile.h // 5)
        painter.text(surface, drawn, f"chip-{chip.letter}-name", names[chip.letter], inner,
                     tile_fg, max_size=name_size)
        inner = body.inflate(-2 * pad, -body.h // 12)
        if chip.detail:
            upper = pygame.Rect(inner.left, inner.top, inner.w, upper_h)
            painter.text(surface, drawn, f"chip-{chip.letter}-note", chip.note, upper, body_fg,
                         max_size=note_size)
            lines = details[chip.letter]
            top = upper.bottom + (inner.h - upper_h - len(lines) * line_h) // 2
            for k, line in enumerate(lines):
                row = pygame.Rect(inner.left, top + k * line_h, inner.w, line_h)
                painter.text(surface, drawn, f"chip-{chip.letter}-detail", line, row, body_fg,
                             max_size=detail_size)
        elif chip.letter in marks:  # the vote's mark where a penalty would be
            upper = pygame.Rect(inner.left, inner.top, inner.w, upper_h)
            painter.text(surface, drawn, f"chip-{chip.letter}-note", chip.note, upper, body_fg,
                         max_size=note_size)
            mark = marks[chip.letter]
            pill = pygame.Rect(inner.left, 0, inner.w, line_h)
            pill.centery = (upper.bottom + inner.bottom) // 2
            fill, ink = VOTE_MARKS[mark.state]
            pygame.draw.rect(surface, fill, pill, border_radius=max(2, line_h // 4))
            painter.text(surface, drawn, f"chip-{chip.letter}-vote", mark.said(words),
                         pill.inflate(-2 * pad, 0), ink, max_size=detail_size)
        else:
            painter.text(surface, drawn, f"chip-{chip.letter}-note", chip.note, inner, body_fg,
                         max_size=int(note_size * 1.25))

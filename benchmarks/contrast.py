"""``python -m benchmarks.contrast``: the table screen's colours as the frames show them.

Every stage of the table screen (the scenes of ``kiosk.screenshots``) is drawn by the live
screen's own code; the colours are read back from the frame's pixels where ``render`` says
it drew (its ``Drawn`` rectangles), not from the constants. Reported: each text against its
background, the chips' states against each other, the stage bands against each other, all
as WCAG 2 contrast ratios of relative luminance, and the same pairs as the three common
colour-vision deficiencies see them.

WCAG 2.2 (1.4.3, 1.4.11, "relative luminance", "contrast ratio"): text at least 4.5:1, large
text (18 pt, i.e. 24 CSS px, and up) at least 3:1; contrast ratio (L1 + 0.05) / (L2 + 0.05).

The deficiencies are simulated with colorspacious (Machado, Oliveira & Fernandes 2009 at
severity 100: protanopia, deuteranopia, tritanopia), and "alike" is measured as the
perceptual difference in CAM02-UCS (Luo, Cui & Li 2006) that colorspacious computes. Chosen
over daltonlens because one library does both the simulation and a uniform colour difference,
it is the one matplotlib's colour maps were designed and checked with, and installs from
PyPI with numpy alone.

Prints the figures as Markdown for ``docs/table-screen.md``.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
from colorspacious import cspace_convert, deltaE  # noqa: E402

from kiosk.draw import Drawn, Painter  # noqa: E402
from kiosk.screenshots import SCENES, Scene, draw  # noqa: E402

RGB = tuple[int, int, int]

#: WCAG 2.2 1.4.3: text, and large text
TEXT_MIN, LARGE_TEXT_MIN = 4.5, 3.0
#: WCAG's large text: 18 pt = 24 CSS px font size; a line of text set in it is some 1.2 times
#: as tall, so a drawn line this tall or taller (or big digits cropped to their ink, whose
#: capitals alone are this tall) is large text
LARGE_TEXT_PX = 29
#: states side by side told apart by luminance alone (WCAG 1.4.11's 3:1 for the parts of a
#: screen that carry meaning)
STATES_MIN = 3.0
#: Below this CAM02-UCS difference two flat colours are "alike": 1 is about the smallest
#: difference seen side by side in a lab; a chip's state is read at a glance from across a
#: table, beside six others, so it needs many times that. 20 is the spacing of palettes made
#: to be told apart at a glance (Glasbey et al. 2007 aim for the largest they can; the 6-8
#: colour categorical palettes of matplotlib/ColorBrewer sit at 20-40 between neighbours).
ALIKE_DELTA_E = 20.0

#: The three deficiencies most people who see colours differently have (colorspacious's
#: names; severity 100: the "-opia", the whole cone type missing)
DEFICIENCIES = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
                "tritanopia": "tritanomaly"}

#: The stages a player meets, by scene: before start, negotiating, last minutes, writing,
#: late, paused, held, adjudicating, game over, a vote
STAGE_SCENES = ("before-start", "negotiating", "last-minutes", "writing", "late-orders",
                "paused-while-late", "meal-break", "held", "board-adjudicating", "game-over",
                "vote-open", "vote-vetoed", "vote-passed", "game-over-sheet", "board-call",
                "hall-message")
#: The stage bands a player compares at a glance (look names): one follows the other on the
#: same screen
COMPARED_BANDS = ("negotiating", "warning", "late", "paused", "held")
#: The chip states that sit side by side in a row
ROW_STATES = ("waiting", "in", "late", "just_late", "out")
#: Pairs a player tells apart by colour at a glance, before reading a word: these must stay
#: apart by luminance (``STATES_MIN``) and, under every deficiency, by colour
#: (``ALIKE_DELTA_E``): "orders in" against "late" (issue 38's figures: 1.33:1 and 1.35:1)
AT_A_GLANCE = {("chip", "in", "late"), ("band", "negotiating", "late")}


def luminance(rgb: Sequence[float]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0-255 a channel). Written out: it is
    the standard's own three lines, and the test holds the screen to that standard."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG 2's contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def seen_as(rgb: RGB, deficiency: str) -> RGB:
    """``rgb`` as a person with ``deficiency`` (a key of ``DEFICIENCIES``) sees it."""
    space = {"name": "sRGB1+CVD", "cvd_type": DEFICIENCIES[deficiency], "severity": 100}
    out = np.clip(cspace_convert(np.array(rgb, dtype=float) / 255, space, "sRGB1"), 0, 1)
    return (int(round(out[0] * 255)), int(round(out[1] * 255)), int(round(out[2] * 255)))


def difference(a: RGB, b: RGB) -> float:
    """The perceptual difference of two colours (CAM02-UCS)."""
    return float(deltaE(a, b, input_space="sRGB255", uniform_space="CAM02-UCS"))


def _pixels(surface: pygame.Surface, rect: pygame.Rect) -> np.ndarray:
    """The rectangle's pixels as rows of (r, g, b)."""
    rect = rect.clip(surface.get_rect())
    return pygame.surfarray.array3d(surface)[rect.left:rect.right, rect.top:rect.bottom] \
        .reshape(-1, 3)


def dominant(pixels: np.ndarray, but: Iterable[RGB] = ()) -> RGB:
    """The commonest colour of ``pixels`` (a text's box: its background), ``but`` these."""
    skip = set(but)
    counts = Counter(map(tuple, pixels.tolist()))
    for colour, _ in counts.most_common():
        if colour not in skip:
            return (int(colour[0]), int(colour[1]), int(colour[2]))
    raise ValueError("no colour left")


def ink(pixels: np.ndarray, background: RGB) -> RGB:
    """A text's colour: of its pixels, the one furthest in contrast from its background
    (the edges of smoothed letters are blends of the two; their strokes are the ink)."""
    colours = {tuple(p) for p in pixels.tolist()}
    best = max(colours, key=lambda c: ratio(c, background))
    return (int(best[0]), int(best[1]), int(best[2]))


@dataclass(frozen=True)
class TextSeen:
    scene: str
    role: str
    text: str
    ink: RGB
    background: RGB
    large: bool

    @property
    def ratio(self) -> float:
        return ratio(self.ink, self.background)

    @property
    def least(self) -> float:
        """A drawn mark (a result sheet line's ring or tick) is a graphic: WCAG 1.4.11's
        3:1, as large text."""
        return LARGE_TEXT_MIN if self.large or self.role.endswith("-mark") else TEXT_MIN


@dataclass(frozen=True)
class Frame:
    """One scene drawn, with what was read back from its pixels."""

    scene: str
    look: str
    label: str
    texts: tuple[TextSeen, ...]
    band: RGB  # the stage label's band
    chips: dict[str, tuple[RGB, str]]  # state -> (body colour, its word: "IN", "" ...)


def scene(name: str) -> Scene:
    found = {s.name: s for s in SCENES}
    return found[name]


def read(name: str, size: tuple[int, int] = (800, 480), painter: Painter | None = None
         ) -> Frame:
    """Draw the scene ``name`` and read its colours back from the pixels."""
    surface, drawn, screen = draw(scene(name), size, painter)
    texts = []
    for d in drawn:
        px = _pixels(surface, d.rect)
        if not len(px):
            continue
        bg = dominant(px)
        texts.append(TextSeen(name, d.role, d.text, ink(px, bg), bg,
                              d.rect.h >= LARGE_TEXT_PX or d.role == "big"))
    label = [d for d in drawn if d.role == "label"]
    band = dominant(_pixels(surface, label[0].rect)) if label else (0, 0, 0)
    chips: dict[str, tuple[RGB, str]] = {}
    names = {d.role: d.rect for d in drawn}
    for chip in screen.chips:
        name_rect = names.get(f"chip-{chip.letter}-name")
        if name_rect is None:  # a screen without the chips: the result sheet, the board call
            continue
        chips.setdefault(chip.state, (_chip_body(surface, name_rect, drawn, chip.letter),
                                      " ".join(d.text for d in drawn
                                               if d.role == f"chip-{chip.letter}-note")))
    return Frame(name, screen.look, screen.label, tuple(texts), band, chips)


def _chip_body(surface: pygame.Surface, name_rect: pygame.Rect, drawn: list[Drawn],
               letter: str) -> RGB:
    """A chip's body colour: its note's background, or (a waiting chip, no note) the
    commonest colour under its power's tile, neither the tile's nor the screen's."""
    note = [d for d in drawn if d.role == f"chip-{letter}-note"]
    if note:
        return dominant(_pixels(surface, note[0].rect))
    tile = dominant(_pixels(surface, name_rect))
    r, g, b, _ = surface.get_at((0, surface.get_height() // 2))
    screen_bg = (r, g, b)
    below = pygame.Rect(name_rect.centerx, name_rect.bottom,
                        1, surface.get_height() - name_rect.bottom)
    return dominant(_pixels(surface, below), but=(tile, screen_bg))


def frames(size: tuple[int, int] = (800, 480)) -> list[Frame]:
    painter = Painter()
    return [read(n, size, painter) for n in STAGE_SCENES]


@dataclass(frozen=True)
class Pair:
    """Two states' colours as a person sees them (``seen``: "normal" or a deficiency)."""

    kind: str  # "chip" or "band"
    a: str
    b: str
    seen: str
    ratio: float
    delta_e: float
    words: tuple[str, str]

    @property
    def at_a_glance(self) -> bool:
        return (self.kind, self.a, self.b) in AT_A_GLANCE or \
            (self.kind, self.b, self.a) in AT_A_GLANCE

    @property
    def told_by_word(self) -> bool:
        return self.words[0] != self.words[1]

    @property
    def alike(self) -> bool:
        """Neither luminance nor colour tells them apart."""
        return self.ratio < STATES_MIN and self.delta_e < ALIKE_DELTA_E


def pairs(seen: list[Frame]) -> list[Pair]:
    """Every pair of chip states in a row and of compared stage bands, as each person sees
    them; the word on each (the chip's note, the band's label)."""
    chips: dict[str, tuple[RGB, str]] = {}
    bands: dict[str, tuple[RGB, str]] = {}
    for f in seen:
        for state, got in f.chips.items():
            chips.setdefault(state, got)
        if f.look in COMPARED_BANDS:
            bands.setdefault(f.look, (f.band, f.label))
    out = []
    for kind, found, order in (("chip", chips, ROW_STATES), ("band", bands, COMPARED_BANDS)):
        for a, b in itertools.combinations([s for s in order if s in found], 2):
            (ca, wa), (cb, wb) = found[a], found[b]
            for how in ("normal", *DEFICIENCIES):
                sa, sb = (ca, cb) if how == "normal" else (seen_as(ca, how), seen_as(cb, how))
                out.append(Pair(kind, a, b, how, ratio(sa, sb), difference(sa, sb), (wa, wb)))
    return out


def main() -> int:
    seen = frames()
    print("| scene | text | ink on background | contrast | least |")
    print("| --- | --- | --- | ---: | ---: |")
    for f in seen:
        for t in f.texts:
            if t.role in ("label", "big") or t.role.startswith("chip-") and \
                    t.role.endswith("-note"):
                print(f"| {f.scene} | {t.role} \"{t.text}\" | {t.ink} on {t.background} "
                      f"| {t.ratio:.1f}:1 | {t.least}:1 |")
    print()
    print("| states | seen as | luminance | CAM02-UCS difference | words |")
    print("| --- | --- | ---: | ---: | --- |")
    for p in pairs(seen):
        if p.at_a_glance or p.seen == "normal":
            print(f"| {p.kind} {p.a} / {p.b} | {p.seen} | {p.ratio:.2f}:1 | {p.delta_e:.0f} "
                  f"| \"{p.words[0]}\" / \"{p.words[1]}\" |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

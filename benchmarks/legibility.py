"""``python -m benchmarks.legibility``: from how far the table's countdown and its table
number read, screen by screen. Figures, not a test.

Each screen's negotiating frame is drawn by the live screen's own code (the ``negotiating``
scene of ``kiosk.screenshots``) at the screen's resolution; the height of the ink of the
countdown's digits and of the table's name ("Table 3") is measured in the frame's pixels,
then in millimetres by the screen's pixel pitch. The distance each reads from is the sign
rule most venues use, ADA 703.5.5: characters 16 mm high up to 1.83 m (72 in), plus 3.2 mm
(1/8 in) for each 305 mm (12 in) beyond; smaller than 16 mm is under the rule's minimum,
for reading from closer than 1.83 m.

Prints one line per screen and a Markdown table for ``docs/table-screen.md``.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

#: ADA 703.5.5: the smallest character height and the distance it serves (mm), and the
#: height added per step of distance beyond it
SIGN_MIN_MM, SIGN_MIN_M = 16.0, 1.83
SIGN_STEP_MM, SIGN_STEP_M = 3.2, 0.305
#: ink this far (summed RGB) from the background around the text is text
INK = 120


@dataclass(frozen=True)
class Display:
    """A screen a table may have: its name, resolution and the height of one pixel (mm)."""

    name: str
    size: tuple[int, int]
    pitch_mm: float

    @classmethod
    def by_diagonal(cls, name: str, size: tuple[int, int], inches: float) -> Display:
        """Square pixels on a panel of ``inches`` diagonal."""
        return cls(name, size, inches * 25.4 / math.hypot(*size))


DISPLAYS = (
    # the Raspberry Pi Touch Display: 800x480 on an active area of 154.08 x 85.92 mm
    Display("Raspberry Pi Touch Display 7\"", (800, 480), 85.92 / 480),
    Display.by_diagonal("10.1\" HDMI panel", (1280, 800), 10.1),
    Display.by_diagonal("15.6\" portable monitor", (1920, 1080), 15.6),
    Display.by_diagonal("21.5\" monitor", (1920, 1080), 21.5),
    Display.by_diagonal("24\" monitor", (1920, 1080), 24.0),
    Display.by_diagonal("32\" TV", (1920, 1080), 32.0),
    Display.by_diagonal("43\" 4K TV", (3840, 2160), 43.0),
)


def reads_from(height_mm: float) -> float | None:
    """The distance (m) characters ``height_mm`` high serve by ADA 703.5.5; None under its
    16 mm minimum."""
    if height_mm < SIGN_MIN_MM:
        return None
    return SIGN_MIN_M + (height_mm - SIGN_MIN_MM) / SIGN_STEP_MM * SIGN_STEP_M


def ink_height(surface: object, rect: object) -> int:
    """The rows of ``rect`` that hold ink: pixels far from the background just left of it."""
    import pygame

    assert isinstance(surface, pygame.Surface) and isinstance(rect, pygame.Rect)
    probe = (max(0, rect.left - 2), rect.top)
    bg = surface.get_at(probe)
    rows = [y for y in range(rect.top, rect.bottom)
            if any(abs(c.r - bg.r) + abs(c.g - bg.g) + abs(c.b - bg.b) > INK
                   for c in (surface.get_at((x, y)) for x in range(rect.left, rect.right)))]
    return rows[-1] - rows[0] + 1 if rows else 0


def measure(display: Display) -> dict[str, object]:
    """The countdown's and the table name's ink heights on ``display``, and their distances."""
    from kiosk.screenshots import SCENES, draw

    scene = next(s for s in SCENES if s.name == "negotiating")
    surface, drawn, _ = draw(scene, display.size)
    out: dict[str, object] = {"screen": display.name, "size": "x".join(map(str, display.size)),
                              "pitch_mm": round(display.pitch_mm, 4)}
    for role, key in (("big", "countdown"), ("table", "table")):
        text = next(d for d in drawn if d.role == role)
        px = ink_height(surface, text.rect)
        mm = px * display.pitch_mm
        far = reads_from(mm)
        out[key] = {"text": text.text, "px": px, "mm": round(mm, 1),
                    "reads_from_m": round(far, 1) if far is not None else None}
    return out


def row(m: dict[str, object]) -> str:
    def said(part: object) -> str:
        assert isinstance(part, dict)
        far = part["reads_from_m"]
        return f"{part['mm']} mm | " + (f"{far} m" if far is not None else "under 1.8 m")

    return f"| {m['screen']} | {m['size']} | {said(m['countdown'])} | {said(m['table'])} |"


def main() -> int:
    figures = [measure(d) for d in DISPLAYS]
    for m in figures:
        print(json.dumps(m))
    print("\n| screen | pixels | countdown | reads from | table number | reads from |")
    print("|---|---|---|---|---|---|")
    for m in figures:
        print(row(m))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

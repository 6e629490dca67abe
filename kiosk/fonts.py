"""Players' names in any script: the default font first, then Noto where it lacks a letter.

pygame's own font (FreeSans Bold) has Latin, Greek, Cyrillic and some Arabic, but no Thai
and no Chinese, Japanese or Korean: a name such as "สมชาย" or "王伟" drew as boxes. Noto
("no tofu") is the well-kept family made to cover every script, and Debian packages it:
``fonts-noto-core`` (Noto Sans and its Thai, Arabic, Hebrew, ... faces, 42 MB installed)
and ``fonts-noto-cjk`` (Noto Sans CJK, one collection for Chinese, Japanese and Korean,
91 MB with its serif faces, which the card leaves out). Both are on the card
(``card/build.py``) and installed for the tests (``scripts/ensure-test-tools.sh``).

A text is drawn with the default font when that has every letter, else with the first
fallback font that has them all (a whole Chinese name in one face), else in runs, each
letter with the first font that has it ("Italy (สมชาย)": Latin in the default font, Thai in
Noto Sans Thai). Coverage is read from each font's character map through
``pygame.freetype`` (part of pygame-ce): its ``get_metrics`` gives None for a letter the
font lacks, where ``pygame.font.Font.metrics`` (SDL_ttf 2.24) answers with the box's.
Thai and Arabic are shaped by HarfBuzz (pygame-ce's SDL_ttf is built with it:
``Font.set_script`` succeeds), Arabic and Hebrew set right to left.

A letter no font has is drawn as the box it is, and ``FontSet.missing`` says so, so the
screen can say it too (``kiosk.draw.render``); the kiosk logs each such letter once.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
import unicodedata
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path

import pygame
import pygame.freetype

from dipclock.i18n import N_

log = logging.getLogger(__name__)

#: The fallback faces, in the order tried: (fontconfig family, file in Debian's font folders,
#: ISO 15924 script HarfBuzz shapes it with or "", right to left). Bold, like pygame's own.
FALLBACKS: tuple[tuple[str, str, str, bool], ...] = (
    ("Noto Sans", "truetype/noto/NotoSans-Bold.ttf", "", False),
    ("Noto Sans Thai", "truetype/noto/NotoSansThai-Bold.ttf", "Thai", False),
    ("Noto Sans Arabic", "truetype/noto/NotoSansArabic-Bold.ttf", "Arab", True),
    ("Noto Sans Hebrew", "truetype/noto/NotoSansHebrew-Bold.ttf", "Hebr", True),
    ("Noto Sans Devanagari", "truetype/noto/NotoSansDevanagari-Bold.ttf", "Deva", False),
    ("Noto Sans CJK JP", "opentype/noto/NotoSansCJK-Bold.ttc", "", False),
)
#: Where Debian (and Raspberry Pi OS) put the packages' fonts.
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

#: Said on the screen (an alert) when a text has a letter no font has.
MISSING_NOTE = N_("Some letters of a name cannot be shown: ask the TD to add its font")


def find_font(family: str, debian_path: str) -> str | None:
    """The file of ``family``: at Debian's standard path, else wherever fontconfig has it
    (``fc-list``, when installed), else None."""
    for folder in FONT_DIRS:
        if (folder / debian_path).is_file():
            return str(folder / debian_path)
    if shutil.which("fc-list") is None:
        return None
    try:
        out = subprocess.run(["fc-list", "-f", "%{file}\n", f"{family}:style=Bold"],
                             capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    files = [line for line in out.splitlines() if line.strip()]
    return files[0] if files else None


@dataclass(frozen=True)
class Face:
    """A fallback font's file and how its text is set."""

    path: str
    script: str = ""
    rtl: bool = False


def default_path() -> str:
    """pygame's own font, the file ``Font(None, size)`` opens."""
    return str(Path(pygame.__file__).parent / pygame.font.get_default_font())


class FontSet:
    """The fonts found on this machine and which of them has each letter (kept: a letter's
    answer never changes)."""

    def __init__(self, faces: list[Face] | None = None) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        if faces is None:
            faces = [Face(p, script, rtl) for family, path, script, rtl in FALLBACKS
                     if (p := find_font(family, path)) is not None]
        self.faces = faces
        # index 0: the default font; then each face
        self._paths = [default_path(), *(f.path for f in faces)]
        self._maps: list[pygame.freetype.Font] = []
        self._has: dict[tuple[int, str], bool] = {}
        self._runs: dict[str, tuple[tuple[int, str], ...]] = {}
        self.missing: set[str] = set()  # every letter seen that no font has
        self._logged: set[str] = set()
        self._lacking: dict[str, str] = {}

    def _map(self, font: int) -> pygame.freetype.Font:
        """The face's coverage map, opened again after ``pygame.quit()`` (which quits
        freetype and leaves its fonts unusable: a kiosk that restarts its display)."""
        if not pygame.freetype.get_init():
            pygame.freetype.init()
            self._maps = []
        if not self._maps:
            self._maps = [pygame.freetype.Font(path, 12) for path in self._paths]
        return self._maps[font]

    def has(self, font: int, char: str) -> bool:
        key = (font, char)
        found = self._has.get(key)
        if found is None:
            found = self._has[key] = self._map(font).get_metrics(char)[0] is not None
        return found

    def lacking(self, text: str) -> str:
        """The letters of ``text`` no font has, in order, each once (logged the first time)."""
        found = self._lacking.get(text)
        if found is not None:
            return found
        out = "".join(dict.fromkeys(c for c in text if _drawn(c) and not any(
            self.has(i, c) for i in range(len(self._paths)))))
        new = [c for c in out if c not in self._logged]
        if new:
            self._logged.update(new)
            log.warning("no font has %s: install a font with them (Debian: fonts-noto-core, "
                        "fonts-noto-cjk)", ", ".join(f"{c!r} (U+{ord(c):04X})" for c in new))
        self.missing.update(out)
        if len(self._lacking) > 4096:
            self._lacking.clear()
        self._lacking[text] = out
        return out

    def runs(self, text: str) -> tuple[tuple[int, str], ...]:
        """``text`` as (font, piece) runs: 0 is the default font, i the face ``i - 1``. The
        first font with every letter takes it whole; else each letter goes to the run's
        font when it has it (a space stays with its name), else to the first that has it."""
        found = self._runs.get(text)
        if found is not None:
            return found
        fonts = range(len(self._paths))
        whole = next((i for i in fonts if all(self.has(i, c) for c in text)), None)
        if whole is not None:
            runs: list[tuple[int, str]] = [(whole, text)]
        else:
            self.lacking(text)
            runs = []
            for c in text:
                current = runs[-1][0] if runs else 0
                i = current if self.has(current, c) else next(
                    (i for i in fonts if self.has(i, c)), current)
                if runs and runs[-1][0] == i:
                    runs[-1] = (i, runs[-1][1] + c)
                else:
                    runs.append((i, c))
        if len(self._runs) > 4096:
            self._runs.clear()
        found = self._runs[text] = tuple(runs)
        return found


def _drawn(c: str) -> bool:
    """Whether ``c`` is drawn as a letter: not a space, a control or an invisible format
    character (a joiner), which need no glyph; a private-use one does."""
    return not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf")


_SHARED: FontSet | None = None


def font_set() -> FontSet:
    """The machine's fonts, found once per process (a Painter is made per screen size)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = FontSet()
    return _SHARED


@functools.cache
def _em_scale() -> float:
    """pygame draws its own font smaller than its size asks (``Font(None, size)`` opens it
    at about 0.69 x size): a fallback is opened at the same em, so letters match."""
    own = pygame.font.Font(None, 100).get_height()
    return own / max(1, pygame.font.Font(default_path(), 100).get_height())


#: Fallback faces kept open at once, across every size: each open font holds a file open
#: (SDL_ttf reads its glyphs from the file), and a screen fitted at many sizes must not run
#: the process out of file descriptors; one dropped is closed and opened again when needed.
FALLBACKS_OPEN = 32
_OPEN: OrderedDict[tuple[str, int], pygame.font.Font] = OrderedDict()


def _fallback(face: Face, points: int) -> pygame.font.Font:
    """``face`` at ``points``, shaped for its script, from the few kept open."""
    key = (face.path, points)
    f = _OPEN.get(key)
    if f is not None:
        _OPEN.move_to_end(key)
        return f
    f = pygame.font.Font(face.path, points)
    if face.script:
        f.set_script(face.script)
    if face.rtl:
        f.set_direction(pygame.DIRECTION_RTL)
    _OPEN[key] = f
    while len(_OPEN) > FALLBACKS_OPEN:
        _OPEN.popitem(last=False)
    return f


def forget_open() -> None:
    """Drop the fallback faces kept open: a new ``Painter`` (after ``pygame.quit()`` and a
    new display, whose quit left them unusable) opens its own."""
    _OPEN.clear()


class ScriptFont(pygame.font.Font):
    """pygame's default font at ``size``, whose ``size`` and ``render`` fall back to the
    ``FontSet``'s faces for letters it lacks: the layout's measuring and drawing code stay
    as they are."""

    def __init__(self, size: int, fonts: FontSet | None = None) -> None:
        super().__init__(None, size)
        self.fonts = fonts or font_set()
        self._points = max(1, round(size * _em_scale()))

    def _font(self, i: int) -> pygame.font.Font:
        if i == 0:
            return self
        return _fallback(self.fonts.faces[i - 1], self._points)

    def size(self, text: str | bytes) -> tuple[int, int]:
        if isinstance(text, bytes) or not text:
            return super().size(text)
        runs = self.fonts.runs(text)
        if runs[0][0] == 0 and len(runs) == 1:
            return super().size(text)
        base = max(self._font(i).get_ascent() for i, _ in runs)
        sizes = [self._font(i).size(piece) for i, piece in runs]
        return (sum(w for w, _ in sizes),
                max(base - self._font(i).get_ascent() + h
                    for (i, _), (_, h) in zip(runs, sizes, strict=True)))

    def render(self, text: str | bytes | None, antialias: bool,
               color: pygame.typing.ColorLike,
               bgcolor: pygame.typing.ColorLike | None = None,
               wraplength: int = 0) -> pygame.Surface:
        if not isinstance(text, str) or not text:
            return super().render(text, antialias, color, bgcolor, wraplength)
        runs = self.fonts.runs(text)
        if len(runs) == 1:
            font = self._font(runs[0][0])
            if font is self:
                return super().render(text, antialias, color, bgcolor, wraplength)
            return font.render(text, antialias, color, bgcolor, wraplength)
        # several fonts on one baseline
        base = max(self._font(i).get_ascent() for i, _ in runs)
        pieces = [(self._font(i), self._font(i).render(p, antialias, color, bgcolor))
                  for i, p in runs]
        w = sum(s.get_width() for _, s in pieces)
        h = max(base - f.get_ascent() + s.get_height() for f, s in pieces)
        out = pygame.Surface((w, h), pygame.SRCALPHA)
        if bgcolor is not None:
            out.fill(bgcolor)
        x = 0
        for f, s in pieces:
            out.blit(s, (x, base - f.get_ascent()))
            x += s.get_width()
        return out


def have_all(text: str, fonts: FontSet | None = None) -> bool:
    """Whether some font here has every letter of ``text`` (the tests' check)."""
    return not (fonts or font_set()).lacking(text)




def strings(value: object) -> Iterator[str]:
    """Every text in a screen (its fields, their tuples and dataclasses): what it will draw."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list):
        for v in value:
            yield from strings(v)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from strings(getattr(value, f.name))

"""A power replaced mid-game on the table's screen (issue 36): the hub's snapshot names, from
the replacement's phase, who plays each power now (``dipclock.replacements.players_at``),
and the kiosk draws that name where it draws a player: at game over, on the sheet's lines
for each to confirm with their button."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pygame

from dipclock.replacements import CIVIL_DISORDER, Replacement, players_at
from dipclock.schedule import PhaseRef
from kiosk.draw import Painter
from kiosk.screenshots import SCENES, SEATED, draw


def test_the_sheet_on_the_screen_names_who_plays_it_now(tmp_path: Path) -> None:
    records = [Replacement(5, 3, "T", PhaseRef.parse("F1903"), "Zoe Late"),
               Replacement(5, 3, "R", PhaseRef.parse("S1907"), None)]
    scene = next(s for s in SCENES if s.name == "game-over-sheet")
    # the game is over: its last phase, Fall 1909, has begun
    now = players_at(dict(SEATED), records, PhaseRef.parse("F1909"))
    assert now["T"] == "Zoe Late" and now["R"] == CIVIL_DISORDER
    surface, drawn, _ = draw(replace(scene, players=tuple(now.items())), (800, 480),
                             Painter())
    texts = " ".join(d.text for d in drawn)
    assert "Zoe Late" in texts and "Gül Yilmaz" not in texts
    assert "Fyodor Petrov" not in texts
    png = Path(os.environ.get("DIPCLOCK_SCREENSHOTS") or tmp_path) / "kiosk-replaced.png"
    pygame.image.save(surface, str(png))
    assert png.stat().st_size > 0

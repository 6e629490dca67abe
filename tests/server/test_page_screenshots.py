"""``make screenshots`` keeps working: one stage of scripts/page_screenshots.py, for real."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pygame
import pytest

pytestmark = [pytest.mark.browser]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "page_screenshots.py"


def test_the_lunch_stage_is_drawn_on_a_phone_a_desktop_and_the_hall(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("page_screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written = script.shoot(tmp_path, only=("lunch",))
    names = sorted(p.name for p in written)
    assert names == ["dashboard-lunch-desktop.png", "dashboard-lunch-phone-de.png",
                     "dashboard-lunch-phone-fr.png", "dashboard-lunch-phone.png",
                     "dashboard-phone.png", "hall-lunch.png"]
    assert pygame.image.load(tmp_path / "hall-lunch.png").get_size() == (1280, 720)
    phone = pygame.image.load(tmp_path / "dashboard-lunch-phone.png").get_size()
    assert phone == (780, 1688)  # 390x844 at twice the pixels, as a phone draws it
    for lang in ("fr", "de"):  # a French and a German TD's phone, as large
        assert pygame.image.load(tmp_path / f"dashboard-lunch-phone-{lang}.png").get_size() \
            == phone

"""What a phone's camera reads off a drawn screen: its QR code, through zbar."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pygame


def zbar(surface: pygame.Surface, png: Path) -> str:
    """The QR code on ``surface`` (saved to ``png``), as zbarimg reads it."""
    pygame.image.save(surface, str(png))
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg is needed: sh scripts/ensure-test-tools.sh"
    read = subprocess.run([zbarimg, "--quiet", "--raw", str(png)], capture_output=True,
                          text=True, timeout=60)
    return read.stdout.strip()

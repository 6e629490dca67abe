"""Sound cues: generated tones, played once at each moment, never fatal."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from kiosk.sound import TUNES, Sounds, tone_bytes

from .conftest import Table

ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, cue: str) -> None:
        self.played.append(cue)


def test_cues_at_warning_writing_and_deadline(table: Table) -> None:
    rec = Recorder()
    table.kiosk.sounds = rec  # type: ignore[assignment]
    table.at(datetime(2019, 9, 6, 10, 15, 58))
    for _ in range(140):  # 10:15:58 .. 10:18:18, one frame a second
        table.kiosk.frame(table.mono)
        table.mono += 1
    assert rec.played == ["warning", "writing", "deadline"]


def test_no_cue_for_a_jump(table: Table) -> None:
    rec = Recorder()
    table.kiosk.sounds = rec  # type: ignore[assignment]
    table.screen(datetime(2019, 9, 6, 10, 5))
    table.screen(datetime(2019, 9, 6, 10, 17, 30))  # a restart or resync, not the clock
    assert rec.played == []


def test_tones_are_pcm_and_each_cue_is_loaded_at_its_length() -> None:
    data = tone_bytes(TUNES["writing"], 8000)
    assert len(data) == 2 * int(8000 * 0.6)
    lines: list[str] = []
    sounds = Sounds(True, log=lines.append)  # SDL's dummy audio driver (conftest)
    assert sounds.enabled and lines == []
    for cue, notes in TUNES.items():
        loaded = sounds._sounds[cue].get_length()
        assert abs(loaded - sum(seconds for _, seconds in notes)) < 0.01, cue
        sounds.play(cue)
    assert not Sounds(False).enabled


def test_a_kiosk_without_a_sound_card_says_so_once_and_plays_nothing() -> None:
    code = (
        "from kiosk.sound import Sounds\n"
        "lines = []\n"
        "s = Sounds(True, log=lines.append)\n"
        "s.play('deadline')\n"
        "print(s.enabled, len(lines), lines[0] if lines else '')\n"
    )
    env = dict(os.environ, SDL_AUDIODRIVER="no-such-sound-card", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert out.stdout.startswith("False 1 sound: off ("), out.stdout

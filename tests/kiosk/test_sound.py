"""Sound cues: generated tones, played once at each moment, never fatal."""

from __future__ import annotations

from datetime import datetime

from kiosk.sound import TUNES, Sounds, tone_bytes

from .conftest import Table


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


def test_tones_are_pcm_and_a_missing_mixer_is_not_fatal() -> None:
    data = tone_bytes(TUNES["writing"], 8000)
    assert len(data) == 2 * int(8000 * 0.6)
    lines: list[str] = []
    sounds = Sounds(True, log=lines.append)  # dummy audio driver, or none at all
    sounds.play("deadline")
    assert sounds.enabled or lines
    Sounds(False).play("warning")

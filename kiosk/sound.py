"""Optional sound cues (off by default): the warning, the start of writing, the deadline,
and the TD's hall message.

Tones are generated as 16-bit PCM with the stdlib (no numpy on the Pi image, no .wav
files to ship). A kiosk without a sound card still runs: if the mixer cannot start, the
cues are silently dropped and a single line says so.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from typing import Literal

import pygame

Cue = Literal["warning", "writing", "deadline", "message"]

RATE = 22050
#: (frequency Hz, seconds) notes per cue: rising for the warning, a long low tone for
#: silence, three short high beeps at the deadline, a falling two-note chime (an
#: announcement, not an alarm) for a new hall message.
TUNES: dict[Cue, tuple[tuple[float, float], ...]] = {
    "warning": ((660, 0.18), (0, 0.06), (880, 0.25)),
    "writing": ((440, 0.6),),
    "deadline": ((988, 0.15), (0, 0.08), (988, 0.15), (0, 0.08), (988, 0.3)),
    "message": ((784, 0.22), (0, 0.04), (523, 0.4)),
}


def tone_bytes(notes: tuple[tuple[float, float], ...], rate: int = RATE) -> bytes:
    """Mono signed 16-bit samples of the notes (0 Hz is a rest), with soft edges."""
    samples = array("h")
    for freq, seconds in notes:
        n = int(rate * seconds)
        fade = max(1, min(n // 10, rate // 100))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            v = math.sin(2 * math.pi * freq * i / rate) if freq else 0.0
            samples.append(int(12000 * env * v))
    return samples.tobytes()


class Sounds:
    """Plays a cue if the mixer is available; ``play`` never raises."""

    def __init__(self, enabled: bool, log: Callable[[str], None] = print):
        self._sounds: dict[Cue, pygame.mixer.Sound] = {}
        self.enabled = False
        if not enabled:
            return
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            started = pygame.mixer.get_init()  # None if the mixer did not start after all
            if started is None:
                raise pygame.error("the mixer did not start")
            freq, _, channels = started
            for cue, notes in TUNES.items():
                data = tone_bytes(notes, freq)
                if channels == 2:  # interleave: left and right the same
                    mono = array("h", data)
                    stereo = array("h", (s for s in mono for _ in (0, 1)))
                    data = stereo.tobytes()
                self._sounds[cue] = pygame.mixer.Sound(buffer=data)
            self.enabled = True
        except (pygame.error, OSError) as exc:
            log(f"sound: off ({exc})")

    def play(self, cue: Cue) -> None:
        sound = self._sounds.get(cue)
        if sound is not None:
            try:
                sound.play()
            except pygame.error:
                pass

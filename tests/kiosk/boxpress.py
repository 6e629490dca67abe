"""A press on a kiosk's serial button box, as a test of a kiosk on a real hub makes one."""

from __future__ import annotations

import queue
import time

from hardware.serialbox import SerialButtonBox
from kiosk.app import Kiosk


def press(box: SerialButtonBox, inputs: queue.Queue[object], kiosk: Kiosk,
          powers: str) -> list[object]:
    """Press each power's button once on ``box`` (a ``loop://`` port the test writes to);
    what ``kiosk`` made of each, in order."""
    assert box.port is not None
    box.port.write(b"".join(f"P {p} 0\n".encode() for p in powers))
    made = []
    deadline = time.monotonic() + 10  # a bound on a hang, not a margin
    while len(made) < len(powers):
        assert time.monotonic() < deadline, f"the box's {powers} did not arrive in 10 s"
        try:
            event = inputs.get(timeout=0.1)
        except queue.Empty:
            continue
        made.append(kiosk.handle(event))  # type: ignore[arg-type]
    return made

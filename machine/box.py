"""The USB button box: configured, found, and talking (its hello line or a heartbeat).

A box on the wrong port, at the wrong baud rate or with other firmware opens fine and then
says nothing the kiosk understands; only a line of the box's protocol proves it is ours.
Run the doctor with the kiosk stopped: two readers on one port would split its lines.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable

import serial

from dipclock.i18n import said
from dipclock.powers import POWERS
from dipclock.sentences import powers
from hardware import boxfinder
from hardware.events import ButtonEvent
from hardware.serialbox import SerialButtonBox
from machine.check import Check, fail, ok

AUTO = "auto"
WAIT = boxfinder.WAIT  # seconds: the box sends a heartbeat every second


def check_box(setting: str | None, wait: float = WAIT,
              probe: Callable[[str, float], bool] = boxfinder.probe,
              find: Callable[[float], str | None] = boxfinder.find_box
              ) -> tuple[Check, str | None]:
    """``setting`` is ``buttons.serial``: a port, a pyserial URL, "auto" or None. Returns the
    verdict and the port where the box answers (None when it does not)."""
    name = "button box"
    if not setting:
        return ok(name, said("none configured (buttons.serial)")), None
    firmware = said("check that it runs the dipclock firmware (hardware/buttonbox), 115200 "
                    "baud")
    if setting == AUTO:
        url = find(wait)
        if url is None:
            return fail(name, said("buttons.serial = \"auto\": no box answers on any USB "
                                   "serial port"),
                        said("plug the box in with a data USB cable; check that it runs the "
                             "dipclock firmware (hardware/buttonbox), 115200 baud")), None
        return ok(name, said("found at {url} (it answers)", url=url)), url
    replug = said("plug the box in, or set buttons.serial to its port (ls /dev/serial/by-id) "
                  "or to \"auto\"")
    if "://" not in setting and not os.path.exists(setting):
        return fail(name, said("{port} does not exist: the box is unplugged or elsewhere",
                               port=setting), replug), None
    try:
        answers = probe(setting, wait)
    except (serial.SerialException, OSError, ValueError) as exc:
        return fail(name, said("cannot open {port}: {error}", port=setting, error=str(exc)),
                    replug), None
    if not answers:
        return fail(name, said("{port} opens but says nothing of the box's protocol in "
                               "{seconds} s", port=setting, seconds=format(wait, "g")),
                    firmware), None
    return ok(name, said("{port} answers", port=setting)), setting


def watch_presses(url: str, seconds: float, on_press: Callable[[str], None] = lambda p: None,
                  ready: Callable[[], None] = lambda: None,
                  clock: Callable[[], float] = time.monotonic) -> Check:
    """A person presses each of the box's buttons within ``seconds`` (less once all seven are
    seen), read by the kiosk's own reader; ``ready`` is called once the port is open (the
    prompt: a line sent before would be flushed by the open)."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    seen: list[str] = []
    with SerialButtonBox(url, events):
        ready()
        deadline = clock() + seconds
        while len(seen) < len(POWERS) and (left := deadline - clock()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if event.power not in seen:
                seen.append(event.power)
                on_press(event.power)
    missing = [p for p in POWERS if p not in seen]
    if not missing:
        return ok("box buttons", said("a press of each of the seven seen"))
    return fail("box buttons", said("no press of {powers} in {seconds} s",
                                    powers=powers(missing), seconds=format(seconds, "g")),
                said("check those buttons' wires to the box's board (hardware/buttonbox)"))

"""ModemManager and the button box: nothing but the kiosk may open the box's serial port.

ModemManager (NetworkManager recommends it, so Raspberry Pi OS Bookworm runs it, Lite
included) opens every new ttyACM/ttyUSB port and sends AT commands to see whether a modem
answers. An Arduino's port says it speaks them: the box is probed, reset by the port
opening, and its first lines are garbled. The installer's udev rule
(``systemd/75-dipclock-button-box.rules``) tells ModemManager to leave every USB serial port
alone; this check warns when ModemManager runs and the rule is not there.
"""

from __future__ import annotations

from pathlib import Path

from dipclock.i18n import said
from machine.check import Check, ok, warn
from machine.processes import PROC, running

PROGRAM = "ModemManager"
#: Where the installer puts the rule, under /etc.
RULE = Path("udev/rules.d/75-dipclock-button-box.rules")


def check_modem_manager(box: str | None, proc: Path = PROC, etc: Path = Path("/etc")
                        ) -> Check:
    """``box`` is ``buttons.serial`` (None: no box, nothing to keep ModemManager off)."""
    name = "modem manager"
    if not running({PROGRAM}, proc):
        return ok(name, said("ModemManager is not running: it probes no serial port"))
    rule = etc / RULE
    if rule.is_file():
        return ok(name, said("ModemManager runs; {rule} keeps it off the USB serial ports",
                             rule=str(rule)))
    if not box:
        return ok(name, said("ModemManager runs; no button box configured (buttons.serial)"))
    return warn(name, said("ModemManager runs and may probe the button box's port with AT "
                           "commands (garbling its first lines): no {rule}", rule=str(rule)),
                said("run the installer again (sudo sh systemd/install.sh kiosk ...), which "
                     "adds the rule, or stop ModemManager: sudo systemctl disable --now "
                     "{program}", program=PROGRAM))


__all__ = ["PROGRAM", "RULE", "check_modem_manager"]

"""The Pi's power supply and temperature: the firmware's ``get_throttled`` bits.

An under-powered Pi (a weak USB supply, a long thin cable) browns out under load: the SD card
corrupts, USB resets drop the button box. The firmware records it in the word ``vcgencmd
get_throttled`` prints. Raspberry Pi OS kernels also expose it in sysfs on the firmware's
device, whose path is the board's: ``soc/soc:firmware`` on a Pi 4 (and 3, Zero 2), the
BCM2712's ``soc@107c000000/soc@107c000000:firmware`` on a Pi 5, and whatever device the
``raspberrypi-firmware`` driver is bound to on another board. Read in that order: the first
sysfs file that exists, else ``vcgencmd`` (the portable way, from raspi-utils), else the
``rpi_volt`` hwmon sensor's ``in0_lcrit_alarm`` (under-voltage now, nothing else). A PC has
none of them: every reading is then None ("cannot tell"), never "ok".
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

SYS = Path("/sys")
#: The firmware's word under /sys: the Pi 4's (3, Zero 2) and the Pi 5's firmware device.
GET_THROTTLED = ("devices/platform/soc/soc:firmware/get_throttled",
                 "devices/platform/soc@107c000000/soc@107c000000:firmware/get_throttled")
#: The same on any board: the devices the firmware driver is bound to.
BOUND_GET_THROTTLED = "bus/platform/drivers/raspberrypi-firmware/*/get_throttled"
HWMON = "class/hwmon"
VCGENCMD = "vcgencmd"
VCGENCMD_SECONDS = 3.0

UNDER_VOLTAGE_NOW = 1 << 0
FREQ_CAPPED_NOW = 1 << 1
THROTTLED_NOW = 1 << 2
SOFT_TEMP_LIMIT_NOW = 1 << 3
UNDER_VOLTAGE_SINCE_BOOT = 1 << 16
FREQ_CAPPED_SINCE_BOOT = 1 << 17
THROTTLED_SINCE_BOOT = 1 << 18
SOFT_TEMP_LIMIT_SINCE_BOOT = 1 << 19


@dataclass(frozen=True)
class Throttling:
    """The firmware's word, decoded."""

    bits: int

    @property
    def under_voltage_now(self) -> bool:
        return bool(self.bits & UNDER_VOLTAGE_NOW)

    @property
    def under_voltage_since_boot(self) -> bool:
        return bool(self.bits & UNDER_VOLTAGE_SINCE_BOOT)

    @property
    def throttled_now(self) -> bool:
        return bool(self.bits & (THROTTLED_NOW | FREQ_CAPPED_NOW | SOFT_TEMP_LIMIT_NOW))

    @property
    def throttled_since_boot(self) -> bool:
        return bool(self.bits & (THROTTLED_SINCE_BOOT | FREQ_CAPPED_SINCE_BOOT
                                 | SOFT_TEMP_LIMIT_SINCE_BOOT))

    def summary(self) -> str:
        """One phrase for a TD: "ok", "under-voltage now", "under-voltage since boot", ..."""
        if self.under_voltage_now:
            return "under-voltage now"
        if self.throttled_now:
            return "throttled now (too hot?)"
        if self.under_voltage_since_boot:
            return "under-voltage since boot"
        if self.throttled_since_boot:
            return "throttled since boot"
        return "ok"


def _hwmon_alarm(hwmon: Path) -> bool | None:
    """The ``rpi_volt`` sensor's low-voltage alarm, if this kernel has the sensor."""
    try:
        for dev in sorted(hwmon.iterdir()):
            if (dev / "name").read_text().strip() == "rpi_volt":
                return (dev / "in0_lcrit_alarm").read_text().strip() == "1"
    except OSError:
        return None
    return None


def _word(text: str) -> Throttling | None:
    """``50005`` (sysfs) or ``throttled=0x50005`` (vcgencmd), decoded."""
    try:
        return Throttling(int(text.strip().removeprefix("throttled=").strip(), 16))
    except ValueError:
        return None


def _sysfs(sys: Path) -> str | None:
    """The text of the first firmware word this kernel exposes, or None."""
    for path in [sys / p for p in GET_THROTTLED] + sorted(sys.glob(BOUND_GET_THROTTLED)):
        try:
            return path.read_text()
        except OSError:
            continue
    return None


def _vcgencmd(command: str) -> str | None:
    """What ``vcgencmd get_throttled`` prints, or None where it is missing or fails (no
    firmware to ask, or no access to /dev/vcio: the ``video`` group)."""
    found = shutil.which(command)
    if found is None:
        return None
    try:
        done = subprocess.run([found, "get_throttled"], capture_output=True, text=True,
                              timeout=VCGENCMD_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def throttling(sys: Path = SYS, vcgencmd: str | None = VCGENCMD) -> Throttling | None:
    """The firmware's throttling word, or None on a machine that does not report one.
    ``sys`` is where sysfs is (tests: a fake tree), ``vcgencmd`` the command (None: not
    asked)."""
    text = _sysfs(sys)
    if text is None and vcgencmd is not None:
        text = _vcgencmd(vcgencmd)
    if text is not None:
        return _word(text)
    alarm = _hwmon_alarm(sys / HWMON)
    return None if alarm is None else Throttling(UNDER_VOLTAGE_NOW if alarm else 0)

"""The Pi's power supply and temperature: the firmware's ``get_throttled`` bits.

An under-powered Pi (a weak USB supply, a long thin cable) browns out under load: the SD card
corrupts, USB resets drop the button box. The firmware records it; Raspberry Pi OS kernels
expose the same word ``vcgencmd get_throttled`` prints at ``GET_THROTTLED``, and the
``rpi_volt`` hwmon sensor raises ``in0_lcrit_alarm`` while the voltage is low. A PC has
neither: every reading is then None ("cannot tell"), never "ok".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GET_THROTTLED = Path("/sys/devices/platform/soc/soc:firmware/get_throttled")
HWMON = Path("/sys/class/hwmon")

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


def throttling(path: Path = GET_THROTTLED, hwmon: Path = HWMON) -> Throttling | None:
    """The firmware's throttling word, or None on a machine that does not report one."""
    try:
        text = path.read_text().strip()
    except OSError:
        alarm = _hwmon_alarm(hwmon)
        return None if alarm is None else Throttling(UNDER_VOLTAGE_NOW if alarm else 0)
    try:
        bits = int(text.removeprefix("throttled=").strip(), 16)
    except ValueError:
        return None
    return Throttling(bits)

"""Verdicts on what the lead's probes read: the system clock's sync and the Pi's power supply.

The probes (``machine.timesync``, ``machine.power``) only say what the kernel and firmware
report; here that becomes ok/warn/fail with the fix, weighed by how this kiosk runs (with a
hub the kiosk takes the hub's time; standalone it has only the system clock).
"""

from __future__ import annotations

from collections.abc import Callable

from machine import power, timesync
from machine.check import Check, fail, ok, warn


def check_time_sync(hub: str | None,
                    synchronised: Callable[[], bool | None] = timesync.clock_synchronised
                    ) -> Check:
    """``hub`` says whose time the kiosk counts by ("the hub at https://...", "the hub it
    is paired with, found on the network"), None for a standalone kiosk: only a standalone
    kiosk counts by the system clock, so only it is warned about one not synchronised."""
    name = "time sync"
    state = synchronised()
    if state:
        return ok(name, "the system clock is synchronised (network time)")
    said = "not synchronised" if state is False else "cannot tell whether it is synchronised"
    if hub is not None:
        return ok(name, f"system clock {said}, which is fine: the kiosk counts by the time of "
                        f"{hub}")
    return warn(name, f"system clock {said}: a standalone kiosk may be hours off after a "
                      "reboot (a Pi has no battery clock)",
                "let the Pi reach a time server (NTP), fit a real-time clock, or use a hub")


def check_power(read: Callable[[], power.Throttling | None] = power.throttling) -> Check:
    name = "power"
    state = read()
    if state is None:
        return ok(name, "not reported by this machine (not a Raspberry Pi)")
    supply = "use the official power supply (Pi 4: 5.1 V 3 A; Pi 5: 5 V 5 A), short cable"
    if state.under_voltage_now:
        return fail(name, f"under-voltage now (0x{state.bits:x}): SD card and USB at risk",
                    supply)
    if state.throttled_now:
        return warn(name, f"throttled now (0x{state.bits:x}): too hot?",
                    "give the Pi air, a heatsink or a fan")
    if state.under_voltage_since_boot:
        return warn(name, f"under-voltage since boot (0x{state.bits:x})", supply)
    if state.throttled_since_boot:
        return warn(name, f"throttled since boot (0x{state.bits:x}): too hot at times?",
                    "give the Pi air, a heatsink or a fan")
    return ok(name, "no under-voltage or throttling since boot")

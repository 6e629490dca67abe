"""Verdicts on what the lead's probes read: the system clock's sync and the Pi's power supply.

The probes (``machine.timesync``, ``machine.power``) only say what the kernel and firmware
report; here that becomes ok/warn/fail with the fix, weighed by how this kiosk runs (with a
hub the kiosk takes the hub's time; standalone it has only the system clock).
"""

from __future__ import annotations

from collections.abc import Callable

from dipclock.i18n import Said, said
from machine import power, timesync
from machine.check import Check, fail, ok, warn


def check_time_sync(hub: str | Said | None,
                    synchronised: Callable[[], bool | None] = timesync.clock_synchronised
                    ) -> Check:
    """``hub`` says whose time the kiosk counts by ("the hub at https://...", "the hub it
    is paired with, found on the network"), None for a standalone kiosk: only a standalone
    kiosk counts by the system clock, so only it is warned about one not synchronised."""
    name = "time sync"
    state = synchronised()
    if state:
        return ok(name, said("the system clock is synchronised (network time)"))
    if hub is not None:
        return ok(name, said("system clock not synchronised, which is fine: the kiosk counts "
                             "by the time of {hub}", hub=hub) if state is False else
                  said("system clock cannot tell whether it is synchronised, which is fine: "
                       "the kiosk counts by the time of {hub}", hub=hub))
    return warn(name, said("system clock not synchronised: a standalone kiosk may be hours "
                           "off after a reboot (a Pi has no battery clock)") if state is False
                else said("system clock cannot tell whether it is synchronised: a standalone "
                          "kiosk may be hours off after a reboot (a Pi has no battery clock)"),
                said("let the Pi reach a time server (NTP), fit a real-time clock, or use a "
                     "hub"))


def check_power(read: Callable[[], power.Throttling | None] = power.throttling) -> Check:
    name = "power"
    state = read()
    if state is None:
        return ok(name, said("not reported by this machine (not a Raspberry Pi)"))
    supply = said("use the official power supply (Pi 4: 5.1 V 3 A; Pi 5: 5 V 5 A), short "
                  "cable")
    air = said("give the Pi air, a heatsink or a fan")
    bits = format(state.bits, "x")
    if state.under_voltage_now:
        return fail(name, said("under-voltage now (0x{bits}): SD card and USB at risk",
                               bits=bits), supply)
    if state.throttled_now:
        return warn(name, said("throttled now (0x{bits}): too hot?", bits=bits), air)
    if state.under_voltage_since_boot:
        return warn(name, said("under-voltage since boot (0x{bits})", bits=bits), supply)
    if state.throttled_since_boot:
        return warn(name, said("throttled since boot (0x{bits}): too hot at times?",
                               bits=bits), air)
    return ok(name, said("no under-voltage or throttling since boot"))

"""Is the system clock synchronised? The kernel knows: ``adjtimex`` says TIME_ERROR until a
time daemon (systemd-timesyncd, chrony, ntpd) has disciplined the clock.

A Pi has no battery clock: it boots on the time fake-hwclock saved at shutdown, possibly hours
old, and NTP steps it later, if the hall's network reaches a time server at all. So a kiosk
trusts its wall clock only when the kernel says it is synchronised; otherwise only the hub's
time (``dipclock.sync``) counts, and the screen says when it has neither. ``boot_id`` says
which run of the monotonic clock a press's reading belongs to, so a press stamped on a
guess can be re-stamped when a trusted time arrives later in the same boot.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from pathlib import Path

TIME_ERROR = 5  # adjtimex's "clock not synchronised" (linux/timex.h)
#: systemd-timesyncd touches this file once it has synchronised the clock (systemd 239+).
TIMESYNCD_FLAG = Path("/run/systemd/timesync/synchronized")
#: A random id the kernel draws at every boot.
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


def _adjtimex() -> int:
    """adjtimex(2) with modes = 0: reads the clock state, changes nothing, needs no privilege."""
    libc = ctypes.CDLL(None, use_errno=True)
    timex = ctypes.create_string_buffer(512)  # larger than struct timex on every ABI; zeroed
    return int(libc.adjtimex(timex))


def clock_synchronised(
    adjtimex: Callable[[], int] = _adjtimex, flag: Path = TIMESYNCD_FLAG
) -> bool | None:
    """True when the kernel (or timesyncd) says the clock is synchronised, False when it says
    it is not, None when this machine cannot tell (no adjtimex: not Linux)."""
    try:
        if flag.exists():
            return True
    except OSError:  # a /run we may not look into: ask the kernel instead
        pass
    try:
        state = adjtimex()
    except (OSError, AttributeError):
        return None
    if state < 0:
        return None
    return state != TIME_ERROR


def boot_id(path: Path = BOOT_ID) -> str | None:
    """Which run of the monotonic clock a reading belongs to (it restarts at every boot), or
    None where the kernel does not say (not Linux).

    A kiosk's press stamped ``mono`` can be turned into hub time by a sync made later only
    within the same boot; a hub's time set by the TD holds until the next boot, when the
    wall clock is back to fake-hwclock's guess.
    """
    try:
        return path.read_text().strip() or None
    except OSError:
        return None

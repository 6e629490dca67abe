"""Is the system clock synchronised? The kernel knows: ``adjtimex`` says TIME_ERROR until a
time daemon (systemd-timesyncd, chrony, ntpd) has disciplined the clock.

A Pi has no battery clock: it boots on the time fake-hwclock saved at shutdown, possibly hours
old, and NTP steps it later, if the hall's network reaches a time server at all. So a kiosk
trusts its wall clock only when the kernel says it is synchronised; otherwise only the hub's
time (``dipclock.sync``) counts, and the screen says when it has neither.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from pathlib import Path

TIME_ERROR = 5  # adjtimex's "clock not synchronised" (linux/timex.h)
#: systemd-timesyncd touches this file once it has synchronised the clock (systemd 239+).
TIMESYNCD_FLAG = Path("/run/systemd/timesync/synchronized")


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
    if flag.exists():
        return True
    try:
        state = adjtimex()
    except (OSError, AttributeError):
        return None
    if state < 0:
        return None
    return state != TIME_ERROR

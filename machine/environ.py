"""A secret handed to a process in its environment leaves it once read.

``os.environ.pop`` alone is not enough on Linux: the kernel shows the environment a process
started with (``/proc/PID/environ``, readable by its user, and in a core dump) from the
block at the top of its stack, and unsetting a variable only drops libc's pointer to it.
So the text is overwritten there too, found between the ``env_start`` and ``env_end``
addresses ``/proc/self/stat`` gives. With ctypes, as the standard library offers no way.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path


def forget(name: str) -> bool:
    """Drop ``name`` from this process's environment, its value overwritten with zeros in
    the block the kernel shows; whether that block held it (False too where it cannot be
    read: another system, or a kernel older than Linux 3.5)."""
    os.environ.pop(name, None)
    try:
        stat = Path("/proc/self/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()  # fields[0] is the 3rd: the state
        start, end = int(fields[50 - 3]), int(fields[51 - 3])
    except (OSError, ValueError, IndexError):
        return False
    if not 0 < start < end:
        return False
    block = ctypes.string_at(start, end - start)
    key = name.encode() + b"="
    found = False
    at = block.find(key)
    while at != -1:
        if at == 0 or block[at - 1] == 0:  # a whole entry, not the end of another's
            value = at + len(key)
            stop = block.find(b"\0", value)
            stop = len(block) if stop == -1 else stop
            ctypes.memset(start + value, 0, stop - value)
            found = True
        at = block.find(key, at + 1)
    return found

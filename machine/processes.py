"""Which programs run on this machine, by name: ``/proc/PID/comm`` (at most 15 characters)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

PROC = Path("/proc")


def running(names: Collection[str], proc: Path = PROC) -> list[str]:
    """Those of ``names`` that some process runs as, each once, sorted."""
    seen = set()
    try:
        entries = list(proc.iterdir())
    except OSError:
        return []
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text().strip()
        except OSError:  # the process ended while we looked
            continue
        if name in names:
            seen.add(name)
    return sorted(seen)


__all__ = ["PROC", "running"]

"""Files that hold secrets, readable by their owner only."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path


def private_file(path: Path, folder: bool = True) -> None:
    """A file of secrets (the hub's data: the clocks' token hashes, the TD's sessions; a
    clock's outbox: its token) readable by its owner only: the directory 0700, the file
    0600 before SQLite opens it (its -wal and -shm files take the database file's mode).
    A file from before is tightened too. ``folder=False``: the folder is made if missing but
    left as it is (a path the user chose may be in a shared folder)."""
    path.parent.mkdir(mode=0o700 if folder else 0o777, parents=True, exist_ok=True)
    path.touch(mode=0o600, exist_ok=True)
    tighten = ((path.parent, 0o700),) if folder else ()
    for each, wanted in (*tighten, (path, 0o600)):
        if each.stat().st_mode & 0o777 != wanted:
            with suppress(PermissionError):  # not ours to change: leave it as it is
                each.chmod(wanted)


__all__ = ["private_file"]

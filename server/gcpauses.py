"""Python's full garbage collections kept short and rare in the hub's process.

A full collection walks every object the process holds, and the event loop waits until it
is done. After start, the hub's own modules (FastAPI, pydantic, the routes: some 77,000
objects) are walked each time for nothing; under a flood of connections the collections
grow longer (each connection's objects) and come more often (their churn): 75 to 110 ms
every 10 s or so on the bench machine, a table's time sync waiting through each. So the
hub, once built, moves what it holds out of the collector's sight (``gc.freeze``, Python's
own tool for long-lived servers), turns automatic full collections off, and runs one on
the event loop every ``FULL_EVERY`` s instead. Young objects are collected as before; a
cycle that lives long is freed within ``FULL_EVERY`` s.
"""

from __future__ import annotations

import asyncio
import gc

#: seconds between two full collections
FULL_EVERY = 60.0
#: a full-collection threshold never reached: automatic full collections off
NEVER = 2**31 - 1


def settle() -> None:
    """The process is built: freeze what it holds, and time the full collections
    (``collect_often``). For ``dipclock hub``'s own process only: a test process starting
    hub after hub would keep every object it ever froze."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)


def timed() -> bool:
    """Whether full collections are this module's to run (``settle`` was called)."""
    return gc.get_threshold()[2] == NEVER


async def collect_often(every: float = FULL_EVERY) -> None:
    """A full collection every ``every`` s, on the event loop (finalizers of transports
    and tasks run where they belong)."""
    while True:
        await asyncio.sleep(every)
        gc.collect()

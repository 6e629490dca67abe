"""The hub's process runs Python's full garbage collections on its own timer, and none
walks the objects it was built with (``server.gcpauses``). In a process of its own: a
frozen object stays frozen for the life of the process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from benchmarks.hub import ROOT

PROCESS = textwrap.dedent("""
    import asyncio, gc, json, sys
    from server import gcpauses

    built = [[] for _ in range(5_000)]  # what the hub holds once built
    if sys.argv[1] == "settled":
        gcpauses.settle()
    full = []
    gc.callbacks.append(
        lambda phase, info: phase == "stop" and info["generation"] == 2 and full.append(1))
    churn = [[[]] for _ in range(300_000)]  # a flood's connections, and their end
    del churn
    automatic = len(full)

    async def timed() -> None:
        task = asyncio.create_task(gcpauses.collect_often(every=0.05))
        while len(full) == automatic:  # bounded by the test's timeout
            await asyncio.sleep(0.01)
        task.cancel()

    if gcpauses.timed():
        asyncio.run(timed())
    print(json.dumps({"automatic": automatic, "timed": len(full) - automatic,
                      "frozen": gc.get_freeze_count()}))
""")


def run(how: str) -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", PROCESS, how], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)  # a bound on a hang
    return json.loads(done.stdout)


def test_a_settled_process_makes_no_automatic_full_collection_and_times_its_own():
    settled = run("settled")
    assert settled["automatic"] == 0
    assert settled["timed"] >= 1
    assert settled["frozen"] >= 5_000  # what it was built with, out of the collector's sight


def test_left_alone_the_same_work_makes_full_collections_of_its_own():
    """The counterpart: the churn above is enough for Python to start full collections."""
    alone = run("alone")
    assert alone["automatic"] >= 1
    assert alone["frozen"] == 0

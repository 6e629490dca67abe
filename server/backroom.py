"""The hub's back room: heavy, pure CPU work (a seating draft) run off the interpreter the
clocks are served from, in a process of its own, one job at a time, time-bounded,
memory-bounded, and stopped when the page that asked for it leaves.

Why a process: a worker thread shares the hub's interpreter lock. A 140-player draft took
8-12 s in one, and back-to-back drafts took the clocks' time sync p99 from 181 to 1,337 ms;
a 6,993-player draft grew the hub by 376 MB and went on after its page had left (issue 33).
A process has an interpreter of its own, can be killed, and its memory is its own to bound.
With 100 clocks syncing and 140-player drafts back to back, a clock's sync p99 was 301 ms
with the drafts in a thread and 9.4 ms with them here (``python -m benchmarks.drafts``).

Why ``multiprocessing``'s "forkserver": the hub runs threads and an event loop, and a plain
fork copies whatever lock another thread holds at that instant. "spawn" is safe but starts
an interpreter and imports the seating again for every job (a second or more on a Pi). The
fork server is one clean interpreter, started with the hub, that imports the job modules
once (``PRELOAD``) and forks a fresh process per job in milliseconds. Why not
``concurrent.futures.ProcessPoolExecutor``: it cannot stop a job once it runs (``cancel``
only drops one not yet started), and a worker killed from outside breaks the whole pool;
a ``Process`` per job is killed and forgotten.

The job's process bounds itself (``resource.setrlimit``): its address space may grow by
``memory_mb`` at most (a ``MemoryError`` ends it with ``OUT_OF_MEMORY``, answered in one
line), and its CPU time is capped a little past the time limit, so a job whose hub died
cannot run on for ever. The hub's systemd unit needed no change: glibc sets limits with
``prlimit64``, which is in ``@default``, not in the ``@resources`` the unit denies, and
lowering a limit needs no capability; the fork server's socket is made in the unit's
``PrivateTmp=``. (Traced with strace: the fork server, its resource tracker and a draft's
process make 44 distinct system calls, every one in ``@system-service``, none in
``@privileged`` or ``@resources``.) ``KillMode=`` is the default, so a stopped unit ends
them all; a hub stopped otherwise kills its running job, and the fork server ends with it.

A test holds a job where it can see it: with ``DIPCLOCK_HOLD_JOBS`` naming a folder (read
when the job is handed over), each job's process writes ``job-<pid>`` there and waits while
``hold`` exists in it, before its work. Nothing else reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import multiprocessing.forkserver
import os
import resource
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from dipclock.i18n import Said, said
from server.refusal import Refused

A = TypeVar("A")
R = TypeVar("R")

#: modules the fork server imports once, so that each job's process starts with them. The
#: launcher too: multiprocessing runs the hub's main script (the ``dipclock`` console
#: script) again in each job's process, and Python 3.11's fork server never preloads it
#: whatever it is told, so what that script imports had better be there (58 ms a job, not 1)
PRELOAD = ("server.seatingjob", "dipclock.launcher.cli")
#: a job's process ends with this when it ran out of the memory it may take
OUT_OF_MEMORY = 86
#: the environment variable naming a test's hold folder (see the module's docstring)
HOLD = "DIPCLOCK_HOLD_JOBS"
#: how often a waiting request looks at its job, its page and its time limit, s
POLL = 0.05
#: CPU seconds a job's process may spend past its time limit before the kernel ends it:
#: only a job whose hub died (and so cannot stop it) ever reaches it
CPU_GRACE = 5


@dataclass(frozen=True)
class Task:
    """A kind of job in the TD's words: ``name`` ("the draft") and what to do when it is
    too big ("seat fewer players at once")."""

    name: Said
    advice: Said


Gone = Callable[[], Awaitable[bool]]


class Backroom:
    """Runs jobs in processes of their own, one at a time, ``queue`` more waiting at most;
    each stopped after ``seconds`` or at ``memory_mb`` more memory. Made and closed by the
    hub's lifespan (``server.app``)."""

    def __init__(self, seconds: float, memory_mb: int, queue: int,
                 preload: Sequence[str] = PRELOAD) -> None:
        self.seconds, self.memory_mb, self.queue = seconds, memory_mb, queue
        self.preload = list(preload)
        self._context = multiprocessing.get_context("forkserver")
        self._turn = asyncio.Lock()
        #: jobs waiting for their turn (not the one running)
        self.waiting = 0
        #: the job running now, if any
        self.running: BaseProcess | None = None

    def start(self) -> None:
        """Start the fork server (if this process has none yet) with the job modules
        imported: blocking, so called in a worker thread, at the first job. Not as the hub
        starts: its imports would take a core from the tables reconnecting to a restarted
        hub, and a hub whose TD never drafts keeps no fork server in memory."""
        self._context.set_forkserver_preload(self.preload)
        multiprocessing.forkserver.ensure_running()

    async def run(self, work: Callable[[A], R], arg: A, task: Task, gone: Gone) -> R:
        """``work(arg)`` in a process of its own when its turn comes; what it returns, or
        what it raises raised here. Refused (503, one line) when too many wait, when it runs
        past the time limit or out of memory, or when ``gone()`` says the page that asked
        has left (then its process is killed at once)."""
        if self._turn.locked() and self.waiting >= self.queue:
            raise Refused(503, said("{task} was not started: the hub is busy with {n} like "
                                    "it; try again in a minute", task=task.name,
                                    n=self.waiting + 1))
        try:
            return await self._in_turn(work, arg, task, gone)
        except asyncio.CancelledError:
            # the hub is stopping and its grace for requests under way is over (as in
            # ``server.bodylimit``): the job is killed, and the TD hears why, not a 500
            raise Refused(503, said("{task} was stopped: the hub is restarting; try again in "
                                    "a moment", task=task.name)) from None

    async def close(self) -> None:
        """The hub stops: the job running, if any, is killed (its request is cancelled by
        the server as it stops, which kills it too; this is for a request that was not)."""
        proc = self.running
        if proc is not None and proc.exitcode is None:
            proc.kill()
            await anyio.to_thread.run_sync(proc.join, 10)

    async def _in_turn(self, work: Callable[[A], R], arg: A, task: Task, gone: Gone) -> R:
        self.waiting += 1
        try:
            await self._take_turn(gone, task)
        finally:
            self.waiting -= 1
        try:
            return await self._run(work, arg, task, gone)
        finally:
            self._turn.release()

    async def _take_turn(self, gone: Gone, task: Task) -> None:
        """Wait for the running job to end, in order of arrival, while the page is there."""
        taking = asyncio.ensure_future(self._turn.acquire())
        try:
            while not taking.done():
                await asyncio.wait({taking}, timeout=POLL)
                if not taking.done() and await gone():
                    raise Refused(503, said("{task} was not started: its page left",
                                            task=task.name))
        except BaseException:
            if taking.done() and not taking.cancelled() and taking.exception() is None:
                self._turn.release()  # the turn came as the wait ended: pass it on
            else:
                taking.cancel()
            raise

    async def _run(self, work: Callable[[A], R], arg: A, task: Task, gone: Gone) -> R:
        reader, writer = self._context.Pipe(duplex=False)
        proc = self._context.Process(
            target=_job, args=(writer, work, arg, self.seconds, self.memory_mb,
                               os.environ.get(HOLD)),
            name=f"dipclock {task.name}", daemon=True)
        stopping = False
        try:
            await anyio.to_thread.run_sync(self.start)  # at once once it runs
            await anyio.to_thread.run_sync(proc.start)  # hands the job to the fork server
            writer.close()  # the child's copy is the one left: its end is our EOF
            self.running = proc
            kind, value = await self._outcome(proc, reader, task, gone)
        except asyncio.CancelledError:
            stopping = True
            raise
        finally:
            self.running = None
            reader.close()
            writer.close()
            if proc.pid is not None and proc.exitcode is None:
                proc.kill()
            if proc.pid is not None and not stopping:  # a stopping hub answers first
                await anyio.to_thread.run_sync(proc.join, 10)
        if kind == "raised":
            raise value
        result: R = value
        return result

    async def _outcome(self, proc: BaseProcess, reader: Connection, task: Task,
                       gone: Gone) -> tuple[str, Any]:
        """What the job sent back: ("done", its result) or ("raised", its exception)."""
        deadline = time.monotonic() + self.seconds
        while True:
            if reader.poll():
                try:
                    sent: tuple[str, Any] = await anyio.to_thread.run_sync(reader.recv)
                    return sent
                except EOFError:  # it ended without a word
                    await anyio.to_thread.run_sync(proc.join, 10)
                    raise self._ended(proc.exitcode, task) from None
            if await gone():
                raise Refused(503, said("{task} was stopped: its page left",
                                        task=task.name))
            if time.monotonic() > deadline:
                raise Refused(503, said("{task} took longer than {seconds} s and was stopped: "
                                        "{advice}, or try again", task=task.name,
                                        seconds=format(self.seconds, "g"), advice=task.advice))
            await asyncio.sleep(POLL)

    def _ended(self, code: int | None, task: Task) -> Refused:
        if code == OUT_OF_MEMORY:
            return Refused(503, said("{task} needed more than {mb} MB and was stopped: "
                                     "{advice}", task=task.name, mb=self.memory_mb,
                                     advice=task.advice))
        return Refused(503, said("{task} stopped unexpectedly (exit code {code}): try again",
                                 task=task.name, code=code))


def _job(out: Connection, work: Callable[[A], R], arg: A, seconds: float, memory_mb: int,
         hold: str | None) -> None:
    """The job's process: bound itself, wait while a test holds it, work, send back what
    came of it. Out of memory, it ends with ``OUT_OF_MEMORY`` (sending needs memory too)."""
    try:
        _bound(seconds, memory_mb)
        if hold:
            _held(Path(hold))
        sent: tuple[str, Any] = ("done", work(arg))
    except MemoryError:
        os._exit(OUT_OF_MEMORY)
    except Exception as exc:  # noqa: BLE001 - raised again in the hub, as a call would
        sent = ("raised", exc)
    try:
        out.send(sent)
    except MemoryError:
        os._exit(OUT_OF_MEMORY)
    except Exception:  # noqa: BLE001 - an exception that does not pickle: its text does
        out.send(("raised", RuntimeError(traceback.format_exc())))
    out.close()


def _bound(seconds: float, memory_mb: int) -> None:
    """This process's address space may grow by ``memory_mb`` past what the fork server
    gave it; its CPU time ends a little past ``seconds``. Where a limit cannot be set (a
    system without it), the hub's own time limit still holds."""
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        size = int(Path("/proc/self/statm").read_text().split()[0]) * page
    except (OSError, ValueError, IndexError):
        size = 0
    cpu = math.ceil(seconds) + CPU_GRACE
    for limit, value in ((resource.RLIMIT_AS, size + memory_mb * 1024 * 1024),
                         (resource.RLIMIT_CPU, cpu)):
        with contextlib.suppress(OSError, ValueError):
            hard = resource.getrlimit(limit)[1]
            resource.setrlimit(limit, (value if hard == resource.RLIM_INFINITY
                                       else min(value, hard), hard))


def _held(folder: Path) -> None:
    """A test's hold: say this process is here, then wait while ``hold`` exists (or until
    the fork server, this process's parent, has gone: no job outlives its hub)."""
    parent = os.getppid()
    (folder / f"job-{os.getpid()}").write_text(str(os.getpid()))
    while (folder / "hold").exists() and os.getppid() == parent:
        time.sleep(0.01)


__all__ = ["HOLD", "OUT_OF_MEMORY", "PRELOAD", "Backroom", "Gone", "Task"]

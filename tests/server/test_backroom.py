"""A seating draft runs in the hub's back room (``server.backroom``): a process of its own,
one at a time, stopped at its time limit, at its memory bound, when the TD's page leaves,
and when the hub stops (issue 33 item 6).

A real uvicorn on 127.0.0.1 serves the hub. The test holds a draft where it can see it:
``DIPCLOCK_HOLD_JOBS`` names a folder of the test's, in which each job's process writes
``job-<pid>`` and waits while ``hold`` exists there. No timing is asserted: a draft held so
is "running"; what is answered meanwhile, and which processes are there, is the proof.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from server.backroom import HOLD
from tests.server.live import LiveHub, ThreadHub
from tests.server.test_live import set_up
from tests.waits import wait_for

#: a bound on a hang only: every wait here ends at once when the hub is right
PATIENCE = 60.0
PLAYERS = [f"Player {n:03d}" for n in range(1, 50)]
DRAFT = {"round": 1, "players": PLAYERS, "seed": 7}


@pytest.fixture
def held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's hold folder, ``hold`` in it: every draft waits until the test releases it."""
    folder = tmp_path / "jobs"
    folder.mkdir()
    (folder / "hold").touch()
    monkeypatch.setenv(HOLD, str(folder))
    yield folder
    release(folder)  # a failed test must not leave a draft waiting


def release(folder: Path) -> None:
    (folder / "hold").unlink(missing_ok=True)


def jobs(folder: Path) -> list[int]:
    """The pids of the drafts' processes that have started, so far."""
    return sorted(int(p.name.removeprefix("job-")) for p in folder.glob("job-*"))


def alive(pid: int) -> bool:
    """``pid`` is a running process (a zombie, dead but not yet reaped, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def in_thread(call: Any) -> tuple[threading.Thread, list[Any]]:
    """``call()`` in a thread of its own: its answer (or what it raised) in the list."""
    answer: list[Any] = []

    def calling() -> None:
        try:
            answer.append(call())
        except httpx.HTTPError as exc:  # a hub stopped under it
            answer.append(exc)

    worker = threading.Thread(target=calling, daemon=True)
    worker.start()
    return worker, answer


def backroom(hub: ThreadHub) -> Any:
    return hub.server.config.app.state.hub.backroom


def test_a_draft_runs_in_a_process_of_its_own_while_the_clocks_are_served(tmp_path, held):
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        clock = hub.auth(td, 1)
        worker, answer = in_thread(lambda: td.post("/api/td/seating/draft", json=DRAFT))
        [pid] = wait_for("the draft's process", lambda: jobs(held), PATIENCE)
        assert pid != os.getpid() and alive(pid)  # not the hub's own interpreter
        with httpx.Client(base_url=hub.url, timeout=PATIENCE) as c:
            assert c.get("/api/time").status_code == 200
            press = {"id": "p1", "power": "A", "kind": "press", "at": "2024-05-04T09:31:00"}
            r = c.post("/api/tables/1/presses", json={"presses": [press]}, headers=clock)
            assert r.status_code == 200, r.text
        assert worker.is_alive() and not answer  # the draft is still running
        release(held)
        worker.join(PATIENCE)
        assert answer and answer[0].status_code == 200, answer[0].text if answer else ""
        got = answer[0].json()
        assert [t["table"] for t in got["tables"]] == list(range(1, 8))
        assert got["seed"] == 7 and got["problems"] == []
        assert got["played"] == "1 button press"  # read as the draft is answered
        assert got["quality"] == {"pairs_met_before": 0, "powers_repeated": 0,
                                  "apart_together": 0}
        assert sorted(p for t in got["tables"] for p in t["seats"].values()) == PLAYERS
        assert td.post("/api/td/seating/draft", json=DRAFT).json() == got  # a seed seats alike
        wait_for("the draft's process gone", lambda: not alive(pid), PATIENCE)


def raw_draft(hub: ThreadHub, td: httpx.Client) -> socket.socket:
    """A draft sent on a socket of the test's own, which the test closes as a phone that
    leaves the page would."""
    body = httpx.Request("POST", "/", json=DRAFT).read()
    cookies = "; ".join(f"{k}={v}" for k, v in td.cookies.items())
    sock = socket.create_connection(("127.0.0.1", hub.port), timeout=PATIENCE)
    sock.sendall(b"POST /api/td/seating/draft HTTP/1.1\r\nHost: hub\r\n"
                 b"Content-Type: application/json\r\n"
                 + f"Cookie: {cookies}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    return sock


def test_a_draft_whose_page_leaves_is_stopped_and_its_process_killed(tmp_path, held):
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        sock = raw_draft(hub, td)
        [pid] = wait_for("the draft's process", lambda: jobs(held), PATIENCE)
        sock.close()  # the TD's phone left the page; the draft is still held
        wait_for("the left draft's process killed", lambda: not alive(pid), PATIENCE)
        release(held)
        r = td.post("/api/td/seating/draft", json=DRAFT)  # the back room is free again
        assert r.status_code == 200, r.text


def test_a_draft_past_its_time_limit_is_stopped_with_one_line(tmp_path, held):
    with ThreadHub(tmp_path / "hub", job_seconds=0.5) as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        r = td.post("/api/td/seating/draft", json=DRAFT)  # held: it never ends by itself
        assert r.status_code == 503
        assert r.json() == {"detail": "the draft took longer than 0.5 s and was stopped: "
                                      "seat fewer players at once, or try again"}
        # on a loaded machine the limit may come before the draft's process has said it
        # started (its file in the hold folder): the one that did is gone
        for pid in jobs(held):
            wait_for("the stopped draft's process gone", lambda p=pid: not alive(p), PATIENCE)


def test_two_drafts_at_once_run_one_after_the_other_and_a_third_waits_no_more(
        tmp_path, held):
    with ThreadHub(tmp_path / "hub", jobs_waiting=1) as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        first, first_answer = in_thread(lambda: td.post("/api/td/seating/draft", json=DRAFT))
        wait_for("the first draft's process", lambda: jobs(held), PATIENCE)
        second, second_answer = in_thread(
            lambda: td.post("/api/td/seating/draft", json=DRAFT | {"seed": 8}))
        wait_for("the second draft waiting its turn",
                 lambda: backroom(hub).waiting == 1, PATIENCE)
        assert len(jobs(held)) == 1  # the second has no process yet
        third = td.post("/api/td/seating/draft", json=DRAFT)
        assert third.status_code == 503
        assert third.json()["detail"] == ("the draft was not started: the hub is busy with "
                                          "2 like it; try again in a minute")
        release(held)
        first.join(PATIENCE)
        second.join(PATIENCE)
        assert [a[0].status_code for a in (first_answer, second_answer)] == [200, 200]
        assert [a[0].json()["seed"] for a in (first_answer, second_answer)] == [7, 8]
        assert len(set(jobs(held))) == 2  # each in a process of its own, one after the other


def test_a_draft_that_outgrows_its_memory_is_stopped_with_one_line(tmp_path):
    """The hall's most players (6,993) once grew the hub by 376 MB (the search's n² costs);
    its first round now takes about 2 MB (only pairs who met are kept, issue 36): bounded at
    1 MB more, the draft's process runs out, not the hub."""
    with ThreadHub(tmp_path / "hub", job_memory_mb=1) as hub:
        td = hub.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        many = [f"Player {n:04d}" for n in range(1, 7 * 999 + 1)]
        r = td.post("/api/td/seating/draft", json={"round": 1, "players": many, "seed": 1})
        assert r.status_code == 503
        assert r.json() == {"detail": "the draft needed more than 1 MB and was stopped: "
                                      "seat fewer players at once"}
        assert td.post("/api/td/seating/draft", json=DRAFT).status_code == 200


def children(pid: int) -> set[int]:
    """Every process descended from ``pid``."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    more = {pid}
    while more:
        more = {p for p, parent in parents.items() if parent in more} - found
        found |= more
    return found


def test_a_hub_stopped_during_a_draft_leaves_no_process_behind(tmp_path, held):
    """``dipclock hub`` as the card runs it: stopped (SIGTERM) while a draft runs, it ends
    at once with its fork server and the draft's process."""
    live = LiveHub(tmp_path / "hub").start()
    try:
        td = live.td()
        set_up(td, datetime(2024, 5, 4, 9, 30))
        worker, answer = in_thread(lambda: td.post("/api/td/seating/draft", json=DRAFT))
        [pid] = wait_for("the draft's process", lambda: jobs(held), PATIENCE)
        assert live.proc is not None
        spawned = children(live.proc.pid)
        assert pid in spawned  # the fork server's child, the hub's grandchild
        live.stop()
        assert live.proc.returncode is not None
        wait_for("the hub's processes gone", lambda: not any(map(alive, spawned)), PATIENCE)
        worker.join(PATIENCE)
        assert answer and answer[0].status_code == 503  # never seated, and said why
        assert answer[0].json() == {"detail": "the draft was stopped: the hub is restarting; "
                                              "try again in a moment"}
    finally:
        live.kill()

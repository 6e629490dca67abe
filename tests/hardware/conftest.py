"""Fixtures for the hardware tests: a hand-driven clock, the input queue, bounded waiting."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import pytest

from tests.doubles import FakeMonotonic


@pytest.fixture
def clock() -> FakeMonotonic:
    return FakeMonotonic()


@pytest.fixture
def events() -> queue.Queue:
    return queue.Queue()


@pytest.fixture
def wait_for() -> Callable[..., None]:
    """Poll a condition a reader thread will make true; fail after a bounded wait."""

    def wait(predicate: Callable[[], object], timeout: float = 2.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what or predicate}")
            time.sleep(0.005)

    return wait


def drain(q: queue.Queue) -> list:
    """Everything already on the queue, without waiting."""
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def take_all() -> Callable[[queue.Queue], list]:
    return drain

"""The tests' own wait: a probe that raises is not there yet, never a success."""

from __future__ import annotations

import pytest

from tests.waits import wait_for


def test_a_probe_that_raises_is_waited_on_and_never_taken_for_success() -> None:
    answers = iter([OSError("refused"), ValueError("half a file"), "there"])

    def probe() -> str:
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert wait_for("the third answer", probe, timeout=10) == "there"

    def refused() -> str:
        raise OSError("connection refused")

    with pytest.raises(AssertionError, match="connection refused"):
        wait_for("a hub that never answers", refused, timeout=0.2)

"""What a start-up failure is: something a TD can fix, said with the fix in one sentence."""

from __future__ import annotations

from dipclock.errors import DipclockError


class Problem(DipclockError):
    """A start-up failure a TD can fix: what is wrong, and the fix in one sentence."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what}. Fix: {fix}")
        self.what, self.fix = what, fix


class DisplayUnavailable(DipclockError):
    """No display can be opened at all: the one failure that cannot go on the screen."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what}. Fix: {fix}")

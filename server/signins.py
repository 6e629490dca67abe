"""Sign-ins are checked apart from everything the hub does for its tables and its TD.

A password check is scrypt: a tenth of a second of CPU and 16 MB by design. Run in the
worker threads every other request shares, a flood of wrong passwords from many addresses
(each under its own failure limit, ``server.ratelimit``) once held them all, waiting their
turn: a table's presses and the TD's pause waited 10 to 40 s behind it. Now the checks
have one thread of their own (an ``anyio.CapacityLimiter`` of one, not the shared pool's),
at most ``QUEUE`` sign-ins are checked or waiting at once, and one more is refused at
once, so the flood costs one core and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

import anyio
import anyio.to_thread

from machine.passwords import verify_password

#: sign-ins being checked or waiting for their check: a TD signs in once, and a phone or
#: two at once is a busy morning; more is a flood
QUEUE = 4


@dataclass
class SignIns:
    """The sign-in checks of one hub (``Hub.signins``); used on its event loop only."""

    waiting: int = 0
    _thread: anyio.CapacityLimiter | None = None  # made on the event loop, at first use

    async def check(self, password: str, stored: str) -> bool | None:
        """Whether ``password`` matches ``stored``; None: ``QUEUE`` sign-ins are already
        being checked, so this one is not (the caller says so at once)."""
        if self.waiting >= QUEUE:
            return None
        if self._thread is None:
            self._thread = anyio.CapacityLimiter(1)
        self.waiting += 1
        try:
            return await anyio.to_thread.run_sync(verify_password, password, stored,
                                                  limiter=self._thread)
        finally:
            self.waiting -= 1

"""Sign-ins are checked apart from everything the hub does for its tables and its TD, and
the TD's own devices apart from strangers.

A password check is scrypt: a tenth of a second of CPU and 16 MB by design. Run in the
worker threads every other request shares, a flood of wrong passwords from many addresses
(each under its own failure limit, ``server.ratelimit``) once held them all, waiting their
turn: a table's presses and the TD's pause waited 10 to 40 s behind it. So the checks have
threads of their own (an ``anyio.CapacityLimiter`` of one per lane, not the shared pool's),
a lane checks or holds at most its queue of sign-ins, and one more is refused at once
(503), so a flood costs one core and nothing else.

That queue full of strangers' guesses then refused the TD too: 100 addresses looping wrong
passwords for 22 s, and the TD's right password from its own phone went through 0 times
in 6. So a sign-in goes in one of two lanes:

- **known**: from a browser that signed in before, shown by its *device cookie* (OWASP's
  "device cookies", against lockout), or from the hub's own screen (``LOCAL``: 127.0.0.1,
  ::1; the rest of 127.0.0.0/8 is a stranger's like any address). Its own thread and queue
  (``KNOWN_QUEUE``), and its failures counted per device (per address for the hub's own
  screen);
- **strangers**: everyone else, counted per address, ``QUEUE`` at most.

No stranger's sign-in enters the known lane, so no flood of them can refuse the TD's.

The device cookie is set on every successful sign-in: ``DEVICE_COOKIE`` = a random device
id and its HMAC-SHA256 under a key derived from the stored password hash, for
``DEVICE_DAYS``, HttpOnly, SameSite=Strict, Secure over HTTPS, and sent to ``/api/login``
only. It signs nobody in (the password is still checked and its failures counted), it only
says "this browser knew the password once"; a new password (another hash) makes every
earlier device a stranger again. Forging one takes the hub's password hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from functools import lru_cache

import anyio
import anyio.to_thread

from machine.passwords import verify_password

#: strangers' sign-ins being checked or waiting for their check: a TD signs in once, and a
#: phone or two at once is a busy morning; more is a flood
QUEUE = 4
#: the TD's devices' (and the hub's own screen's) sign-ins checked or waiting at once
KNOWN_QUEUE = 2
#: the sign-ins of the hub's own screen: the known lane
LOCAL = frozenset({"127.0.0.1", "::1"})
DEVICE_COOKIE = "dipclock_device"
#: how long a device stays known after its last sign-in (browsers keep a cookie 400 days
#: at most)
DEVICE_DAYS = 400


@dataclass
class Lane:
    """One kind of sign-in's checks (``SignIns``); used on the hub's event loop only."""

    queue: int
    waiting: int = 0
    _thread: anyio.CapacityLimiter | None = None  # made on the event loop, at first use

    @property
    def full(self) -> bool:
        return self.waiting >= self.queue

    async def check(self, password: str, stored: str) -> bool | None:
        """Whether ``password`` matches ``stored``; None: ``queue`` sign-ins are already
        being checked, so this one is not (the caller says so at once)."""
        if self.full:
            return None
        if self._thread is None:
            self._thread = anyio.CapacityLimiter(1)
        self.waiting += 1
        try:
            return await anyio.to_thread.run_sync(verify_password, password, stored,
                                                  limiter=self._thread)
        finally:
            self.waiting -= 1


@dataclass
class SignIns:
    """The sign-in checks of one hub (``Hub.signins``): the two lanes."""

    strangers: Lane = field(default_factory=lambda: Lane(QUEUE))
    known: Lane = field(default_factory=lambda: Lane(KNOWN_QUEUE))


@lru_cache(maxsize=4)
def _key(password_hash: str) -> bytes:
    return hmac.new(password_hash.encode(), b"dipclock device cookie", hashlib.sha256).digest()


def _signature(password_hash: str, device: str) -> str:
    return hmac.new(_key(password_hash), device.encode("utf-8", "surrogateescape"),
                    hashlib.sha256).hexdigest()


def new_device() -> str:
    return secrets.token_hex(16)


def device_cookie(password_hash: str, device: str) -> str:
    """The cookie's value for ``device``: its id and its signature."""
    return f"{device}.{_signature(password_hash, device)}"


def device_of(password_hash: str, cookie: str | None) -> str | None:
    """The device id a cookie names, if the hub signed it (under this password), else None.
    Compared in constant time, as bytes (any character may come in a cookie)."""
    if not cookie or cookie.count(".") != 1:
        return None
    device, signature = cookie.split(".")
    if len(device) != 32:
        return None
    good = _signature(password_hash, device).encode()
    return device if hmac.compare_digest(signature.encode("utf-8", "surrogateescape"),
                                         good) else None

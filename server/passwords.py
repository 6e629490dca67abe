"""The TD password (only a salted scrypt hash is ever stored) and the hall's kiosk key."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

_N, _R, _P = 2**14, 8, 1
MIN_LENGTH = 8


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash`` (hex), so the cost can rise later without a migration."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


def check_new_password(password: str) -> str | None:
    """Why a new TD password is refused, or None if it will do."""
    if len(password) < MIN_LENGTH:
        return f"the TD password needs at least {MIN_LENGTH} characters"
    return None


def new_kiosk_key(token: Callable[[int], str] = secrets.token_urlsafe) -> str:
    """A random kiosk key that never starts with "-": a TD types `--key KEY`, and argparse
    would read a key like "-x3..." as an option (1 key in 64 did)."""
    while (key := token(18)).startswith("-"):
        pass
    return key

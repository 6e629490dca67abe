"""The TD password: only a salted scrypt hash is ever stored.

In ``machine`` (below ``server``) because both the hub and the card's boot-time setup
(``machine.cardsetup``, which hashes a hub card's password from dipclock.txt) need it."""

from __future__ import annotations

import hashlib
import hmac
import secrets

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


def is_hash(text: str) -> bool:
    """Whether ``text`` is a hash ``hash_password`` made (the installer's file holds one)."""
    parts = text.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        return all(int(v) > 0 for v in parts[1:4]) and len(bytes.fromhex(parts[5])) == 32 \
            and len(bytes.fromhex(parts[4])) > 0
    except ValueError:
        return False


def main() -> int:
    """``python -m machine.passwords [--old]``: the hash of the password on stdin, for the
    installer, which then keeps no plaintext; exit 2 with one line if the password will not
    do (``--old``: one an older installer kept, chosen under the old rules, is hashed as is)."""
    import sys

    password = sys.stdin.readline().rstrip("\r\n")
    problem = None if "--old" in sys.argv[1:] and password else check_new_password(password)
    if problem:
        print(f"dipclock: {problem}", file=sys.stderr)
        return 2
    print(hash_password(password))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

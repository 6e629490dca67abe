"""A certificate's fingerprint, one way for the hub that prints it, the clock that pins it
and the TD who compares them on a phone (whose browser shows SHA-256 as ``3F:2A:...``)."""

from __future__ import annotations

import hashlib
import ssl


def of_der(der: bytes) -> str:
    """SHA-256 of a certificate (DER), as browsers show it: 32 pairs of hex digits."""
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def of_pem(pem: str) -> str:
    return of_der(ssl.PEM_cert_to_DER_cert(pem))


def short(fp: str) -> str:
    """The first 8 of the 32 pairs, for a screen: enough to tell two certificates apart at
    a glance (not to stop a forger: the clock compares the whole one)."""
    return ":".join(fp.split(":")[:8])


__all__ = ["of_der", "of_pem", "short"]

"""The hub's own TLS certificate: HTTPS on a hall's LAN, where no public CA can vouch for it.

A hall's hub has no domain name a public CA would sign, and often no internet at all, so it
makes a self-signed certificate at its first start and keeps it in its data dir (the key
0600). Trust comes from its fingerprint instead: each clock pins it when it is paired, and
the TD checks it once on the phone against the one the hub prints and the clocks show
(docs/security.md). The certificate lasts ten years and names this machine's host names
and addresses, so a browser's warning is about who signed it, not what it names.

Made with ``cryptography`` (the hub's only use of it): the standard library can serve TLS
but cannot make a certificate.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from pathlib import Path

from machine import fingerprint

CERTIFICATE = "hub-cert.pem"
PRIVATE_KEY = "hub-key.pem"
YEARS = 10


def fingerprint_of(path: Path | None) -> str | None:
    """The fingerprint of the PEM certificate at ``path`` (None: no certificate)."""
    return None if path is None else fingerprint.of_pem(path.read_text())


def names() -> tuple[list[str], list[str]]:
    """This machine's host names and IPv4 addresses, for the certificate's SAN: what its
    name resolves to, and the address it reaches the LAN from (as ``dipclock hub`` prints
    it for the TD's phone)."""
    host = socket.gethostname()
    dns = sorted({host, f"{host}.local", "localhost"} - {""})
    addresses = {"127.0.0.1"}
    try:
        addresses.update(socket.gethostbyname_ex(host)[2])
    except OSError:  # a name nothing resolves: the route's address below is enough
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            addresses.add(s.getsockname()[0])
    except OSError:  # no network at all: loopback only
        pass
    return dns, sorted(addresses)


def ensure(data_dir: Path, now: dt.datetime | None = None) -> tuple[Path, Path, bool]:
    """The certificate and key in ``data_dir``, made if missing; the bool says made now.

    Both files or neither: a lone certificate (a key lost) is made again, and the clocks
    paired with the old one must be paired again, which the TD sees on the dashboard.
    """
    cert, key = data_dir / CERTIFICATE, data_dir / PRIVATE_KEY
    if cert.is_file() and key.is_file():
        return cert, key, False
    pem_cert, pem_key = make(now or dt.datetime.now(dt.UTC))
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    _write_private(key, pem_key)
    _write_private(cert, pem_cert, mode=0o644)
    return cert, key, True


def make(now: dt.datetime) -> tuple[bytes, bytes]:
    """A new self-signed certificate and its key, both PEM: ECDSA P-256 (a Pi makes one in
    milliseconds; every browser and Python's ssl take it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    dns, addresses = names()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dipclock hub"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, dns[0])])
    san = [x509.DNSName(d) for d in dns] + [x509.IPAddress(ipaddress.ip_address(a))
                                             for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        # a phone whose clock lags takes it (the clocks check only the pin: kiosk.pairing)
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=365 * YEARS))
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    return (cert.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(serialization.Encoding.PEM,
                              serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()))


def _write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Written whole or not at all (a power cut leaves the old file or none), ``mode`` from
    the first byte: the key is never readable by others, not even for an instant."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


__all__ = ["ensure", "fingerprint_of", "make"]

"""Which table this card is, and which hub it talks to: a hall of cloned SD cards.

Every card is cloned from one image, so ``/etc/dipclock/kiosk.toml`` is the same on all of
them. What differs lives in one small file on the boot partition, FAT, which any laptop can
edit after cloning: ``/boot/firmware/dipclock.txt`` (``/boot/dipclock.txt`` before
Bookworm)::

    # table 7, hall B
    table = 7
    hub = https://10.0.0.1:8000    # or: auto (find it on the network)
    rotate = 90                    # this table's TV is mounted on its side

All are optional: a card that says nothing finds the hub on the network and shows a code;
the TD approves it for a table on the dashboard (``kiosk.pairing``). ``rotate`` (0, 90, 180
or 270: the picture turned clockwise) is here because how each table's screen hangs differs
between cloned cards too. ``key`` (the hall's shared key of old) is still read, so an old
file is no error, and ignored.

The card image (``card/``, docs/card.md) reads more of it at every boot, through
``machine.cardsetup``: ``role`` (table or hub), ``wifi_name``, ``wifi_password``,
``wifi_country``, ``timezone``, ``ssh_key`` and the hub's ``td_password``; ``size`` is the
kiosk's window size, as in kiosk.toml.

The grammar forgives what a laptop's editor does (a byte-order mark, CRLF, quotes, spaces,
``:`` instead of ``=``, upper case keys) and refuses what would make a table silently wrong:
an unknown or repeated key, a table that is not a number. Each refusal is one line naming the
file, the line and the key. Without a file, the hostname can say it: ``table-07`` or
``dipclock-table-7`` is table 7.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dipclock.errors import DipclockError
from machine.passwords import check_new_password

#: Where the boot partition is mounted: Bookworm first, then older Raspberry Pi OS.
BOOT_FILES: tuple[Path, ...] = (Path("/boot/firmware/dipclock.txt"), Path("/boot/dipclock.txt"))
KEYS = ("table", "hub", "key", "rotate")
#: The quarter turns ``rotate`` takes, clockwise (the kiosk's ``rotate`` setting).
ROTATIONS = (0, 90, 180, 270)
#: What the card image reads too (``machine.cardsetup``); ``size`` goes to the kiosk.
CARD_KEYS = ("role", "wifi_name", "wifi_password", "wifi_country", "timezone", "size",
             "ssh_key", "td_password")
ROLES = ("table", "hub")
#: The keys a refusal names: ``key`` (the hall's shared key of old) is read and ignored, so
#: naming it would only invite a TD to set it.
_NAMED = tuple(k for k in (*KEYS, *CARD_KEYS) if k != "key")
AUTO = "auto"
MAX_TABLE = 999

_HOSTNAME = re.compile(r"^(?:dipclock-)?table-?0*(\d{1,3})$", re.IGNORECASE)
_URL = re.compile(r"^https?://[^\s/:@]+(?::\d{1,5})?$")
_SIZE = re.compile(r"^\d{3,4}x\d{3,4}$")
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
_ZONE = re.compile(r"^[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*$")
_SSH_KEY = re.compile(r"^(?:ssh-(?:ed25519|rsa)|ecdsa-sha2-nistp(?:256|384|521)"
                      r"|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
                      r" [A-Za-z0-9+/]+={0,3}(?: \S.*)?$")


class IdentityError(DipclockError):
    """The boot file says something we will not guess at: one line, file and line named."""


@dataclass(frozen=True)
class BootFile:
    """What ``dipclock.txt`` says; None where it says nothing."""

    path: Path
    table: int | None = None
    hub: str | None = None  # a URL, or "auto"
    key: str | None = None
    rotate: int | None = None  # 0, 90, 180 or 270
    role: str = "table"  # "table" or "hub": which of the two services the card runs
    wifi_name: str | None = None
    wifi_password: str | None = None  # None: an open network
    wifi_country: str | None = None  # ISO 3166 code, upper case
    timezone: str | None = None
    size: str | None = None
    ssh_key: str | None = None
    td_password: str | None = None

    def settings(self) -> dict[str, object]:
        """The kiosk settings it gives (``hub = auto`` means: no address, find it)."""
        out: dict[str, object] = {}
        if self.table is not None:
            out["table"] = self.table
        if self.hub is not None:
            out["hub"] = self.hub
        if self.key is not None:
            out["key"] = self.key
        if self.rotate is not None:
            out["rotate"] = self.rotate
        if self.size is not None:
            out["size"] = self.size
        return out


def hub_url(text: str) -> str:
    """``10.0.0.1:8000`` -> ``https://10.0.0.1:8000`` (the hub serves HTTPS unless started
    with ``--plain-http``); ``http://10.0.0.1:8000/`` -> ``http://10.0.0.1:8000``; "auto" stays.

    Raises ValueError saying what a hub address looks like.
    """
    value = text.strip().rstrip("/")
    if value.lower() == AUTO:
        return AUTO
    if "://" not in value:
        value = f"https://{value}"
    if not _URL.match(value):
        raise ValueError(f"{text!r} is not a hub address like https://10.0.0.1:8000 (or auto)")
    return value


def _value(raw: str) -> str:
    """The value with an inline ``# comment`` and matching quotes removed."""
    text = raw.strip()
    if len(text) >= 2 and text[0] in "\"'" and text[0] in text[1:]:
        return text[1:text.index(text[0], 1)].strip()
    text = re.split(r"\s#", text, maxsplit=1)[0]
    return text.strip()


def parse_boot_file(text: str, path: Path) -> BootFile:
    """``dipclock.txt``'s text -> what it says. Raises IdentityError (one line) on a mistake."""
    found: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{path} line {number}"
        match = re.match(r"^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$", stripped)
        if match is None:
            raise IdentityError(f"{where}: expected 'name = value', like table = 7, "
                                f"not {stripped[:40]!r}")
        key, value = match.group(1).lower(), _value(match.group(2))
        if key not in KEYS and key not in CARD_KEYS:
            raise IdentityError(f"{where}: unknown key {match.group(1)!r} (the keys are "
                                f"{', '.join(_NAMED[:-1])} and {_NAMED[-1]})")
        if key in found:
            raise IdentityError(f"{where}: {key} is given twice (first on line {lines[key]})")
        if not value:
            raise IdentityError(f"{where}: {key} has no value")
        found[key], lines[key] = value, number
    table = None
    if "table" in found:
        where = f"{path} line {lines['table']}"
        raw = found["table"]
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_TABLE:
            raise IdentityError(f"{where}: table must be a number from 1 to {MAX_TABLE}, "
                                f"not {raw!r}")
        table = int(raw)
    hub = found.get("hub")
    if hub is not None:
        try:
            hub = hub_url(hub)
        except ValueError as exc:
            raise IdentityError(f"{path} line {lines['hub']}: {exc}") from None
    rotate = None
    if "rotate" in found:
        raw = found["rotate"]
        if not raw.isdigit() or int(raw) not in ROTATIONS:
            raise IdentityError(f"{path} line {lines['rotate']}: rotate must be 0, 90, 180 or "
                                f"270 (the picture turned clockwise), not {raw!r}")
        rotate = int(raw)
    card = _card_keys(found, lambda key: f"{path} line {lines[key]}")
    if card.get("role") == "hub" and table is not None:
        raise IdentityError(f"{path} line {lines['table']}: a hub has no table: remove the "
                            "table line, or say role = table")
    return BootFile(path, table, hub, found.get("key"), rotate, **card)


def _card_keys(found: dict[str, str], where: Callable[[str], str]) -> dict[str, str]:
    """The card's own keys, checked: what a laptop's typo would make silently wrong (a Wi-Fi
    password WPA refuses, a time zone that does not exist) is refused, naming the line."""
    out = {k: v for k, v in found.items() if k in CARD_KEYS}
    role = out.get("role", "table").lower()
    if role not in ROLES:
        raise IdentityError(f"{where('role')}: role is table or hub, not {out['role']!r}")
    out["role"] = role
    name = out.get("wifi_name")
    if name is not None and len(name.encode()) > 32:
        raise IdentityError(f"{where('wifi_name')}: a Wi-Fi name has at most 32 bytes")
    password = out.get("wifi_password")
    if password is not None:
        if name is None:
            raise IdentityError(f"{where('wifi_password')}: a Wi-Fi password needs its "
                                "network: add wifi_name = ...")
        hex64 = len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password)
        if not (8 <= len(password) <= 63 and password.isascii() and password.isprintable()
                or hex64):
            raise IdentityError(f"{where('wifi_password')}: a WPA password has 8 to 63 "
                                f"characters, not {len(password)}")
    country = out.get("wifi_country")
    if country is not None:
        if not _COUNTRY.match(country):
            raise IdentityError(f"{where('wifi_country')}: wifi_country is a two-letter "
                                f"code like GB or DE, not {country!r}")
        out["wifi_country"] = country.upper()
    zone = out.get("timezone")
    if zone is not None:
        try:
            if not _ZONE.match(zone):
                raise ValueError(zone)
            ZoneInfo(zone)
        except (ValueError, ZoneInfoNotFoundError):
            raise IdentityError(f"{where('timezone')}: no time zone {zone!r} (one like "
                                "Europe/London, America/New_York or UTC)") from None
    size = out.get("size")
    if size is not None and not _SIZE.match(size.lower()):
        raise IdentityError(f"{where('size')}: size is like 1920x1080, not {size!r}")
    password = out.get("td_password")
    if password is not None and check_new_password(password):
        raise IdentityError(f"{where('td_password')}: {check_new_password(password)}")
    ssh_key = out.get("ssh_key")
    if ssh_key is not None and not _SSH_KEY.match(ssh_key):
        raise IdentityError(f"{where('ssh_key')}: ssh_key is one public key line, like "
                            "ssh-ed25519 AAAA... you@laptop (the .pub file)")
    return out


def read_boot_file(paths: Sequence[Path] = BOOT_FILES) -> BootFile | None:
    """The first of ``paths`` that exists, parsed; None when the card has none."""
    for path in paths:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise IdentityError(f"{path}: cannot read it: {exc.strerror}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # an editor that saved in Windows-1252: keys are ASCII
            text = raw.decode("latin-1")
        return parse_boot_file(text, path)
    return None


#: The board's serial number: unique per Pi, unlike anything on a cloned card.
SERIAL_FILES: tuple[Path, ...] = (Path("/sys/firmware/devicetree/base/serial-number"),)
CPUINFO = Path("/proc/cpuinfo")


def board_serial(files: Sequence[Path] = SERIAL_FILES, cpuinfo: Path = CPUINFO) -> str | None:
    """The Pi's serial number (device tree, else ``Serial`` in /proc/cpuinfo), or None on a
    machine that has none. Cards are cloned; the board they are put in is not, so this tells
    a card that was copied from another Pi."""
    for path in files:
        try:
            text = path.read_bytes().rstrip(b"\0").decode("ascii", "replace").strip()
        except OSError:
            continue
        if text.strip("0"):
            return text
    try:
        lines = cpuinfo.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip().lower() == "serial" and value.strip().strip("0"):
            return value.strip()
    return None


def table_from_hostname(hostname: str) -> int | None:
    """``table-07`` or ``dipclock-table-7`` -> 7; any other name -> None."""
    match = _HOSTNAME.match(hostname.strip().split(".")[0])
    if match is None or not 1 <= int(match.group(1)) <= MAX_TABLE:
        return None
    return int(match.group(1))


def hostname_table(gethostname: Callable[[], str] = socket.gethostname) -> int | None:
    """This machine's table number by its hostname, if it is named for one."""
    try:
        return table_from_hostname(gethostname())
    except OSError:
        return None


__all__ = ["AUTO", "BOOT_FILES", "CARD_KEYS", "ROLES", "ROTATIONS", "BootFile", "IdentityError",
           "board_serial",
           "hostname_table", "hub_url",
           "parse_boot_file", "read_boot_file", "table_from_hostname"]

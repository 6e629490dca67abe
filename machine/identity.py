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
between cloned cards too; ``language`` (en, fr, de, it or nl) is what the screen says before
the hub has said the event's (``kiosk.config.spoken``). ``key`` (the hall's shared key of
old) is still read, so an old file is no error, and ignored.

The card image (``card/``, docs/card.md) reads more of it at every boot, through
``machine.cardsetup``: ``role`` (table or hub), ``wifi_name``, ``wifi_password``,
``wifi_country``, ``timezone``, ``ssh_key`` and the hub's ``td_password``; ``size`` is the
kiosk's window size, as in kiosk.toml.

The grammar forgives what a laptop's editor does (a byte-order mark, CRLF, quotes, spaces,
``:`` instead of ``=``, upper case keys) and refuses what would make a table silently wrong:
an unknown or repeated key, a table that is not a number. Each refusal is one line naming the
file, the line and the key. A refusal costs its own line only (``parse_boot_lines``,
``read_boot``): one typo must not take the Wi-Fi, the hostname or the hub's role with it, so
the card and the kiosk take every other line and show the refused ones (``refusal_notes``);
``parse_boot_file`` and ``read_boot_file`` are the strict readings, raising at the first.
Without a file, the hostname can say it: ``table-07`` or ``dipclock-table-7`` is table 7.
"""

from __future__ import annotations

import difflib
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dipclock import i18n
from dipclock.errors import DipclockError
from dipclock.i18n import ENGLISH, N_, Said, Words, said
from machine.passwords import check_new_password

#: Where the boot partition is mounted: Bookworm first, then older Raspberry Pi OS.
BOOT_FILES: tuple[Path, ...] = (Path("/boot/firmware/dipclock.txt"), Path("/boot/dipclock.txt"))
KEYS = ("table", "hub", "key", "rotate", "language")
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
class Refusal:
    """One line of ``dipclock.txt`` not taken, and why; the file's other lines are.

    ``why`` is English (the console's, the journal's); ``template`` and ``fields`` say it
    again in a screen's language (``shown``): the catalogue's entry (``N_``) and its
    ``{fields}``. A refusal made without them (a library's words) is shown as it is."""

    path: Path
    line: int | None  # None: the file itself (it cannot be read)
    key: str | None  # None: the line is not ``name = value``
    why: str  # "unknown key 'tabel' (the keys are ...)"
    template: str = field(default="", compare=False)
    fields: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        """"/boot/firmware/dipclock.txt line 2: unknown key 'tabel' (...)": the console's."""
        return str(self.sentence())

    def sentence(self) -> Said:
        """The console's line as a sentence: a start-up problem's screen says it in the
        card's language (``IdentityError``), the path as it is."""
        why: Said | str = Said(self.template, dict(self.fields)) if self.template else self.why
        if self.line is None:
            return said("{path}: {why}", path=str(self.path), why=why)
        return said("{path} line {line}: {why}", path=str(self.path), line=self.line, why=why)

    def shown(self, words: Words = ENGLISH) -> str:
        """The words for a screen, short enough for an alert, with the file's name as the
        laptop shows it: "dipclock.txt line 2 not used: unknown key 'tabel', did you mean
        table?"; in ``words``' language (the card's, before the hub says the event's)."""
        # a field may be a sentence itself (hub_url's): said in ``words`` too
        told = Said(self.template, dict(self.fields)).in_(words) if self.template else self.why
        why = told.split(" (", 1)[0]  # the keys' list, an example: the console has them
        known = (*KEYS, *CARD_KEYS)
        if self.key is not None and self.key.lower() not in known:
            close = difflib.get_close_matches(self.key.lower(), _NAMED, 1)
            if close:
                why = words("{why}, did you mean {key}?", why=why, key=close[0])
        if self.line is None:
            return words("{file} not used: {why}", file=self.path.name, why=why)
        return words("{file} line {line} not used: {why}", file=self.path.name,
                     line=self.line, why=why)


def _refusal(path: Path, line: int | None, key: str | None, why: str, /,
             **fields: object) -> Refusal:
    """A refusal whose ``why`` is the catalogue's entry ``why`` (``N_``) filled."""
    return Refusal(path, line, key, why.format(**fields), why, tuple(fields.items()))


@dataclass(frozen=True)
class BootFile:
    """What ``dipclock.txt`` says; None where it says nothing."""

    path: Path
    table: int | None = None
    hub: str | None = None  # a URL, or "auto"
    key: str | None = None
    rotate: int | None = None  # 0, 90, 180 or 270
    language: str | None = None  # "fr": the screens' before the hub says the event's
    role: str = "table"  # "table" or "hub": which of the two services the card runs
    wifi_name: str | None = None
    wifi_password: str | None = None  # None: an open network
    wifi_country: str | None = None  # ISO 3166 code, upper case
    timezone: str | None = None
    size: str | None = None
    ssh_key: str | None = None
    td_password: str | None = None
    #: the lines not taken (``parse_boot_lines``), in line order; the strict reading has none
    refused: tuple[Refusal, ...] = ()

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
        if self.language is not None:
            out["language"] = self.language
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
        raise ValueError(said("{address} is not a hub address like https://10.0.0.1:8000 (or "
                              "auto)", address=repr(text)))
    return value


def _value(raw: str) -> str:
    """The value with an inline ``# comment`` and matching quotes removed."""
    text = raw.strip()
    if len(text) >= 2 and text[0] in "\"'" and text[0] in text[1:]:
        return text[1:text.index(text[0], 1)].strip()
    text = re.split(r"\s#", text, maxsplit=1)[0]
    return text.strip()


def parse_boot_file(text: str, path: Path) -> BootFile:
    """``dipclock.txt``'s text -> what it says. Raises IdentityError (one line) on a mistake:
    the strict reading, for a caller that must not go on with part of a file."""
    boot = parse_boot_lines(text, path)
    if boot.refused:
        raise IdentityError(boot.refused[0].sentence())
    return boot


def parse_boot_lines(text: str, path: Path) -> BootFile:
    """``dipclock.txt``'s text -> what its good lines say, and each bad line refused.

    One typo must not cost a card its Wi-Fi, its hostname or its role: a line that is not
    ``name = value``, an unknown or repeated key or a value that cannot be is refused alone
    (``BootFile.refused``, in line order) and every other line is taken. Two lines that
    contradict each other: the one that would make the card silently wrong gives way (a
    table on a hub card: the table line, since a hub that starts as a table strands the
    hall; a Wi-Fi password without its network: the password line)."""
    found: dict[str, str] = {}
    lines: dict[str, int] = {}
    refused: list[Refusal] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = re.match(r"^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$", stripped)
        if match is None:
            refused.append(_refusal(path, number, None, N_(
                "expected 'name = value', like table = 7, not {text!r}"), text=stripped[:40]))
            continue
        key, value = match.group(1).lower(), _value(match.group(2))
        if key not in KEYS and key not in CARD_KEYS:
            refused.append(_refusal(path, number, match.group(1), N_(
                "unknown key {key!r} (the keys are {keys} and {last})"), key=match.group(1),
                keys=", ".join(_NAMED[:-1]), last=_NAMED[-1]))
        elif key in found:
            refused.append(_refusal(path, number, key, N_(
                "{key} is given twice (first on line {first})"), key=key, first=lines[key]))
        elif not value:
            refused.append(_refusal(path, number, key, N_("{key} has no value"), key=key))
        else:
            found[key], lines[key] = value, number

    def refuse(key: str, why: str, /, **fields: object) -> None:
        """``why``: the catalogue's entry (``N_``), its ``fields`` filled."""
        refused.append(_refusal(path, lines[key], key, why, **fields))
        del found[key]

    table = None
    if "table" in found:
        raw = found["table"]
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_TABLE:
            refuse("table", N_("table must be a number from 1 to {most}, not {raw!r}"),
                   most=MAX_TABLE, raw=raw)
        else:
            table = int(raw)
    hub = found.get("hub")
    if hub is not None:
        try:
            hub = hub_url(hub)
        except ValueError as exc:
            refuse("hub", "{error}", error=exc.args[0])  # hub_url's sentence
            hub = None
    rotate = None
    if "rotate" in found:
        raw = found["rotate"]
        if not raw.isdigit() or int(raw) not in ROTATIONS:
            refuse("rotate", N_("rotate must be 0, 90, 180 or 270 (the picture turned "
                                "clockwise), not {raw!r}"), raw=raw)
        else:
            rotate = int(raw)
    language = None
    if "language" in found:
        raw = found["language"]
        try:
            language = i18n.language(raw)
            if language not in i18n.LANGUAGES:
                raise i18n.LanguageError(raw)
        except i18n.LanguageError:
            refuse("language", N_("language is one of {languages}, not {raw!r}"),
                   languages=", ".join(i18n.LANGUAGES), raw=raw)
            language = None
    card = _card_keys(found, lines, refuse)
    if card.get("role") == "hub" and table is not None:
        refuse("table", N_("a hub has no table: remove the table line, or say role = table"))
        table = None
    refused.sort(key=lambda r: r.line or 0)
    return BootFile(path, table, hub, found.get("key"), rotate, language, **card,
                    refused=tuple(refused))


def _card_keys(found: dict[str, str], lines: dict[str, int],
               refuse: Callable[..., None]) -> dict[str, str]:
    """The card's own keys, checked: what a laptop's typo would make silently wrong (a Wi-Fi
    password WPA refuses, a time zone that does not exist) is refused, naming the line."""
    role = found.get("role", "table").lower()
    if role not in ROLES:
        refuse("role", N_("role is table or hub, not {raw!r}"), raw=found["role"])
    elif "role" in found:
        found["role"] = role
    name = found.get("wifi_name")
    if name is not None and len(name.encode()) > 32:
        refuse("wifi_name", N_("a Wi-Fi name has at most 32 bytes"))
    password = found.get("wifi_password")
    if password is not None:
        hex64 = len(password) == 64 and all(c in "0123456789abcdefABCDEF" for c in password)
        if "wifi_name" not in found:
            if name is None:
                refuse("wifi_password", N_("a Wi-Fi password needs its network: add "
                                           "wifi_name = ..."))
            else:
                refuse("wifi_password", N_("a Wi-Fi password needs its network, and the "
                                           "wifi_name on line {line} was refused"),
                       line=lines["wifi_name"])
        elif not (8 <= len(password) <= 63 and password.isascii() and password.isprintable()
                  or hex64):
            refuse("wifi_password", N_("a WPA password has 8 to 63 characters, not {n}"),
                   n=len(password))
    country = found.get("wifi_country")
    if country is not None:
        if not _COUNTRY.match(country):
            refuse("wifi_country", N_("wifi_country is a two-letter code like GB or DE, not "
                                      "{raw!r}"), raw=country)
        else:
            found["wifi_country"] = country.upper()
    zone = found.get("timezone")
    if zone is not None:
        try:
            if not _ZONE.match(zone):
                raise ValueError(zone)
            ZoneInfo(zone)
        except (ValueError, ZoneInfoNotFoundError):
            refuse("timezone", N_("no time zone {raw!r} (one like Europe/London, "
                                  "America/New_York or UTC)"), raw=zone)
    size = found.get("size")
    if size is not None and not _size_ok(size):
        refuse("size", N_("size is like 1920x1080, not {raw!r}"), raw=size)
    password = found.get("td_password")
    if password is not None and check_new_password(password):
        refuse("td_password", "{error}", error=check_new_password(password))
    ssh_key = found.get("ssh_key")
    if ssh_key is not None and not _SSH_KEY.match(ssh_key):
        refuse("ssh_key", N_("ssh_key is one public key line, like ssh-ed25519 AAAA... "
                             "you@laptop (the .pub file)"))
    return {k: v for k, v in found.items() if k in CARD_KEYS}


def _size_ok(text: str) -> bool:
    """A size the kiosk can draw at (``kiosk.config.parse_size``'s range): a typo'd size
    refused here costs its line, where the kiosk would refuse the whole start."""
    if not _SIZE.match(text.lower()):
        return False
    w, h = (int(n) for n in text.lower().split("x"))
    return 320 <= w <= 7680 and 240 <= h <= 4320


def read_boot_file(paths: Sequence[Path] = BOOT_FILES) -> BootFile | None:
    """The first of ``paths`` that exists, parsed strictly (IdentityError on a mistake);
    None when the card has none."""
    boot = read_boot(paths)
    if boot is not None and boot.refused:
        raise IdentityError(boot.refused[0].sentence())
    return boot


def read_boot(paths: Sequence[Path] = BOOT_FILES) -> BootFile | None:
    """The first of ``paths`` that exists, its good lines taken and its bad ones in
    ``refused`` (``parse_boot_lines``); None when the card has none. Never raises: a file
    that cannot be read is one refusal, and nothing of it is taken."""
    for path in paths:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            continue
        except OSError as exc:
            return BootFile(path, refused=(_refusal(path, None, None,
                                                    N_("cannot read it: {error}"),
                                                    error=exc.strerror),))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # an editor that saved in Windows-1252: keys are ASCII
            text = raw.decode("latin-1")
        return parse_boot_lines(text, path)
    return None


#: The advice for a refused line, where it works on the card: its root is read-only, and the
#: boot partition is the drive called DIPCLOCK on any laptop.
FIX_ON_A_LAPTOP = ("take the card out, open its DIPCLOCK drive on a laptop, correct {lines} and "
                   "put the card back: it reads dipclock.txt at every start")
#: What Raspberry Pi Imager's customisation leaves on the boot partition: ``firstrun.sh``
#: (Bookworm's way, run from ``cmdline.txt``) or cloud-init's files (Trixie's). The card
#: reads none of them; ``imager_files`` finds them so the screen can say where they belong.
IMAGER_FILES = ("firstrun.sh", "user-data", "network-config", "meta-data")
IMAGER_NOTES = (  # three alerts short enough to read on a 7" panel
    N_("This card ignores Imager's settings: Wi-Fi, hostname, SSH key, user"),
    N_("They belong in dipclock.txt on the card's DIPCLOCK drive:"),
    "wifi_name, wifi_password, wifi_country, ssh_key, table",  # keys: typed as they are
)
#: Where ``machine.cardsetup`` leaves its notes for the screens, one line each: ``refused``
#: (the dipclock.txt lines it did not use, then the fix) and ``imager`` (IMAGER_NOTES).
CARD_NOTES = Path("/run/dipclock-card")


def line_words(refused: Sequence[Refusal], words: Words = ENGLISH) -> str:
    """"line 2", "lines 2 and 5", "lines 2, 5 and 9"; "" for a file that cannot be read."""
    numbers = sorted({r.line for r in refused if r.line is not None})
    if not numbers:
        return ""
    if len(numbers) == 1:
        return words("line {number}", number=numbers[0])
    return words("lines {numbers} and {last}", numbers=", ".join(map(str, numbers[:-1])),
                 last=numbers[-1])


def refusal_fix(refused: Sequence[Refusal]) -> str:
    """The whole advice, for the console and a problem screen."""
    return FIX_ON_A_LAPTOP.format(lines=_of_the_file(refused))


def _of_the_file(refused: Sequence[Refusal], words: Words = ENGLISH) -> str:
    said = line_words(refused, words)
    return words("{lines} of dipclock.txt", lines=said) if said else "dipclock.txt"


def refusal_notes(refused: Sequence[Refusal], words: Words = ENGLISH) -> tuple[str, ...]:
    """The lines a screen shows beside a working clock: each line refused, then the fix in
    few enough words to be read in an alert; in ``words``' language (the card's)."""
    if not refused:
        return ()
    fix = words("Fix: correct {lines} on a laptop (the DIPCLOCK drive)",
                lines=_of_the_file(refused, words))
    return (*(r.shown(words) for r in refused), fix)


def notes_in(notes: Sequence[str], words: Words) -> tuple[str, ...]:
    """Imager's notes (``IMAGER_NOTES``, as ``machine.cardsetup`` left them in English) in
    ``words``' language; any other line as it is."""
    return tuple(words(n) if n in IMAGER_NOTES[:2] else n for n in notes)


def imager_files(folder: Path) -> tuple[str, ...]:
    """The files of Imager's customisation in the boot partition ``folder``, and
    ``cmdline.txt`` when Imager made it run ``firstrun.sh``."""
    found = [name for name in IMAGER_FILES if (folder / name).is_file()]
    try:
        cmdline = (folder / "cmdline.txt").read_text(errors="replace")
    except OSError:
        cmdline = ""
    if "systemd.run=" in cmdline and "firstrun.sh" in cmdline:
        found.append("cmdline.txt")
    return tuple(found)


def card_notes(folder: Path | None = None, refused: bool = True) -> tuple[str, ...]:
    """What ``machine.cardsetup`` left for the screens at this boot in ``folder`` (default
    CARD_NOTES): the refused lines of dipclock.txt and their fix (``refused``), then Imager's
    notes; () off the card."""
    folder = folder or CARD_NOTES
    out: list[str] = []
    for name in ("refused", "imager") if refused else ("imager",):
        try:
            text = (folder / name).read_text(errors="replace")
        except OSError:
            continue
        out += [line for line in text.splitlines() if line.strip()]
    return tuple(out)


def imager_notes() -> tuple[str, ...]:
    """Imager's notes the card's setup left at this boot (the kiosk reads the refused lines
    of dipclock.txt itself, so they stay right for a file edited since)."""
    return card_notes(refused=False)


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


__all__ = ["AUTO", "BOOT_FILES", "CARD_KEYS", "CARD_NOTES", "IMAGER_FILES", "IMAGER_NOTES",
           "ROLES", "ROTATIONS", "BootFile", "IdentityError", "Refusal", "board_serial",
           "card_notes", "imager_files", "imager_notes", "line_words", "notes_in",
           "refusal_fix", "refusal_notes",
           "hostname_table", "hub_url",
           "parse_boot_file", "parse_boot_lines", "read_boot", "read_boot_file",
           "table_from_hostname"]

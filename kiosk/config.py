"""The kiosk's settings: a TOML file (``/etc/dipclock/kiosk.toml`` or ``--config``) plus options.

One pydantic model with ``extra="forbid"``, so a misspelt key in a file nobody reads again
stops the kiosk at boot with one line naming the file and the key, instead of a table
silently running the wrong round. Options given on the command line override the file.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dipclock import i18n
from dipclock.errors import DipclockError
from dipclock.eventfiles import os_reason
from dipclock.i18n import ENGLISH, Words, said
from dipclock.powers import LETTERS, power_letter
from dipclock.validation import describe
from machine.identity import AUTO, Refusal, hub_url, notes_in, refusal_notes

SYSTEM_CONFIG = Path("/etc/dipclock/kiosk.toml")
SYSTEM_OUTBOX = Path("/var/lib/dipclock/outbox.sqlite")


class ConfigError(DipclockError):
    """A settings problem: one line, exit status 2; raised with a sentence, so the table's
    screen says it in the card's language (the key and the file as written)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: Quarter turns of the picture, clockwise (``machine.identity.ROTATIONS``).
Rotation = Literal[0, 90, 180, 270]

#: gpiozero's pin factories (its ``gpiozero_pin_factories`` entry points): lgpio on Bookworm.
PinFactoryName = Literal["lgpio", "rpigpio", "pigpio", "native", "mock"]


class Buttons(_Strict):
    """Where the seven buttons come from; any mix of the three feeds one queue."""

    gpio: dict[str, int | str] = {}
    pin_factory: PinFactoryName | None = None  # None: gpiozero's own order (lgpio first)
    serial: str | None = None  # a port, a pyserial URL, or "auto"
    keyboard: bool = True
    hold_seconds: Annotated[float, Field(gt=0, le=30)] = 3.0

    @field_validator("gpio")
    @classmethod
    def _powers(cls, value: dict[str, int | str]) -> dict[str, int | str]:
        out = {}
        for name, pin in value.items():
            out[power_letter(name)] = pin  # ValueError names the choices
        return out


class Settings(_Strict):
    """Everything a kiosk can be told, in the file or as options."""

    event: str | None = None
    start: str | None = None  # "10:00" (today) or "2006-08-04T10:00"
    round: Annotated[int, Field(ge=1)] | None = None
    end_year: Annotated[int, Field(ge=1901)] | None = None
    call: str | None = None
    pauses: list[str] = []  # like `dipclock plan --pause`: "S1903=60", "12:30=45"
    table: Annotated[int, Field(ge=1)] | None = None
    hub: str | None = None  # https://HOST:PORT, or "auto": find it on the network (mDNS)
    key: str | None = None  # no longer used (each clock is paired): accepted, and ignored
    size: str | None = None  # "1280x720"; default: the display's own size
    fullscreen: bool = True
    #: the picture turned clockwise for a screen mounted on its side (90, 270) or upside
    #: down (180); ``size`` stays the screen's own (1920x1080 for a TV on its side)
    rotate: Rotation = 0
    warning_minutes: Annotated[float, Field(ge=0, le=60)] = 2.0
    sound: bool = False
    outbox: str | None = None
    #: what the screens say before the hub has said the event's language (``spoken``)
    language: str | None = None
    buttons: Buttons = Buttons()

    @field_validator("start", "call", mode="before")
    @classmethod
    def _moment_text(cls, value: Any) -> Any:
        # TOML has native dates and times; keep the text form the options use.
        if isinstance(value, datetime | time | date):
            return value.isoformat()
        return value

    @field_validator("size")
    @classmethod
    def _size(cls, value: str | None) -> str | None:
        if value is not None:
            parse_size(value)
        return value

    @field_validator("language")
    @classmethod
    def _language(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            code: str | None = i18n.language(value)
        except i18n.LanguageError:
            code = None
        if code not in i18n.LANGUAGES:  # not the pseudo-language either: a card's is real
            raise ValueError(said("language {value}: one of {languages}", value=repr(value),
                                  languages=", ".join(i18n.LANGUAGES)))
        return code

    @field_validator("hub")
    @classmethod
    def _hub(cls, value: str | None) -> str | None:
        return None if value is None else hub_url(value)

    @property
    def window_size(self) -> tuple[int, int] | None:
        return parse_size(self.size) if self.size else None

    @property
    def finds_hub(self) -> bool:
        """``hub = "auto"``, or no typed address and no event of its own (a card cloned with
        nothing on it): browse the network for the hub, then pair with it (unless the card
        ran one board alone before: ``kiosk.startup`` resumes that round)."""
        return self.hub == AUTO or (self.hub is None and self.event is None)


@dataclass(frozen=True)
class Loaded:
    """Settings and the kiosk.toml they were read from (None: no file)."""

    settings: Settings
    config: Path | None
    #: what the screen says beside the clock about the card's settings: dipclock.txt's lines
    #: not used and their fix, Imager's settings ignored (``machine.identity.refusal_notes``),
    #: in English (the journal's); ``notes_in`` says them in a screen's language
    notes: tuple[str, ...] = ()
    #: dipclock.txt's lines not used (``machine.identity.Refusal``), and Imager's notes as
    #: the card's setup left them: what ``notes`` says, to say again in another language
    refused: tuple[Refusal, ...] = ()
    imager: tuple[str, ...] = ()

    def notes_in(self, words: Words) -> tuple[str, ...]:
        """``notes`` in ``words``' language (the card's, or the event's once told)."""
        if not self.refused and not self.imager:
            return self.notes
        return refusal_notes(self.refused, words) + notes_in(self.imager, words)


def parse_size(text: str) -> tuple[int, int]:
    """``1280x720`` -> (1280, 720); the layout is designed for 800x480 up to 3840x2160, and
    for the same turned on their side (480x800 up to 2160x3840)."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise ValueError(said("{size} is not a size like 1280x720", size=repr(text)))
    size = int(w), int(h)
    if not (320 <= size[0] <= 7680 and 240 <= size[1] <= 4320):
        raise ValueError(said("{size}: size out of range", size=repr(text)))
    return size


def load_file(path: Path) -> dict[str, Any]:
    """The raw table of a config file; errors name the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(said("{path}: cannot read config: {error}", path=str(path),
                               error=os_reason(exc))) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(said("{path}: not valid TOML: {error}", path=str(path),
                               error=str(exc))) from None
    validate(data, str(path))  # report a file's own mistakes against the file
    return data


def validate(data: dict[str, Any], origin: str) -> Settings:
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(said("{origin}: {problem}", origin=origin,
                               problem=describe(exc.errors()))) from None


def merge(file_data: dict[str, Any], options: dict[str, Any], origin: str) -> Settings:
    """File settings overlaid by every option that was given (None means not given)."""
    data = dict(file_data)
    buttons = dict(data.get("buttons") or {})
    for key, value in options.items():
        if value is None:
            continue
        if key.startswith("buttons."):
            buttons[key.removeprefix("buttons.")] = value
        else:
            data[key] = value
    if buttons:
        data["buttons"] = buttons
    return validate(data, origin)


#: The outbox's key for the last event's language the hub said (``Kiosk.frame`` keeps it):
#: ``{"language": "fr", "terms": {"England": "Grande-Bretagne"}}``
HEARD = "language"


def spoken(setting: str | None, heard: object = None) -> Words:
    """The language of a table's screens before its hub has said the event's (connecting,
    looking for the hub, pairing, a problem at start-up): the card's ``language`` setting,
    else the last event's language the hub said (``heard``, kept in the outbox), else
    English. Once a snapshot says the event's language, that wins (``Kiosk.frame``).

    The setting wins over the remembered one because it is the TD's own word, the one thing
    a TD can change without a hub: a card that last served a German event and is now set to
    ``language = fr`` for a French one must speak French from its first screen, and a card
    whose remembered language is wrong is put right by one line of dipclock.txt. A card set
    to nothing speaks what its last event spoke, which is what a TD expects of a card that
    comes back to the same hall."""
    if setting is not None:
        return Words(i18n.language(setting))
    if isinstance(heard, dict):
        try:
            code = i18n.language(str(heard.get("language") or "en"))
        except i18n.LanguageError:  # an outbox of a later version's language: English
            return ENGLISH
        terms = heard.get("terms")
        return Words(code, {str(k): str(v) for k, v in terms.items()}
                     if isinstance(terms, dict) else {})
    return ENGLISH


def heard(words: Words) -> dict[str, object]:
    """What the outbox keeps of an event's language (``HEARD``; read by ``spoken``)."""
    return {"language": words.lang, "terms": dict(words.terms)}


def default_outbox() -> Path:
    """/var/lib/dipclock on a Pi where that is writable, else the user's state directory."""
    parent = SYSTEM_OUTBOX.parent
    if parent.is_dir() and os.access(parent, os.W_OK):
        return SYSTEM_OUTBOX
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return state / "dipclock" / "outbox.sqlite"


__all__ = ["AUTO", "HEARD", "LETTERS", "Buttons", "ConfigError", "Loaded", "Settings",
           "default_outbox", "heard", "merge", "spoken"]

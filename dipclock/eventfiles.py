"""Find an event by built-in id or TOML path: the one place the shells read event files.

The core's one I/O module, on purpose. Every shell (the ``dipclock`` launcher, ``dipclock
kiosk``, the demo) turns ``--event X`` into a profile the same way, with the same
messages; putting it in any one shell would make the others import that shell. It only
reads the file: parsing is ``dipclock.events.parse_event_toml``'s, pure. The purity test
checks every other core module and leaves this one (and the launcher) out by name.
"""

from __future__ import annotations

import errno
import warnings
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tzlocal

from dipclock.events import BUILTIN, EventError, EventProfile, parse_event_toml
from dipclock.i18n import N_, Said, said


def load_event(ref: str) -> EventProfile:
    """A built-in id (``wdc2006``) or a path to a TD's TOML file, in the venue's time
    zone: the file's ``timezone``, else this machine's (``machine_zone``)."""
    profile = _read(ref)
    if profile.timezone is None:
        profile = profile.model_copy(update={"timezone": machine_zone()})
    return profile


def machine_zone() -> str:
    """This machine's IANA zone (``TZ``, /etc/timezone, /etc/localtime, as tzlocal reads
    them: a well-kept library for what the standard library cannot tell); UTC when the
    machine names none it knows."""
    try:
        with warnings.catch_warnings():  # "no configuration, defaulting to UTC": said below
            warnings.simplefilter("ignore")
            name = tzlocal.get_localzone_name()
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return "UTC"
    try:
        ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"
    return name or "UTC"


def _read(ref: str) -> EventProfile:
    if ref in BUILTIN:
        return BUILTIN[ref]
    path = Path(ref)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise EventError(said("{file}: cannot read event file: {reason}", file=ref,
                                  reason=os_reason(exc))) from None
        except UnicodeDecodeError:
            raise EventError(said("{file}: not a text file (TOML is UTF-8)", file=ref)) \
                from None
        return parse_event_toml(text, str(path))
    known = ", ".join(BUILTIN)
    raise EventError(said("unknown event {event}: use one of {known} or a .toml file",
                          event=repr(ref), known=known))


#: The system's reasons for the errors a command meets most (reading an event file, a
#: scores file, writing an export), as the catalogue has them: ``strerror`` is the C
#: library's English, which no catalogue of ours translates.
_REASONS: dict[int, str] = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
}


def os_reason(exc: OSError) -> Said | str:
    """An ``OSError``'s reason (``strerror``), said in the reader's language where the
    catalogue has it, else the system's own words (``str(exc)`` if it gives none)."""
    english = _REASONS.get(exc.errno or 0)
    if english is not None and exc.strerror == english:
        return Said(english)  # the very same words, so English reads as before
    return exc.strerror or str(exc)

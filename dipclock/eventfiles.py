"""Find an event by built-in id or TOML path: the one place the shells read event files.

The core's one I/O module, on purpose. Every shell (the ``dipclock`` launcher, ``dipclock
kiosk``, the demo) turns ``--event X`` into a profile the same way, with the same
messages; putting it in any one shell would make the others import that shell. It only
reads the file: parsing is ``dipclock.events.parse_event_toml``'s, pure. The purity test
checks every other core module and leaves this one (and the launcher) out by name.
"""

from __future__ import annotations

from pathlib import Path

from dipclock.events import BUILTIN, EventError, EventProfile, parse_event_toml


def load_event(ref: str) -> EventProfile:
    """A built-in id (``wdc2006``) or a path to a TD's TOML file."""
    if ref in BUILTIN:
        return BUILTIN[ref]
    path = Path(ref)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise EventError(f"{ref}: cannot read event file: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise EventError(f"{ref}: not a text file (TOML is UTF-8)") from None
        return parse_event_toml(text, str(path))
    known = ", ".join(BUILTIN)
    raise EventError(f"unknown event {ref!r}: use one of {known} or a .toml file")

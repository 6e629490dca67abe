"""Find an event by built-in id or TOML path: the one place the shells read event files."""

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

"""One error hierarchy: every error a user can meet is a DipclockError, so each shell catches
one class and prints (or draws) its message instead of a traceback.

The exception classes are found in the source, not listed by hand, so a new one that forgets
the root fails here the day it lands.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from pathlib import Path

import pytest

from dipclock.errors import DipclockError

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dipclock", "kiosk", "server", "hardware", "machine")
BUILTIN_ERRORS = {name for name, value in vars(builtins).items()
                  if isinstance(value, type) and issubclass(value, BaseException)}

#: The ones the issue names; the scan below must find at least these.
NAMED = [
    "dipclock.arguments.UsageError",
    "dipclock.events.EventError",
    "kiosk.config.ConfigError",
    "kiosk.problems.Problem",
    "kiosk.problems.DisplayUnavailable",
    "server.cli.HubError",
    "server.hubtime.ClockRefused",
    "server.opening.SetupError",
    "hardware.gpio.PinFactoryError",
    "hardware.events.ButtonsClosed",
    "machine.identity.IdentityError",
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def exception_classes() -> list[str]:
    """Every top-level class in our packages whose base is an exception class (a builtin one,
    or a name ending in Error/Exception), as ``module.Class``."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in tree.body:
                if not isinstance(node, ast.ClassDef):
                    continue
                bases = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                         for b in node.bases]
                if any(b in BUILTIN_ERRORS or b.endswith(("Error", "Exception")) for b in bases):
                    found.append(f"{_module_name(path)}.{node.name}")
    return found


def load(dotted: str) -> type:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_the_scan_finds_every_named_error():
    assert set(NAMED) <= set(exception_classes())


@pytest.mark.parametrize("dotted", exception_classes())
def test_every_error_of_ours_is_a_dipclock_error(dotted):
    cls = load(dotted)
    assert issubclass(cls, BaseException)
    assert issubclass(cls, DipclockError), f"{dotted} does not derive from DipclockError"


def test_one_usage_error_for_the_commands():
    from kiosk import doctor

    assert doctor.UsageError is load("dipclock.arguments.UsageError")


def test_an_event_error_is_still_a_value_error():
    # pydantic turns a ValueError raised in a validator into a ValidationError: a profile
    # rule checked there keeps its message
    assert issubclass(load("dipclock.events.EventError"), ValueError)


def test_each_shell_prints_a_dipclock_error_as_one_line(capsys, tmp_path):
    from dipclock.launcher.cli import main as dipclock_main
    from kiosk.cli import main as kiosk_main
    from kiosk.doctor import main as doctor_main
    from server.cli import main as hub_main

    for main, argv, prefix in (
        (dipclock_main, ["plan", "no-such-event", "--start", "10:00"], "dipclock: error: "),
        (kiosk_main, ["--event", "wdc2006", "--start", "10:00", "--at", "10:01"],
         "dipclock kiosk: error: "),
        (hub_main, ["--data", str(tmp_path / "hub"), "--port", "0"], "dipclock hub: error: "),
        (doctor_main, ["--buttons", "0"], "dipclock doctor: error: "),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(prefix) and err.count("\n") == 1, err
        assert "Traceback" not in err

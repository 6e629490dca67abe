"""The core does no I/O: no hardware, screen or web imports, no clock reads, no files.

Every module of ``dipclock/`` is checked, found on disk rather than listed by hand, so a new
core module is checked the day it lands. Two parts are the shell and are left out by name:
the launcher (``dipclock/launcher/``, ``dipclock/__main__.py``) and ``eventfiles``, the one
module that reads event files (its docstring says why).
"""

import ast
import datetime as dt
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dipclock

PACKAGE = Path(dipclock.__file__).parent
SHELL = {"dipclock.eventfiles", "dipclock.__main__"}
SHELL_PACKAGES = ("dipclock.launcher",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def core_modules() -> list[str]:
    """Every module of dipclock/ but the shell: what must stay pure."""
    names = (_module_name(p) for p in sorted(PACKAGE.rglob("*.py")))
    return [n for n in names
            if n not in SHELL and not any(n == s or n.startswith(s + ".") for s in SHELL_PACKAGES)]


CORE = core_modules()
FORBIDDEN_MODULES = {"pygame", "gpiozero", "serial", "fastapi", "uvicorn", "starlette",
                     "httpx", "websockets", "sqlite3", "socket", "time", "os", "pathlib",
                     "random", "threading", "asyncio", "subprocess"}
FORBIDDEN_CALLS = {"now", "today", "utcnow", "time", "monotonic", "perf_counter", "open",
                   "read_text", "fromtimestamp", "getenv", "sleep"}


def _source(name: str) -> ast.Module:
    relative = Path(*name.split(".")[1:])
    path = PACKAGE / relative / "__init__.py"
    if not path.exists():
        path = (PACKAGE / relative).with_suffix(".py")
    return ast.parse(path.read_text(), filename=str(path))


def test_the_core_is_found_on_disk_and_the_shell_left_out():
    assert {"dipclock", "dipclock.events", "dipclock.timeline", "dipclock.penalties",
            "dipclock.late", "dipclock.sync", "dipclock.powers", "dipclock.arguments",
            "dipclock.errors"} <= set(CORE)
    assert not {"dipclock.eventfiles", "dipclock.__main__", "dipclock.launcher",
                "dipclock.launcher.cli", "dipclock.launcher.demo"} & set(CORE)


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_nothing_that_does_io(name):
    tree = _source(name)
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN_MODULES


@pytest.mark.parametrize("name", CORE)
def test_core_module_never_calls_a_clock_or_a_file(name):
    calls = {
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        for node in ast.walk(_source(name))
        if isinstance(node, ast.Call)
    }
    assert not calls & FORBIDDEN_CALLS


def test_importing_the_core_loads_no_hardware_screen_or_web_library():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'pygame','gpiozero','serial','fastapi','uvicorn','starlette','httpx'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_whole_round_computes_with_every_clock_disabled(monkeypatch):
    from dipclock.events import BUILTIN
    from dipclock.late import Press, board
    from dipclock.phaseview import view
    from dipclock.schedule import Schedule
    from dipclock.timeline import timetable

    def boom(*_a, **_k):
        raise AssertionError("the core read the clock")

    class FrozenOut(dt.datetime):
        now = classmethod(boom)
        today = classmethod(boom)
        utcnow = classmethod(boom)

    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns"):
        monkeypatch.setattr(time, name, boom)
    monkeypatch.setattr(dt, "datetime", FrozenOut)
    start = dt.date(2006, 8, 4)
    start = FrozenOut(start.year, start.month, start.day, 10)
    profile = BUILTIN["wdc2006"]
    table = timetable(profile, Schedule(start=start))
    v = view(profile, Schedule(start=start), table.phases[3].deadline)
    status = board(table.phases, v.now, [Press("A", v.now)], profile.penalty)
    assert v.phase.code == "S1903" and status["A"].power == "A"

"""The walls between the packages, read from the source: who imports whom.

Every .py of every top-level package of the repo (each folder at its top holding an
``__init__.py``, found by listing the repo, so a new package is covered the day it is added) is
parsed with ``ast``; every import counts, at the top of a module or inside a function (a lazy
import still ties the two modules together), except those under ``if TYPE_CHECKING:``, which
never run. Relative imports are resolved. From that graph:

* no import cycles: a cycle makes the import order matter and hides a wall in the wrong place;
* no cycles between the packages either (the launcher, the core, kiosk, server, hardware,
  machine, card, benchmarks, tests): ``machine.x`` importing ``kiosk.y`` while ``kiosk.z``
  imports ``machine.w`` is no cycle of modules, yet the two packages then stand on each other,
  and neither is the floor;
* nothing imports the tests but the tests, nor the benchmarks but the tests and the
  benchmarks: they measure and check the house from above, the house never stands on them;
* nothing but the launcher (and the tests and benchmarks above it) imports the launcher
  (``dipclock.launcher``, ``dipclock.__main__``);
* the core (``dipclock`` but the launcher) imports nothing of ours but the core;
* ``kiosk.hubclient`` pulls in no module that imports pygame, so the hub client runs (and is
  tested) without a screen library;
* ``hardware`` imports nothing of ours but the core, nor a screen or web library: the
  buttons run headless, under the doctor as under the kiosk.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAUNCHER = ("dipclock.launcher", "dipclock.__main__")
#: above the house: they import any of it, and nothing of it imports them
TESTS, BENCHMARKS = "tests", "benchmarks"

Graph = dict[str, set[str]]


def within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def top_level_packages(root: Path) -> list[str]:
    """Every package at the top of the repo: a folder with an ``__init__.py`` (a hidden
    one, such as ``.venv``, is no part of the repo's code)."""
    return sorted(p.parent.name for p in root.glob("*/__init__.py")
                  if not p.parent.name.startswith("."))


def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Module name -> file, for every .py under the packages (``pkg/__init__.py`` is ``pkg``)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


class _Imports(ast.NodeVisitor):
    """The names a module imports (absolute, dotted), anywhere but under TYPE_CHECKING."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.names: list[tuple[str, str | None]] = []  # (module, name imported from it)

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.names.extend((alias.name, None) for alias in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([node.module] if node.module else [])])
        self.names.extend((base, alias.name) for alias in node.names)


def read_imports(modules: Mapping[str, Path]) -> tuple[Graph, dict[str, set[str]]]:
    """(edges between our modules, the outside top-level packages each module imports)."""
    edges: Graph = {name: set() for name in modules}
    outside: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        visitor = _Imports(name, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        for module, member in visitor.names:
            if member is not None and f"{module}.{member}" in modules:
                target = f"{module}.{member}"  # from pkg import submodule
            elif module in modules:
                target = module
            else:
                outside[name].add(module.partition(".")[0])
                continue
            if target != name:
                edges[name].add(target)
    return edges, outside


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components, each sorted; the graph's cycles are the
    components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def path_between(graph: Graph, start: str, goal: Iterable[str]) -> list[str] | None:
    """A shortest import chain from ``start`` to any module in ``goal`` (breadth first)."""
    goals = set(goal)
    came: dict[str, str | None] = {start: None}
    todo = deque([start])
    while todo:
        v = todo.popleft()
        for w in sorted(graph.get(v, ())):
            if w in came:
                continue
            came[w] = v
            if w in goals:
                chain = [w]
                while (back := came[chain[-1]]) is not None:
                    chain.append(back)
                return chain[::-1]
            todo.append(w)
    return None


def cycles(graph: Graph) -> list[str]:
    """Each cycle as ``a -> b -> a``, one per strongly connected component."""
    found = []
    for component in strongly_connected(graph):
        if len(component) > 1:
            members = set(component)
            inside = {v: graph[v] & members for v in component}
            first = component[0]
            back = path_between(inside, first, {v for v in component if first in inside[v]})
            assert back is not None
            found.append(" -> ".join([*back, first]))
    return found


def with_parents(graph: Graph) -> Graph:
    """The graph plus what Python also runs: importing ``pkg.mod`` runs ``pkg/__init__.py``."""
    full = {v: set(ws) for v, ws in graph.items()}
    for v, ws in graph.items():
        for w in ws:
            parts = w.split(".")
            full[v] |= {".".join(parts[:i]) for i in range(1, len(parts))} & graph.keys()
    return full


def package(module: str) -> str:
    """The package a module belongs to: the launcher is one of its own, above the core."""
    return "dipclock.launcher" if within(module, LAUNCHER) else module.partition(".")[0]


def between_packages(graph: Graph) -> tuple[Graph, dict[tuple[str, str], str]]:
    """The packages' graph, and for each of its arrows one import that makes it."""
    edges: Graph = {}
    example: dict[tuple[str, str], str] = {}
    for v, ws in sorted(graph.items()):
        edges.setdefault(package(v), set())
        for w in sorted(ws):
            a, b = package(v), package(w)
            if a != b:
                edges[a].add(b)
                example.setdefault((a, b), f"{v} imports {w}")
    return edges, example


def package_cycles(graph: Graph) -> list[str]:
    """Each cycle between packages, each arrow with an import that makes it."""
    edges, example = between_packages(graph)
    found = []
    for cycle in cycles(edges):
        names = cycle.split(" -> ")
        found.append(" -> ".join(names) + " (" + "; ".join(
            example[(a, b)] for a, b in zip(names, names[1:], strict=False)) + ")")
    return found


class House(tuple[Graph, dict[str, set[str]]]):
    """(edges, outside imports), with a short repr for pytest's failure report."""

    def __repr__(self) -> str:
        return f"<import graph of {len(self[0])} modules>"


@pytest.fixture(scope="module")
def house() -> House:
    return House(read_imports(find_modules(ROOT, top_level_packages(ROOT))))


def test_every_top_level_package_is_read(house):
    graph, _ = house
    read = {package(v) for v in graph}
    assert read == {*top_level_packages(ROOT), "dipclock.launcher"}
    assert {"dipclock", "kiosk", "server", "hardware", "machine", "card", "benchmarks",
            TESTS} <= read


def test_the_graph_sees_every_kind_of_import(house):
    graph, outside = house
    assert "card.layout" in graph["benchmarks.card_test"]  # the packages no shell imports
    assert "dipclock.launcher.cli" in graph["dipclock.__main__"]  # top level, absolute
    assert "hardware.events" in graph["hardware.gpio"]  # relative: from .events import
    assert "kiosk.cli" in graph["dipclock.launcher.cli"]  # inside a function
    assert "pygame" in outside["kiosk.app"] and "gpiozero" in outside["hardware.gpio"]


def test_no_import_cycles(house):
    graph, _ = house
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(found)


def test_no_cycles_between_packages(house):
    graph, _ = house
    found = package_cycles(graph)
    assert not found, "packages that import each other: " + "; ".join(found)


def test_nothing_imports_the_tests_or_the_benchmarks_from_below(house):
    graph, _ = house
    wrong = sorted(f"{v} imports {w}" for v, ws in graph.items() for w in ws
                   if (within(w, [TESTS]) and not within(v, [TESTS]))
                   or (within(w, [BENCHMARKS]) and not within(v, [TESTS, BENCHMARKS])))
    assert not wrong, "; ".join(wrong)


def test_nothing_but_the_launcher_imports_the_launcher(house):
    graph, _ = house
    wrong = sorted(f"{v} imports {w}" for v, ws in graph.items() for w in ws
                   if within(w, LAUNCHER) and not within(v, [*LAUNCHER, TESTS, BENCHMARKS]))
    assert not wrong, "; ".join(wrong)


def test_the_core_imports_nothing_of_ours_but_the_core(house):
    graph, _ = house
    wrong = sorted(f"{v} imports {w}" for v, ws in graph.items() for w in ws
                   if within(v, ["dipclock"]) and not within(v, LAUNCHER)
                   and (not within(w, ["dipclock"]) or within(w, LAUNCHER)))
    assert not wrong, "; ".join(wrong)


def test_the_hub_client_pulls_in_no_screen_library(house):
    graph, outside = house
    drawing = {v for v, names in outside.items() if "pygame" in names}
    chain = path_between(with_parents(graph), "kiosk.hubclient", drawing)
    assert chain is None, "kiosk.hubclient imports pygame through " + " -> ".join(
        [*chain, "pygame"])


def test_the_buttons_import_only_the_core_and_no_screen_nor_web(house):
    graph, outside = house
    libraries = {"pygame", "fastapi", "starlette", "uvicorn"}
    wrong = sorted(
        [f"{v} imports {w}" for v, ws in graph.items() for w in ws
         if within(v, ["hardware"]) and package(w) not in ("hardware", "dipclock")]
        + [f"{v} imports {name}" for v, names in outside.items() for name in names
           if within(v, ["hardware"]) and name in libraries])
    assert not wrong, "; ".join(wrong)


# --- the checker itself, on a small tree written for the purpose ----------------------------

def test_a_new_package_is_read_without_naming_it(tmp_path):
    for name in ("core/__init__.py", "newshell/__init__.py", "newshell/x.py", "loose/run.py",
                 ".venv/__init__.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("import core\n" if name == "newshell/x.py" else "")
    assert top_level_packages(tmp_path) == ["core", "newshell"]  # scripts' folders are none
    graph, _ = read_imports(find_modules(tmp_path, top_level_packages(tmp_path)))
    assert graph["newshell.x"] == {"core"}


def test_a_cycle_is_found_and_named(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def later():\n    from .sub import c\n",  # lazy and relative
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "import pkg.a\nfrom typing import TYPE_CHECKING\n"
                        "if TYPE_CHECKING:\n    from pkg import d\n",
        "pkg/d.py": "from pkg.sub import c\n",  # only reached under TYPE_CHECKING: no cycle
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    graph, _ = read_imports(find_modules(tmp_path, ["pkg"]))
    assert cycles(graph) == ["pkg.a -> pkg.b -> pkg.sub.c -> pkg.a"]
    (tmp_path / "pkg/b.py").write_text("")
    graph, _ = read_imports(find_modules(tmp_path, ["pkg"]))
    assert cycles(graph) == []


def test_a_cycle_between_packages_is_found_where_the_modules_have_none(tmp_path):
    for name, text in {
        "shell/__init__.py": "", "shell/probe.py": "", "shell/doctor.py": "import app.config\n",
        "app/__init__.py": "", "app/config.py": "", "app/pairing.py": "from shell import probe\n",
    }.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    graph, _ = read_imports(find_modules(tmp_path, ["shell", "app"]))
    assert cycles(graph) == []
    assert package_cycles(graph) == [
        "app -> shell -> app (app.pairing imports shell.probe; shell.doctor imports app.config)"]

"""Every file ``make card`` and the card harnesses read is in the repository.

A file git ignores (``build/`` once caught ``card/files/build/``) or never added is on the
machine that made it and missing from a fresh clone; a warm card cache hides it until the
cache is empty, half an hour into a volunteer's first build."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from card import build

ROOT = Path(__file__).resolve().parents[2]
#: The modules that read files of the checkout at build or boot time
READERS = ("card/build.py", "card/base.py", "card/layout.py", "benchmarks/card_test.py",
           "benchmarks/hall_test.py", "benchmarks/raspios_shaped.py")


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   timeout=60)


def test_every_file_the_card_build_reads_is_tracked_by_git() -> None:
    assert (ROOT / ".git").exists(), "the tests run from a git checkout (a clone)"
    assert build.not_in_repository() == []


def test_an_ignored_or_never_added_file_is_named(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("build/\n")
    stand_in = tmp_path / "card/files/build/systemd-sysusers"
    stand_in.parent.mkdir(parents=True)
    stand_in.write_text("#!/bin/sh\n")
    (tmp_path / "card/files/root").mkdir()
    (tmp_path / "card/files/root/unit").write_text("[Unit]\n")
    (tmp_path / "card/files/boot").mkdir()
    (tmp_path / "card/files/boot/dipclock.txt").write_text("# table = 7\n")
    git(tmp_path, "add", ".gitignore", "card/files/boot/dipclock.txt")
    assert build.not_in_repository(tmp_path, ("card/files", "systemd")) == [
        "systemd (not in this checkout)",
        "card/files/build/systemd-sysusers (not tracked by git)",
        "card/files/root/unit (not tracked by git)",
    ]
    git(tmp_path, "add", "card/files/root/unit")
    git(tmp_path, "add", "-f", "card/files/build/systemd-sysusers")
    assert build.not_in_repository(tmp_path, ("card/files",)) == []


def test_the_build_copies_the_checkout_as_a_clone_has_it(tmp_path: Path) -> None:
    src, dst = tmp_path / "src", tmp_path / "dst"
    (src / "systemd").mkdir(parents=True)
    git(src, "init", "-q")
    (src / "systemd/install.sh").write_text("#!/bin/sh\n")
    (src / "systemd/only-here.sh").write_text("#!/bin/sh\n")
    git(src, "add", "systemd/install.sh")
    build.copy_checkout(src, dst)
    assert sorted(p.relative_to(dst).as_posix() for p in dst.rglob("*") if p.is_file()) == [
        "systemd/install.sh"]


def _literal_paths(path: Path) -> list[str]:
    """``ROOT / "a/b"`` and ``FILES / "c"`` in a module: the checkout paths it names."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                and isinstance(node.left, ast.Name) and node.left.id in ("ROOT", "FILES")
                and isinstance(node.right, ast.Constant) and isinstance(node.right.value, str)):
            continue
        prefix = "card/files/" if node.left.id == "FILES" else ""
        found.append(prefix + node.right.value)
    return found


@pytest.mark.parametrize("reader", READERS)
def test_each_checkout_path_a_card_module_names_is_a_declared_source(reader: str) -> None:
    """A new file read by the build is added to build.SOURCES, so the check above sees it."""
    if not (ROOT / reader).exists():
        pytest.fail(f"{reader} is listed here but not in the checkout")
    roots = build.SOURCES + build.OUTPUTS
    stray = [p for p in _literal_paths(ROOT / reader)
             if not any(p == s or p.startswith(s.rstrip("/") + "/") for s in roots)]
    assert stray == [], f"{reader} reads {stray}: add them to card.build.SOURCES"


def test_the_literal_path_reader_sees_a_stray_path(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('X = ROOT / "secret/file.txt"\nY = FILES / "boot/dipclock.txt"\n')
    assert _literal_paths(module) == ["secret/file.txt", "card/files/boot/dipclock.txt"]

"""The README and docs/ link to each other and to the screenshots: every relative link and
image resolves, and every ``#anchor`` names a heading of its file, so moving a section
cannot leave a dead link behind it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted(ROOT.glob("*/README.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, spaces to hyphens, punctuation
    other than hyphens and underscores dropped."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)}


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [m.group(1) or m.group(2) for m in LINK.finditer(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_a_page_resolves(page: Path) -> None:
    dead = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto: — not this repository's
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        if not found.exists():
            dead.append(f"{target}: no such file")
        elif anchor and found.suffix == ".md" and anchor not in anchors(found):
            dead.append(f"{target}: no heading #{anchor}")
    assert not dead, dead


def test_the_checker_finds_a_dead_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Here\n[ok](#here) [gone](missing.md) [bad](#nowhere)\n")
    assert links(page) == ["#here", "missing.md", "#nowhere"]
    assert anchors(page) == {"here"}

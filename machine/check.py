"""One finding of ``dipclock doctor``: what was checked, the verdict, what was found, the fix.

Every probe module turns what it read into these, so the doctor only orders and prints them,
and the dashboard gets the same four fields as JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Verdict = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    """``fix`` is one sentence a TD can act on; empty when there is nothing to do."""

    name: str
    verdict: Verdict
    detail: str
    fix: str = ""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def ok(name: str, detail: str) -> Check:
    return Check(name, "ok", detail)


def warn(name: str, detail: str, fix: str) -> Check:
    return Check(name, "warn", detail, fix)


def fail(name: str, detail: str, fix: str) -> Check:
    return Check(name, "fail", detail, fix)

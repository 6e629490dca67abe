"""One finding of ``dipclock doctor``: what was checked, the verdict, what was found, the fix.

Every probe module turns what it read into these, so the doctor only orders and prints them,
and the dashboard gets the same four fields as JSON (in English: scripts read them). A
detail or fix given as a sentence (``dipclock.i18n.said``) is printed in the command line's
language (``said``); one given as text is printed as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from dipclock.i18n import Said, Words

Verdict = Literal["ok", "warn", "fail"]
#: a detail or a fix: a sentence said in the reader's language, or text as it is
Text = str | Said


@dataclass(frozen=True)
class Check:
    """``fix`` is one sentence a TD can act on; empty when there is nothing to do.
    ``detail`` and ``fix`` are English; ``sentences`` the same said in a language, where
    they were given as sentences."""

    name: str
    verdict: Verdict
    detail: str
    fix: str = ""
    sentences: tuple[Said | None, Said | None] = field(default=(None, None), compare=False,
                                                       repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "verdict": self.verdict, "detail": self.detail,
                "fix": self.fix}

    def said(self, words: Words) -> tuple[str, str]:
        """The detail and the fix in ``words``' language."""
        detail, fix = self.sentences
        return (detail.in_(words) if detail is not None else self.detail,
                fix.in_(words) if fix is not None else self.fix)


def _check(name: str, verdict: Verdict, detail: Text, fix: Text) -> Check:
    return Check(name, verdict, str(detail), str(fix),
                 (detail if isinstance(detail, Said) else None,
                  fix if isinstance(fix, Said) else None))


def ok(name: str, detail: Text) -> Check:
    return _check(name, "ok", detail, "")


def warn(name: str, detail: Text, fix: Text) -> Check:
    return _check(name, "warn", detail, fix)


def fail(name: str, detail: Text, fix: Text) -> Check:
    return _check(name, "fail", detail, fix)

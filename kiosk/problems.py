"""What a start-up failure is: something a TD can fix, said with the fix in one sentence."""

from __future__ import annotations

from collections.abc import Mapping

from dipclock.errors import DipclockError
from dipclock.i18n import Words


class Problem(DipclockError):
    """A start-up failure a TD can fix: what is wrong, and the fix in one sentence.

    ``what`` and ``fix`` are English, as the console and the journal say them; given as
    catalogue entries (``N_``) with ``{fields}`` filled from ``values``, the table's screen
    says them in its language (``shown``). A message that is not in the catalogue (a
    library's error text) is shown as it is."""

    def __init__(self, what: str, fix: str, values: Mapping[str, object] | None = None
                 ) -> None:
        self.values = dict(values or {})
        self.template = (what, fix)
        what, fix = (what.format(**self.values), fix.format(**self.values)) if self.values \
            else (what, fix)
        super().__init__(f"{what}. Fix: {fix}")
        self.what, self.fix = what, fix

    def shown(self, words: Words) -> tuple[str, str]:
        """What is wrong and the fix, in ``words``' language."""
        # "" is no catalogue entry: gettext would answer it with the catalogue's header
        return tuple(words(text, **self.values) if text else text  # type: ignore[return-value]
                     for text in self.template)


class DisplayUnavailable(DipclockError):
    """No display can be opened at all: the one failure that cannot go on the screen."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what}. Fix: {fix}")

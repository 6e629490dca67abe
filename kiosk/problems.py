"""What a start-up failure is: something a TD can fix, said with the fix in one sentence."""

from __future__ import annotations

from collections.abc import Mapping

from dipclock.errors import DipclockError
from dipclock.i18n import Said, Words, said


class Problem(DipclockError):
    """A start-up failure a TD can fix: what is wrong, and the fix in one sentence.

    ``what`` and ``fix`` are English, as the console and the journal say them; given as
    catalogue entries (``N_``) with ``{fields}`` filled from ``values``, the table's screen
    says them in its language (``shown``), a value that is a sentence (``Said``) or an error
    raised with one said in it too. A message that is not in the catalogue (a library's
    error text) is shown as it is."""

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
        values = {k: v.in_(words) if isinstance(v, Said | DipclockError) else v
                  for k, v in self.values.items()}
        return tuple(words(text, **values) if text else text  # type: ignore[return-value]
                     for text in self.template)


class DisplayUnavailable(DipclockError):
    """No display can be opened at all: the one failure that cannot go on the screen. Said
    on the console in the card's language (``in_``), English in ``str()``."""

    def __init__(self, what: Said | str, fix: Said | str) -> None:
        super().__init__(said("{what}. Fix: {fix}", what=what, fix=fix))

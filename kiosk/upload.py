"""What the hub's answer to a batch of presses, or of confirmations, means for the outbox
(no I/O).

Only a 2xx stores anything: a refused batch (409: no round set up yet; 5xx: the hub failed)
stays unsent and goes again later. The hub dedups by id, so resending after a lost reply is
harmless. A press the reply names in ``rejected`` is logged once and flagged in the outbox,
never resent: it would be refused again and hold up every later press of the table.

A confirmation of a line of the result sheet is done only when the reply names it: ``taken``
(a line confirmed already is taken again, so resending is harmless too) or ``refused``, the
sheet having changed since the screen showed it (logged once, flagged, never resent: its
player presses again on the new sheet). One the reply does not name, or a reply that does
not parse, stays unsent: marked taken on a guess, it would show a line confirmed that is not.
A vote press (a power's button while the table's vote waited for it) is answered the same way.
Part of ``kiosk.session``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from dipclock.snapshot import ConfirmationsReply, PressesReply
from kiosk.backoff import Backoff
from kiosk.outbox import StoredConfirmation, StoredPress, StoredVotePress

log = logging.getLogger(__name__)

CHECK_EVERY = 30.0  # s between two looks at the outbox when everything went


@dataclass(frozen=True)
class Outcome:
    """A batch the hub took: presses to mark sent, and those to flag with the hub's reason."""

    sent: tuple[str, ...]
    rejected: tuple[tuple[str, str], ...]


class Uploader:
    """The press upload's decisions and its retry timing."""

    def __init__(self, backoff: Backoff):
        self._backoff = backoff

    def reply(self, batch: Sequence[StoredPress], status: int, body: Any,
              text: str = "") -> Outcome | None:
        """The hub's answer to ``batch``; None: it took nothing."""
        if not 200 <= status < 300:
            log.warning("hub refused %d presses: HTTP %d %s", len(batch), status, text[:200])
            return None
        refused = _refused(batch, body)
        return Outcome(tuple(p.id for p in batch if p.id not in refused),
                       tuple(refused.items()))

    def confirmations(self, batch: Sequence[StoredConfirmation], status: int, body: Any,
                      text: str = "") -> Outcome | None:
        """The hub's answer to a batch of confirmations: those it took (``sent``) and
        refused (``rejected``, with its reason); None: it answered none of them."""
        outcome = _answered([c.id for c in batch], status, body, text, "confirmations")
        if outcome is not None:
            reasons = dict(outcome.rejected)
            for c in batch:
                if c.id in reasons:
                    log.warning("hub refused the confirmation %s of %s's line (round %d, "
                                "version %d): %s", c.id, c.power, c.round, c.version,
                                reasons[c.id])
        return outcome

    def vote_presses(self, batch: Sequence[StoredVotePress], status: int, body: Any,
                     text: str = "") -> Outcome | None:
        """The hub's answer to a batch of vote presses (a ``ConfirmationsReply``, as for
        the sheet's lines, with the same rules): taken, refused with why, or None."""
        outcome = _answered([v.id for v in batch], status, body, text, "vote presses")
        if outcome is not None:
            reasons = dict(outcome.rejected)
            for v in batch:
                if v.id in reasons:
                    log.warning("hub refused the vote press %s of %s (vote %d): %s", v.id,
                                v.power, v.vote, reasons[v.id])
        return outcome

    def next_wait(self, ok: bool) -> float:
        """Seconds before the next attempt: a periodic check when all went, else backoff."""
        if ok:
            self._backoff.reset()
            return CHECK_EVERY
        return self._backoff.next()


def _answered(ids: Sequence[str], status: int, body: Any, text: str, what: str
              ) -> Outcome | None:
    """A ``ConfirmationsReply`` to a batch of ``ids``: the ids it took, those it refused
    with its reason (never one it also took); None: it answered none of them."""
    if not 200 <= status < 300:
        log.warning("hub refused %d %s: HTTP %d %s", len(ids), what, status, text[:200])
        return None
    try:
        reply = ConfirmationsReply.model_validate(body)
    except ValidationError:
        log.warning("hub's answer to %d %s does not parse: sent again", len(ids), what)
        return None
    taken = set(reply.taken)
    reasons = {r.id: r.reason for r in reply.refused if r.id is not None}
    return Outcome(tuple(i for i in ids if i in taken),
                   tuple((i, reasons[i]) for i in ids if i in reasons and i not in taken))


def _refused(batch: Sequence[StoredPress], body: Any) -> dict[str, str]:
    """The presses of ``batch`` the hub named in ``rejected``, each logged once. A reply
    that does not parse names none: the batch was stored (2xx), the hub dedups by id."""
    try:
        reply = PressesReply.model_validate(body)
    except ValidationError:
        return {}
    reasons = {r.id: r.reason for r in reply.rejected if r.id is not None}
    out: dict[str, str] = {}
    for p in batch:
        if p.id in reasons:
            out[p.id] = reasons[p.id]
            log.warning("hub refused press %s %s %s %s: %s", p.id, p.power, p.kind,
                        p.at.isoformat(), reasons[p.id])
    return out

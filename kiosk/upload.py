"""What the hub's answer to a batch of presses means for the outbox (no I/O).

Only a 2xx stores anything: a refused batch (409: no round set up yet; 5xx: the hub failed)
stays unsent and goes again later. The hub dedups by id, so resending after a lost reply is
harmless. A press the reply names in ``rejected`` is logged once and flagged in the outbox,
never resent: it would be refused again and hold up every later press of the table.
Part of ``kiosk.session``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from dipclock.snapshot import PressesReply
from kiosk.backoff import Backoff
from kiosk.outbox import StoredPress

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

    def next_wait(self, ok: bool) -> float:
        """Seconds before the next attempt: a periodic check when all went, else backoff."""
        if ok:
            self._backoff.reset()
            return CHECK_EVERY
        return self._backoff.next()


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

"""How the hub turns a request down: an HTTP status and one line the TD can act on.

Its own module, below every other: the TD's actions (``server.actions``) and the routes
raise it, and ``server.app`` answers it as ``{"detail": line}``. The store raises none:
its own ``server.store.StoreConflict``, which ``server.app`` answers the same way (409).
"""

from __future__ import annotations

from dipclock.errors import DipclockError
from dipclock.i18n import Said


class Refused(DipclockError):
    """The hub turns the TD's action down: the HTTP status and one line for the dashboard,
    a ``Said`` where it is said in the reader's language (``server.app`` answers it in the
    request's ``Accept-Language``)."""

    def __init__(self, status: int, message: str | Said | DipclockError) -> None:
        # a Said (or a core error raised with one) is kept: ``in_(words)`` says it in a
        # language
        super().__init__(message)
        self.status = status
        self.message = str(message)

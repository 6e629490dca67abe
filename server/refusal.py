"""How the hub turns a request down: an HTTP status and one line the TD can act on.

Its own module, below every other: the TD's actions (``server.actions``) and the routes
raise it, and ``server.app`` answers it as ``{"detail": line}``. The store raises none:
its own ``server.store.StoreConflict``, which ``server.app`` answers the same way (409).
"""

from __future__ import annotations

from dipclock.errors import DipclockError


class Refused(DipclockError):
    """The hub turns the TD's action down: the HTTP status and one line for the dashboard."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

"""The TD's hall message: set it (replacing the one shown) or clear it.

Every table's clock and the hall page show it in a banner until it is cleared or its time
runs out (``dipclock.hallmessage``). Like every TD change: the session, the CSRF header,
the state the dashboard's screen was drawn from (``server.stale``), one transaction with
its log line, then a snapshot to every table. Plain ``def`` routes: SQLite runs in a worker
thread. Included by ``server.routers.td`` under its ``/api`` prefix.
"""

from __future__ import annotations

from fastapi import APIRouter

from dipclock import hallmessage
from dipclock.i18n import said
from server.auth import Base, TDWrite
from server.context import HubDep
from server.hallmessage import (
    MessageIn,
    as_json,
    clear_line,
    set_line,
    showing,
)
from server.refusal import Refused
from server.responses import MessageSet
from server.rounds import current, hall_venue
from server.snapshot import publish

router = APIRouter(tags=["td"])


@router.put("/td/message", response_model=MessageSet)
def set_message(body: MessageIn, _: TDWrite, hub: HubDep, base: Base) -> MessageSet:
    """Show ``text`` on every table and the hall page, for ``minutes`` (else until
    cleared); it replaces the message shown."""
    now = hub.clock.moment()
    message = hallmessage.new(body.text, now, body.minutes)
    tz = hall_venue(hub.store, current(hub.store))
    line = set_line(message, showing(hub.store, now), tz)
    hub.store.set_hall_message(message.model_dump_json(), now, line, base=base)
    publish(hub)
    return MessageSet(message=as_json(message, tz), seq=hub.store.seq())


@router.delete("/td/message", response_model=MessageSet)
def clear_message(_: TDWrite, hub: HubDep, base: Base) -> MessageSet:
    """Take the message down from every table and the hall page now."""
    now = hub.clock.moment()
    before = showing(hub.store, now)
    if before is None:
        raise Refused(409, said("no hall message is shown"))
    hub.store.set_hall_message(None, now, clear_line(before), base=base)
    publish(hub)
    return MessageSet(message=None, seq=hub.store.seq())

"""Calling the round: the preview of where each table's game ends, the call, and its undo.

The preview and the call ask the same core question (``server.calling``: the schedule with
``call`` set, walked by ``dipclock.timeline``), so what the TD confirms is what the kiosks
then show. Plain ``def`` routes: SQLite blocks, so they run in worker threads.
"""

from __future__ import annotations

from fastapi import APIRouter

from server import actions
from server.auth import TD, Base, TDWrite
from server.calling import preview
from server.context import HubDep
from server.language import PhoneWords
from server.responses import Called, CallPreview
from server.rounds import current, venue
from server.schemas import CallRequest, LocalTime
from server.snapshot import publish
from server.views import iso

router = APIRouter(prefix="/api/td", tags=["td"])


@router.get("/call/preview", response_model=CallPreview)
def call_preview(_: TD, hub: HubDep, words: PhoneWords,
                 at: LocalTime | None = None) -> CallPreview:
    """Where each table's game would end if the round were called now (or ``at``), and a
    warning for each table the call would cut off shortly before a deadline (in the
    phone's language)."""
    cur = actions.need_round(current(hub.store))
    called = actions.call_round(CallRequest(at=at), cur, hub.clock.moment()).what
    return preview(cur.profile, cur.schedule, cur.round.number, called, hub.store.tables(),
                   words=words)


@router.post("/call", response_model=Called)
def call_round(body: CallRequest, _: TDWrite, hub: HubDep, base: Base) -> Called:
    """Call the round: games end at the last deadline at or before the call."""
    cur, now = actions.need_round(current(hub.store)), hub.clock.moment()
    done = actions.call_round(body, cur, now)
    hub.store.set_call(cur.round.number, done.what, now, done.said, base=base)
    publish(hub)
    return Called(call=iso(done.what, venue(cur.profile)), seq=hub.store.seq())


@router.delete("/call", response_model=Called)
def undo_call(_: TDWrite, hub: HubDep, base: Base) -> Called:
    """Undo the call: the round has no call again and every table plays on (logged)."""
    cur, now = actions.need_round(current(hub.store)), hub.clock.moment()
    done = actions.undo_call(cur)
    hub.store.set_call(cur.round.number, done.what.call, now, done.said, base=base)
    publish(hub)
    return Called(call=None, seq=hub.store.seq())

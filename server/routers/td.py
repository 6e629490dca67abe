"""The Tournament Director's routes: the dashboard's state, setup, clock actions, penalties.

Thin on purpose: each reads the round from the store, asks ``server.actions`` what to
store (a refusal there is the answer, see ``server.app``), stores it in one transaction
with its audit line, and pushes the change to every kiosk. Sign-in is
``server.routers.session``; the dashboard's payload is ``server.dashboard``.

Nothing here blocks the event loop that answers the kiosks' time sync: the changes are
plain ``def`` routes (SQLite with ``synchronous=FULL`` blocks), run in Starlette's worker
threads (``server.push`` hands their snapshots back to the loop); the heavy reads run in a
worker thread one at a time (``server.context.heavy_read``) and come back as JSON already
checked and encoded (``server.responses.render``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response

from dipclock.i18n import said
from server import actions, roundsetup
from server.actions import Action, EventScope
from server.auth import TD, Base, TDWrite
from server.bodies import Parsed
from server.context import Hub, HubDep, heavy_read
from server.dashboard import state as dashboard_state
from server.language import PhoneWords
from server.logline import restored
from server.responses import (
    Changed,
    DashboardState,
    Decided,
    EventPreview,
    EventSet,
    LateSubmission,
    PauseAdded,
    PausesEnded,
    RoundPreview,
    RoundSet,
    TablesSet,
    render,
)
from server.resultsdesk import event_teams_note
from server.review import as_csv, late_submissions
from server.rounds import current
from server.routers import messages as message_routes
from server.routers import seating as seating_routes
from server.schemas import (
    AdjustRequest,
    EventChoice,
    PauseRequest,
    PenaltyDecision,
    ResumeRequest,
    RoundSetup,
    TablesSetup,
)
from server.snapshot import publish

router = APIRouter(prefix="/api", tags=["td"])
router.include_router(seating_routes.router)
router.include_router(message_routes.router)

#: ``?round=3``: one round's late orders (without it: every round's)
RoundQuery = Annotated[int | None, Query(ge=1, le=99)]

# --- reading ----------------------------------------------------------------------------


@router.get("/td/state", response_model=DashboardState)
async def state(_: TD, hub: HubDep, request: Request, review: RoundQuery = None) -> Response:
    """Everything the dashboard shows, in one poll; ``review``: whose late orders to list
    (default: the current round's); the clock card in the phone's language."""
    accept = request.headers.get("accept-language")
    return await heavy_read(hub, lambda: render(DashboardState,
                                                dashboard_state(hub, review, accept)))


@router.get("/td/penalties", response_model=list[LateSubmission])
async def penalties(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """Late orders of round ``round``, or of every round."""
    return await heavy_read(
        hub, lambda: render(list[LateSubmission], late_submissions(hub, round))
    )


@router.get("/penalties.csv", response_class=Response, responses={
    200: {"content": {"text/csv": {}}, "description": "every late submission, one a row"}})
async def penalties_csv(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """The event's CSV (every round), or round ``round``'s alone."""
    text = await heavy_read(hub, lambda: as_csv(late_submissions(hub, round)))
    name = "penalties.csv" if round is None else f"penalties-round-{round}.csv"
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# --- setup ------------------------------------------------------------------------------


def _event_scope(hub: Hub, body: EventChoice, now: datetime) -> Action[EventScope]:
    """The event chosen and the rounds it is for at ``now`` (``actions.event_scope``)."""
    chosen = actions.choose_event(body)
    cur = hub.store.current_round()
    return actions.event_scope(chosen.what, chosen.said, cur, now,
                               record=bool(cur and hub.store.record(cur)))


@router.post("/td/event/preview", response_model=EventPreview)
def preview_event(body: Parsed[EventChoice], _: TD, hub: HubDep,
                  words: PhoneWords) -> EventPreview:
    """What choosing the event would do, for the question the dashboard asks first: the
    round it starts with and what becomes of the teams set (a bad file: its 422)."""
    done = _event_scope(hub, body, hub.clock.moment())
    profile = done.what.profile
    return EventPreview(event=profile.id, name=profile.name,
                        from_round=done.what.first_round,
                        teams=event_teams_note(hub.store, profile, words))


@router.put("/td/event", response_model=EventSet)
def set_event(body: Parsed[EventChoice], _: TDWrite, hub: HubDep, base: Base,
              words: PhoneWords) -> EventSet:
    """Choose the event for the next round, or for the current one if it has not started:
    a round under way or called keeps the rules it is played under (review, CSV). The
    teams set stay whatever the event; the reply says whether it scores them."""
    now = hub.clock.moment()
    done = _event_scope(hub, body, now)
    hub.store.set_event(done.what.profile, now, done.said, done.what.current, base=base)
    publish(hub)
    return EventSet(event=done.what.profile.id, from_round=done.what.first_round,
                    seq=hub.store.seq(),
                    teams=event_teams_note(hub.store, done.what.profile, words))


@router.post("/td/round/preview", response_model=RoundPreview)
def preview_round(body: RoundSetup, _: TD, hub: HubDep, words: PhoneWords) -> RoundPreview:
    """What setting up (or reopening) the round would do, before the TD says yes: what
    every table would show, the questions to ask, and for a record what would move (in
    the phone's language)."""
    return roundsetup.preview(hub, body, words)


@router.put("/td/round", response_model=RoundSet)
def set_round(body: RoundSetup, _: TDWrite, hub: HubDep, base: Base) -> RoundSet:
    """Set up (or correct) the round; the event's round list fills the title and last year.
    A round that is a record changes only with ``reopen`` (the store checks it as it
    writes); the change can be undone (``POST /api/td/round/undo``)."""
    now = hub.clock.moment()
    done = roundsetup.change(hub, body, now)
    hub.store.set_round(done.row, now, done.summary, base=base, reopen=body.reopen)
    publish(hub)
    return RoundSet(round=body.number, seq=hub.store.seq())


@router.post("/td/round/undo", response_model=RoundSet)
def undo_round(_: TDWrite, hub: HubDep, base: Base) -> RoundSet:
    """Take back the last change to the rounds (a setup or a reopened round's
    correction): the round as it was, and the round every table played then."""
    last = hub.store.last_round_change()
    if last is None:
        raise actions.Refused(409, said("no change to the rounds to undo"))
    number, summary, _at, sentence = last
    undone = hub.store.undo_round(hub.clock.moment(), said(
        "undo: {change}", change=restored(summary, sentence)), base=base)
    publish(hub)
    return RoundSet(round=undone, seq=hub.store.seq())


@router.put("/td/tables", response_model=TablesSet)
def set_tables(body: TablesSetup, _: TDWrite, hub: HubDep, base: Base) -> TablesSet:
    done = actions.set_up_tables(body)
    hub.store.set_tables(done.what, hub.clock.moment(), done.said, base=base)
    publish(hub)
    return TablesSet(tables=done.what, seq=hub.store.seq())


# --- clock actions ----------------------------------------------------------------------


@router.post("/td/pauses", response_model=PauseAdded)
def pause(body: PauseRequest, _: TDWrite, hub: HubDep, base: Base) -> PauseAdded:
    """A break for every table (now, or at a coming deadline), or a hold on one table."""
    cur, now = actions.need_round(current(hub.store)), hub.clock.moment()
    done = actions.start_pause(body, cur, now, hub.store.tables())
    pid = hub.store.add_pause(cur.round.number, done.what, now, done.said, base=base)
    publish(hub)
    return PauseAdded(id=pid, seq=hub.store.seq())


@router.post("/td/resume", response_model=PausesEnded)
def resume(body: ResumeRequest, _: TDWrite, hub: HubDep, base: Base) -> PausesEnded:
    """End the running break (or table ``table``'s hold) now."""
    now = hub.clock.moment()
    done = actions.resume(body, actions.need_round(current(hub.store)), now)
    hub.store.end_pauses(done.what, now, done.said, base=base)
    publish(hub)
    return PausesEnded(ended=sorted(done.what), seq=hub.store.seq())


@router.post("/td/pauses/{pause_id}/end", response_model=PausesEnded)
def end_pause(pause_id: int, _: TDWrite, hub: HubDep, base: Base) -> PausesEnded:
    """End one pause now; a break not started yet is thereby cancelled."""
    now = hub.clock.moment()
    done = actions.end_pause(pause_id, actions.need_round(current(hub.store)), now)
    hub.store.end_pauses(done.what, now, done.said, base=base)
    publish(hub)
    return PausesEnded(ended=[pause_id], seq=hub.store.seq())


@router.post("/td/adjustments", response_model=Changed)
def adjust(body: AdjustRequest, _: TDWrite, hub: HubDep, base: Base) -> Changed:
    """Give time (positive seconds) or take it away, for every table or one."""
    cur, now = actions.need_round(current(hub.store)), hub.clock.moment()
    done = actions.adjust(body, cur, now, hub.store.tables())
    hub.store.add_adjustment(cur.round.number, done.what, now, done.said, base=base)
    publish(hub)
    return Changed(seq=hub.store.seq())


@router.delete("/td/adjustments/{adjustment_id}", response_model=Changed)
def undo_adjustment(adjustment_id: Annotated[int, Path(ge=1)], _: TDWrite, hub: HubDep,
                    base: Base) -> Changed:
    """Undo time given or taken away (as the call's undo): every deadline is back where
    it was; the log keeps both."""
    cur, now = actions.need_round(current(hub.store)), hub.clock.moment()
    done = actions.undo_adjustment(adjustment_id, hub.store.adjustments(cur.round.number),
                                   cur)
    hub.store.drop_adjustment(adjustment_id, now, done.said, base=base)
    publish(hub)
    return Changed(seq=hub.store.seq())


# --- penalties --------------------------------------------------------------------------


@router.post("/td/penalties", response_model=Decided)
def decide(body: PenaltyDecision, _: TDWrite, hub: HubDep, base: Base) -> Decided:
    """Confirm, waive or change the proposed penalty of one late submission."""
    done = actions.decide(body, late_submissions(hub, body.round), hub.clock.moment())
    hub.store.decide(done.what, done.said, base=base)
    return Decided(final=done.what.final, seq=hub.store.seq())

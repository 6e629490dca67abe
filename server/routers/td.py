"""The Tournament Director's routes: sign-in, setup, clock actions, penalties.

Every change is one store transaction (logged in the audit table with the hub's time) and
is followed by a push to every kiosk. Deadlines and lateness come from the core.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool

from dipclock.events import BUILTIN, EventError, parse_event_toml
from dipclock.timeline import Adjustment, Pause, PhaseRef, break_state, timetable, view
from server.auth import TD, TDWrite, current_session, end_session, start_session
from server.context import Hub, HubDep
from server.grid import grid
from server.hubtime import status as clock_status
from server.passwords import verify_password
from server.review import as_csv, late_submissions
from server.rounds import Current, current
from server.schemas import (
    AdjustRequest,
    CallRequest,
    EventChoice,
    Login,
    PauseRequest,
    PenaltyDecision,
    ResumeRequest,
    RoundSetup,
    TablesSetup,
)
from server.snapshot import publish
from server.store import Decision, RoundRow
from server.views import iso, pause_json, view_json

router = APIRouter(prefix="/api", tags=["td"])


# --- session ----------------------------------------------------------------------------


@router.post("/login")
async def login(body: Login, request: Request, response: Response, hub: HubDep) -> dict:
    """Rate-limited per client IP: too many failures in the window answer 429."""
    ip = request.client.host if request.client else "?"
    wait = hub.logins.retry_after(ip, hub.clock.mono())
    if wait is not None:
        raise HTTPException(
            429, f"too many failed sign-ins: try again in {wait:.0f} s",
            headers={"Retry-After": str(int(wait + 0.999))},
        )
    if not await run_in_threadpool(verify_password, body.password, hub.password_hash):
        hub.logins.fail(ip, hub.clock.mono())
        raise HTTPException(401, "wrong password")
    hub.logins.clear(ip)
    hub.store.drop_expired_sessions(hub.clock.now())
    return {"csrf": start_session(hub, response)}


@router.post("/logout")
async def logout(session: TDWrite, response: Response, hub: HubDep) -> dict:
    end_session(hub, session, response)
    return {"signed_in": False}


@router.get("/session")
async def session_info(request: Request, hub: HubDep) -> dict:
    """Whether this browser is signed in, and the CSRF token its page must send."""
    s = current_session(request, hub)
    return {"signed_in": True, "csrf": s.csrf} if s else {"signed_in": False}


# --- reading ----------------------------------------------------------------------------


@router.get("/td/state")
async def state(_: TD, hub: HubDep) -> dict[str, Any]:
    """Everything the dashboard shows, in one poll."""
    cur = current(hub.store)
    now = hub.clock.moment()
    out: dict[str, Any] = {
        "hub_time": hub.clock.now(),
        "now": iso(now),
        "clock": clock_status(hub),
        "seq": hub.store.seq(),
        "kiosk_key": hub.kiosk_key,
        "events": [{"id": p.id, "name": p.name} for p in BUILTIN.values()],
        "event": None,
        "round": None,
        "hall": None,
        "pauses": [],
        "deadlines": [],
        "tables": grid(hub, cur),
        "penalties": [],
        "audit": [
            {"at": iso(a.at), "action": a.action, "summary": a.summary}
            for a in hub.store.audit(40)
        ],
    }
    profile = hub.store.event()
    if profile is not None:
        out["event"] = {
            "id": profile.id,
            "name": profile.name,
            "penalty_model": profile.penalty.model,
            "rounds": [
                {"number": r.number, "title": r.title, "day": r.day,
                 "start": r.start.isoformat(timespec="minutes") if r.start else None,
                 "last_year": r.last_year}
                for r in profile.rounds
            ],
        }
    if cur is not None:
        r = cur.round
        out["round"] = {
            "number": r.number, "title": r.title, "start": iso(r.start),
            "last_year": r.last_year, "call": iso(r.call),
        }
        out["hall"] = view_json(view(cur.profile, cur.schedule, now))
        out["pauses"] = [
            pause_json(p) | {"id": i, "state": break_state(cur.profile, cur.schedule, p, now)}
            for i, p in cur.pauses
        ]
        out["deadlines"] = [
            {"phase": ph.ref.code, "deadline": iso(ph.deadline)}
            for ph in timetable(cur.profile, cur.schedule).phases
            if ph.deadline > now
        ][:12]
        out["penalties"] = late_submissions(hub, r.number)
    return out


@router.get("/td/penalties")
async def penalties(_: TD, hub: HubDep) -> list[dict[str, Any]]:
    return late_submissions(hub)


@router.get("/penalties.csv")
async def penalties_csv(_: TD, hub: HubDep) -> Response:
    return Response(
        as_csv(late_submissions(hub)),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="penalties.csv"'},
    )


# --- setup ------------------------------------------------------------------------------


@router.put("/td/event")
async def set_event(body: EventChoice, _: TDWrite, hub: HubDep) -> dict:
    """Choose the event. The round set up now (if any) and every later one play it;
    rounds set up before keep the rules they were played under (review, CSV)."""
    if body.builtin is not None:
        if body.builtin not in BUILTIN:
            known = ", ".join(BUILTIN)
            raise HTTPException(422, f"builtin: unknown event {body.builtin!r} (one of {known})")
        profile = BUILTIN[body.builtin]
    else:
        try:
            profile = parse_event_toml(body.toml or "", body.filename)
        except EventError as exc:
            raise HTTPException(422, str(exc)) from None
    hub.store.set_event(profile, hub.clock.moment())
    publish(hub)
    return {"event": profile.id, "seq": hub.store.seq()}


@router.put("/td/round")
async def set_round(body: RoundSetup, _: TDWrite, hub: HubDep) -> dict:
    """Set up (or correct) the round; the event's round list fills the title and last year."""
    profile = hub.store.event()
    if profile is None:
        raise HTTPException(409, "choose the event first")
    info = next((r for r in profile.rounds if r.number == body.number), None)
    title = body.title or (info.title if info else f"Round {body.number}")
    last_year = body.last_year or (info.last_year if info else None)
    if body.call is not None and body.call <= body.start:
        raise HTTPException(422, "call: must be after the start")
    hub.store.set_round(
        RoundRow(body.number, body.start, last_year, body.call, title, profile),
        hub.clock.moment(),
    )
    publish(hub)
    return {"round": body.number, "seq": hub.store.seq()}


@router.put("/td/tables")
async def set_tables(body: TablesSetup, _: TDWrite, hub: HubDep) -> dict:
    numbers = body.numbers()
    hub.store.set_tables(numbers, hub.clock.moment())
    publish(hub)
    return {"tables": numbers, "seq": hub.store.seq()}


# --- clock actions ----------------------------------------------------------------------


def _need_round(hub: Hub) -> Current:
    cur = current(hub.store)
    if cur is None:
        raise HTTPException(409, "set up the event and the round first")
    return cur


def _need_table(hub: Hub, table: int | None) -> None:
    if table is not None and table not in hub.store.tables():
        raise HTTPException(404, f"table {table} is not in this round")


def _who(table: int | None) -> str:
    return "all tables" if table is None else f"table {table}"


@router.post("/td/pauses")
async def pause(body: PauseRequest, _: TDWrite, hub: HubDep) -> dict:
    """A break for every table (now, or at a coming deadline), or a hold on one table."""
    cur = _need_round(hub)
    _need_table(hub, body.table)
    now = hub.clock.moment()
    if body.until is not None and body.until <= now:
        raise HTTPException(422, "until: the restart must be in the future")
    if body.deadline is None:
        for _i, p in cur.pauses:
            if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == (
                "running"
            ):
                raise HTTPException(409, f"{_who(body.table)} already paused: resume first")
        new = Pause(at=now, until=body.until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        when = "now"
    else:
        ref = PhaseRef.parse(body.deadline)
        phase = timetable(cur.profile, cur.schedule, table=body.table).phase(ref)
        if phase is None:
            raise HTTPException(422, f"deadline: {ref.code} is not a deadline of this round")
        if phase.deadline <= now:
            raise HTTPException(409, f"the {ref.title} deadline has passed")
        new = Pause(at_deadline=ref, until=body.until, minutes=body.minutes, table=body.table,
                    reason=body.reason)
        when = f"at the {ref.title} deadline ({phase.deadline:%H:%M:%S})"
    summary = f"{'hold' if body.table else 'pause'} {_who(body.table)} {when}"
    if body.until:
        summary += f", restart {body.until:%H:%M}"
    elif body.minutes:
        summary += f", for {body.minutes:g} min"
    if body.reason:
        summary += f" ({body.reason})"
    pid = hub.store.add_pause(cur.round.number, new, now, summary)
    publish(hub)
    return {"id": pid, "seq": hub.store.seq()}


@router.post("/td/resume")
async def resume(body: ResumeRequest, _: TDWrite, hub: HubDep) -> dict:
    """End the running break (or table ``table``'s hold) now."""
    cur = _need_round(hub)
    now = hub.clock.moment()
    ending = {
        i: p.model_copy(update={"ended": now})
        for i, p in cur.pauses
        if p.table == body.table and break_state(cur.profile, cur.schedule, p, now) == "running"
    }
    if not ending:
        raise HTTPException(409, f"{_who(body.table)}: no pause is running")
    hub.store.end_pauses(ending, now, f"resume {_who(body.table)}")
    publish(hub)
    return {"ended": sorted(ending), "seq": hub.store.seq()}


@router.post("/td/pauses/{pause_id}/end")
async def end_pause(pause_id: int, _: TDWrite, hub: HubDep) -> dict:
    """End one pause now; a break not started yet is thereby cancelled."""
    cur = _need_round(hub)
    now = hub.clock.moment()
    found = dict(cur.pauses).get(pause_id)
    if found is None:
        raise HTTPException(404, f"no pause {pause_id} in this round")
    state = break_state(cur.profile, cur.schedule, found, now)
    if state == "over":
        raise HTTPException(409, f"pause {pause_id} is already over")
    verb = "cancel" if state == "due" else "end"
    summary = f"{verb} {'hold' if found.table else 'break'} {pause_id} ({_who(found.table)})"
    # Ending a break still to come at its start means it never happens (zero length).
    hub.store.end_pauses({pause_id: found.model_copy(update={"ended": now})}, now, summary)
    publish(hub)
    return {"ended": [pause_id], "seq": hub.store.seq()}


@router.post("/td/adjustments")
async def adjust(body: AdjustRequest, _: TDWrite, hub: HubDep) -> dict:
    """Give time (positive seconds) or take it away, for every table or one."""
    cur = _need_round(hub)
    _need_table(hub, body.table)
    now = hub.clock.moment()
    verb = "add" if body.seconds > 0 else "take away"
    summary = f"{verb} {abs(body.seconds):g} s, {_who(body.table)}"
    hub.store.add_adjustment(
        cur.round.number, Adjustment(at=now, seconds=body.seconds, table=body.table), now, summary
    )
    publish(hub)
    return {"seq": hub.store.seq()}


@router.post("/td/call")
async def call_round(body: CallRequest, _: TDWrite, hub: HubDep) -> dict:
    """Call the round: games end at the last deadline at or before the call."""
    cur = _need_round(hub)
    now = hub.clock.moment()
    at = body.at or now
    if at <= cur.round.start:
        raise HTTPException(422, "at: the call must be after the round's start")
    hub.store.set_call(cur.round.number, at, now)
    publish(hub)
    return {"call": iso(at), "seq": hub.store.seq()}


# --- penalties --------------------------------------------------------------------------


@router.post("/td/penalties")
async def decide(body: PenaltyDecision, _: TDWrite, hub: HubDep) -> dict:
    """Confirm, waive or change the proposed penalty of one late submission."""
    found = next(
        (
            r for r in late_submissions(hub, body.round)
            if (r["table"], r["power"], r["phase"]) == (body.table, body.power, body.phase)
        ),
        None,
    )
    if found is None:
        raise HTTPException(
            404, f"no late submission by {body.power} at table {body.table} in {body.phase}"
        )
    final = {
        "confirm": found["proposed"]["label"],
        "waive": "Waived",
        "change": body.final,
    }[body.decision]
    now = hub.clock.moment()
    d = Decision(body.round, body.table, body.power, body.phase, body.decision, final,
                 body.note, now)
    summary = (
        f"penalty {body.decision}: table {body.table} {body.power} {body.phase}: {final}"
        + (f" ({body.note})" if body.note else "")
    )
    hub.store.decide(d, summary)
    return {"final": final, "seq": hub.store.seq()}


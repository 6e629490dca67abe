"""``GET /api/td/state``: everything the TD's dashboard shows, in one poll.

Reads the store and runs the core for the hall clock, the grid and the late submissions,
so it is blocking work: the route (``routers/td.py``) hands it to a worker thread, one such
read at a time (``context.heavy_read``), never the event loop that answers the kiosks' time
sync. The shape is ``server.responses``.
"""

from __future__ import annotations

from datetime import tzinfo

from dipclock import callwords
from dipclock.events import BUILTIN, EventProfile
from dipclock.i18n import ENGLISH, Words
from dipclock.timeline import break_state, timetable
from server import kepttime, logline, pairing, roundsetup
from server.actions import played
from server.context import Hub
from server.grid import grid
from server.hallmessage import as_json, showing
from server.hubtime import status as clock_status
from server.language import words_for
from server.responses import (
    AdjustmentInfo,
    AuditLine,
    ClocksOut,
    DashboardState,
    Deadline,
    EventInfo,
    EventName,
    EventRound,
    NextRound,
    PairedClockOut,
    PauseInfo,
    ReviewRound,
    RoundChange,
    RoundInfo,
    WaitingClock,
)
from server.resultsdesk import event_teams_note, rules_of
from server.review import late_submissions, undecided
from server.rounds import Current, current, hall_venue
from server.views import clock_model, iso

#: how many coming deadlines the dashboard lists
DEADLINES = 12
#: how many audit lines (newest first)
AUDIT_LINES = 40


def state(hub: Hub, review: int | None = None, accept: str | None = None) -> DashboardState:
    """``review``: the round whose late orders the dashboard lists (default: the current);
    ``accept``: the phone's ``Accept-Language`` (``server.language``), the clock card's
    language."""
    kepttime.settle(hub)  # a restarted hub's time, decided once the tables have had a say
    base = hub.store.audit_head()  # first: whatever is read after it is at least as new
    cur = current(hub.store)
    now = hub.clock.moment()
    tz = hall_venue(hub.store, cur)
    number, start, correcting = roundsetup.next_round(hub, now)
    last = hub.store.last_round_change()
    profile = hub.store.event()
    #: the phone's language (its Accept-Language), else the round's event's
    words = words_for(accept, cur.profile if cur else profile)
    out = DashboardState(
        hub_time=hub.clock.now(),
        now=iso(now, tz),
        timezone=str(tz),
        clock=clock_status(hub, words),
        seq=hub.store.seq(),
        clocks=clocks_card(hub, tz),
        events=[EventName(id=p.id, name=p.name) for p in BUILTIN.values()],
        event=None if profile is None else EventInfo(
            id=profile.id, name=profile.name, penalty_model=profile.penalty.model,
            rounds=[EventRound(number=r.number, title=r.title, day=r.day,
                               start=r.start.isoformat(timespec="minutes") if r.start else None,
                               last_year=r.last_year)
                    for r in profile.rounds]),
        round=None,
        hall=None,
        pauses=[],
        deadlines=[],
        tables=grid(hub, cur, words),
        penalties=[],
        review_round=None,
        undecided=0,
        rounds=[],
        # each line in the phone's language where its sentence was kept (server.logline)
        audit=[AuditLine(at=iso(a.at, tz), action=a.action,
                         summary=logline.shown(a.summary, a.said, words))
               for a in hub.store.audit(AUDIT_LINES)],
        base=base,
        next_round=NextRound(number=number, start=iso(start, tz), correcting=correcting),
        round_change=None if last is None else RoundChange(
            round=last[0], summary=logline.shown(last[1], last[3], words),
            at=iso(last[2], tz)),
        adjustments=[],
        message=as_json(showing(hub.store, now), tz),
    )
    if cur is not None:
        r = cur.round
        out.round = RoundInfo(
            number=r.number, title=r.title, start=iso(r.start, tz), last_year=r.last_year,
            call=iso(r.call, tz), event=EventName(id=cur.profile.id, name=cur.profile.name),
            started=played(r, now), call_rule=callwords.rule_sentence(cur.profile.call_ends, words))
        out.hall = clock_model(cur.profile, cur.schedule, now, words)
        out.pauses = [
            PauseInfo(id=i, state=break_state(cur.profile, cur.schedule, p, now),
                      at=iso(p.at, tz),
                      at_deadline=p.at_deadline.code if p.at_deadline else None,
                      at_deadline_said=words.phase(p.at_deadline.year, p.at_deadline.season)
                      if p.at_deadline else None,
                      minutes=p.minutes, until=iso(p.until, tz), ended=iso(p.ended, tz),
                      table=p.table, reason=p.reason)
            for i, p in cur.pauses
        ]
        out.adjustments = [
            AdjustmentInfo(id=i, seconds=a.seconds, table=a.table, at=iso(a.at, tz))
            for i, a in hub.store.adjustments(r.number)
        ]
        out.deadlines = [
            Deadline(phase=ph.ref.code, deadline=iso(ph.deadline, tz),
                     phase_said=words.phase(ph.ref.year, ph.ref.season))
            for ph in timetable(cur.profile, cur.schedule).phases
            if ph.deadline > now
        ][:DEADLINES]
    review_rounds(hub, out, review if review is not None else cur.round.number if cur else None,
                  words)
    out.teams_note = coming_teams(hub, cur, profile, words)
    return out


def coming_teams(hub: Hub, cur: Current | None, chosen: EventProfile | None,
                 words: Words = ENGLISH) -> str:
    """The teams set, said to go unscored while the event ``chosen`` for the coming rounds
    (not yet the current round's) has no team prize: an event change keeps the teams, and
    the TD hears it before the team round. Once the round plays it, the Results card's
    team table says so instead."""
    if chosen is None or rules_of(chosen).team_round is not None:
        return ""
    if cur is not None and (cur.round.profile or chosen) == chosen:
        return ""
    return event_teams_note(hub.store, chosen, words)


def review_rounds(hub: Hub, out: DashboardState, review: int | None,
                  words: Words = ENGLISH) -> None:
    """Every round's late orders are judged (the count of those not yet decided, in any
    round, is at the top of the dashboard); the rows of round ``review`` are listed, the
    powers in ``words`` (the phone's language)."""
    counts = undecided(hub)
    stored = hub.store.rounds()
    out.undecided = sum(counts.values())
    tz = hall_venue(hub.store, current(hub.store))
    out.rounds = [
        ReviewRound(number=rnd.number, title=rnd.title,
                    event=rnd.profile.name if rnd.profile else "",
                    event_id=rnd.profile.id if rnd.profile else "",
                    undecided=counts.get(rnd.number, 0), start=iso(rnd.start, tz),
                    last_year=rnd.last_year, call=iso(rnd.call, tz),
                    record=record.text(words) if record else "")
        for rnd, record in ((r, hub.store.record(r)) for r in stored)
    ]
    if review is not None and any(rnd.number == review for rnd in stored):
        out.review_round = review
        out.penalties = late_submissions(hub, review, words)


def clocks_card(hub: Hub, tz: tzinfo) -> ClocksOut:
    """The Clocks card: clocks waiting for the TD (newest last), clocks paired (by table),
    and the certificate's fingerprint the TD checks once on the phone."""
    now = hub.clock.now()
    return ClocksOut(
        fingerprint=hub.fingerprint,
        waiting=[
            WaitingClock(code=pairing.shown(w.code), kiosk=w.kiosk, wished=w.wished,
                         address=w.address, asked=iso(w.asked, tz),
                         other_certificate=(hub.fingerprint is not None
                                            and w.fingerprint != hub.fingerprint),
                         same_id_as=[f"table {c.table} ({c.address})"
                                     for c in hub.clocks.same_id(w.kiosk, w.address)])
            for w in hub.store.waiting() if w.expires >= now
        ],
        paired=[
            PairedClockOut(id=c.id, table=c.table, kiosk=c.kiosk, address=c.address,
                           paired=iso(c.paired, tz))
            for c in hub.store.clocks()
        ],
    )

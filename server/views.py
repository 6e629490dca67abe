"""Core results as JSON for the dashboard and the hall page: serialisation, no rules."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from dipclock import screen
from dipclock.events import EventProfile
from dipclock.i18n import Words, words_of
from dipclock.phaseview import PhaseView
from dipclock.schedule import Pause, Schedule
from dipclock.venuetime import venue_naive, zone
from server.responses import ClockJson, PauseJson, ViewJson


def iso(moment: datetime | None, tz: tzinfo = UTC) -> str | None:
    """A UTC moment as the venue's naive local ISO time: what the pages show and the TD
    types back (``docs/protocol.md``)."""
    return venue_naive(moment, tz).isoformat() if moment else None


def pause_json(pause: Pause, tz: tzinfo = UTC) -> PauseJson:
    """A pause with its times on the venue's clock."""
    return PauseJson(
        at=iso(pause.at, tz), at_deadline=pause.at_deadline.code if pause.at_deadline else None,
        minutes=pause.minutes, until=iso(pause.until, tz), ended=iso(pause.ended, tz),
        table=pause.table, reason=pause.reason,
    )


def view_json(v: PhaseView, tz: tzinfo = UTC) -> ViewJson:
    """The fields of ``dipclock.phaseview.view`` a screen needs."""
    return ViewJson(
        now=iso(v.now, tz),
        stage=v.stage,
        phase=v.phase.code if v.phase else None,
        phase_title=v.phase.title if v.phase else None,
        remaining=v.remaining,
        deadline=iso(v.deadline, tz),
        writing_from=iso(v.writing_from, tz),
        writing_seconds=v.writing_seconds,
        previous=v.previous.ref.code if v.previous else None,
        previous_deadline=iso(v.previous.deadline, tz) if v.previous else None,
        next_phase=v.next_phase.code if v.next_phase else None,
        next_minutes=v.next_minutes,
        victory_centres=v.victory_centres,
        final_year=v.final_year,
        pause=pause_json(v.pause, tz) if v.pause else None,
        restart_at=iso(v.restart_at, tz),
        game_over_reason=v.game_over_reason,
    )


def clock_model(profile: EventProfile, schedule: Schedule, now: datetime,
                words: Words | None = None) -> ClockJson:
    """Every table's clock (table None, no buttons) at ``now``, for the hall and the TD: in
    ``words`` (a TD's phone's language), else the event's."""
    said = words if words is not None else words_of(profile)
    return screen_json(screen.build(profile, schedule, now, buttons=False, words=said), now,
                       zone(profile.timezone))


def screen_json(s: screen.Screen, now: datetime, tz: tzinfo) -> ClockJson:
    """A core screen as the pages draw it, its times on the venue's clock."""
    left = (s.count_to - now).total_seconds() if s.count_to is not None else None
    return ClockJson(
        now=iso(now, tz) or "", look=s.look, stage=s.view.stage, heading=s.heading,
        phase=s.phase, deadline=s.deadline, label=s.label, big=s.big, notes=s.notes,
        count_to=iso(s.count_to, tz), seconds_left=left, ticking=s.ticking,
    )

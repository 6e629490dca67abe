"""Core results as JSON for the dashboard and the hall page: serialisation, no rules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dipclock.timeline import Pause, PhaseView


def iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def pause_json(pause: Pause) -> dict[str, Any]:
    return pause.model_dump(mode="json") | {
        "at_deadline": pause.at_deadline.code if pause.at_deadline else None
    }


def view_json(v: PhaseView) -> dict[str, Any]:
    """The fields of ``dipclock.timeline.view`` a screen needs."""
    return {
        "now": iso(v.now),
        "stage": v.stage,
        "phase": v.phase.code if v.phase else None,
        "phase_title": v.phase.title if v.phase else None,
        "remaining": v.remaining,
        "deadline": iso(v.deadline),
        "writing_from": iso(v.writing_from),
        "writing_seconds": v.writing_seconds,
        "previous": v.previous.ref.code if v.previous else None,
        "previous_deadline": iso(v.previous.deadline) if v.previous else None,
        "next_phase": v.next_phase.code if v.next_phase else None,
        "next_minutes": v.next_minutes,
        "victory_centres": v.victory_centres,
        "final_year": v.final_year,
        "pause": pause_json(v.pause) if v.pause else None,
        "restart_at": iso(v.restart_at),
        "game_over_reason": v.game_over_reason,
    }

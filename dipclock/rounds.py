"""What a round is called and when its games end, when the TD or the command line leaves
them out: the event's published round list decides, here and nowhere else.

The hub's round setup and the command line's ``--round`` (``plan``, a standalone kiosk)
both ask this, so a round set up on the dashboard and the same round planned on a laptop
get the same name and the same last year.
"""

from __future__ import annotations

from typing import NamedTuple

from dipclock.events import EventProfile, RoundInfo


class RoundNaming(NamedTuple):
    """The round's title and last game year (None: the event's own last year applies)."""

    title: str
    last_year: int | None


def round_naming(
    profile: EventProfile,
    number: int | None,
    title: str = "",
    last_year: int | None = None,
    *,
    listed_only: bool = False,
) -> RoundNaming:
    """What was given wins; else the event's round ``number`` (its name, its last year).

    A round the event does not list is "Round N" and plays the event's last year; with
    ``listed_only`` it is an ``EventError`` naming the rounds there are (the command line,
    where a typo in ``--round`` must not go unnoticed). No round number: no title.
    """
    if number is None:
        return RoundNaming(title, last_year)
    info: RoundInfo | None = (
        profile.round(number)  # an EventError for a round the event does not list
        if listed_only
        else next((r for r in profile.rounds if r.number == number), None)
    )
    if info is None:
        return RoundNaming(title or f"Round {number}", last_year)
    return RoundNaming(title or info.title, last_year or info.last_year)


def published_call(profile: EventProfile, number: int | None) -> str | None:
    """Round ``number``'s published call time as the TD would type it ("14:30"), if the
    event publishes one: it stands unless the TD gives another."""
    info = next((r for r in profile.rounds if r.number == number), None)
    if info is None or info.call is None:
        return None
    return info.call.isoformat(timespec="seconds" if info.call.second else "minutes")


__all__ = ["RoundNaming", "published_call", "round_naming"]

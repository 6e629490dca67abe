"""The language a phone's page speaks (issue 38): the dashboard, the result sheet and the
vote page follow each phone, not the hall. A page sends the language its switch or its
browser chose as ``Accept-Language`` (``server/static/common.js``); what the hub composes
for that page (a summary, an ending's words, the clock card) comes back in it. A browser
that asks for none dipclock speaks gets the event's language, then English.

Accept-Language is HTTP's own way to say it (RFC 9110 §12.5.4), sent by every browser
unasked, so a phone that never touched the switch is served in its own language too. Its
grammar is small (codes with optional ``;q=`` weights), so it is read here rather than
with a web framework's helper the hub does not otherwise need.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, LanguageError, Words, language, words_of
from server.context import HubDep

#: a header longer than this is not a browser's: read no further (a phone sends ~40 bytes)
LONGEST = 500


def preferred(accept: str | None) -> str | None:
    """The catalogue language a browser ranks highest in its ``Accept-Language`` header
    ("de-CH, fr;q=0.9, en;q=0.8" -> "de"), or None when it names none dipclock has."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "")[:LONGEST].split(",")):
        code, _, params = part.strip().partition(";")
        weight = 1.0
        key, _, value = params.strip().partition("=")
        if key.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        if code and code != "*" and weight > 0:
            ranked.append((-weight, i, code))
    for _, _, code in sorted(ranked):
        try:
            return language(code)
        except LanguageError:
            continue
    return None


def words_for(accept: str | None, hub_event: EventProfile | None) -> Words:
    """The words for a page that asked in ``accept``; the event's (with its renamed terms)
    when it asks for the event's language or none dipclock has; English with no event."""
    lang = preferred(accept)
    if hub_event is not None and lang in (None, hub_event.language):
        return words_of(hub_event)
    return Words(lang) if lang else ENGLISH


def words_asked(request: Request) -> Words:
    """The language a request asks for in its ``Accept-Language``, else English: the
    header alone decides (no store read), for what is answered before or beside a route
    (a refusal, a malformed request)."""
    lang = preferred(request.headers.get("accept-language"))
    return Words(lang) if lang else ENGLISH


def phone_words(request: Request, hub: HubDep) -> Words:
    """FastAPI dependency (sync: the event is read from the store in a worker thread)."""
    return words_for(request.headers.get("accept-language"), hub.store.event())


#: A route's ``words: PhoneWords``: the request's language, as above.
PhoneWords = Annotated[Words, Depends(phone_words)]

__all__ = ["PhoneWords", "phone_words", "preferred", "words_asked", "words_for"]

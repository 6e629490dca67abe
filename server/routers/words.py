"""A page's words in a language: the hub's pages catalogue (``dipclock.i18n.page_words``) as
JSON, for any page (the hall's projector and the board call are public, so is this: it holds
no secret, only words)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from fastapi import Path as PathParam

from dipclock.i18n import LANGUAGES, LanguageError, PageWords, page_words
from server.language import PhoneWords
from server.refusal import Refused
from server.responses import PageWordsOut

router = APIRouter(prefix="/api", tags=["pages"])
#: the catalogue changes only with the hub's version: a page may keep it for the day
CACHED = {"Cache-Control": "max-age=3600"}


@router.get("/words/{lang}", response_model=PageWordsOut)
def words(lang: Annotated[str, PathParam(max_length=16, pattern=r"^[A-Za-z_-]+$")],
          response: Response) -> PageWordsOut:
    """The pages' words in ``lang`` (``fr``, ``de``, ``it``, ``nl``; ``en``: none, the
    pages' own); 404 with one line for a language dipclock has no catalogue for."""
    try:
        said = page_words(lang)
    except LanguageError as exc:
        raise Refused(404, str(exc)) from None
    response.headers.update(CACHED)
    return out(said)


@router.get("/words", response_model=PageWordsOut)
def browser_words(words: PhoneWords, response: Response) -> PageWordsOut:
    """The pages' words in the language the browser asks for (its ``Accept-Language``),
    else the event's: a phone's page that has no language chosen on its switch starts so.
    Not cached: the answer depends on the hub's event."""
    response.headers["Cache-Control"] = "no-store"
    return out(page_words(words.lang))


def out(said: PageWords) -> PageWordsOut:
    """``languages``: every language a page's switch offers, each in its own words."""
    return PageWordsOut(lang=said.lang, words=said.words, plurals=said.plurals,
                        zero_is_one=said.zero_is_one, languages=dict(LANGUAGES))

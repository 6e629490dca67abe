"""A page's words in a language: the hub's pages catalogue (``dipclock.i18n.page_words``) as
JSON, for any page (the hall's projector and the board call are public, so is this: it holds
no secret, only words)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response
from fastapi import Path as PathParam

from dipclock.i18n import LanguageError, page_words
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
    return PageWordsOut(lang=said.lang, words=said.words, plurals=said.plurals,
                        zero_is_one=said.zero_is_one)

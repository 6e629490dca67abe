"""Every bad request answers 4xx with ``{"detail": "field: what was expected"}``, never 500,
in the language the request asks for (its ``Accept-Language``; the keys stay as written).

Only a request's own validation is a 422. A pydantic ``ValidationError`` raised anywhere
else is the hub failing to build its own reply (or a model of its own): a fault of the hub,
logged with its traceback and answered 500, never blamed on the TD's request.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from dipclock.events import EventError
from dipclock.i18n import N_, Said, said
from dipclock.validation import describe as core_describe
from machine.storage import is_disk_full
from server.language import words_asked

log = logging.getLogger("uvicorn.error")

_WHERE = {"body", "query", "path", "header", "cookie"}
#: A request's body has fields; its problems said as a TD (or a kiosk's log) can act on them.
FIELD_WORDS = {"extra_forbidden": N_("unknown field"), "missing": N_("required"),
               "model_attributes_type": N_("expected a JSON object"),
               "model_type": N_("expected a JSON object")}  # the same, read from JSON


def problem(errors: Sequence[Mapping[str, Any]]) -> Said:
    """The first problem, named by its field (``dipclock.validation.describe``): the request's
    part (``body``, ``query``, ...) is taken off each location, and named when no field is.
    A sentence: said in the language the request asks for (``words_asked``)."""
    if not errors:
        return said("malformed request")
    parts = [tuple(e.get("loc", ())) for e in errors]
    where = next((str(p[0]) for p in parts if p and p[0] in _WHERE), "request")
    inside = [dict(e) | {"loc": p[1:] if p and p[0] in _WHERE else p}
              for e, p in zip(errors, parts, strict=True)]
    if any(e["type"] == "json_invalid" for e in inside):  # located at the bad character
        return said("{where}: not valid JSON", where=where)
    if any(e["type"] == "missing" and not e["loc"] for e in inside):
        return said("{where}: a JSON body is required", where=where)
    return core_describe(inside, whole=where, words=FIELD_WORDS)


def describe(errors: Sequence[Mapping[str, Any]]) -> str:
    """``problem`` in English: a line for a log or a kiosk's reply (scripts read it)."""
    return str(problem(errors))


#: what a TD's screen and a clock's log say while the hub's disk is full
DISK_FULL = N_("the hub's disk is full: this was not stored. Free space on the hub (delete "
               "old files, or move its data to a bigger card); it stores again by itself "
               "once there is room, and nothing stored before is lost")
#: seconds between two log lines about the full disk (every request meets it)
LOG_EVERY = 60.0
_full_said = [float("-inf")]  # monotonic: when the last such line was written


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": problem(list(exc.errors())).in_(words_asked(request))},
                            status_code=422)

    @app.exception_handler(ValidationError)
    async def _own(request: Request, exc: ValidationError) -> JSONResponse:
        log.error("%s %s: the hub could not build its reply", request.method,
                  request.url.path, exc_info=exc)
        words = words_asked(request)
        return JSONResponse({"detail": words("the hub could not build its reply: a fault of "
                                             "the hub, written to its log")}, status_code=500)

    @app.exception_handler(sqlite3.OperationalError)
    async def _store(request: Request, exc: sqlite3.OperationalError) -> JSONResponse:
        """The store refused: a full disk is said as such (507) and nothing was written, so
        the same request succeeds once there is room; any other store failure is a 503 with
        its reason (logged with its traceback), never a bare 500."""
        if is_disk_full(exc):
            if _full_said[0] + LOG_EVERY <= time.monotonic():
                _full_said[0] = time.monotonic()
                log.error("the hub's disk is full: nothing more can be stored until room "
                          "is made (%s %s)", request.method, request.url.path)
            words = words_asked(request)
            return JSONResponse({"detail": words(DISK_FULL)}, status_code=507)
        log.error("%s %s: the hub's store failed", request.method, request.url.path,
                  exc_info=exc)
        words = words_asked(request)
        return JSONResponse({"detail": words("the hub's store failed ({error}): try again; if "
                                             "it goes on, restart the hub", error=exc)},
                            status_code=503)

    @app.exception_handler(EventError)
    async def _event(request: Request, exc: EventError) -> JSONResponse:
        return JSONResponse({"detail": exc.in_(words_asked(request))}, status_code=422)

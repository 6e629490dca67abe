"""Every bad request answers 4xx with ``{"detail": "field: what was expected"}``, never 500.

Only a request's own validation is a 422. A pydantic ``ValidationError`` raised anywhere
else is the hub failing to build its own reply (or a model of its own): a fault of the hub,
logged with its traceback and answered 500, never blamed on the TD's request.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from dipclock.events import EventError

log = logging.getLogger("uvicorn.error")

_WHERE = {"body", "query", "path", "header", "cookie"}


def describe(errors: Sequence[Mapping[str, Any]]) -> str:
    """The first problem, named by its field, in words a TD (or a kiosk's log) can act on."""
    if not errors:
        return "malformed request"
    err = errors[0]
    loc = [str(p) for p in err.get("loc", ())]
    where = loc[0] if loc and loc[0] in _WHERE else ""
    field = ".".join(loc[1:] if where else loc)
    kind, msg = err.get("type", ""), str(err.get("msg", "invalid"))
    if kind == "json_invalid":
        return "body: not valid JSON"
    if kind == "missing":
        msg = "required" if field else "a JSON body is required"
    elif kind == "extra_forbidden":
        msg = "unknown field"
    elif kind == "model_attributes_type":
        msg = "expected a JSON object"
    msg = msg.removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{field or where or 'request'}: {msg}{more}"


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _request(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": describe(list(exc.errors()))}, status_code=422)

    @app.exception_handler(ValidationError)
    async def _own(request: Request, exc: ValidationError) -> JSONResponse:
        log.error("%s %s: the hub could not build its reply", request.method,
                  request.url.path, exc_info=exc)
        return JSONResponse({"detail": "the hub could not build its reply: a fault of the "
                                       "hub, written to its log"}, status_code=500)

    @app.exception_handler(EventError)
    async def _event(_: Request, exc: EventError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

"""Request bodies read in a worker thread, not on the event loop every table's sync shares.

FastAPI decodes and validates a route's declared body on the event loop, before the route
runs. Validation is linear but not free: a TD's seating of 7,000 seats, or a phone holding
a table's sheet key sending 8,000 unknown fields, cost tens to hundreds of milliseconds
there, and in a loop they held every clock's time sync that long, request after request.
A route that takes ``Parsed[Model]`` instead gets its body decoded, validated and, when it
is wrong, described (``server.errors.problem``) in a worker thread; the loop only hands
over bytes that ``server.bodylimit`` has already bounded and whose sender
``server.gate`` has already checked. A bad body is the same 422 and the same one line as
before, a ``Refused`` said in the language the request asks for (``server.app``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError

from server.errors import problem
from server.refusal import Refused

M = TypeVar("M", bound=BaseModel)


def _validate(model: type[M], raw: bytes) -> M:
    if not raw.strip():
        raise Refused(422, problem([{"loc": ("body",), "type": "missing"}]))
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:  # the request's part named as FastAPI names it
        problems = [dict(e) | {"loc": ("body", *e["loc"])}
                    for e in exc.errors(include_url=False)]
        raise Refused(422, problem(problems)) from None


def parsed(model: type[M]) -> Any:
    """A dependency: the request's JSON body as ``model``, validated off the event loop."""
    async def read(request: Request) -> M:
        raw = await request.body()
        return await anyio.to_thread.run_sync(_validate, model, raw)

    read.__name__ = f"parsed_{model.__name__}"
    return Depends(read)


if TYPE_CHECKING:  # to a type checker, ``Parsed[SheetIn]`` is a ``SheetIn``
    Parsed = Annotated[M, "read off the event loop"]
else:
    class Parsed:
        """``body: Parsed[SheetIn]``: the body as that model, read in a worker thread."""

        def __class_getitem__(cls, model: type[M]) -> Any:
            return Annotated[model, parsed(model)]


__all__ = ["Parsed", "parsed"]

"""Replies are built from typed values (issue 34, item 9): every JSON route of the hub
declares its reply model, no reply model has a field of untyped dicts where the shape is
known, the reply models live in ``server.responses``, and the late-orders review is built
as ``LateSubmission``s from typed judged items, with the keys its rows always had (a missed
phase's row has no ``units_asked`` nor ``paused_seconds``), judged afresh or read back from
the judgments the hub keeps."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel

from server import review
from server.responses import JudgedItem, LateSubmission
from tests.server.conftest import START, Hub
from tests.server.test_round_history import set_round
from tests.server.test_state import post, press

S1901 = START + timedelta(minutes=17)  # wdc2006's Spring 1901 deadline
#: reply models the core defines for the kiosk's protocol (``dipclock.snapshot``), shared
#: with the kiosk, which has no ``server`` package: they stay in the core
CORE = "dipclock."
#: request models a reply echoes (the sheet as entered, in its view): they stay with the
#: requests they are
ECHOED = {"server.sheets.SheetIn"}
#: the fields of a late row that a missed phase's row has never had
LATE_ONLY = {"units_asked", "paused_seconds"}


def routes(app: FastAPI) -> Iterator[APIRoute]:
    """Every API route, through the routers the app includes."""
    def walk(found: list[Any]) -> Iterator[APIRoute]:
        for r in found:
            if isinstance(r, APIRoute):
                yield r
            elif hasattr(r, "original_router"):  # FastAPI's included router
                yield from walk(r.original_router.routes)
            elif hasattr(r, "routes") and not hasattr(r, "app"):
                yield from walk(r.routes)
    return walk(list(app.routes))


#: what a JSON schema with a shape has: a model, a type, a choice of them
SHAPED = {"$ref", "type", "anyOf", "oneOf", "allOf", "items"}


def untyped_json_routes(app: FastAPI) -> list[str]:
    """Routes whose OpenAPI reply is JSON of no declared shape (no ``response_model``, or
    ``Any``): a reply built from a dict, which the schema does not describe."""
    bad = []
    for path, ops in app.openapi()["paths"].items():
        for method, op in ops.items():
            for code, reply in op.get("responses", {}).items():
                json_reply = (reply.get("content") or {}).get("application/json")
                if code.startswith("2") and json_reply is not None and not (
                        SHAPED & set(json_reply.get("schema", {}))):
                    bad.append(f"{method.upper()} {path}")
    return bad


def models(shape: object, seen: set[type[BaseModel]]) -> set[type[BaseModel]]:
    """Every model a reply shape reaches, through its fields."""
    if isinstance(shape, type) and issubclass(shape, BaseModel):
        if shape not in seen:
            seen.add(shape)
            for field in shape.model_fields.values():
                models(field.annotation, seen)
    else:
        for arg in typing.get_args(shape):
            models(arg, seen)
    return seen


def untyped_fields(model: type[BaseModel]) -> list[str]:
    """Fields typed ``Any`` anywhere in their annotation (``dict[str, Any]``, ...)."""
    def has_any(shape: object) -> bool:
        return shape is Any or any(has_any(a) for a in typing.get_args(shape))
    return [f"{model.__name__}.{name}" for name, field in model.model_fields.items()
            if has_any(field.annotation)]


def reply_models(app: FastAPI) -> set[type[BaseModel]]:
    seen: set[type[BaseModel]] = set()
    for route in routes(app):
        models(route.response_model, seen)
    return seen


def test_the_checks_catch_a_reply_built_from_a_dict():
    """The checks below, on an app that has each fault."""
    class Loose(BaseModel):
        view: dict[str, Any] | None = None

    app = FastAPI()

    @app.get("/api/loose")
    def loose() -> Any:
        return {"a": 1}

    @app.get("/api/typed", response_model=Loose)
    def typed() -> Loose:
        return Loose()

    assert untyped_json_routes(app) == ["GET /api/loose"]
    assert [f for m in reply_models(app) for f in untyped_fields(m)] == ["Loose.view"]


def test_every_json_route_declares_its_reply(hub: Hub):
    app = hub.client.app
    assert isinstance(app, FastAPI)
    assert untyped_json_routes(app) == []


def test_no_reply_model_has_an_untyped_field(hub: Hub):
    app = hub.client.app
    assert isinstance(app, FastAPI)
    assert [f for m in reply_models(app) for f in untyped_fields(m)] == []


def test_reply_models_are_in_one_place(hub: Hub):
    """``server.responses``, beside the core's kiosk protocol."""
    app = hub.client.app
    assert isinstance(app, FastAPI)
    named = {f"{m.__module__}.{m.__name__}" for m in reply_models(app)}
    elsewhere = sorted(n for n in named - ECHOED
                       if not n.startswith(("server.responses.", CORE)))
    assert elsewhere == []
    assert ECHOED <= named  # still echoed: else the exception goes


def late_and_missed(hub: Hub) -> None:
    """wdc2006, round 1, table 1: Turkey presses 30 s late in Spring 1901, Italy never
    (one late row, one missed once the late window closes); then round 2 is set up a day
    later, so round 1's judgments are final and kept in the store."""
    td = hub.sign_in()
    hub.set_up(td)
    on_time = [press(f"p{p}", p, S1901 - timedelta(seconds=20)) for p in "AEFGR"]
    post(hub, 1, *on_time, press("late-t", "T", S1901 + timedelta(seconds=30)))
    hub.at(S1901 + timedelta(minutes=6))
    set_round(hub, td, 2, START + timedelta(days=1))
    hub.at(START + timedelta(days=1, minutes=5))
    hub.sign_in()  # a day later: yesterday's session is over


def test_the_review_is_built_typed_with_the_keys_it_always_had(hub: Hub):
    late_and_missed(hub)
    state = hub.client.app.state.hub  # type: ignore[attr-defined]
    built = review.late_submissions(state, 1)
    assert built and all(type(r) is LateSubmission for r in built)
    assert all(type(j.item) is JudgedItem for j in review.judged(state, 1))
    rows = hub.client.get("/api/td/penalties?round=1").json()
    assert sorted((r["power"], r["kind"]) for r in rows) == [("I", "missed"), ("T", "late")]
    every = set(LateSubmission.model_fields)
    for r in rows:
        assert set(r) == (every if r["kind"] == "late" else every - LATE_ONLY), r
    # the judgments kept in the store, read back by a restarted hub: the same reply
    assert state.store.judged(1)
    hub.restart()
    hub.sign_in()
    state = hub.client.app.state.hub  # type: ignore[attr-defined]
    assert all(type(j.item) is JudgedItem for j in review.judged(state, 1))
    assert hub.client.get("/api/td/penalties?round=1").json() == rows

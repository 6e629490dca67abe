"""The TD's sign-in: ``/api/login``, ``/api/logout``, ``/api/session``.

The sign-in is ``async``: its password check runs on a thread of its own
(``server.signins``), and its session's durable SQLite write in a worker thread, so neither
the loop that answers time sync nor the workers the tables and the TD use wait for a
flood of sign-ins. A browser that signed in before (its device cookie) or the hub's own
screen is checked in a lane of its own, so a flood of strangers' guesses never refuses the
TD. The others are plain ``def`` routes, in worker threads.
"""

from __future__ import annotations

import anyio.to_thread
from fastapi import APIRouter, HTTPException, Request, Response

from dipclock.i18n import said
from server.auth import TDWrite, current_session, end_session, spoken, start_session
from server.context import Hub, HubDep
from server.responses import SessionInfo, SignedIn
from server.schemas import Login
from server.signins import (
    DEVICE_COOKIE,
    DEVICE_DAYS,
    LOCAL,
    Lane,
    device_cookie,
    device_of,
    new_device,
)

router = APIRouter(prefix="/api", tags=["td"])


def busy(request: Request) -> HTTPException:
    return HTTPException(503, spoken(request, said("the hub is checking other sign-ins: try "
                                                   "again in a few seconds")),
                         headers={"Retry-After": "5"})


def lane_of(request: Request, hub: Hub) -> tuple[Lane, str, str | None]:
    """The lane a sign-in is checked in, the key its failures count under, and its device
    (None: none known): a device the hub signed counts per device, the hub's own screen
    and a stranger per address (``server.signins``)."""
    ip = request.client.host if request.client else "?"
    device = device_of(hub.password_hash, request.cookies.get(DEVICE_COOKIE))
    if device is not None:
        return hub.signins.known, f"device {device}", device
    return (hub.signins.known if ip in LOCAL else hub.signins.strangers), ip, None


@router.post("/login", response_model=SignedIn)
async def login(body: Login, request: Request, response: Response, hub: HubDep) -> SignedIn:
    """Rate-limited per client IP (per device for a browser that signed in before): too
    many failures in the window answer 429. The attempt counts before the password is
    hashed (``ratelimit``); with its lane's queue of sign-ins already being checked, 503 at
    once, and nothing counted. A success (re)sets the browser's device cookie."""
    lane, key, device = lane_of(request, hub)
    wait = hub.logins.refused(key, hub.clock.mono())
    if wait is None and lane.full:
        raise busy(request)
    if wait is None:
        wait = hub.logins.attempt(key, hub.clock.mono())
    if wait is not None:
        raise HTTPException(
            429, spoken(request, said("too many failed sign-ins: try again in {seconds} s",
                                      seconds=format(wait, ".0f"))),
            headers={"Retry-After": str(int(wait + 0.999))},
        )
    ok = await lane.check(body.password, hub.password_hash)
    if ok is None:  # not seen: nothing ran on the loop since the queue was looked at
        raise busy(request)
    if not ok:  # counted already, by ``attempt``
        raise HTTPException(401, spoken(request, said("wrong password")))
    hub.logins.clear(key)

    def signed_in() -> str:
        hub.store.drop_expired_sessions(hub.clock.now())
        return start_session(hub, response)

    csrf = await anyio.to_thread.run_sync(signed_in)
    response.set_cookie(DEVICE_COOKIE, device_cookie(hub.password_hash, device or new_device()),
                        max_age=DEVICE_DAYS * 86400, httponly=True, samesite="strict",
                        path="/api/login", secure=hub.settings.https)
    return SignedIn(csrf=csrf)


@router.post("/logout", response_model=SessionInfo, response_model_exclude_unset=True)
def logout(session: TDWrite, response: Response, hub: HubDep) -> SessionInfo:
    end_session(hub, session, response)
    return SessionInfo(signed_in=False)


@router.get("/session", response_model=SessionInfo, response_model_exclude_unset=True)
def session_info(request: Request, hub: HubDep) -> SessionInfo:
    """Whether this browser is signed in, and the CSRF token its page must send."""
    s = current_session(request, hub)
    return SessionInfo(signed_in=True, csrf=s.csrf) if s else SessionInfo(signed_in=False)

"""The TD's sign-in: ``/api/login``, ``/api/logout``, ``/api/session``.

The sign-in is ``async``: its password check runs on a thread of its own
(``server.signins``), and its session's durable SQLite write in a worker thread, so neither
the loop that answers time sync nor the workers the tables and the TD use wait for a
flood of sign-ins. The others are plain ``def`` routes, in worker threads.
"""

from __future__ import annotations

import anyio.to_thread
from fastapi import APIRouter, HTTPException, Request, Response

from server.auth import TDWrite, current_session, end_session, start_session
from server.context import HubDep
from server.responses import SessionInfo, SignedIn
from server.schemas import Login
from server.signins import QUEUE

router = APIRouter(prefix="/api", tags=["td"])


def busy() -> HTTPException:
    return HTTPException(503, "the hub is checking other sign-ins: try again in a few seconds",
                         headers={"Retry-After": "5"})


@router.post("/login", response_model=SignedIn)
async def login(body: Login, request: Request, response: Response, hub: HubDep) -> SignedIn:
    """Rate-limited per client IP: too many failures in the window answer 429. The attempt
    counts before the password is hashed (``ratelimit``); with ``signins.QUEUE`` sign-ins
    already being checked, 503 at once, and nothing counted."""
    ip = request.client.host if request.client else "?"
    wait = hub.logins.refused(ip, hub.clock.mono())
    if wait is None and hub.signins.waiting >= QUEUE:
        raise busy()
    if wait is None:
        wait = hub.logins.attempt(ip, hub.clock.mono())
    if wait is not None:
        raise HTTPException(
            429, f"too many failed sign-ins: try again in {wait:.0f} s",
            headers={"Retry-After": str(int(wait + 0.999))},
        )
    ok = await hub.signins.check(body.password, hub.password_hash)
    if ok is None:  # not seen: nothing ran on the loop since the queue was looked at
        raise busy()
    if not ok:
        raise HTTPException(401, "wrong password")  # counted already, by ``attempt``
    hub.logins.clear(ip)

    def signed_in() -> str:
        hub.store.drop_expired_sessions(hub.clock.now())
        return start_session(hub, response)

    return SignedIn(csrf=await anyio.to_thread.run_sync(signed_in))


@router.post("/logout", response_model=SessionInfo, response_model_exclude_unset=True)
def logout(session: TDWrite, response: Response, hub: HubDep) -> SessionInfo:
    end_session(hub, session, response)
    return SessionInfo(signed_in=False)


@router.get("/session", response_model=SessionInfo, response_model_exclude_unset=True)
def session_info(request: Request, hub: HubDep) -> SessionInfo:
    """Whether this browser is signed in, and the CSRF token its page must send."""
    s = current_session(request, hub)
    return SessionInfo(signed_in=True, csrf=s.csrf) if s else SessionInfo(signed_in=False)

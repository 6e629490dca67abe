"""The TD's sign-in: ``/api/login``, ``/api/logout``, ``/api/session``.

Plain ``def`` routes: the password hash is seconds of CPU by design and the session is a
durable SQLite write, so both run in a worker thread, off the loop that answers time sync.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response

from machine.passwords import verify_password
from server.auth import TDWrite, current_session, end_session, start_session
from server.context import HubDep
from server.responses import SessionInfo, SignedIn
from server.schemas import Login

router = APIRouter(prefix="/api", tags=["td"])


@router.post("/login", response_model=SignedIn)
def login(body: Login, request: Request, response: Response, hub: HubDep) -> SignedIn:
    """Rate-limited per client IP: too many failures in the window answer 429. The attempt
    counts before the password is hashed, and hashes run one at a time (``ratelimit``)."""
    ip = request.client.host if request.client else "?"
    wait = hub.logins.attempt(ip, hub.clock.mono())
    if wait is not None:
        raise HTTPException(
            429, f"too many failed sign-ins: try again in {wait:.0f} s",
            headers={"Retry-After": str(int(wait + 0.999))},
        )
    with hub.hashing:
        ok = verify_password(body.password, hub.password_hash)
    if not ok:
        raise HTTPException(401, "wrong password")  # counted already, by ``attempt``
    hub.logins.clear(ip)
    hub.store.drop_expired_sessions(hub.clock.now())
    return SignedIn(csrf=start_session(hub, response))


@router.post("/logout", response_model=SessionInfo, response_model_exclude_unset=True)
def logout(session: TDWrite, response: Response, hub: HubDep) -> SessionInfo:
    end_session(hub, session, response)
    return SessionInfo(signed_in=False)


@router.get("/session", response_model=SessionInfo, response_model_exclude_unset=True)
def session_info(request: Request, hub: HubDep) -> SessionInfo:
    """Whether this browser is signed in, and the CSRF token its page must send."""
    s = current_session(request, hub)
    return SessionInfo(signed_in=True, csrf=s.csrf) if s else SessionInfo(signed_in=False)

"""Who may do what: the TD's session (cookie + CSRF header) and each paired clock's token.

The TD's session is a random token in an HttpOnly, SameSite=Strict cookie; only its hash
is stored, so a copy of the data dir does not sign anyone in. Every state-changing TD
request must also carry the session's CSRF token in ``X-CSRF-Token``: a page on another
site can make the browser send the cookie but cannot read the token. Served over HTTPS, the
cookie is ``Secure``: the browser never sends it in clear.

A table's clock sends its token as ``Authorization: Bearer TOKEN``; it is good for the
table it was paired for only (``server.pairing``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from math import ceil
from typing import Annotated

from fastapi import Depends, Path, Request, Response, WebSocket

from dipclock.i18n import Said, said
from server.context import Hub, HubDep, client_address
from server.language import words_asked
from server.refusal import Refused
from server.stale import BASE_HEADER
from server.store import PairedClock

COOKIE = "dipclock_td"
CSRF_HEADER = "X-CSRF-Token"


@dataclass(frozen=True)
class Session:
    token_hash: str
    csrf: str


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(hub: Hub, response: Response) -> str:
    """Sign the TD in: set the cookie, return the CSRF token the page must echo."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    seconds = hub.settings.session_hours * 3600
    hub.store.add_session(_token_hash(token), csrf, hub.clock.now() + seconds)
    response.set_cookie(COOKIE, token, max_age=int(seconds), httponly=True, samesite="strict",
                        path="/", secure=hub.settings.https)
    return csrf


def end_session(hub: Hub, session: Session, response: Response) -> None:
    hub.store.drop_session(session.token_hash)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                           secure=hub.settings.https)


def current_session(request: Request, hub: Hub) -> Session | None:
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    found = hub.store.session(_token_hash(token))
    if found is None or found[1] < hub.clock.now():
        return None
    hub.regulars.saw(client_address(request))  # the TD's phone: its handshakes go first
    return Session(_token_hash(token), found[0])


def require_td(request: Request, hub: HubDep) -> Session:
    session = current_session(request, hub)
    if session is not None:
        return session
    if bearer(request) is not None:
        raise Refused(403, said("a clock's token cannot do this: sign in as the TD"))
    raise Refused(401, said("sign in as the TD first"))


def require_td_csrf(request: Request, session: Annotated[Session, Depends(require_td)]
                    ) -> Session:
    """The TD's session plus the CSRF header: setting the hub's time, which may be done at
    any moment (the TD's time wins over the tables')."""
    sent = request.headers.get(CSRF_HEADER)
    if not sent:
        raise Refused(403, said("missing the {header} header", header=CSRF_HEADER))
    if not same_secret(sent, session.csrf):
        raise Refused(403, said("wrong {header}: reload the dashboard", header=CSRF_HEADER))
    return session


def require_td_write(hub: HubDep, session: Annotated[Session, Depends(require_td_csrf)]
                     ) -> Session:
    """``require_td_csrf``, for every route that changes something, refused (409) in the
    seconds a restarted hub counts the time its tables kept: a pause, a call or an
    adjustment stamped with a time about to move by an hour would be in the wrong place."""
    left = hub.kept.gathering(hub.clock.mono())
    if left is not None:
        raise Refused(409, said("the hub is taking the time its tables kept across its "
                                "restart: try again in {seconds} s", seconds=max(1, ceil(left))))
    return session


def spoken(request: Request, line: Said) -> str:
    """``line`` in the language the request asks for (``Accept-Language``), as
    ``server.app`` answers a ``Refused``: for a refusal answered otherwise (one with
    headers, or before the app)."""
    return line.in_(words_asked(request))


def same_secret(sent: str, kept: str) -> bool:
    """Constant-time, on bytes: a header may carry any character (``compare_digest`` on
    ``str`` raises on a non-ASCII one, which was a 500 and a traceback per request)."""
    return hmac.compare_digest(sent.encode("utf-8", "surrogateescape"),
                               kept.encode("utf-8", "surrogateescape"))


TablePath = Annotated[int, Path(ge=1, le=999, description="the table's number")]


def require_clock(n: TablePath, request: Request, hub: HubDep) -> PairedClock:
    """The clock sending the request, paired for table ``n`` (else 401, or 403 for a clock
    of another table: ``server.pairing.Clocks.check``)."""
    clock = hub.clocks.check(bearer(request), n)
    hub.regulars.saw(client_address(request))  # a table's: its handshakes go first
    return clock


def bearer(conn: Request | WebSocket) -> str | None:
    """The token of ``Authorization: Bearer TOKEN`` (a clock's; a WebSocket sends it too:
    never on the URL, where logs keep it)."""
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def screen_base(request: Request) -> int | None:
    """The state the TD's screen was drawn from (``server.stale``): the newest log line it
    had seen, in ``X-Dipclock-Base``; None when the request does not say (a script)."""
    sent = request.headers.get(BASE_HEADER)
    if sent is None:
        return None
    if not sent.strip().isdigit() or len(sent.strip()) > 12:
        raise Refused(422, said("{header}: the dashboard state's base, a whole number",
                                header=BASE_HEADER))
    return int(sent)


TD = Annotated[Session, Depends(require_td)]
#: the state a TD's change was made from (None: not said)
Base = Annotated[int | None, Depends(screen_base)]
TDWrite = Annotated[Session, Depends(require_td_write)]
TDClock = Annotated[Session, Depends(require_td_csrf)]
Clock = Annotated[PairedClock, Depends(require_clock)]

"""Every answer says what a browser may do with it: the pages load only the hub's own
scripts, styles and images, connect only to the hub, and are framed by no other site (a
page of the TD's dashboard inside another site's frame could be clicked through by it).

A pure ASGI middleware, so streaming answers and WebSockets pass as they are."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the pages' scripts and styles are files under /static (no inline code), their images
#: too, or drawn as data URLs (a QR code); fetches and the push channel go to the hub
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
          "object-src 'none'")
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Frame-Options": "DENY",  # what browsers older than frame-ancestors read
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a sheet's address holds its key
}


class SecurityHeaders:
    """Adds ``HEADERS`` to every HTTP answer of the app it wraps."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, sending)

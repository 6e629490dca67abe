"""This clock pairs with the hub: it shows a code, the TD approves it for a table.

The hub's side and the reasons are ``server.pairing``. Here: the clock makes a random token
and keeps it; asks the hub with the token's SHA-256 (``POST /api/pair``), shows the code it
is given, and asks every ``POLL`` seconds whether the TD has approved it (``GET
/api/pair``). Once paired it keeps a ``Credential``: the hub's id, the table, the token, and
the hub's certificate, taken from the first connection (trust on first use, checked by the
TD's approval) and pinned from then on: the clock talks only to a hub holding that
certificate's key, whatever the hall's network says.

The credential and a request still waiting are kept in the outbox (mode 0600), so a clock
restarted while waiting shows the same code, and one restarted after pairing needs nothing.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import ssl
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from dipclock.i18n import ENGLISH, Said, Words, said
from kiosk.backoff import Backoff
from kiosk.outbox import Outbox
from machine.fingerprint import of_pem as fingerprint
from machine.fingerprint import short

log = logging.getLogger(__name__)

CREDENTIAL = "pairing"  # the outbox setting holding the Credential
ASKED = "pairing_asked"  # a request still waiting: its token and the certificate it saw
POLL = 2.0  # seconds between two asks whether the TD approved
TIMEOUT = 5.0


@dataclass(frozen=True)
class Credential:
    """What a paired clock holds."""

    hub: str  # the hub's id: mDNS finds only this hub
    table: int
    token: str
    wished: int | None  # the table the card said when paired: a card changed pairs again
    certificate: str | None  # the hub's certificate (PEM), pinned; None: plain HTTP

    @classmethod
    def from_json(cls, data: Any) -> Credential | None:
        try:
            return cls(str(data["hub"]), int(data["table"]), str(data["token"]),
                       None if data.get("wished") is None else int(data["wished"]),
                       data.get("certificate"))
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


def stored(outbox: Outbox, wished: int | None) -> Credential | None:
    """The credential kept in ``outbox``, unless the card now names another table (the TD
    moved the clock: it pairs again for the new one)."""
    found = Credential.from_json(outbox.get(CREDENTIAL))
    if found is not None and found.wished != wished:
        log.info("this card now says table %s (paired for %s): pairing again", wished,
                 found.wished)
        forget(outbox)
        return None
    return found


def forget(outbox: Outbox) -> None:
    """Drop the credential (revoked, or the hub's certificate changed)."""
    outbox.put(CREDENTIAL, None)


#: OpenSSL's ``X509_V_FLAG_NO_CHECK_TIME`` (1.1.0 on; Python's ``ssl.VerifyFlags`` has no
#: name for it, ``verify_flags`` takes the bits as they are).
NO_CHECK_TIME = 0x200000


def pinned(pem: str | None) -> ssl.SSLContext | bool:
    """What httpx and websockets verify the hub with: this certificate and no other.

    Neither its names (the pin is the check, and a hall's hub changes address) nor its
    dates are checked: a Pi has no battery clock, so a card prepared weeks ago boots that
    far behind a hub's fresh certificate ("not yet valid"), and a pin proves who the hub is
    whatever the date. ``True`` for no certificate: plain HTTP needs none."""
    if pem is None:
        return True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_flags |= NO_CHECK_TIME
    ctx.load_verify_locations(cadata=pem)
    return ctx


def hub_certificate(url: str, timeout: float = TIMEOUT) -> str | None:
    """The certificate the hub at ``url`` serves (PEM), unverified: trust on first use."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return None
    return ssl.get_server_certificate((parts.hostname or "", parts.port or 443),
                                      timeout=timeout)


def certificate_refused(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a certificate that is not the pinned one."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ssl.SSLCertVerificationError):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


@dataclass
class Shown:
    """What the pairing screen shows; its problem a sentence, said in the screen's
    language where it is drawn."""

    code: str | None = None
    fingerprint: str | None = None  # the hub's, short
    problem: Said | None = None


class Pairing:
    """Asks the hub and waits for the TD, in a thread, until ``done`` holds a Credential.

    ``step`` is one exchange (tests call it directly); ``start`` runs them in a thread."""

    def __init__(self, url: str, kiosk: str, wished: int | None, outbox: Outbox,
                 wake: Callable[[], None] = lambda: None,
                 transport: httpx.BaseTransport | None = None,
                 fetch: Callable[[str], str | None] = hub_certificate,
                 note: str | None = None, words: Words = ENGLISH) -> None:
        self.url, self.kiosk, self.wished, self.outbox = url.rstrip("/"), kiosk, wished, outbox
        self._wake, self._transport, self._fetch = wake, transport, fetch
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._client: httpx.Client | None = None
        self._backoff = Backoff(1.0, 30.0)
        self._shown = Shown()
        # why this clock pairs again (a catalogue entry, ``kiosk.startup``): said until paired
        self._note = Said(note) if note is not None else None
        self._words = words  # the screen's: the hub says its refusals in it
        self.done: Credential | None = None
        asked = outbox.get(ASKED) or {}
        self._token: str | None = asked.get("token") if isinstance(asked, dict) else None
        self._pem: str | None = asked.get("certificate") if isinstance(asked, dict) else None
        self._hub = ""

    def shown(self) -> Shown:
        """The code and fingerprint; the problem of the moment, else why it pairs again."""
        with self._lock:
            return Shown(self._shown.code, self._shown.fingerprint,
                         self._shown.problem or self._note)

    def _show(self, **what: str | Said | None) -> None:
        with self._lock:
            self._shown = Shown(**{**asdict(self._shown), **what})
        self._wake()

    def _http(self) -> httpx.Client:
        if self._client is None:
            https = self.url.startswith("https://")
            if https and self._pem is None:
                self._pem = self._fetch(self.url)
            if self._pem is not None:
                self._show(fingerprint=short(fingerprint(self._pem)))
            self._client = httpx.Client(base_url=self.url, timeout=TIMEOUT,
                                        verify=pinned(self._pem), transport=self._transport,
                                        headers={"Accept-Language": self._words.lang})
        return self._client

    def _restart(self, why: Said | None) -> None:
        """Ask afresh: a new token (and the certificate read again)."""
        if self._client is not None:
            self._client.close()
        self._client, self._token, self._pem = None, None, None
        self.outbox.put(ASKED, None)
        self._show(code=None, problem=why)

    def step(self) -> float:
        """One exchange with the hub; the seconds to wait before the next."""
        try:
            client = self._http()
            if self._token is None:
                return self._ask(client)
            return self._poll(client)
        except (httpx.HTTPError, OSError, ssl.SSLError, ValueError) as exc:
            if certificate_refused(exc):
                self._restart(said("the hub's certificate changed while this clock waited: "
                                   "asking again"))
                return 0.0
            self._show(problem=said("the hub at {url} does not answer: {error}", url=self.url,
                                    error=str(exc) or type(exc).__name__))
            if self._client is not None and self._token is None:
                self._client.close()
                self._client, self._pem = None, None  # read the certificate again
            return self._backoff.next()

    def _ask(self, client: httpx.Client) -> float:
        token = secrets.token_urlsafe(32)
        body = {"kiosk": self.kiosk, "token_hash": hashlib.sha256(token.encode()).hexdigest(),
                "table": self.wished,
                "fingerprint": fingerprint(self._pem) if self._pem else None}
        r = client.post("/api/pair", json=body)
        if r.status_code != 201:
            self._show(problem=said("the hub refuses to pair this clock: {detail}",
                                    detail=_detail(r)))
            return self._backoff.next()
        reply = r.json()
        self._token, self._hub = token, str(reply["hub"])
        self.outbox.put(ASKED, {"token": token, "certificate": self._pem})
        self._backoff.reset()
        self._show(code=str(reply["code"]), problem=None)
        return POLL

    def _poll(self, client: httpx.Client) -> float:
        r = client.get("/api/pair", headers={"Authorization": f"Bearer {self._token}"})
        if r.status_code == 404:
            self._restart(None)  # expired or refused: a new code at once
            return 0.0
        if r.status_code != 200:
            self._show(problem=said("the hub answers HTTP {status}: {detail}",
                                    status=r.status_code, detail=_detail(r)))
            return self._backoff.next()
        reply = r.json()
        self._backoff.reset()
        if reply.get("state") != "paired":
            self._show(code=str(reply.get("code")), problem=None)
            return POLL
        assert self._token is not None
        done = Credential(str(reply["hub"]), int(reply["table"]), self._token, self.wished,
                          self._pem)
        self.outbox.put(CREDENTIAL, asdict(done))
        self.outbox.put(ASKED, None)
        log.info("paired with hub %s for table %d", done.hub, done.table)
        self.done = done
        self._wake()
        return 0.0

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pairing", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set() and self.done is None:
            self._stop.wait(self.step())

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=TIMEOUT + 1)
        if self._client is not None:
            self._client.close()


def _detail(r: httpx.Response) -> str:
    try:
        detail = r.json().get("detail")
    except (ValueError, AttributeError):
        detail = None
    return str(detail)[:200] if detail else f"HTTP {r.status_code}"


__all__ = ["ASKED", "CREDENTIAL", "Credential", "Pairing", "Shown", "certificate_refused",
           "forget", "hub_certificate", "pinned", "stored"]
